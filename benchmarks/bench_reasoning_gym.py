"""Soundness and speed side by side with reasoning-gym, on reasoning-gym's own puzzles.

    python benchmarks/bench_reasoning_gym.py [--n 300] [--seed 0]

Needs reasoning-gym (``pip install 'finereason[reasoning-gym]'``). For every registered domain with a
reasoning-gym counterpart (``Engine.reasoning_gym_name``), ``--n`` entries of that reasoning-gym dataset
are read into our puzzles (``Engine.from_reasoning_gym``) and each gets responses of five kinds, rendered
for both (ours: ``Answer: <solution>`` as our prompt asks; theirs: ``<answer>...</answer>`` as theirs asks):

- ``right``: a correct solution;
- ``retracted``: the correct solution, then "Wait, that is wrong. I take that answer back." after it;
- ``other puzzle``: the correct solution of the next entry's puzzle (numbers or givens not this puzzle's);
- ``broken``: a solution with one rule broken (``Engine.mutate_solution(..., "broken")``: two cells swapped,
  one operation changed, one vertex recolored);
- ``ablated``: a solution with one number, cell or value left out (``mutate_solution(..., "ablated")``).

The last three are kept only when the proposed state breaks the puzzle's rules (``Engine.check_solution``,
no text read): a mutation that still solves the puzzle is no wrong answer.

Ours is the whole response through the one verifier (``verify_end_to_end``); theirs is
``reasoning_gym.utils.extract_answer`` then the dataset's ``score_answer``. The table shows the mean score
of each. **Bars:** ours is 1.0 on ``right`` and 0 on every other kind; ours scores at least 0.5x as many
responses per second as theirs on each dataset (every kind, timed best of 3, both in this process).
Exits 1 when a bar is missed.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RETRACTION = "\nWait, that is wrong. I take that answer back."
KINDS = ("right", "retracted", "other puzzle", "broken", "ablated")
SPEED_BAR = 0.5


def responses(engine, entries: list[dict], seed: int) -> list[tuple[str, object, str, str, dict]]:
    """(kind, puzzle, our response, their response, entry) for every entry and kind that can be made."""
    from finereason.core.puzzle_sources import rng_for

    solved = [engine.from_reasoning_gym(e) for e in entries]
    out = []
    for i, (puzzle, solution) in enumerate(solved):
        def pair(kind: str, state, suffix: str = "") -> None:
            out.append((kind, puzzle, f"Answer: {engine.answer_text(puzzle, state)}{suffix}",
                        f"<answer>{engine.reasoning_gym_answer(puzzle, state)}</answer>{suffix}", entries[i]))

        pair("right", solution)
        pair("retracted", solution, RETRACTION)
        other_puzzle, other = solved[(i + 1) % len(solved)]
        if _wrong(engine, puzzle, other):
            out.append(("other puzzle", puzzle, f"Answer: {engine.answer_text(other_puzzle, other)}",
                        f"<answer>{engine.reasoning_gym_answer(other_puzzle, other)}</answer>", entries[i]))
        for kind in ("broken", "ablated"):
            wrong = engine.mutate_solution(puzzle, solution, rng_for(seed, engine.name, i, kind), kind)
            if wrong is not None and _wrong(engine, puzzle, wrong):
                pair(kind, wrong)
    return out


def _wrong(engine, puzzle, state) -> bool:
    """Whether ``state`` is not a solution of ``puzzle`` by the rules alone (no text read): a mutation or
    another puzzle's solution that happens to solve this puzzle too is no wrong answer, and is left out."""
    try:
        return bool(engine.check_solution(puzzle, state))
    except (ValueError, TypeError, ArithmeticError):
        return True


def best_of(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300, help="reasoning-gym entries per dataset")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import reasoning_gym
        from reasoning_gym.utils import extract_answer
    except ImportError:
        print("needs reasoning-gym: pip install 'finereason[reasoning-gym]'", file=sys.stderr)
        return 2
    from importlib.metadata import version

    from finereason.core.engine import engines
    from finereason.verification.verifiers import verify_end_to_end

    missed = 0
    print(f"reasoning-gym {version('reasoning-gym')}, {args.n} entries per dataset, seed {args.seed}")
    print(f"{'dataset':14s} {'kind':14s} {'n':>5s} {'ours':>6s} {'theirs':>7s}")
    for engine in [e for e in engines() if e.reasoning_gym_name]:
        dataset = reasoning_gym.create_dataset(engine.reasoning_gym_name, size=args.n, seed=args.seed)
        entries = list(dataset)
        jobs = responses(engine, entries, args.seed)

        def score_ours() -> list[float]:
            return [float(verify_end_to_end(engine, p, ours).correct) for _, p, ours, _, _ in jobs]

        def score_theirs() -> list[float]:
            return [float(dataset.score_answer(extract_answer(theirs), e) or 0.0) for _, _, _, theirs, e in jobs]

        ours, theirs = score_ours(), score_theirs()
        for kind in KINDS:
            picked = [i for i, job in enumerate(jobs) if job[0] == kind]
            if not picked:
                continue
            mean_ours = sum(ours[i] for i in picked) / len(picked)
            mean_theirs = sum(theirs[i] for i in picked) / len(picked)
            ok = mean_ours == (1.0 if kind == "right" else 0.0)
            missed += not ok
            print(f"{engine.reasoning_gym_name:14s} {kind:14s} {len(picked):5d} {mean_ours:6.3f} {mean_theirs:7.3f}"
                  f"{'' if ok else '  MISSED'}")
        t_ours, t_theirs = best_of(score_ours), best_of(score_theirs)
        ratio = t_theirs / t_ours
        ok = ratio >= SPEED_BAR
        missed += not ok
        print(f"{engine.reasoning_gym_name:14s} {'speed':14s} {len(jobs):5d} {len(jobs) / t_ours:6.0f}/s "
              f"{len(jobs) / t_theirs:7.0f}/s  ours {ratio:.2f}x theirs{'' if ok else '  MISSED (bar 0.5x)'}")
    print("bars met" if not missed else f"{missed} bar(s) missed")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
