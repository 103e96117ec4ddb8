"""Training building blocks (data mixing, GRPO rewards) for the TRL trainers in ``trainers/``; no torch at import time."""
