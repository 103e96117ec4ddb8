"""The answer reader reads to the end in linear time: 1 MB responses, one call each (bar: < 0.5 s),
with the ratio to one regular-expression pass over the same text (the least a reader must do).

    python benchmarks/bench_reading.py [--mb 1]

Shapes: prose then the answer; the answer then prose (read to the end: withdrawal signals are
searched in all of it); the answer then a retraction at the very end; degenerate repetitions of
answer-like pieces; and text that is not ASCII (Chinese and Russian prose, a fullwidth answer,
zero-width characters), which the reading normalises first. Readers: the option reader, the next-state and solution list readers, and the
end-to-end readers of every registered domain (expressions, plans, lists) through
``Engine.read_answer``. Exits 1 when a call takes longer than the bar.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from harness import banner, best_of  # noqa: E402

from finereason.common.vocabulary import END_TO_END  # noqa: E402
from finereason.core.engine import engine_names, get_engine  # noqa: E402
from finereason.reading import NEXT_STATE_MARKS, SOLUTION_MARKS, choice_reading, list_reading  # noqa: E402

BAR_SECONDS = 0.5
SCAN = re.compile(r"(?i)(?:answer|next\s+state|solution|plan)\s*:")
WORDS = ("the state is solvable because row one has a free cell and we can place numbers in it so I think "
         "that the next block goes on the table then we stack it").split()


def shapes(size: int) -> dict[str, str]:
    """Responses of about ``size`` characters."""
    rng = random.Random(0)
    prose = " ".join(rng.choice(WORDS) for _ in range(size // 5))[:size]
    answer = "Answer: (A)\nNext state: [[1, 2], [3, 4]]\nAnswer: (10 - 4) * (13 - 9) = 24\n(unstack a b)\n"
    return {
        "prose then answer": prose + "\n" + answer,
        "answer then prose": answer + prose,
        "answer, prose, retraction": answer + prose + "\nWait, that's wrong.",
        "(A) repeated": ("(A) " * (size // 4))[:size],
        "Answer: (A) or repeated": ("Answer: (A) or " * (size // 15))[:size],
        "Next state: [ repeated": ("Next state: [" * (size // 13))[:size],
        "newlines": "\n" * size + answer,
        # text that is not ASCII goes through the reading normalisation (finereason.reading.normalise)
        "Chinese prose then answer": (CHINESE * (size // len(CHINESE) + 1))[:size] + "\n" + answer,
        "Russian prose, fullwidth answer": (RUSSIAN * (size // len(RUSSIAN) + 1))[:size] + "\n" + FULLWIDTH,
        "zero-width in prose": prose.replace(" ", " \u200b") + "\n" + answer,
    }


CHINESE = "答案是（Ｂ），因为第一行还有空格，所以可以继续填数字。"
RUSSIAN = "В итоге ответ а может быть другим, проверим ещё раз о правилах у задачи. "
FULLWIDTH = "Ａｎｓｗｅｒ： （Ａ）\nNext state: ［［１， ２］， ［３， ４］］\nAnswer: (１０ − ４) × (１３ − ９) ＝ ２４\n(unstack а b)\n"


def readers() -> dict:
    out = {
        "options": lambda t: choice_reading(t),
        "options (format: every)": lambda t: choice_reading(t, every=True),
        "next state": lambda t: list_reading(t, NEXT_STATE_MARKS),
        "solution list": lambda t: list_reading(t, SOLUTION_MARKS, bare=True),
    }
    for name in engine_names():
        engine = get_engine(name)
        out[f"{name} end to end"] = lambda t, engine=engine: engine.read_answer(t, END_TO_END)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0, help="response size in MB (default 1)")
    args = parser.parse_args()
    print(banner(f"{args.mb:g} MB responses, best of 3"))
    print(f"{'shape':<28}{'reader':<30}{'s':>8}{'scan s':>9}{'ratio':>8}")
    worst = 0.0
    for shape, text in shapes(int(args.mb * 1_000_000)).items():
        scan = best_of(lambda: sum(1 for _ in SCAN.finditer(text)))
        for name, read in readers().items():
            took = best_of(lambda: read(text))
            worst = max(worst, took)
            print(f"{shape:<28}{name:<30}{took:>8.3f}{scan:>9.3f}{took / scan:>8.1f}")
    print(f"slowest call: {worst:.3f} s (bar: {BAR_SECONDS} s)")
    if worst > BAR_SECONDS:
        print("ERROR: a reader is slower than the bar")
        sys.exit(1)


if __name__ == "__main__":
    main()
