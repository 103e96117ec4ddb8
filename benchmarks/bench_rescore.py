"""``finereason rescore`` against ``score`` on the same responses (bar: under 3x the time), and its memory
as the input grows 10x (bar: flat).

    python benchmarks/bench_rescore.py [--n 20000]

The responses are the Game-of-24 answers of the gpt-and-i dialogs in ../shared/recorded_results,
cycled to ``--n`` lines of a recorded JSON Lines file (numbers, answer, recorded verdict). The baseline
is the path ``finereason score`` takes for each response (``score_row`` on the end-to-end row), in the
same run; the rescore run reads the file, verifies, explains and writes every output. Memory: the peak
traced by ``tracemalloc`` for n/10 and n lines.
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import SHARED  # noqa: E402

DIALOGS = Path("recorded_results") / "gpt-and-i"  # <domain>/<model>/<condition>/*responses.json*


def answers(shared: Path) -> list[dict]:
    from finereason.workflows.rescore.dialogs import _answers, _instances

    engine = dialog_engine()
    out = []
    for path in sorted((shared / DIALOGS / engine.official_name).glob("*/*/*responses.json*")):
        for _, instance in _instances(str(path)):
            inputs = engine.inputs_from_recorded(instance["prompts"][0])
            for _, _, text, recorded in _answers(instance):
                out.append({"inputs": inputs, "response": text, "correct": bool(recorded)})
    return out


def dialog_engine():
    """The domain whose recorded dialogs ../shared holds (the one that names a dialog format)."""
    from finereason.core.engine import engines

    return next(e for e in engines() if e.recorded_dialogs)


def write(path: Path, items: list[dict], n: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for i, item in zip(range(n), itertools.cycle(items)):
            out.write(json.dumps({"id": i, **item}) + "\n")


def main() -> int:
    from types import SimpleNamespace

    from finereason.common.vocabulary import END_TO_END
    from finereason.verification.scoring import score_row
    from finereason.workflows.rescore import rescore

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--shared", default=str(SHARED))
    args = parser.parse_args()
    items = answers(Path(args.shared))
    engine = dialog_engine()
    options = SimpleNamespace(domain=engine.name, puzzle_field="inputs")
    with tempfile.TemporaryDirectory() as tmp:
        small, large = Path(tmp) / "small.jsonl", Path(tmp) / "large.jsonl"
        write(small, items, args.n // 10)
        write(large, items, args.n)
        lines = [json.loads(x) for x in large.read_text().splitlines()]
        start = time.perf_counter()
        for line in lines:
            row = {"domain": engine.name, "task": END_TO_END, "inputs": json.dumps(line["inputs"]),
                   "outputs": "{}"}
            score_row(row, line["response"])
        base = time.perf_counter() - start
        start = time.perf_counter()
        rescore("jsonl", [str(large)], Path(tmp) / "out", options)
        ours = time.perf_counter() - start
        peaks = []
        for name, path in (("small", small), ("large", large)):
            tracemalloc.start()
            rescore("jsonl", [str(path)], Path(tmp) / f"mem-{name}", options)
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
    print(f"{args.n} responses ({len(items)} distinct answers cycled)")
    print(f"score path (score_row)  {base:8.2f} s   rescore jsonl  {ours:8.2f} s   ratio {ours / base:.2f}x (bar < 3x)")
    print(f"peak memory: {args.n // 10} lines {peaks[0] / 2**20:.1f} MiB, {args.n} lines {peaks[1] / 2**20:.1f} MiB "
          f"(ratio {peaks[1] / peaks[0]:.2f}; flat means well under 10)")
    return 0 if ours < 3 * base and peaks[1] < 3 * peaks[0] else 1


if __name__ == "__main__":
    sys.exit(main())
