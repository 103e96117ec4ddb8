"""What the board's controls do, in one place: the static page's script applies the same rules in the
browser, and the Space applies them here (search, suite / type / size / precision filters, the puzzle
filter and the column selector, sorting with undefined values last)."""
from __future__ import annotations

from ..report.results import domain_title
from .board import VIEWS, Column, Row, shown_precision

SHORT = {"generated": "generated benchmark (with E2E)", "official": "official release"}
INFO = (("type", "Type", "model type (weight type when not given)"), ("params", "Params (B)", "parameters, billions"),
        ("precision", "Precision", "weights' precision"), ("revision", "Revision", "model revision"),
        ("date", "Date", "submission or run date (UTC)"))
FILTER_KEYS = ("view", "type", "size", "precision")


def size(params: float | None) -> str:
    """The size bucket of a parameter count in billions."""
    if params is None:
        return "unknown"
    for limit, name in ((1, "<1B"), (3, "1–3B"), (10, "3–10B"), (35, "10–35B")):
        if params < limit:
            return name
    return "≥35B"


def info(row: Row) -> dict[str, str]:
    """The model facts shown beside the numbers."""
    e = row.entry
    return {"type": e.model_type or e.weight_type or "unknown", "params": "" if e.params is None else f"{e.params:g}",
            "precision": shown_precision(e), "revision": e.revision, "date": e.date[:10]}


def facts(row: Row) -> dict[str, str]:
    """What the filters and the search box match a row on."""
    e, shown = row.entry, info(row)
    search = " ".join([e.model, e.revision, e.precision, shown["type"], VIEWS[row.view][0]]).lower()
    return {"view": row.view, "type": shown["type"], "size": size(e.params), "precision": e.precision, "search": search}


def filter_options(board_rows: list[Row], puzzles: list[str]) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """``(key, label, [(value, text)])`` per filter; model type, size and precision only where known.
    The suite filter's first option (the generated view when present) is the default."""
    views = [v for v in VIEWS if any(r.view == v for r in board_rows)]
    out = [("view", "Suite", [(v, SHORT[v]) for v in views] + [("", "all suites")]),
           ("puzzle", "Puzzle", [("", "all puzzles (means only)")] + [(p, domain_title(p)) for p in puzzles])]
    all_facts = [facts(r) for r in board_rows]
    for key, label in (("type", "Type"), ("size", "Size"), ("precision", "Precision")):
        values = sorted({f[key] for f in all_facts})
        if any(v not in ("unknown", "Missing") for v in values):
            out.append((key, label, [("", "all")] + [(v, "—" if v == "Missing" else v) for v in values]))
    return out


def selectable(cols: list[Column]) -> list[tuple[str, str]]:
    """``(key, title)`` of every column the column selector offers."""
    return [(k, t) for k, t, _ in INFO] + [(c.key, c.title) for c in cols]


def default_hidden(board_rows: list[Row], cols: list[Column]) -> set[str]:
    """Columns off by default: per-puzzle columns (the puzzle filter shows them) and unknown sizes."""
    hidden = {c.key for c in cols if c.puzzle}
    return hidden | ({"params"} if all(r.entry.params is None for r in board_rows) else set())


def select(board_rows: list[Row], query: str = "", **chosen: str) -> list[Row]:
    """The rows that contain every word of ``query`` and match every non-empty filter in ``chosen``."""
    terms = query.lower().split()
    out = []
    for row in board_rows:
        fact = facts(row)
        if all(t in fact["search"] for t in terms) and all(not v or fact[k] == v for k, v in chosen.items()):
            out.append(row)
    return out


def shown_columns(cols: list[Column], puzzle: str = "", chosen: set[str] | None = None) -> list[Column]:
    """The metric columns on screen: with a puzzle chosen, that puzzle's own columns (no other puzzle's);
    otherwise the column selector's choice (``None``: every column that is not per puzzle)."""
    chosen = {c.key for c in cols if not c.puzzle} if chosen is None else chosen
    return [c for c in cols if (c.puzzle == puzzle if c.puzzle and puzzle else c.key in chosen)]


def sort_rows(board_rows: list[Row], key: str, descending: bool) -> list[Row]:
    """Rows ordered by a column (``rank``, ``model``, a fact or a metric); undefined values last."""
    def value(row: Row):
        if key == "rank":
            return row.rank
        if key == "model":
            return row.entry.model.lower()
        if key in row.cells:
            return row.cells[key].value
        shown = info(row)
        if key == "params":
            return row.entry.params
        return shown.get(key) or None

    known = [r for r in board_rows if value(r) is not None]
    unknown = [r for r in board_rows if value(r) is None]
    return sorted(known, key=value, reverse=descending) + unknown
