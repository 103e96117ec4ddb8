"""``finereason rescore``: sound verdicts for responses other tools recorded, beside the recorded ones."""
from __future__ import annotations

import argparse

from ..common.atomic_io import check_output
from .options import CliError, progress

NAME = "rescore"
HELP = "read and verify responses another benchmark recorded (PlanBench, gpt-and-i, any JSON Lines); compare verdicts"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from ..workflows.rescore import FORMATS

    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("format", metavar="FORMAT", help="the recorded files' format: " + "; ".join(
        f"{name}: {module.HELP}" for name, module in FORMATS.items()))
    p.add_argument("paths", metavar="PATH", nargs="+", help="recorded result files")
    p.add_argument("--out", required=True, help="a new (or empty) folder for verdicts.jsonl, summary.md|csv|json and verifier.csv")
    g = p.add_argument_group("planbench")
    g.add_argument("--instances", help="the folder with the domain PDDL and the instance folders (instance-K.pddl)")
    g = p.add_argument_group("jsonl")
    g.add_argument("--domain", help="a registered puzzle domain (finereason domains), with --puzzle-field")
    g.add_argument("--puzzle-field", help="the field holding the domain's official inputs record (Game of 24: the numbers)")
    g.add_argument("--domain-file", help="a PDDL domain file, with --problem-field")
    g.add_argument("--problem-field", help="the field holding each line's PDDL problem path (relative: to the file's folder)")
    g.add_argument("--response-field", default="response", help="the field holding the response text (default: response)")
    g.add_argument("--verdict-field", default="correct", help="the field holding the recorded verdict (default: correct)")
    g.add_argument("--model-field", help="the field naming the model (default: one model, -)")
    g.add_argument("--id-field", default="id", help="the field holding the id (default: id; else the line number)")
    return p


def run(args: argparse.Namespace) -> int:
    from ..workflows.rescore import FORMATS, rescore

    if args.format not in FORMATS:
        raise CliError(f"unknown format {args.format!r} (known: {', '.join(FORMATS)})")
    inputs = [("PATH", path) for path in args.paths]
    if args.instances:
        inputs.append(("--instances", args.instances))
    check_output(args.out, inputs)
    result = rescore(args.format, args.paths, args.out, args, progress=progress)
    print(f"{result['responses']} responses rescored into {args.out}")
    for row in result["summary"]:
        if row["n"]:
            print(f"  {row['model']} | {row['condition']}: recorded {100 * row['recorded_accuracy']:.1f}%, "
                  f"sound {100 * row['sound_accuracy']:.1f}% (n={row['n']}; credited but wrong {row['credited_but_wrong']}, "
                  f"missed {row['missed']})")
        if row["undecided"]:
            print(f"  {row['model']} | {row['condition']}: {row['undecided']} undecided (see verdicts.jsonl)")
    return 0
