"""Training building blocks for the TRL trainers in ``trainers/``: data mixing, the GRPO rewards and the
GRPO script's configuration, data and callbacks; no torch at import time."""
