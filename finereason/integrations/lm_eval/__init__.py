"""lm-evaluation-harness: the CLI wrapper and the model classes."""
