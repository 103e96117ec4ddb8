"""FineReason leaderboard as a Hugging Face Space (Gradio).

Reads the submitted results files (``results/<org>/<model>/results_*.json``, written by
``finereason leaderboard submit``) from a results data set and shows the same table as
``finereason leaderboard build``: sortable columns, a puzzle filter and the Markdown notes.

Settings (Space variables): ``RESULTS_REPO`` (default ``finereason/results``), or ``RESULTS_DIR``
for a local folder (no Hub access at all).
"""
from __future__ import annotations

import os
from pathlib import Path


def results_folder() -> Path:
    """The local folder holding the results files: ``RESULTS_DIR`` or a snapshot of ``RESULTS_REPO``."""
    if os.environ.get("RESULTS_DIR"):
        return Path(os.environ["RESULTS_DIR"])
    from huggingface_hub import snapshot_download

    repo = os.environ.get("RESULTS_REPO", "finereason/results")
    return Path(snapshot_download(repo_id=repo, repo_type="dataset", allow_patterns=["*.json"]))


def load_table(folder: Path) -> tuple[list[str], list[list]]:
    """(headers, rows) with percentages rounded to 0.1; gradio-free so it can be tested anywhere."""
    from finereason.leaderboard.build import board_puzzles, collect, columns

    entries = collect(folder)
    cols = columns(entries, board_puzzles(entries))
    headers = ["Model"] + [c.title for c in cols]
    rows = [[e.label] + [None if c.values[i] is None else round(100 * c.values[i], 1) for c in cols]
            for i, e in enumerate(entries)]
    rows.sort(key=lambda r: -(r[headers.index("ST strict")] or 0.0))
    return headers, rows


def main() -> None:
    import gradio as gr

    headers, rows = load_table(results_folder())
    with gr.Blocks(title="FineReason leaderboard") as demo:
        gr.Markdown("# FineReason leaderboard\nAccuracies in % on the generated benchmark. ST strict: the child "
                    "must stay solvable; ST paper: the official scoring; SC P/R/F1: unsolvable is positive; "
                    "Parse err: unreadable answers (lower is better). Click a header to sort.\n\n"
                    "Submit with `finereason leaderboard submit RESULTS --repo-id ORG/requests`.")
        gr.Dataframe(value=rows, headers=headers, interactive=False, wrap=True)
    demo.launch()


if __name__ == "__main__":
    main()
