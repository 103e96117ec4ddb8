"""``finereason loop`` overhead per round: everything but the model call.

    python benchmarks/bench_loop.py [--data DIR] [--per-domain 20] [--rounds 15] [--feedback all_errors]

Every domain's end-to-end instances play ``--rounds`` rounds each through
:func:`finereason.workflows.loop.run_condition`, as ``finereason loop`` runs them (every round one batch over the
instances still playing, appended to the transcript and fsync'd once), with the ``finereason-replay``
lm-eval model answering from a script: wrong answers (the seeded random baseline's) until the last
round, then the oracle's solution. The model calls are timed and subtracted; what is left is the loop's
overhead per instance-round: building the dialog, rendering and counting the prompt, the sound verifier,
the feedback (with its leak check), the transcript line and its share of the fsync.

Baseline, measured in the same run on the same responses: the sound verifier alone
(``verify_end_to_end``), the one part of a round no loop can skip. Bar: overhead < 5 ms per
instance-round on one core; the ratio to the baseline is reported. For scale, the same dialogs are also
played one at a time (every round pays a whole fsync, which the disk, not the CPU, decides): reported,
not part of the bar.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import banner  # noqa: E402

BAR_MS = 5.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="a built data folder (default: a temporary small build)")
    parser.add_argument("--per-domain", type=int, default=20, help="instances per domain (default 20)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds per instance (default 15)")
    parser.add_argument("--feedback", default="all_errors", help="condition to play (default all_errors)")
    args = parser.parse_args()
    print(banner(f"{args.per_domain} instances x {args.rounds} rounds per domain, condition {args.feedback}"))

    from finereason.core.engine import default_names, get_engine
    from finereason.core.rows import row_puzzle
    from finereason.integrations.lm_eval.generate import lm_eval_generator
    from finereason.models.baselines import oracle, random_answer
    from finereason.verification.verifiers import verify_end_to_end
    from finereason.workflows.loop import load_rows, run_condition

    with tempfile.TemporaryDirectory() as tmp:
        data = args.data
        if data is None:
            from finereason.commands import main as cli

            data = str(Path(tmp) / "data")
            cli(["build", "--out", data, "--seed", "11", "--per-task", "0", "--train-size", "0",
                 "--e2e-size", str(args.per_domain), "--num-proc", "1"])
        print("| domain | instance-rounds | overhead ms/round | model call ms/round | verifier alone ms/round "
              "| overhead / verifier | one dialog at a time: overhead ms/round |")
        print("|---|---|---|---|---|---|---|")
        worst = 0.0
        for domain in default_names():  # what the default build above holds
            rows, _ = load_rows(domain, data, args.per_domain)
            script = {}
            for row in rows:
                for r in range(1, args.rounds):
                    script[f"{row['id']}@{r}"] = random_answer(row, r)
                script[f"{row['id']}@{args.rounds}"] = oracle(row)
            replay = Path(tmp) / f"{domain}.jsonl"
            replay.write_text("".join(json.dumps({"id": k, "response": v}) + "\n" for k, v in script.items()))
            real = lm_eval_generator("finereason-replay", f"path={replay}")
            spent = [0.0]

            def generate(batch, real=real, spent=spent):
                start = time.perf_counter()
                out = real(batch)
                spent[0] += time.perf_counter() - start
                return out

            generate.render = real.render  # type: ignore[attr-defined]

            def play(groups: list[list[dict]], where: str) -> tuple[float, list]:
                spent[0] = 0.0
                start = time.perf_counter()
                dialogs = []
                for i, group in enumerate(groups):
                    dialogs += run_condition(group, generate, args.feedback, Path(tmp) / where / domain / str(i),
                                             max_rounds=args.rounds)
                rounds = sum(len(d.records) for d in dialogs)
                return (time.perf_counter() - start - spent[0]) / rounds * 1000, dialogs

            overhead, dialogs = play([rows], "batched")
            model_ms = spent[0]
            alone, _ = play([[row] for row in rows], "alone")
            rounds = sum(len(d.records) for d in dialogs)
            responses = [(row_puzzle(d.row), rec["response"]) for d in dialogs for rec in d.records]
            engine = get_engine(domain)
            start = time.perf_counter()
            for puzzle, text in responses:
                verify_end_to_end(engine, puzzle, text)
            verifier = (time.perf_counter() - start) / rounds * 1000
            worst = max(worst, overhead)
            print(f"| {domain} | {rounds} | {overhead:.3f} | {model_ms / rounds * 1000:.3f} | {verifier:.3f} | "
                  f"{overhead / max(verifier, 1e-9):.1f}x | {alone:.3f} |")
    ok = worst < BAR_MS
    print(f"worst overhead {worst:.3f} ms per round; bar < {BAR_MS} ms: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
