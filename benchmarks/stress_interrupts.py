"""Interrupt stress: random SIGINT/SIGKILL points during ``score``, ``label``, ``tiny-model`` and ``build``.

For each point a fresh ``finereason`` process is started in its own process group (as a shell job
is), a signal is sent to the group after a random delay drawn from ``[0, 1.2 x`` the command's
uninterrupted duration ``]`` (so some runs finish first), and the target is then checked:

- ``old``: exactly the content it had before the run (a file's bytes; a folder's files and bytes);
- ``new``: exactly the content of an uninterrupted reference run;
- anything else is ``PARTIAL`` (a failure), and a run still alive ``--hang-after`` seconds after its
  signal is a ``HANG`` (a failure).

Leftovers of killed runs (temporary files/folders beside the target) are counted after each point;
the next run must remove them, which the final clean run of every command checks.

    python benchmarks/stress_interrupts.py --points 200              # spread evenly over the four commands
    python benchmarks/stress_interrupts.py --plan score=80 label=80 tiny-model=20 build=20   # 200, fewer slow ones
    python benchmarks/stress_interrupts.py --points 8 --commands label score

Exit status 1 when any point was partial, hung, or left leftovers behind the final clean run.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
LEFTOVER_MARKS = (".finereason-tmp-", ".partial-", ".old", ".lock")


def digest(target: Path) -> str | None:
    """A content fingerprint: a file's bytes, or a folder's relative paths and bytes (``None``: absent)."""
    if not target.exists():
        return None
    h = hashlib.sha256()
    if target.is_file():
        h.update(target.read_bytes())
        return "file:" + h.hexdigest()
    for path in sorted(p for p in target.rglob("*") if p.is_file()):
        h.update(path.relative_to(target).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return "dir:" + h.hexdigest()


def leftovers(target: Path) -> list[str]:
    """Entries beside ``target`` that a killed run may leave (temporary files/folders, locks)."""
    prefix = "." + target.name
    return sorted(p.name for p in target.parent.iterdir()
                  if p.name.startswith(prefix) and any(mark in p.name for mark in LEFTOVER_MARKS))


@dataclass
class Command:
    """One command under test: its argv (``{out}`` is the target), and how to (re)set the old content."""

    name: str
    argv: list[str]
    target: Path
    prepare_old: Callable[[Path], None]
    ref_seconds: float = 0.0
    new_digest: str | None = None
    old_digest: str | None = None
    outcomes: dict[str, int] = field(default_factory=dict)


def run(argv: list[str], timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "finereason", *argv], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "OMP_NUM_THREADS": "1"})


def reset(target: Path) -> None:
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    elif target.exists() or target.is_symlink():
        target.unlink()


def setup(work: Path, names: list[str]) -> list[Command]:
    """Inputs and reference outputs for each command (each reference run is timed)."""
    from finereason.domains.sudoku.engine import SudokuEngine  # one domain's official sample feeds the commands

    states = SHARED / "finereason_official" / f"{SudokuEngine.official_name}_states_sample.jsonl"
    if not states.is_file():
        sys.exit(f"needs {states} (../shared beside the checkout)")
    official = work / f"{SudokuEngine.official_name}_states.json"
    shutil.copy(states, official)
    records = [json.loads(line) for line in official.read_text().splitlines() if line.strip()]
    responses = work / "responses.jsonl"
    responses.write_text("".join(json.dumps({"index": i, "response": f"Next state: {r['inputs']['current']}"}) + "\n"
                                 for i, r in enumerate(records)))
    grids = work / "grids.jsonl"
    grids.write_text("".join(json.dumps(r["inputs"]["current"]) + "\n" for r in records) * 3)
    old_line = '{"old": true}\n'

    def old_file(target: Path) -> None:
        reset(target)
        target.write_text(old_line)

    def old_absent(target: Path) -> None:
        reset(target)

    old_build = work / "old_build"

    def old_folder(target: Path) -> None:
        reset(target)
        shutil.copytree(old_build, target)

    build_args = ["--per-task", "6", "--train-size", "8", "--e2e-size", "2", "--num-proc", "2"]
    commands = {
        "score": Command("score", ["score", "--official", str(official), "--task", "state_transition",
                                   "--responses", str(responses), "--out", "{out}"], work / "score_out.jsonl", old_file),
        "label": Command("label", ["label", "--domain", SudokuEngine.name, "--input", str(grids), "--out", "{out}"],
                         work / "label_out.jsonl", old_file),
        "tiny-model": Command("tiny-model", ["tiny-model", "--out", "{out}"], work / "tiny", old_absent),
        "build": Command("build", ["build", "--out", "{out}", "--seed", "0", "--overwrite", *build_args],
                         work / "built", old_folder),
    }
    chosen = [commands[n] for n in names]
    if any(c.name == "build" for c in chosen):
        done = run(["build", "--out", str(old_build), "--seed", "1", *build_args])
        if done.returncode:
            sys.exit(f"reference build failed: {done.stderr[-500:]}")
    for command in chosen:
        command.prepare_old(command.target)
        command.old_digest = digest(command.target)
        start = time.perf_counter()
        done = run([a.replace("{out}", str(command.target)) for a in command.argv])
        command.ref_seconds = time.perf_counter() - start
        if done.returncode:
            sys.exit(f"reference run of {command.name} failed ({done.returncode}): {done.stderr[-500:]}")
        command.new_digest = digest(command.target)
        print(f"{command.name}: uninterrupted run {command.ref_seconds:.1f} s", flush=True)
    return chosen


def _default_sigint() -> None:
    """A background shell starts jobs with SIGINT ignored, which Python would inherit: undo that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def point(command: Command, rng: random.Random, hang_after: float, signals: tuple[int, ...]) -> str:
    """One interrupted run; the outcome ``old``/``new``/``PARTIAL``/``HANG``."""
    command.prepare_old(command.target)
    sig = rng.choice(signals)
    delay = rng.uniform(0, 1.2 * command.ref_seconds)
    proc = subprocess.Popen([sys.executable, "-m", "finereason", *[a.replace("{out}", str(command.target)) for a in command.argv]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            preexec_fn=_default_sigint, env={**os.environ, "OMP_NUM_THREADS": "1"})
    time.sleep(delay)
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=hang_after)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return "HANG"
    if sig == signal.SIGKILL:
        try:  # pool workers of a killed parent must not live on; reap any for the next point
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    now = digest(command.target)
    kind = "sigint" if sig == signal.SIGINT else "sigkill"
    if now == command.new_digest:
        return f"new ({kind})"
    if now == command.old_digest:
        return f"old ({kind})"
    return f"PARTIAL ({kind})"


