"""Thin adapters: lm-eval, Hugging Face evaluate, TRL training, reports and the leaderboard."""
