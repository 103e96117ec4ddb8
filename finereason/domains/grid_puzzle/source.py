"""Seeded logic-grid puzzles in the official FineReason schema, and the official importer.

``generate(seed, index)`` draws a theme and a hidden table, then writes random clues that are true
of it, each as a sentence plus a ``conditions`` string in the official grammar (the one
``GridPuzzleEngine.puzzle_from_official`` reads). Clues are added until the table is the only
solution and then pruned to a minimal set: dropping any one clue lets a second solution in.

Glossary:
- *table*: the hidden solution; row ``i`` holds the key ``keys[i]`` and one value per named category.
- *entity*: ``(column, value)``, the thing a clue talks about ("the patient with Triflex insurance").
- *draft*: one candidate clue: ``text``, ``condition`` and a ``sig`` that is equal for clues that say
  the same thing in another order, so a puzzle never repeats itself.
- *witness*: a second solution of the clues chosen so far. Each new clue is drawn until it rules the
  witness out, so every added clue makes progress and few need pruning.
- *probe*: a full table a few swaps away from the hidden one. Witnesses are taken from the probes
  that every chosen clue is true of; only when none is left does the engine search for one (with an
  extra clue "the table differs from the hidden one somewhere").

Uniqueness is decided by the engine's own ``count_solutions``. A clue is kept by pruning without a
search when some probe is ruled out by that clue alone.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any, Callable, Optional, Sequence

from ...common.jsonl import iter_json_lines
from ...core.puzzle_sources import SourcePuzzle, rng_for, stable_key
from .conditions import compile_condition, parse_condition
from .engine import GridPuzzleEngine
from .puzzle import Cells, Clue, GridPuzzle, GridState
from .themes import THEMES, Category, KeyCategory, Theme

SOURCE = "grid_puzzle"
DEFAULT_SIZES = (3, 4, 5)   # categories (key included) and entries are drawn from these
CATEGORY_RANGE = (3, 5)     # accepted when given explicitly (themes have a key and four named categories)
ENTRY_RANGE = (3, 6)        # accepted when given explicitly (named categories have seven values or more)
MAX_DRAWS = 200             # clue templates drawn to rule out one witness before giving up
PROBES = 200                # near-solution tables kept to find witnesses without a search

ENGINE = GridPuzzleEngine()

_INTRO = ("Using only the clues below, match the {key} to the options from {others}. Remember, as with all "
          "grid-based logic puzzles, no option in any category will ever be used more than once.")
_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


# ------------------------------------------------------------------ the hidden table
@dataclass(frozen=True)
class _Table:
    theme: Theme
    categories: tuple[KeyCategory | Category, ...]   # column 0 is the key category
    rows: tuple[tuple[Any, ...], ...]                  # rows[i] = (key, value, value, ...)

    @property
    def header(self) -> list[str]:
        return [c.name for c in self.categories]

    @property
    def width(self) -> int:
        return len(self.categories)

    @property
    def size(self) -> int:
        return len(self.rows)

    @property
    def key(self) -> KeyCategory:
        return self.categories[0]  # type: ignore[return-value]

    # -------------------------------------------------------------- wording
    def _fill(self, template: str, col: int, value: Any) -> str:
        if col == 0:
            return template.format(k=self.key.label(value))
        return template.format(v=value)

    def ref(self, col: int, value: Any) -> str:
        return self._fill(self.categories[col].ref, col, value)

    def pred(self, col: int, value: Any) -> str:
        return self._fill(self.categories[col].pred, col, value)

    def neg(self, col: int, value: Any) -> str:
        return self._fill(self.categories[col].neg, col, value)


def _random_table(rng: Random, n_categories: int, n_entries: int) -> _Table:
    theme = rng.choice(THEMES)
    key = theme.key
    step = rng.choice(key.steps)
    starts = [s for s in key.starts if key.maximum is None or s + step * (n_entries - 1) <= key.maximum]
    start = rng.choice(starts)
    keys = [start + step * i for i in range(n_entries)]
    named = rng.sample(list(theme.categories), n_categories - 1)
    named.sort(key=theme.categories.index)
    columns = [keys] + [rng.sample(list(cat.values), n_entries) for cat in named]
    rows = tuple(tuple(col[i] for col in columns) for i in range(n_entries))
    return _Table(theme, (key, *named), rows)


# ------------------------------------------------------------------ condition writing
def _lit(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"grid values must be ints or strings, not {value!r}")
    if isinstance(value, int):
        return str(value)
    if "'" in value or "\\" in value:
        raise ValueError(f"value {value!r} would break the conditions grammar")
    return f"'{value}'"


def _cell(t: _Table, value: Any, col: int) -> str:
    return f"T[r({_lit(value)})][c({_lit(t.header[col])})]"


def _eq(t: _Table, value: Any, col: int, other: Any) -> str:
    return f"{_cell(t, value, col)} == {_lit(other)}"


def _ne(t: _Table, value: Any, col: int, other: Any) -> str:
    return f"{_cell(t, value, col)} != {_lit(other)}"


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


def _join(items: Sequence[str], oxford: bool = False) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + ("," if oxford else "") + " and " + items[-1]


@dataclass(frozen=True)
class _Draft:
    text: str
    condition: str
    sig: tuple


def _sig(kind: str, *groups: Sequence[Any]) -> tuple:
    """Order-free signature: each group is sorted, so "A or B" and "B or A" collide."""
    return (kind, *(tuple(sorted(map(repr, g))) for g in groups))


# ------------------------------------------------------------------ clue templates
# Each takes the random stream, the table and ``alt``, where each value sits in a table the clue
# should rule out (or None), and returns a clue true of the table, or None when the draw does not
# fit (too few categories, no such clue). Direct and negated facts are aimed at ``alt``: a random
# one would rarely rule it out, and the official puzzles use many of them.
Where = dict  # value -> row index in some full table


def _direct(rng: Random, t: _Table, alt: Where | None = None) -> _Draft | None:
    pairs = [(i, ca, cb) for i in range(t.size) for ca in range(t.width) for cb in range(t.width)
             if ca != cb and (alt is None or alt[t.rows[i][ca]] != alt[t.rows[i][cb]])]
    if not pairs:
        return None
    i, ca, cb = rng.choice(pairs)
    x, y = t.rows[i][ca], t.rows[i][cb]
    return _Draft(_sentence(f"{t.ref(ca, x)} {t.pred(cb, y)}"), f"({_eq(t, x, cb, y)})", _sig("eq", (x, y)))


def _negation(rng: Random, t: _Table, alt: Where | None = None) -> _Draft | None:
    pairs = [((i, ca), (j, cb)) for i in range(t.size) for j in range(t.size) if i != j
             for ca in range(t.width) for cb in range(t.width)
             if ca != cb and (alt is None or alt[t.rows[i][ca]] == alt[t.rows[j][cb]])]
    if not pairs:
        return None
    (i, ca), (j, cb) = rng.choice(pairs)
    x, y = t.rows[i][ca], t.rows[j][cb]
    return _Draft(_sentence(f"{t.ref(ca, x)} {t.neg(cb, y)}"), f"({_ne(t, x, cb, y)})", _sig("ne", (x, y)))


def _either(rng: Random, t: _Table, alt: Where | None = None) -> _Draft | None:
    i, j = rng.sample(range(t.size), 2)
    cx = rng.randrange(t.width)
    others = [c for c in range(t.width) if c != cx]
    ca, cb = rng.choice(others), rng.choice(others)
    x, a, b = t.rows[i][cx], t.rows[i][ca], t.rows[j][cb]
    (first, cf), (second, cs) = rng.sample([(a, ca), (b, cb)], 2)
    cond = f"({_eq(t, x, cf, first)} or {_eq(t, x, cs, second)})"
    if cf != cs:
        cond += f" and ({_ne(t, first, cs, second)})"
    text = f"{t.ref(cx, x)} is either {t.ref(cf, first)} or {t.ref(cs, second)}"
    return _Draft(_sentence(text), cond, _sig("either", (x,), (a, b)))


def _named_pair(rng: Random, t: _Table) -> tuple[int, int, Any, Any, int, int] | None:
    """Two named entities in different rows: (row a, row b, a, b, column a, column b)."""
    if t.width < 2:
        return None
    i, j = rng.sample(range(t.size), 2)
    ca, cb = rng.randrange(1, t.width), rng.randrange(1, t.width)
    return i, j, t.rows[i][ca], t.rows[j][cb], ca, cb


def _offset(rng: Random, t: _Table, alt: Where | None = None) -> _Draft | None:
    pair = _named_pair(rng, t)
    if pair is None:
        return None
    i, j, a, b, ca, cb = pair
    gap = t.rows[i][0] - t.rows[j][0]
    key = t.key
    words = dict(a=t.ref(ca, a), b=t.ref(cb, b), d=key.difference(abs(gap)))
    sign, template = ("-", key.less) if gap < 0 else ("+", key.more)
    cond = f"({_cell(t, a, 0)} == {_cell(t, b, 0)} {sign} {abs(gap)})"
    return _Draft(_sentence(template.format(**words)), cond, _sig("offset", (a, b)))


def _order(rng: Random, t: _Table, alt: Where | None = None) -> _Draft | None:
    pair = _named_pair(rng, t)
    if pair is None:
        return None
    i, j, a, b, ca, cb = pair
    op, template = ("<", t.key.sooner) if t.rows[i][0] < t.rows[j][0] else (">", t.key.later)
    cond = f"({_cell(t, a, 0)} {op} {_cell(t, b, 0)})"
    return _Draft(_sentence(template.format(a=t.ref(ca, a), b=t.ref(cb, b))), cond, _sig("order", (a, b)))


def _neither(rng: Random, t: _Table, alt: Where | None = None) -> _Draft | None:
    if t.size < 3:
        return None
    k, i, j = rng.sample(range(t.size), 3)
    cx = rng.randrange(t.width)
    others = [c for c in range(t.width) if c != cx]
    ca, cb = rng.choice(others), rng.choice(others)
    x, a, b = t.rows[k][cx], t.rows[i][ca], t.rows[j][cb]
    cond = f"({_ne(t, a, cx, x)} and {_ne(t, b, cx, x)})"
    if ca != cb:
        cond += f" and ({_ne(t, a, cb, b)})"
    tail = f"is {t.ref(cx, x)}" if rng.random() < 0.5 else t.pred(cx, x)
    text = f"neither {t.ref(ca, a)} nor {t.ref(cb, b)} {tail}"
    return _Draft(_sentence(text), cond, _sig("neither", (x,), (a, b)))


def _one_other(rng: Random, t: _Table, alt: Where | None = None) -> _Draft | None:
    i, j = rng.sample(range(t.size), 2)
    ca, cb = rng.randrange(t.width), rng.randrange(t.width)
    rest = [c for c in range(t.width) if c not in (ca, cb)]
    if not rest:
        return None
    cx, cy = rng.choice(rest), rng.choice(rest)
    a, b = t.rows[i][ca], t.rows[j][cb]
    p, q = (i, j) if rng.random() < 0.5 else (j, i)
    x, y = t.rows[p][cx], t.rows[q][cy]
    cond = (f"(({_eq(t, a, cx, x)} and {_eq(t, b, cy, y)}) or "
            f"({_eq(t, b, cx, x)} and {_eq(t, a, cy, y)}))")
    if ca != cb:
        cond += f" and ({_ne(t, a, cb, b)})"
    if cx != cy:
        cond += f" and ({_ne(t, x, cy, y)})"
    text = f"of {t.ref(ca, a)} and {t.ref(cb, b)}, one {t.pred(cx, x)} and the other {t.pred(cy, y)}"
    return _Draft(_sentence(text), cond, _sig("one_other", (a, b), (x, y)))


def _all_different(rng: Random, t: _Table, alt: Where | None = None) -> _Draft | None:
    k = rng.randint(3, t.size) if t.size >= 3 else 0
    if k < 3:
        return None
    rows = rng.sample(range(t.size), k)
    ents = [(c, t.rows[i][c]) for i in rows for c in [rng.randrange(t.width)]]
    parts = [f"({_ne(t, a, cb, b)})" for n, (ca, a) in enumerate(ents) for cb, b in ents[n + 1:] if ca != cb]
    if not parts:
        return None  # all from one category: says nothing
    names = _join([t.ref(c, v) for c, v in ents])
    count = _COUNT_WORDS[k]
    if k == t.size:
        text = f"the {count} {t.theme.noun} are {names}"
    else:
        text = f"{names} are {count} different {t.theme.noun}"
    return _Draft(_sentence(text), " and ".join(parts), _sig("all_different", [v for _, v in ents]))


# (template, weight): a clue that rules out the current witness is drawn by first drawing its
# template with these weights, so the weights shape the mix (pruning then drops more weak clues).
_Template = Callable[[Random, _Table, Optional[Where]], Optional[_Draft]]
_TEMPLATES: tuple[tuple[_Template, int], ...] = (
    (_direct, 3), (_negation, 6), (_either, 4), (_offset, 6), (_order, 3),
    (_neither, 2), (_one_other, 3), (_all_different, 2),
)
TRIES_PER_TEMPLATE = 40


# ------------------------------------------------------------------ uniqueness
class _Judge:
    """Evaluates conditions on full tables and asks the engine about uniqueness.

    ``probes`` are full tables other than the hidden one: tables a few swaps away from it (the
    alternatives hardest to rule out), then each witness the engine finds. Most witnesses, and most
    proofs that a clue is needed, come from them without a search.
    """

    def __init__(self, rng: Random, t: _Table):
        self.header = tuple(t.header)
        self.keys = tuple(r[0] for r in t.rows)
        self.domains = tuple(tuple(r[j] for r in t.rows) for j in range(1, t.width))
        self.column_of_value = {v: j for r in t.rows for j, v in enumerate(r)}
        self.truth: Cells = tuple(tuple(r[1:]) for r in t.rows)
        # "the table differs from the hidden one somewhere": solvable iff the solution is not unique
        differs = f"not ({' and '.join(_eq(t, r[0], j, r[j]) for r in t.rows for j in range(1, t.width))})"
        self.differs = Clue("differs", "", differs, parse_condition(differs))
        self.probes: list[Cells] = []
        self._contexts: list[tuple[dict, list]] = []
        for cells in _probe_tables(rng, self.truth):
            self.add_probe(cells)

    def add_probe(self, cells: Cells) -> int:
        self.probes.append(cells)
        self._contexts.append(self._context(cells))
        return len(self.probes) - 1

    def _compiled(self, condition: str) -> Callable[[Any], Any]:
        return compile_condition(parse_condition(condition), self.header.index, self.column_of_value.get)

    def _context(self, cells: Cells) -> tuple[dict, list]:
        rows = [[k, *row] for k, row in zip(self.keys, cells)]
        return {v: i for i, row in enumerate(rows) for v in row}, rows

    def where(self, cells: Cells) -> Where:
        return self._context(cells)[0]

    def holds(self, condition: str, cells: Cells) -> bool:
        """Whether ``condition`` is true of the full table ``cells`` (rows without their keys)."""
        return self._compiled(condition)(self._context(cells)) is True

    def breaks(self, condition: str, start: int = 0) -> list[bool]:
        """For each probe from ``start`` on: whether ``condition`` is false of it."""
        fn = self._compiled(condition)
        return [fn(ctx) is not True for ctx in self._contexts[start:]]

    def puzzle(self, drafts: Sequence[_Draft], *extra: Clue) -> GridPuzzle:
        clues = tuple(Clue(str(n), d.text, d.condition, parse_condition(d.condition)) for n, d in enumerate(drafts, 1))
        return GridPuzzle(self.header, self.keys, self.domains, clues + extra)

    def unique(self, drafts: Sequence[_Draft]) -> bool:
        """Whether the hidden table is the only solution of ``drafts`` (it is one of them)."""
        return ENGINE.count_solutions(self.puzzle(drafts), limit=2) == 1

    def witness(self, drafts: Sequence[_Draft]) -> GridState | None:
        """A solution of ``drafts`` other than the hidden table, or None when that one is unique."""
        return ENGINE.solve(self.puzzle(drafts, self.differs))


def _probe_tables(rng: Random, truth: Cells) -> list[Cells]:
    """Every table one swap (two rows, one column) away from ``truth``, then random tables two to
    four swaps away, ``PROBES`` in all at most."""
    size, width = len(truth), len(truth[0])
    swaps = [(j, a, b) for j in range(width) for a in range(size) for b in range(a + 1, size)]

    def swapped(moves: Sequence[tuple[int, int, int]]) -> Cells:
        cells = [list(r) for r in truth]
        for j, a, b in moves:
            cells[a][j], cells[b][j] = cells[b][j], cells[a][j]
        return tuple(tuple(r) for r in cells)

    out = {swapped([m]): None for m in swaps}
    for _ in range(PROBES - len(out)):
        cells = swapped(rng.sample(swaps, min(len(swaps), rng.choice((2, 2, 3, 4)))))
        if cells != truth:
            out[cells] = None
    return list(out)


def _minimal_clues(rng: Random, t: _Table) -> list[_Draft]:
    judge = _Judge(rng, t)
    chosen: list[_Draft] = []
    broken: list[list[bool]] = []      # broken[k][n]: chosen[k] is false of probe n
    seen: set[Any] = set()
    alive = list(range(len(judge.probes)))  # probes every chosen clue is true of
    while True:
        if alive:
            alt = judge.probes[rng.choice(alive)]
        else:
            found = judge.witness(chosen)
            if found is None:
                break
            alive = [judge.add_probe(found.cells)]
            for k, d in enumerate(chosen):
                broken[k] += judge.breaks(d.condition, alive[0])
            alt = found.cells
        draft = _draw_against(rng, t, judge, alt, seen)
        chosen.append(draft)
        broken.append(judge.breaks(draft.condition))
        alive = [n for n in alive if not broken[-1][n]]
    # Prune: a clue whose removal keeps the solution unique is redundant. One pass is enough, since
    # dropping clues only adds solutions: a clue needed now is still needed after later removals.
    # A probe that only this clue is false of proves it is needed without a search.
    keep = [True] * len(chosen)
    count = [sum(col) for col in zip(*broken)]  # per probe: how many kept clues are false of it
    for k in rng.sample(range(len(chosen)), len(chosen)):
        if any(b and count[n] == 1 for n, b in enumerate(broken[k])):
            continue
        if judge.unique([d for i, d in enumerate(chosen) if keep[i] and i != k]):
            keep[k] = False
            count = [c - b for c, b in zip(count, broken[k])]
    kept = [d for i, d in enumerate(chosen) if keep[i]]
    rng.shuffle(kept)
    return kept


def _draw_against(rng: Random, t: _Table, judge: _Judge, alt: Cells, seen: set) -> _Draft:
    """A fresh random clue, true of the hidden table and false of ``alt``."""
    where = judge.where(alt)
    templates, weights = zip(*_TEMPLATES)
    for _ in range(MAX_DRAWS):
        template = rng.choices(templates, weights)[0]
        for _ in range(TRIES_PER_TEMPLATE):
            draft = template(rng, t, where)
            if draft is None:
                break
            if draft.sig in seen or draft.text in seen:
                continue
            if not judge.holds(draft.condition, judge.truth):
                raise RuntimeError(f"generated a false clue: {draft.text} / {draft.condition}")
            if not judge.holds(draft.condition, alt):
                seen.update((draft.sig, draft.text))
                return draft
    raise RuntimeError("no clue rules out the second solution")  # pragma: no cover


# ------------------------------------------------------------------ record
def _question(rng: Random, t: _Table) -> str:
    others = t.header[1:]
    intro = _INTRO.format(key=t.header[0], others=_join(others, oxford=True))
    if rng.random() < 0.85:
        return rng.choice(t.theme.stories) + " " + intro
    return intro


def _categories_text(t: _Table) -> str:
    lines = [f"{t.header[0]} : {', '.join(str(r[0]) for r in t.rows)}."]
    for j in range(1, t.width):
        values = sorted((r[j] for r in t.rows), key=lambda v: (v.lower(), v))
        lines.append(f"{t.header[j]} : {', '.join(values)}.")
    return "\n".join(lines)


def _record(rng: Random, t: _Table, drafts: Sequence[_Draft]) -> dict:
    header = t.header
    return {
        "inputs": {
            "question": _question(rng, t),
            "categories": _categories_text(t),
            "clues": {str(n): {"text": d.text, "conditions": d.condition} for n, d in enumerate(drafts, 1)},
            "initial": [list(header)] + [[r[0]] + [""] * (t.width - 1) for r in t.rows],
        },
        "outputs": {"solution": [list(header)] + [list(r) for r in t.rows]},
    }


def _difficulty(record: dict) -> dict:
    initial = record["inputs"]["initial"]
    return {"categories": len(initial[0]), "entries": len(initial) - 1, "clues": len(record["inputs"]["clues"])}


def _check_size(name: str, value: int, bounds: tuple[int, int]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not bounds[0] <= value <= bounds[1]:
        raise ValueError(f"{name} must be an int in {bounds[0]}..{bounds[1]}, got {value!r}")
    return value


# ------------------------------------------------------------------ public API
def generate(seed: int, index: int, *, categories: int | None = None, entries: int | None = None) -> SourcePuzzle:
    """Puzzle ``index`` of the stream ``seed``: a themed table with a minimal set of clues whose only
    solution it is. Same arguments, same record. ``categories`` counts the key column; both sizes
    are drawn from 3..5 when not given (the draw is made either way, so passing the drawn sizes
    explicitly rebuilds the same puzzle).
    """
    rng = rng_for(seed, SOURCE, index)
    drawn_c, drawn_e = rng.choice(DEFAULT_SIZES), rng.choice(DEFAULT_SIZES)
    n_categories = _check_size("categories", drawn_c if categories is None else categories, CATEGORY_RANGE)
    n_entries = _check_size("entries", drawn_e if entries is None else entries, ENTRY_RANGE)
    table = _random_table(rng, n_categories, n_entries)
    drafts = _minimal_clues(rng, table)
    record = _record(rng, table, drafts)
    key = stable_key(json.dumps(record["outputs"]["solution"]), *(d.condition for d in drafts))
    return SourcePuzzle(ENGINE.puzzle_from_official(record), key, _difficulty(record), record)


def official_puzzles(path: str | Path) -> list[SourcePuzzle]:
    """The official ``gridpuzzle_questions.jsonl`` records as sources, in file order."""
    out = []
    for _, record in iter_json_lines(str(path), "official grid puzzle"):
        puzzle = ENGINE.puzzle_from_official(record)
        inputs = record["inputs"]
        key = stable_key(*(c.condition for c in puzzle.clues), json.dumps(inputs["initial"]))
        out.append(SourcePuzzle(puzzle, key, _difficulty(record), record))
    return out


__all__ = ["generate", "official_puzzles", "SOURCE"]
