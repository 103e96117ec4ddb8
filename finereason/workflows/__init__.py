"""Runs that orchestrate the layers below: the baselines job, generate-verify loops and LLM-ARC."""
