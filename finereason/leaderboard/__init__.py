"""Leaderboard: validated submissions in the Hugging Face leaderboard template layout
(:mod:`.submit`) and a static, self-contained HTML + Markdown board (:mod:`.build`)."""


class LeaderboardError(Exception):
    """A user-facing error: one line, exit code 2 from the CLI."""