def _plan(items: list[str]) -> dict[str, int]:
    plan = {}
    for item in items:
        name, _, count = item.partition("=")
        if name not in ("score", "label", "tiny-model", "build") or not count.isdigit():
            sys.exit(f"--plan wants COMMAND=N with COMMAND in score, label, tiny-model, build; got {item!r}")
        plan[name] = int(count)
    return plan


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=200, help="interrupt points in all (spread over the commands)")
    parser.add_argument("--commands", nargs="+", default=["score", "label", "tiny-model", "build"],
                        choices=["score", "label", "tiny-model", "build"])
    parser.add_argument("--plan", nargs="+", metavar="COMMAND=N",
                        help="points per command (overrides --points and --commands), e.g. score=80 build=20")
    parser.add_argument("--signals", nargs="+", default=["INT", "KILL"], choices=["INT", "KILL"],
                        help="signals to draw from (default both)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hang-after", type=float, default=120.0, help="seconds after the signal that count as a hang")
    parser.add_argument("--work", type=Path, help="scratch folder (default: a new temporary folder)")
    args = parser.parse_args()
    plan = _plan(args.plan) if args.plan else None
    names = list(plan) if plan else args.commands
    work = args.work or Path(tempfile.mkdtemp(prefix="finereason-stress-"))
    work.mkdir(parents=True, exist_ok=True)
    commands = setup(work, names)
    rng = random.Random(args.seed)
    schedule = ([c for c in commands for _ in range(plan[c.name])] if plan
                else [commands[k % len(commands)] for k in range(args.points)])
    rng.shuffle(schedule)
    args.points = len(schedule)
    left_behind: dict[str, int] = {c.name: 0 for c in commands}
    start = time.perf_counter()
    for k, command in enumerate(schedule):
        outcome = point(command, rng, args.hang_after, tuple(getattr(signal, f"SIG{s}") for s in args.signals))
        command.outcomes[outcome] = command.outcomes.get(outcome, 0) + 1
        left_behind[command.name] += bool(leftovers(command.target))
        if outcome.startswith(("PARTIAL", "HANG")):
            print(f"point {k}: {command.name}: {outcome}", flush=True)
    failures = 0
    print(f"\n{args.points} points in {time.perf_counter() - start:.0f} s (seed {args.seed})")
    print(f"{'command':<12}{'points':>7}  outcomes")
    for command in commands:
        # a final uninterrupted run must succeed and clean every leftover of the killed runs
        command.prepare_old(command.target)
        final = run([a.replace("{out}", str(command.target)) for a in command.argv])
        remaining = leftovers(command.target)
        ok = final.returncode == 0 and digest(command.target) == command.new_digest and not remaining
        bad = sum(n for o, n in command.outcomes.items() if o.startswith(("PARTIAL", "HANG")))
        failures += bad + (not ok)
        outcomes = ", ".join(f"{o}: {n}" for o, n in sorted(command.outcomes.items()))
        print(f"{command.name:<12}{sum(command.outcomes.values()):>7}  {outcomes}; points leaving leftovers: "
              f"{left_behind[command.name]}; final clean run {'ok' if ok else f'FAILED (rc {final.returncode}, left {remaining})'}")
    print("result:", "PASS" if not failures else f"FAIL ({failures})")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
