"""``finereason score``: verdict lines for model responses on an official states file or a built config."""
from __future__ import annotations

import argparse
import json

from ..common.atomic_io import check_output
from ..common.vocabulary import STATE_CHECKING, STATE_TASKS, STATE_TRANSITION
from ..core.engine import engine_names
from ..reading.context import ReadContext
from ..verification.aggregation import ACC, F1_UNSOLVABLE, PRECISION_UNSOLVABLE, RECALL_UNSOLVABLE
from ..verification.metrics import is_undefined
from ..verification.verifiers import MODES
from .options import CliError, add_out, need_builders, progress, report_stream, writing

NAME = "score"
HELP = "score model responses on an official states file or a built config"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("--official", help="an official <puzzle>_states.json file (responses keyed by 0-based line index)")
    p.add_argument("--task", choices=STATE_TASKS, help="with --official")
    p.add_argument("--data", help="a built dataset folder (responses keyed by row id)")
    p.add_argument("--config", help=f"with --data: the config, e.g. {engine_names()[0]}_state_transition")
    p.add_argument("--mode", default="strict", choices=MODES, help="state-transition scoring (default: strict)")
    p.add_argument("--responses", required=True, help='JSON Lines {"index": i, "response": ...} or {"id": ..., "response": ...} (- for stdin)')
    add_out(p, "JSON Lines verdicts (default: stdout)")
    p.add_argument("--starts-in-think", action="store_true",
                   help="the prompts already opened <think> (R1-distill-style templates): a response without </think> is unfinished")
    p.add_argument("--process", action="store_true",
                   help="with --data and an end_to_end config: also verify the steps each answer shows (first invalid "
                        "step, first dead end) and print the process_* metrics")
    p.add_argument("--explain", action="store_true",
                   help='add "explanation" to each line: the candidate answer statements, the committed one and the '
                        "signal or rule that voided or replaced the others, with character offsets in the response")
    return p


def _count(n: int, word: str) -> str:
    """``"1 response"``, ``"2 responses"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _value(value: float) -> str:
    """A metric as the summary prints it: four decimals, or "—" when undefined (an empty denominator)."""
    return "— (undefined)" if is_undefined(value) else f"{value:.4f}"


def _unanswered(scored: int, total: int, report) -> None:
    """Say how many rows had no response (they are not scored, so no metric counts them)."""
    if scored < total:
        print(f"{total - scored} of {total} rows had no response (not scored)", file=report)
def read_context(args: argparse.Namespace) -> ReadContext:
    """The run's read context, from ``--starts-in-think``."""
    return ReadContext(starts_in_think=bool(args.starts_in_think))


def run(args: argparse.Namespace) -> int:
    if args.data is not None:
        return _score_data(args)
    if args.official is None or args.task is None:
        raise CliError("score needs --official FILE --task TASK, or --data DIR --config NAME")
    if args.process:
        raise CliError("--process needs --data DIR and an end_to_end --config")
    check_output(args.out, [("--responses", args.responses), ("--official", args.official)])
    from ..verification.score_responses import official_metrics, read_official_batch, score_official, verdict_counts

    batch = read_official_batch(args.official, args.task, args.responses)
    scored = []
    with writing(args.out) as out:
        for response in score_official(batch, mode=args.mode, context=read_context(args), progress=progress,
                                       explain=args.explain):
            scored.append(response)
            out.write(json.dumps(response.line()) + "\n")
    metrics = official_metrics(args.task, scored)
    report = report_stream(args.out)
    mode = f" ({args.mode} mode)" if args.task == STATE_TRANSITION else ""
    print(f"{batch.engine.name} {args.task}{mode}: {_count(len(scored), 'response')}", file=report)
    _unanswered(len(scored), len(batch.records), report)
    print(f"accuracy: {_value(metrics[ACC])}", file=report)
    for category, count in verdict_counts(scored).items():
        print(f"  {category:<22}{count:>6}", file=report)
    if args.task == STATE_CHECKING:
        print(f"precision (unsolvable): {_value(metrics[PRECISION_UNSOLVABLE])}", file=report)
        print(f"recall (unsolvable): {_value(metrics[RECALL_UNSOLVABLE])}", file=report)
        print(f"f1 (unsolvable): {_value(metrics[F1_UNSOLVABLE])}", file=report)
    return 0


def _score_data(args: argparse.Namespace) -> int:
    """``score --data DIR --config NAME``: responses keyed by row ``id``."""
    if not args.config:
        raise CliError(f"--data needs --config NAME (e.g. {engine_names()[0]}_state_transition)")
    check_output(args.out, [("--responses", args.responses), ("--data", args.data)])
    need_builders()
    from ..verification.score_responses import config_metrics, process_metrics, read_config_rows, score_config

    rows = read_config_rows(args.data, args.config)  # checks paths, fingerprints, schema and duplicate ids
    scores = score_config(rows, args.responses, data=args.data, config=args.config,
                          context=read_context(args), process=args.process, explain=args.explain)
    scored = []
    with writing(args.out) as out:
        for response in scores:
            scored.append(response)
            out.write(json.dumps(response.line()) + "\n")
    metrics = config_metrics(scored)
    report = report_stream(args.out)
    print(f"{args.config}: {_count(len(scored), 'response')}", file=report)
    _unanswered(len(scored), len(rows), report)
    for name, value in metrics.items():
        if name != "n":
            print(f"  {name:<28}{_value(value)}", file=report)
    if args.process:
        for name, value in process_metrics(scored).items():
            print(f"  {name:<28}{_value(value)}", file=report)
    return 0
