"""FineReason leaderboard as a Hugging Face Space (Gradio).

Reads the submitted results files (``results/<org>/<model>/<revision>_<precision>_<suite>/results_*.json``,
written by ``finereason leaderboard submit``) and shows the board of ``finereason leaderboard build``:
the same rows, ranks, ``value ± half-width`` cells with the interval and n in a tooltip, "—" for
undefined values, search, filters (suite, puzzle, model type, size, precision), a column selector,
sorting, and a CSV download.

Settings (Space variables): ``RESULTS_REPO`` (default ``finereason/results``), or ``RESULTS_DIR``
for a local folder (no Hub access at all).
"""
from __future__ import annotations

import inspect
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from finereason.integrations.leaderboard.board import RANKED_BY, Column, Row
from finereason.integrations.leaderboard.build import collect, flat, table, to_csv
from finereason.integrations.leaderboard.filters import INFO, default_hidden, filter_options, select, selectable, shown_columns, sort_rows
from finereason.integrations.leaderboard.html import CSS, table_markup


def results_folder() -> Path:
    """The local folder holding the results files: ``RESULTS_DIR`` or a snapshot of ``RESULTS_REPO``."""
    if os.environ.get("RESULTS_DIR"):
        return Path(os.environ["RESULTS_DIR"])
    from huggingface_hub import snapshot_download

    repo = os.environ.get("RESULTS_REPO", "finereason/results")
    return Path(snapshot_download(repo_id=repo, repo_type="dataset", allow_patterns=["*.json"]))


@dataclass
class Board:
    cols: list[Column]
    rows: list[Row]
    puzzles: list[str]

    @property
    def filters(self) -> list[tuple[str, str, list[tuple[str, str]]]]:
        return filter_options(self.rows, self.puzzles)

    def csv(self) -> str:
        return to_csv([flat(r, self.cols) for r in self.rows])


def load_board(folder: Path) -> Board:
    """The board of every results file under ``folder`` (gradio-free, so it can be tested anywhere)."""
    cols, rows, puzzles = table(collect(folder))
    return Board(cols, rows, puzzles)


def render(board: Board, query: str = "", columns: list[str] | None = None, sort: str = "rank",
           descending: bool = False, **chosen: str) -> str:
    """The table for the controls' values (``chosen``: view, puzzle, type, size, precision)."""
    puzzle = chosen.pop("puzzle", "") or ""
    keep = set(columns) if columns is not None else {k for k, _ in selectable(board.cols)} - default_hidden(board.rows, board.cols)
    rows = sort_rows(select(board.rows, query, **{k: v or "" for k, v in chosen.items()}), sort, descending)
    cols = shown_columns(board.cols, puzzle, keep)
    return (f'<p id="row-count">{len(rows)} of {len(board.rows)} rows shown</p>'
            + table_markup(rows, cols, [k for k, _, _ in INFO if k in keep], drill=None, sorted_by=(sort, descending),
                         sortable=False))  # sorted by the Sort by control; aria-sort and an arrow show it


INTRO = ("# FineReason leaderboard\nStep-level reasoning on logic puzzles. Accuracies in %, ± the half-width of "
         "the 95 % interval; hover a cell for its interval and n; — is undefined (never 0, never averaged). "
         f"**Ranked by** {RANKED_BY}.\n\nSC: state checking; ST strict: the child must stay solvable; ST paper: the "
         "official scoring; E2E: end-to-end; SC P/R/F1: unsolvable is positive; Parse err: unreadable answers "
         "(lower is better).\n\nSubmit with `finereason leaderboard submit RUNS --repo-id ORG/requests` "
         "(one request per model, revision, precision and suite).")


def main() -> None:
    import gradio as gr

    board = load_board(results_folder())
    csv_path = Path(tempfile.mkdtemp(prefix="finereason-board-")) / "leaderboard.csv"
    csv_path.write_text(board.csv(), encoding="utf-8")
    styled = "css" in inspect.signature(gr.Blocks.launch).parameters  # gradio 6 takes css in launch()
    with gr.Blocks(title="FineReason leaderboard", fill_width=True, **({} if styled else {"css": CSS})) as demo:
        gr.Markdown(INTRO)
        with gr.Row():
            search = gr.Textbox(label="Search", placeholder="model, revision, precision…", elem_id="search")
            dropdowns = {key: gr.Dropdown(choices=[(t, v) for v, t in options], value=options[0][0], label=label,
                                          elem_id=f"f-{key}") for key, label, options in board.filters}
        with gr.Row():
            choices = selectable(board.cols)
            hidden = default_hidden(board.rows, board.cols)
            columns = gr.CheckboxGroup(choices=[(t, k) for k, t in choices], value=[k for k, _ in choices if k not in hidden],
                                       label="Columns", elem_id="column-selector")
        with gr.Row():
            sort = gr.Dropdown(choices=[("Rank", "rank"), ("Model", "model")] + [(t, k) for k, t in choices],
                               value="rank", label="Sort by", elem_id="sort")
            descending = gr.Checkbox(value=False, label="descending", elem_id="descending")
            gr.File(value=str(csv_path), label="leaderboard.csv")
        keys = list(dropdowns)
        out = gr.HTML(render(board, **{k: d.value for k, d in dropdowns.items()}), elem_id="board-html")

        def update(query, cols, by, desc, *values):
            return render(board, query, cols, by, desc, **dict(zip(keys, values)))

        inputs = [search, columns, sort, descending, *dropdowns.values()]
        for control in inputs:
            control.change(update, inputs=inputs, outputs=out)
    demo.launch(**({"css": CSS} if styled else {}))


if __name__ == "__main__":
    main()
