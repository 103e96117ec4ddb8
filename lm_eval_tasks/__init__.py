"""lm-evaluation-harness task definitions (package data of ``finereason.lm_eval_tasks``).

Use ``lm_eval --include_path "$(finereason tasks-dir)" --tasks finereason ...``.
"""
