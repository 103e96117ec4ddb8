"""``finereason label``: ``{"solvable": bool}`` per state from the exact oracle."""
from __future__ import annotations

import argparse
import json

from ..common.atomic_io import check_output
from ..core.engine import engine_names, get_engine
from .options import add_domain, add_out, progress, report_stream, writing

NAME = "label"
HELP = "label states as solvable or not with the exact oracle"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    add_domain(p, f"one of {', '.join(engine_names())}")
    p.add_argument("--input", required=True, help="JSON Lines, one state per line (- for stdin)")
    add_out(p, 'JSON Lines {"solvable": bool} (default: stdout)')
    return p


def run(args: argparse.Namespace) -> int:
    """``{"solvable": bool}`` per state; ``{"solvable": null, "undecided": why}`` when the oracle's
    work budget runs out (exit 1 then, after writing every line)."""
    from ..data.state_labels import label_counts, label_states, read_states

    engine = get_engine(args.domain)  # an unknown name: a one-line error (expected_failure)
    check_output(args.out, [("--input", args.input)])
    states = read_states(args.input)
    labels = []
    with writing(args.out) as out:
        for line in label_states(engine, states, source=args.input, progress=progress):
            labels.append(line)
            out.write(json.dumps(line) + "\n")
    counts = label_counts(labels)
    undecided = f" ({counts['undecided']} undecided)" if counts["undecided"] else ""
    print(f"solvable: {counts['solvable']}/{counts['total']}{undecided}", file=report_stream(args.out))
    return 1 if counts["undecided"] else 0
