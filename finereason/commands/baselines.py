"""``finereason baselines``: the main job: evaluate the baseline models on the default benchmark and report."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..common.atomic_io import check_output
from ..models.baselines import STRATEGIES
from .build import build_and_print
from .options import CliError, add_out, need_builders

NAME = "baselines"
HELP = "main job: evaluate the baseline models on the default benchmark and report"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("--data", help="a built dataset folder (default: FINEREASON_DATA_DIR or the cached default build); "
                                  "a folder without a build is an error unless --build-missing")
    p.add_argument("--build-missing", action="store_true",
                   help="with --data: build the default benchmark into that folder when it holds no build yet")
    add_out(p, "where runs, summary.md, plots and lm_eval.log go (default ./finereason_baselines)", default="finereason_baselines")
    p.add_argument("--verbose", action="store_true", help="also show lm-eval's logs and per-task tables (always in OUT/lm_eval.log)")
    p.add_argument("--models", nargs="+", default=list(STRATEGIES), choices=STRATEGIES)
    p.add_argument("--tasks", default="finereason,finereason_end_to_end", help="lm-eval tasks or groups")
    p.add_argument("--limit", type=int, help="documents per task (default: all)")
    p.add_argument("--num-proc", type=int, default=2, help="processes for a build (default 2)")
    return p


def run(args: argparse.Namespace) -> int:
    """Build the default benchmark if absent, run the baseline models through lm-eval, print the
    summary table and write the plots."""
    need_builders()
    try:
        from ..integrations.lm_eval import models as lm_eval_models  # noqa: F401
        from ..integrations.report import results as report  # noqa: F401
    except ImportError as err:
        raise CliError(f"baselines needs the eval extra: pip install '.[eval]' in the finereason checkout ({err.name} missing)") from None
    from ..workflows.baselines_job import LOG_FILE, data_origin, default_build_config, run_baselines

    check_output(args.out, [("--data", args.data)])
    if args.data and not (Path(args.data) / "README.md").is_file():
        if not args.build_missing:
            what = "does not exist" if not Path(args.data).exists() else "holds no built dataset (no README.md)"
            raise CliError(f"--data {args.data}: the folder {what}; check the path, or add --build-missing to build "
                           "the default benchmark there")
        print(f"building the default benchmark into {Path(args.data)} ...", file=sys.stderr)
        build_and_print(default_build_config(Path(args.data), args.num_proc))
    data, origin = data_origin(args.data)
    print(f"finereason baselines: data {data} (from {origin})", file=sys.stderr)
    out = Path(args.out)
    done = run_baselines(data, out, args.models, args.tasks, args.limit, verbose=args.verbose)
    if done.code:
        return done.code
    print(done.report.markdown)
    print(f"report and plots written to {out.resolve()}; lm-eval's log: {out.resolve() / LOG_FILE}", file=sys.stderr)
    return 0
