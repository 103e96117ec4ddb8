"""``finereason push``: upload a built folder to the Hugging Face Hub."""
from __future__ import annotations

import argparse
from pathlib import Path

from .options import need_builders

NAME = "push"
HELP = "upload a built folder to the Hugging Face Hub"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    p.add_argument("--data", required=True, help="a folder written by build or import-official")
    p.add_argument("--repo-id", required=True, help="ORG/NAME of the dataset repository")
    p.add_argument("--private", action="store_true", help="create the repository as private")
    return p


def run(args: argparse.Namespace) -> int:
    need_builders()
    from ..dataset_builders.push import push

    url = push(Path(args.data), args.repo_id, args.private)
    print(f"pushed {args.data} to {url}")
    return 0
