"""``finereason plan-check``: validate plans against PDDL domain and problem files."""
from __future__ import annotations

import argparse
import json
import sys

from ..common.atomic_io import check_output
from ..common.plural import count
from .options import add_out, progress, report_stream, writing

NAME = "plan-check"
HELP = "validate the plan each text commits to against PDDL domain and problem files (PlanBench's STRIPS subset)"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("--input", required=True,
                   help='JSON Lines {"domain": PDDL path, "problem": PDDL path, "plan": text} (- for stdin); each text is '
                        "read as the end-to-end verdict reads a response: the plan it commits to")
    p.add_argument("--optimal", action="store_true", help="also give each problem's optimal plan length (BFS)")
    p.add_argument("--max-nodes", type=int, default=1_000_000, help="BFS budget of stored states per problem for --optimal (default 1,000,000)")
    p.add_argument("--starts-in-think", action="store_true",
                   help="the prompts already opened <think> (R1-distill-style templates): a text without </think> is "
                        "unfinished and commits to no plan")
    add_out(p, 'JSON Lines {"valid": bool, "reasons": [...]} (default: stdout; the "valid: N/M" summary goes to the terminal)')
    return p


def run(args: argparse.Namespace) -> int:
    """``{"valid": bool, "reasons": [...]}`` per plan, read by the end-to-end plan reader (a text that commits
    to no plan is invalid with the reader's reason); ``"optimal_length"`` with ``--optimal``: an int,
    or null when the problem has no plan. The summary ``valid: N/M`` goes to the terminal (stderr
    when the lines go to stdout), never into the JSON Lines. ``--starts-in-think`` sets the read context
    (as ``finereason score --starts-in-think``)."""
    from ..planning.check_file import check_max_nodes, check_plans, plan_counts, read_plan_requests
    from ..reading.context import ReadContext

    check_max_nodes(args.max_nodes)
    check_output(args.out, [("--input", args.input)])
    requests = read_plan_requests(args.input)
    lines = []
    with writing(args.out) as out:
        for line in check_plans(requests, optimal=args.optimal, max_nodes=args.max_nodes, progress=progress,
                                context=ReadContext(starts_in_think=bool(args.starts_in_think))):
            lines.append(line)
            out.write(json.dumps(line) + "\n")
    counts = plan_counts(lines)
    print(f"valid: {counts['valid']}/{counts['total']}", file=report_stream(args.out))
    if counts["undecided"]:
        print(f"the search budget ran out (--max-nodes {args.max_nodes:,}) before the optimal length of "
              f"{count(counts['undecided'], 'plan')} was "
              "decided: raise --max-nodes", file=sys.stderr)
    return 1 if counts["undecided"] else 0
