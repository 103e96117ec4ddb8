"""Thin adapters onto outside frameworks (lm-eval, evaluate, TRL, leaderboard)."""
