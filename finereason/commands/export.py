"""``finereason export FORMAT``: data sets in another RL framework's format (``verl``: train and validation
parquet in verl's schema, scored by ``finereason.integrations.verl.compute_score``)."""
from __future__ import annotations

import argparse

from .options import add_out, add_seed, need_builders, register_group, run_action

NAME = "export"
HELP = "export puzzle datasets for another RL framework"


class Verl:
    """``finereason export verl``: one action of the group (the table lists it as a row of its own)."""

    NAME = "verl"
    HELP = "train.parquet and validation.parquet in verl's RL dataset schema"

    @staticmethod
    def register(actions: argparse._SubParsersAction) -> argparse.ArgumentParser:
        p = actions.add_parser(Verl.NAME, help=Verl.HELP)
        p.add_argument("--tasks", nargs="+", required=True, metavar="DATASET",
                       help="datasets to export: <domain>_<task> names (finereason.list_datasets())")
        add_out(p, "output folder (absent or empty): train.parquet, validation.parquet", required=True)
        add_seed(p)
        p.add_argument("--train-size", type=int, default=1000, help="train rows per dataset (default 1000)")
        p.add_argument("--val-size", type=int, default=100, help="validation rows per dataset (default 100)")
        return p

    @staticmethod
    def run(args: argparse.Namespace) -> int:
        need_builders()
        from ..integrations.verl.export import export_verl

        tasks = [t.strip() for chunk in args.tasks for t in chunk.split(",") if t.strip()]
        counts = export_verl(tasks, args.out, train_size=args.train_size, val_size=args.val_size, seed=args.seed)
        for file, rows in counts.items():
            print(f"  {file}.parquet{rows:>9} rows")
        print("reward: reward.custom_reward_function.path=<finereason>/integrations/verl/__init__.py "
              "reward.custom_reward_function.name=compute_score")
        return 0


ACTIONS = (Verl,)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return register_group(subparsers, NAME, HELP, ACTIONS, "export_format", "FORMAT")


def run(args: argparse.Namespace) -> int:
    """Run the format named on the command line."""
    return run_action(ACTIONS, args.export_format, args)
