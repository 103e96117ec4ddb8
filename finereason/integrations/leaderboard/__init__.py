"""Leaderboard: validated submissions in the Hugging Face leaderboard template layout
(:mod:`.submit`) and a static, self-contained HTML + Markdown board (:mod:`.build`)."""
from ...common.input_errors import InputError


class LeaderboardError(InputError):
    """A user-facing error: one line, exit code 2 from the CLI."""
