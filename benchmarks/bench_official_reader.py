"""Sudoku state-transition checking, side by side with the official release's own checker.

    python benchmarks/bench_official_reader.py --official DIR [--n 3000] [--shared PATH]

DIR is a checkout of the official release (github.com/DAMO-NLP-SG/FineReason, MIT) holding
``prompting.py`` and ``sudoku_tree.py``; it is not part of this project, so fetch it yourself (the
script exits 0 with a message when it is absent). Both checkers judge the same ``--n`` responses (default
3,000) over the official Sudoku states sample in ``../shared``, in this process, one after the other:

- official: ``SudokuStateTransitionPrompter.get_answer`` (a regex for the rows after the last
  "Next state:", then its one-move check; it reads the stored solvability label);
- ours, paper mode: ``verify_state_transition(..., "paper")`` (the answer reader, the engine's move
  classification, the given unsolvable child), with the stored label like the official checker;
- ours, strict mode: the same in ``"strict"`` mode, which also decides with the exact oracle whether
  a forward move leads to a dead end (its verdict cache is cleared before every pass).

Responses are realistic: prose before the answer, markdown, a forward move to a solvable child, the
explored dead-end child, a backtrack, an unchanged state, two cells at once, a rule-breaking fill, and a
model cut off while repeating its answer. The bars (issue 20): paper >= 1.5x the official rate, strict
>= 1.2x. Prints responses/s, microseconds per response and the ratios; also counts the verdicts on
which paper mode and the official checker disagree (expected only where the official reader cannot
read the answer). ``benchmarks/reader_identity.py`` checks that a speed change leaves every verdict
of these responses (and every reading of the answer corpus and the real texts) unchanged.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import types
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from harness import SHARED, add_shared_argument, banner, best_of  # noqa: E402

PAPER_BAR, STRICT_BAR = 1.5, 1.2  # issue 20: times the official checker's rate
_OFFICIAL_CATEGORY = {"1": "correct", "unsolvable child": "unsolvable_child", "multiple moves": "multiple_moves",
                      "invalid move": "invalid_move", "backtracking failure": "backtracking_failure",
                      "sibling": "sibling", "parsing error": "parse_error"}


def load_official(folder: Path) -> Any:
    """The official ``SudokuStateTransitionPrompter`` class, imported from ``folder``."""
    sys.modules.setdefault("fire", types.SimpleNamespace(Fire=lambda *a, **k: None))  # CLI helper only
    sys.path.insert(0, str(folder))
    import prompting  # type: ignore[import-not-found]  # noqa: PLC0415

    return prompting.SudokuStateTransitionPrompter


def _grid(value: Any) -> str:
    return repr([list(row) for row in value])


def responses(engine: Any, items: list, n: int, seed: int = 0) -> list[tuple[int, str]]:
    """``n`` (item index, response) pairs: varied moves, in varied realistic wrappings."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        index = k % len(items)
        item = items[index]
        puzzle, current = item.puzzle, item.current
        children = list(engine.children(puzzle, current))
        kind = rng.choice(["child", "child", "dead", "parent", "same", "two", "bad", "cut"])
        cur = engine.to_official(puzzle, current)
        if kind in ("child", "cut") and children:
            state = engine.to_official(puzzle, rng.choice(children))
        elif kind == "dead" and item.unsolvable_child is not None:
            state = engine.to_official(puzzle, item.unsolvable_child)
        elif kind == "parent" and item.parent is not None:
            state = engine.to_official(puzzle, item.parent)
        elif kind == "two":
            state = [list(r) for r in cur]
            empties = [(r, c) for r in range(9) for c in range(9) if state[r][c] == 0][:2]
            for r, c in empties:
                state[r][c] = rng.randint(1, 9)
        elif kind == "bad":
            state = [list(r) for r in cur]
            empties = [(r, c) for r in range(9) for c in range(9) if state[r][c] == 0]
            if empties:
                r, c = empties[0]
                state[r][c] = next((v for v in state[r] if v), 1)
        else:
            state = cur
        grid = _grid(state)
        style = rng.randrange(4)
        if style == 0:
            text = f"Let's think step by step. Row 4 is missing a few digits.\n\nNext state: {grid}"
        elif style == 1:
            text = f"**Analysis.** The first empty cell takes the only candidate left.\n\n**Next state:**\n```python\n{grid}\n```"
        elif style == 2:
            text = f"Looking at the columns, one move is forced.\nNext state: {grid}\n\nThis keeps every row valid."
        else:
            text = f"I fill one cell.\nNext state: {grid}"
        if kind == "cut":
            text = f"{text}\nNext state: {grid[:len(grid) // 2]}"
        out.append((index, text))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--official", type=Path, default=Path("/tmp/reader/FineReason"),
                        help="a checkout of the official release (holding prompting.py)")
    parser.add_argument("--n", type=int, default=3_000)
    parser.add_argument("--repeat", type=int, default=5)
    add_shared_argument(parser)
    args = parser.parse_args()
    if not (args.official / "prompting.py").exists():
        print(f"skipped: {args.official}/prompting.py is absent; fetch the official release "
              "(github.com/DAMO-NLP-SG/FineReason) and pass --official DIR")
        return 0
    from finereason.domains.sudoku.engine import SudokuEngine  # the official checker compared here is Sudoku's

    states_file = args.shared / "finereason_official" / f"{SudokuEngine.official_name}_states_sample.jsonl"
    if not states_file.exists():
        print(f"skipped: {states_file} is absent")
        return 0

    from finereason.core.engine import get_engine
    from finereason.core.oracle import _cached_solvable
    from finereason.verification.verifiers import verify_state_transition

    prompter_class = load_official(args.official)
    engine = get_engine(SudokuEngine.name)
    records = [json.loads(line) for line in states_file.read_text().splitlines() if line.strip()]
    items = [engine.item_from_official(r) for r in records]
    prompters = []
    for record in records:
        prompter = prompter_class()
        inputs, outputs = record["inputs"], record["outputs"]
        prompter.parent_state = inputs["parent"]
        prompter.current_state = inputs["current"]
        prompter.unsolvable_child = inputs["unsolvable_child"]
        prompter.current_status = outputs["current_status"]
        prompters.append(prompter)
    pairs = responses(engine, items, args.n)

    def official() -> list[str]:
        return [prompters[i].get_answer(text) for i, text in pairs]

    def ours(mode: str) -> Callable[[], list[str]]:
        def run() -> list[str]:
            return [verify_state_transition(engine, items[i], text, mode, solvable=items[i].solvable).category
                    for i, text in pairs]
        return run

    print(banner(f"{len(pairs)} {engine.title} state-transition responses over {len(items)} official states"))
    official_rate = len(pairs) / best_of(official, args.repeat)
    paper_rate = len(pairs) / best_of(ours("paper"), args.repeat)
    strict_rate = len(pairs) / best_of(ours("strict"), args.repeat, setup=_cached_solvable.cache_clear)
    print(f"{'checker':<36}{'responses/s':>12}{'us/resp':>9}{'ratio':>8}")
    print(f"{'official get_answer':<36}{official_rate:>12.0f}{1e6 / official_rate:>9.1f}{1.0:>7.2f}x")
    print(f"{'ours, paper mode':<36}{paper_rate:>12.0f}{1e6 / paper_rate:>9.1f}{paper_rate / official_rate:>7.2f}x"
          f"   (bar: >= {PAPER_BAR}x)")
    print(f"{'ours, strict mode (cold cache)':<36}{strict_rate:>12.0f}{1e6 / strict_rate:>9.1f}"
          f"{strict_rate / official_rate:>7.2f}x   (bar: >= {STRICT_BAR}x)")
    theirs = [_OFFICIAL_CATEGORY.get(v, v) for v in official()]
    paper = ours("paper")()
    differ = [(a, b) for a, b in zip(paper, theirs) if a != b]
    print(f"paper-mode verdicts differing from the official checker: {len(differ)} of {len(pairs)}")
    for (a, b), count in sorted({d: differ.count(d) for d in set(differ)}.items(), key=lambda x: -x[1]):
        print(f"  ours {a:<22} official {b:<22} {count}")
    met = paper_rate >= PAPER_BAR * official_rate and strict_rate >= STRICT_BAR * official_rate
    print(f"bars {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
