"""Answerers that need no download: the baselines, the tiny local model and SmolLM2."""
