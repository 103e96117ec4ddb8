"""Verdict identity across a change to the answer reader or the scoring path: dump, then compare.

    python benchmarks/reader_identity.py --dump OUT.jsonl [--root CHECKOUT] [--n 3000]
    python benchmarks/reader_identity.py --compare BEFORE.jsonl AFTER.jsonl

``--dump`` writes one line per case, computed by the ``finereason`` package of ``--root`` (default:
this checkout; pass an export of the base commit to dump the verdicts from before a change):

- the paper- and strict-mode verdicts of the responses of ``bench_official_reader.py`` (``--n``);
- for every response of the answer corpus (``tests/data/answer_corpus.jsonl``), the real responses in
  ``../shared/real_responses`` and variants of them with a withdrawal, hedge, condition, alternative,
  rejection or end tag appended or prepended: the reading (value, reason, live count, marked) of every
  engine for every task, and the option reading.

``--compare`` prints the cases that differ (exit 1) or "identical" (exit 0). Speed work on the reader
must leave every line unchanged.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Iterator

HERE = Path(__file__).resolve().parent
TAILS = (
    "", " wait", "\nWait, that's wrong.", "\nActually, no.", "\nHmm, I'm not sure.", " or [[1, 2], [3, 4]]",
    "\nAlternatively: [[1, 2], [3, 4]]", "\nIf row 2 were different, the next state would be [[1, 2], [3, 4]].",
    "\nOtherwise it is [[1]].", " [[1, 2]] is wrong.", " [ANSWER END]", "\nCorrection: Next state: [[5, 6]]",
    "\nI could not find a valid plan.", "\nI can't determine the answer.", "\nMaybe (B).", "\nAnswer: (A) or (B)",
    "\nThe answer is probably [[7]].", "\nNo, wait: (B).", "\n</answer>", "\nThis keeps every row valid.",
    " Let me reconsider.", "\nInstead, Next state: [[9]]", "\nunless I'm mistaken", "\n(A) would only be right if x.",
)
HEADS = ("", "Assuming no conflict remains, ", "It might be ", "Either ", "<think>x</think>", "Probably, ")


def _texts(shared: Path) -> Iterator[str]:
    corpus = HERE.parent / "tests" / "data" / "answer_corpus.jsonl"
    for line in corpus.read_text("utf-8").splitlines():
        if line.strip():
            yield json.loads(line)["response"]
    for path in sorted((shared / "real_responses").rglob("*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                text = row.get("response") or row.get("output") or row.get("completion")
                if isinstance(text, str):
                    yield text


def _variants(texts: list[str]) -> Iterator[str]:
    for k, text in enumerate(texts):
        yield text
        tail = TAILS[k % len(TAILS)]
        head = HEADS[k % len(HEADS)]
        yield head + text + tail
        yield text + TAILS[(k * 7 + 3) % len(TAILS)] + TAILS[(k * 5 + 1) % len(TAILS)]


def _reading(fn: Any) -> list:
    try:
        r = fn()
    except Exception as err:  # noqa: BLE001 - the exception itself is part of the identity
        return ["raised", type(err).__name__, str(err)]
    return [repr(r.value), r.reason, r.live, r.marked]


def dump(out: Path, n: int, shared: Path, root: Path) -> None:
    import bench_official_reader as bench  # noqa: PLC0415

    sys.path.insert(0, str(root))  # the bench module put this checkout first
    import finereason  # noqa: PLC0415

    print(f"finereason from {Path(finereason.__file__).parent}")
    from finereason.core.engine import engine_names, get_engine  # noqa: PLC0415
    from finereason.core.oracle import _cached_solvable  # noqa: PLC0415
    from finereason.domains.sudoku.engine import SudokuEngine  # noqa: PLC0415
    from finereason.reading import choice_reading, final_region  # noqa: PLC0415
    from finereason.verification.verifiers import verify_state_transition_modes  # noqa: PLC0415

    lines: list[str] = []
    engine = get_engine(SudokuEngine.name)
    states = shared / "finereason_official" / f"{SudokuEngine.official_name}_states_sample.jsonl"
    records = [json.loads(line) for line in states.read_text().splitlines() if line.strip()]
    items = [engine.item_from_official(r) for r in records]
    _cached_solvable.cache_clear()
    for k, (i, text) in enumerate(bench.responses(engine, items, n)):
        verdicts = verify_state_transition_modes(engine, items[i], text, ("paper", "strict"), solvable=items[i].solvable)
        lines.append(json.dumps(["bench", k, {m: [v.correct, v.category, list(v.reasons)] for m, v in verdicts.items()}]))
    engines = [get_engine(name) for name in engine_names()]
    texts = list(_variants(list(_texts(shared))))
    for k, text in enumerate(texts):
        region = final_region(text)
        if region is None:
            lines.append(json.dumps(["text", k, None]))
            continue
        row = [_reading(lambda: choice_reading(region)), _reading(lambda: choice_reading(region, every=True))]
        for eng in engines:
            for task in ("state_transition", "end_to_end"):
                row.append(_reading(lambda: eng.read_answer(region, task)))
        lines.append(json.dumps(["text", k, row]))
    out.write_text("\n".join(lines) + "\n")
    digest = hashlib.sha256(out.read_bytes()).hexdigest()[:16]
    print(f"{len(lines)} cases ({n} bench responses, {len(texts)} texts) -> {out} sha256 {digest}")


def compare(before: Path, after: Path) -> int:
    a, b = before.read_text().splitlines(), after.read_text().splitlines()
    differ = [(x, y) for x, y in zip(a, b) if x != y]
    if len(a) != len(b):
        print(f"different case counts: {len(a)} vs {len(b)}")
    for x, y in differ[:20]:
        print(f"- {x[:300]}\n+ {y[:300]}")
    if differ or len(a) != len(b):
        print(f"{len(differ)} of {len(a)} cases differ")
        return 1
    print(f"identical: {len(a)} cases")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=Path)
    parser.add_argument("--compare", type=Path, nargs=2)
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the checkout whose finereason is used")
    parser.add_argument("--n", type=int, default=3_000)
    parser.add_argument("--shared", type=Path, default=HERE.parent.parent / "shared")
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if not args.dump:
        parser.error("give --dump OUT or --compare BEFORE AFTER")
    sys.path[:0] = [str(HERE)]
    dump(args.dump, args.n, args.shared, args.root.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
