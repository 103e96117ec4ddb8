"""Reports of lm-eval results: tables, plots and the summary."""
