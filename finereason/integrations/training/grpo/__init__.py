"""The pieces of ``trainers/grpo.py``, split as open-r1 splits its GRPO script: :mod:`.config` (the
script's arguments and their checks), :mod:`.preflight` (launch checks before any model is loaded,
on the values TRL's own parser reads), :mod:`.data` (the training mix as a ``datasets.Dataset``),
:mod:`.callbacks` (logs that last, per-task reward logging) and :mod:`.checkpoints` (resuming)."""
