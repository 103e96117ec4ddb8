"""``finereason leaderboard submit RESULTS --repo-id ORG/requests``: validated request + results files."""
from __future__ import annotations

import argparse
import sys

from ...common.atomic_io import check_output
from ..options import add_out

NAME = "submit"
HELP = "validate lm-eval results and write (and upload) a leaderboard request and results file"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from ...integrations.leaderboard.submit import PRECISIONS, WEIGHT_TYPES
    from ...integrations.leaderboard.suites import DEFAULT_SUITE, SUITES

    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("results", nargs="+", metavar="RESULTS", help="lm-eval output folders or results_*.json files (samples beside them are checked)")
    p.add_argument("--repo-id", required=True, help="ORG/NAME of the requests data set (results go to ORG/results, see --results-repo-id)")
    p.add_argument("--results-repo-id", help="results data set (default: the requests id with 'requests' replaced by 'results')")
    p.add_argument("--suite", default=DEFAULT_SUITE, choices=SUITES,
                   help=f"tasks that must all be present (default {DEFAULT_SUITE}: state checking, state transition and end-to-end)")
    p.add_argument("--model", help="which model of the results to submit (lm-eval model or its label; needed when there are several)")
    p.add_argument("--model-name", help="name on the board (default: pretrained=... or the lm-eval model)")
    p.add_argument("--base-model", default="", help="base model of a fine-tune, adapter or delta")
    p.add_argument("--revision", default="main", help="model revision (default main)")
    p.add_argument("--precision", choices=PRECISIONS, help="default: from dtype= in model_args, else Missing")
    p.add_argument("--weight-type", choices=WEIGHT_TYPES, help="default: Adapter with peft=, Delta with delta=, else Original")
    p.add_argument("--model-type", help="shown and filterable on the board, e.g. pretrained, fine-tuned, chat (default: baseline for finereason-*)")
    p.add_argument("--params", type=float, help="parameters in billions (the board's size filter)")
    add_out(p, "local folder for requests/ and results/ (default ./finereason_submission)", default="finereason_submission")
    p.add_argument("--dry-run", action="store_true", help="validate and write locally; upload nothing")
    return p


def run(args: argparse.Namespace) -> int:
    from ...integrations.leaderboard.submit import submit

    check_output(args.out, [("RESULTS", p) for p in args.results])
    done = submit(args.results, args.repo_id, out=args.out, suite=args.suite, model=args.model,
                  model_name=args.model_name, base_model=args.base_model, revision=args.revision,
                  precision=args.precision, weight_type=args.weight_type, model_type=args.model_type,
                  params=args.params, results_repo_id=args.results_repo_id, dry_run=args.dry_run)
    for warning in done.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"validated {done.request['model']}: {len(done.results['results'])} tasks of {done.request['suite']}, "
          f"data fingerprint {done.request['data_fingerprint'][:12]}")
    print(f"request: {done.request_path}\nresults: {done.results_path}")
    if done.uploaded:
        print("uploaded: " + " ".join(done.uploaded))
    else:
        why = "--dry-run" if args.dry_run else "offline (HF_HUB_OFFLINE is set)"
        print(f"{why}: wrote the submission locally only, nothing was uploaded", file=sys.stderr)
    return 0
