"""``finereason loop``: propose, verify, back-prompt (Stechly et al. 2024) with any lm-eval model on one domain."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..common.plural import count
from .options import CliError, add_generation_options, add_model_options, add_out, model_generator, progress

NAME = "loop"
HELP = "propose-verify-back-prompt loops (Stechly et al. 2024) with any lm-eval model (needs [eval])"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(NAME, help=HELP)
    add_model_options(p, "lm-eval model name (hf, vllm, local-chat-completions, finereason-oracle, finereason-replay, ...)")
    p.add_argument("--domain", required=True, help="the domain (see `finereason domains`)")
    p.add_argument("--data", help="a folder written by build / import-official (default: FINEREASON_DATA_DIR, FINEREASON_HUB_ID or the embedded default)")
    p.add_argument("--limit", type=int, help="first N instances only")
    p.add_argument("--feedback", nargs="+", choices=("none", "binary", "first_error", "all_errors", "self"),
                   help="feedback level(s), one run each (default all_errors; none when only --sampling is given)")
    p.add_argument("--max-rounds", type=int, default=15, help="rounds per instance (default 15)")
    p.add_argument("--sampling", action="store_true", help="also run plain re-sampling: the prompt alone each round, no feedback")
    p.add_argument("--temperature", type=float, help="sampling temperature (default 0, or 1 when --sampling is the only condition)")
    add_out(p, "folder for <condition>/transcripts.jsonl, summary.json and the plot (default ./finereason_loop; "
               "the same run resumes there, another run's folder is refused)", default="finereason_loop")
    p.add_argument("--overwrite", action="store_true", help="start afresh in an --out that holds a loop run (its files are removed)")
    add_generation_options(p, "tokens per answer")
    p.add_argument("--starts-in-think", action="store_true",
                   help="the chat template's prompt already opens <think> (R1-distill-style): a response without "
                        "</think> is unfinished (no answer, no self-verdict)")
    return p


def run(args: argparse.Namespace) -> int:
    try:
        import lm_eval  # noqa: F401
    except ImportError as err:
        raise CliError(f"loop needs lm-eval: pip install '.[eval]' in the finereason checkout ({err.name} missing)") from None
    from ..reading.context import ReadContext
    from ..workflows.loop import run_loop

    out = Path(args.out)
    done = run_loop(args.model, args.domain, lambda temperature: model_generator(args, temperature=temperature), out,
                    model_args=args.model_args, data=args.data, limit=args.limit, feedback=args.feedback,
                    sampling=args.sampling, max_rounds=args.max_rounds, temperature=args.temperature,
                    overwrite=args.overwrite, apply_chat_template=args.apply_chat_template,
                    max_gen_toks=args.max_gen_toks, progress=progress,
                    context=ReadContext(starts_in_think=args.starts_in_think))
    shown = sorted({r for r in (1, 2, 3, 5, 10, 15, args.max_rounds) if r <= args.max_rounds})
    print("| condition | " + " | ".join(f"round {r}" for r in shown) + " | prompt chars | prompt tokens |")
    print("|---|" + "---|" * (len(shown) + 2))
    for condition in done.conditions:
        summary = done.summaries[condition]
        acc = summary["accuracy_by_round"]
        tokens = summary["prompt_tokens"] if summary["prompt_tokens"] is not None else "-"
        print(f"| {condition} | " + " | ".join(f"{acc[str(r)]:.3f}" for r in shown) +
              f" | {summary['prompt_chars']} | {tokens} |")
    print(f"{count(done.instances, done.domain + ' instance')}; wrote {out.resolve()} (summary.json"
          f"{', ' + done.plot.name if done.plot else ''}) in {done.seconds:.1f} s")
    return 0
