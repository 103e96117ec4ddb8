"""Verdicts and metrics: the verifiers, process scoring, row scoring, aggregation and the LLM-as-verifier task."""
