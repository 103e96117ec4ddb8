"""Parent-side work of the ASP critic on 1 MB hostile model output (bar: each step under 0.5 s and
within 20x one regular-expression scan of the same text, the baseline measured in this run).

    python benchmarks/bench_asp_parent.py

Steps timed: the static screen (programs, facts, queries), the actor-output parser (fenced blocks
and JSON), and ``clean_text`` (lone surrogates). Inputs are the shapes that made earlier versions
quadratic: 200,000 backticks, many fences, runs of ``#``, ``@``/``&``-dense text, comment openers.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]

from harness import best_of  # noqa: E402

from finereason.asp.screen import Limits, screen  # noqa: E402
from finereason.workflows.arc import clean_text, parse_actor  # noqa: E402

SIZE = 1_000_000
BAR_S = 0.5
BAR_RATIO = 20.0
SCAN = re.compile(r"#|`|@")


def shaped(unit: str) -> str:
    return (unit * (SIZE // len(unit) + 1))[:SIZE]


INPUTS = {
    "backticks": shaped("`"),
    "fences": shaped("```\n"),
    "hash-runs": shaped("#" + " %*" * 20 + "\n"),
    "hashes": shaped("#"),
    "at-amp": shaped("a@b&c "),
    "comment-openers": shaped('%* " *% '),
    "surrogates": shaped("p(\ud800). "),
    "plain-program": shaped("cat(tom). mammal(X) :- cat(X).\n"),
}


def best(fn, text: str, repeat: int = 3) -> float:
    """Seconds of the fastest of ``repeat`` calls of ``fn(text)``."""
    return best_of(lambda: fn(text), repeat)


def main() -> int:
    limits = Limits(max_program_chars=10 * SIZE)
    steps = {"screen": lambda t: screen(t, limits), "parse_actor": parse_actor, "clean_text": clean_text}
    print(f"{'input':<18}{'step':<13}{'ms':>9}{'scan ms':>9}{'ratio':>8}")
    failed = 0
    for name, text in INPUTS.items():
        scan = max(best(lambda t: sum(1 for _ in SCAN.finditer(t)), text), 1e-4)
        for step, fn in steps.items():
            took = best(fn, text)
            ok = took < BAR_S and took / scan < BAR_RATIO
            failed += not ok
            print(f"{name:<18}{step:<13}{took * 1e3:>9.1f}{scan * 1e3:>9.1f}{took / scan:>8.2f}{'' if ok else '  FAIL'}")
    print("all within the bar" if not failed else f"{failed} step(s) over the bar")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
