"""Game-of-24 answer reading on 1 MB responses (issue 20: "reading linear, 1 MB in < 0.5 s per call").

    python benchmarks/bench_game24_reader.py

Each text is about 1 MB of one shape (many equations, prose, answer markers, one long run of
arithmetic, working steps, ...) followed by a final answer. Timed: the expression statement
scanner (:func:`~finereason.domains.game_of_24.answer.expression_statements`) and the whole reading
(:func:`~finereason.domains.game_of_24.answer.expression_reading`, which adds the shared withdrawal
signals). Baseline, measured in the same run: one regular-expression pass over the same text for
the answer markers, the least any reader must do. Bar: the scanner within 0.5 s per text.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from harness import best_of  # noqa: E402

from finereason.domains.game_of_24.answer import expression_reading, expression_statements  # noqa: E402

MB = 1_000_000
BAR_SECONDS = 0.5
MARKERS = re.compile(r"(?i)(?:answer|next\s+state)\s*:")
SHAPES = {
    "equation lines": "(10 - 4) * (13 - 9) = 6 * 4 = 24\n",
    "prose (one line)": "The numbers can be combined in many ways, but we keep trying. ",
    "prose lines": "The numbers can be combined in many ways, but we keep trying.\n",
    "answer markers": "Answer: ",
    "answer 1": "Answer: 1 ",
    "one long run": "1 + ",
    "equals chain": "1 = ",
    "continuations": "1\n= ",
    "final answer lines": "Final answer:\n",
    "working steps": "16 + 8 = 24\n",
    "x between operands": "(1) x (2) x ",
    "boxed": "\\boxed{",
    "lists": "Answer: [1, 2] ",
    "digits": "1, ",
}


def main() -> int:
    print(f"{'text (1 MB)':<22}{'scanner ms':>11}{'reading ms':>11}{'scan ms':>9}{'ratio':>7}")
    worst = 0.0
    for name, piece in SHAPES.items():
        text = (piece * (MB // len(piece) + 1))[:MB] + "\nAnswer: (10 - 4) * (13 - 9)"
        scanner = best_of(lambda: expression_statements(text))
        reading = best_of(lambda: expression_reading(text), repeat=1)
        scan = best_of(lambda: list(MARKERS.finditer(text)))
        worst = max(worst, scanner)
        print(f"{name:<22}{scanner * 1e3:>11.1f}{reading * 1e3:>11.1f}{scan * 1e3:>9.1f}{scanner / scan:>7.1f}")
    print(f"slowest scanner: {worst:.3f} s per MB (bar {BAR_SECONDS} s)")
    return 0 if worst <= BAR_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
