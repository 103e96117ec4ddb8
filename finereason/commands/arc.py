"""``finereason arc``: the LLM-ARC actor-critic loop on FOLIO with any lm-eval model and the clingo critic."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..common.atomic_io import check_output
from ..common.plural import count
from .options import CliError, add_generation_options, add_model_options, add_out, model_generator, progress

NAME = "arc"
HELP = "LLM-ARC on FOLIO: an lm-eval model writes ASP + tests, clingo critiques (needs [asp,eval])"
DOC_MODELS = ("finereason-oracle", "finereason-random", "finereason-shallow")


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    add_model_options(p, "lm-eval model name (hf, vllm, finereason-replay, ...)")
    p.add_argument("--data", help="FOLIO source: a local folder or .jsonl (v0.0 folio-<split>.jsonl, v2 folio_v2_<split>.jsonl or a Hub-layout download) or a Hub id (default: FINEREASON_FOLIO, else $FINEREASON_REFERENCE/folio when it exists, else yale-nlp/FOLIO)")
    p.add_argument("--split", default="validation", help="split to run (default validation)")
    p.add_argument("--limit", type=int, help="first N items only")
    p.add_argument("--rounds", type=int, default=4, help="actor-critic rounds (default 4, as in LLM-ARC)")
    add_out(p, "folder for transcripts.jsonl, summary.json, sft/ and responses.jsonl (the log a rerun resumes from)", default="finereason_arc")
    p.add_argument("--sft-split", default="train", help="the training split: SFT dialogs are exported only when "
                   "--split is this split, never from a split being evaluated (default train)")
    p.add_argument("--sft-out", help="folder for the successful-dialog SFT data set (default OUT/sft)")
    p.add_argument("--no-tests", action="store_true", help="ablation: the actor writes no tests; a run ends when "
                   "the program runs and answers")
    add_generation_options(p, "tokens per actor turn")
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds per critic run (default 10)")
    p.add_argument("--jobs", type=int, default=1, help="critic runs in parallel (default 1)")
    p.add_argument("--starts-in-think", action="store_true",
                   help="the chat template's prompt already opens <think> (R1-distill-style): a response without "
                        "</think> is unfinished (no program)")
    return p


def run(args: argparse.Namespace) -> int:
    try:
        import clingo  # noqa: F401
        import lm_eval  # noqa: F401
    except ImportError as err:
        raise CliError(f"arc needs clingo and lm-eval: pip install '.[asp,eval]' in the finereason checkout ({err.name} missing)") from None
    from ..reading.context import ReadContext
    from ..workflows.arc_export import run_folio

    if args.rounds < 1 or (args.limit is not None and args.limit < 1) or args.time_limit <= 0:
        raise CliError("--rounds and --limit must be at least 1 and --time-limit positive")
    if args.model in DOC_MODELS:
        raise CliError(f"{args.model} answers FineReason puzzle items, not FOLIO problems: use a generative model "
                       "or finereason-replay (recorded responses)")
    if args.sft_out is not None and args.split != args.sft_split:
        raise CliError(f"refusing to export SFT dialogs from the {args.split} split being evaluated: run on "
                       f"--split {args.sft_split} to build training dialogs")
    out = Path(args.out)
    sft_out = Path(args.sft_out) if args.sft_out else out / "sft" if args.split == args.sft_split else None
    for written in (out, sft_out):
        check_output(written, [("--data", args.data)])
    done = run_folio(lambda: model_generator(args), out, model=args.model, model_args=args.model_args, data=args.data,
                     split=args.split, limit=args.limit, rounds=args.rounds, time_limit=args.time_limit, jobs=args.jobs,
                     tests=not args.no_tests, sft_out=sft_out, progress=progress,
                     context=ReadContext(starts_in_think=args.starts_in_think))
    summary, exported = done.summary, done.summary["sft_exported"]
    label = f"FOLIO {done.version} {args.split}"
    print(f"| round | accuracy ({label}) | active | compiled | all tests pass | tests passed |\n|---|---|---|---|---|---|")
    for r, st in zip(range(1, args.rounds + 1), summary["round_statistics"]):
        passed = f"{st['tests_passed']}/{st['tests_total']}" if st["tests_total"] else "-"
        print(f"| {r} | {summary[f'round_{r}']:.4f} | {st['active']} | {st['compiled']} | {st['all_tests_passed']} | {passed} |")
    sft = (f"{exported} successful dialogs exported" if exported is not None
           else f"no SFT export (the {args.split} split is being evaluated; run --split {args.sft_split} for training dialogs)")
    print(f"final accuracy {summary['final']:.4f} on {count(len(done.dialogs), 'item')} of {label}; {sft}; "
          f"wrote {out.resolve()} in {done.seconds:.1f} s")
    return 0
