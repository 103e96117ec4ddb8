"""math-verify, bounded and silent: :func:`math_correct` compares a committed answer with the reference
(plain numbers and fractions exactly, anything else with math-verify under its 1-second timeouts, in a
worker process when called off the main thread); math-verify's loggers are silenced, so no completion
text is ever logged."""
from __future__ import annotations

import logging
import threading
import warnings
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Callable, Iterator

from finereason.integrations.training.rewards.math_reading import exact_number, is_integer_text

MAX_GOLD_CHARS = 1_000     # a longer reference answer is not parsed
MATH_TIMEOUT_S = 1         # math-verify's own timeouts (whole seconds: signal.alarm), parse and compare


_QUIET = threading.Lock()
_quiet_depth = 0
_quiet_saved: list[tuple[logging.Logger, bool]] = []


@contextmanager
def _quiet() -> Iterator[None]:
    """math-verify and its LaTeX parser log failing input verbatim ("Timeout during parsing: <text>"):
    disable their loggers (and warnings) while they run, so completion text never reaches a log.
    Re-entrant across threads: the first entry disables, the last exit restores what was there."""
    global _quiet_depth
    with _QUIET:
        if _quiet_depth == 0:
            names = [n for n in list(logging.root.manager.loggerDict)
                     if n.split(".")[0] in ("math_verify", "latex2sympy2_extended")]
            _quiet_saved[:] = [(lg, lg.disabled) for lg in map(logging.getLogger, names)]
            for lg, _ in _quiet_saved:
                lg.disabled = True
        _quiet_depth += 1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        with _QUIET:
            _quiet_depth -= 1
            if _quiet_depth == 0:
                for lg, was in _quiet_saved:
                    lg.disabled = was
                _quiet_saved.clear()


@lru_cache(maxsize=1)
def _math_verify() -> tuple[Callable, Callable, list]:
    """math-verify's ``parse``, ``verify`` and the boxed-answer extraction config, warmed up once
    outside any timeout (its first call compiles regexes and the LaTeX grammar, which would otherwise
    eat the first completion's time budget)."""
    from math_verify import LatexExtractionConfig, parse, verify

    boxed = [LatexExtractionConfig(boxed_match_priority=0)]
    with _quiet():  # a polynomial and an interval: the interval's first compare loads sympy's sets
        for gold, boxed_answer in (("$x^2+1$", "\\boxed{1+x^{2}}"), ("$[1,3]$", "\\boxed{[1,3]}")):
            verify(parse(gold, parsing_timeout=None), parse(boxed_answer, extraction_config=boxed, parsing_timeout=None),
                   timeout_seconds=None)
    return parse, verify, boxed


@lru_cache(maxsize=4096)
def _parse_guess(content: str) -> tuple:
    parse, _, boxed = _math_verify()
    with _quiet():
        try:
            return tuple(parse(f"\\boxed{{{content}}}", extraction_config=boxed, parsing_timeout=MATH_TIMEOUT_S))
        except Exception:  # math-verify may fail on pathological input: no reward, no crash
            return ()


@lru_cache(maxsize=4096)
def _parse_gold(answer: str) -> tuple:
    if len(answer) > MAX_GOLD_CHARS:
        return ()
    parse, _, _ = _math_verify()
    with _quiet():
        try:
            return tuple(parse(f"${answer}$", parsing_timeout=MATH_TIMEOUT_S))
        except Exception:
            return ()


def _readable_here(guess: str) -> bool:
    return bool(_parse_guess(guess))


def _verify_here(guess: str, gold: str) -> bool:
    """math-verify in this process, under its signal-based timeouts (main thread only)."""
    gold_parsed, guess_parsed = _parse_gold(gold), _parse_guess(guess)
    if not gold_parsed or not guess_parsed:
        return False
    _, verify, _ = _math_verify()
    with _quiet():
        try:
            return bool(verify(list(gold_parsed), list(guess_parsed), timeout_seconds=MATH_TIMEOUT_S))
        except Exception:
            return False


# Off the main thread math-verify's ``signal.alarm`` timeouts cannot run (and sympy can work for
# minutes on a 256-character box), so there the work goes to one spawned worker process, whose main
# thread runs it under those timeouts; a request that overruns the budget kills the worker (no reward).
WORKER_BUDGET_S = 3 * MATH_TIMEOUT_S + 2   # parse guess + parse reference + compare, plus slack
WORKER_START_S = 120                       # first start: a fresh interpreter imports math-verify
_WORKER_LOCK = threading.Lock()
_WORKER: dict[str, Any] = {}


def _worker_loop(conn: Any) -> None:
    """The worker process: answer ``("parse", (guess,))`` and ``("verify", (guess, gold))`` requests."""
    _math_verify()
    conn.send("ready")
    while True:
        try:
            kind, args = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(_readable_here(*args) if kind == "parse" else _verify_here(*args))


def _stop_worker() -> None:
    proc = _WORKER.pop("proc", None)
    _WORKER.pop("conn", None)
    if proc is not None:
        proc.kill()
        proc.join(5)


def _in_worker(kind: str, args: tuple) -> bool:
    import multiprocessing

    with _WORKER_LOCK:
        try:
            if "proc" not in _WORKER or not _WORKER["proc"].is_alive():
                _stop_worker()
                ctx = multiprocessing.get_context("spawn")
                conn, child = ctx.Pipe()
                proc = ctx.Process(target=_worker_loop, args=(child,), daemon=True, name="finereason-math-verify")
                proc.start()
                child.close()
                _WORKER.update(proc=proc, conn=conn)
                if not conn.poll(WORKER_START_S) or conn.recv() != "ready":
                    raise OSError("math-verify worker did not start")
            conn = _WORKER["conn"]
            conn.send((kind, args))
            if conn.poll(WORKER_BUDGET_S):
                return bool(conn.recv())
        except (OSError, EOFError, AssertionError):  # AssertionError: a daemonic process cannot spawn
            pass
        _stop_worker()  # over budget, dead or unstartable: no reward
        return False


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def readable_math(guess: str) -> bool:
    """Whether a committed answer reads as math: an exact number, or something math-verify parses."""
    if exact_number(guess) is not None:
        return True
    return _readable_here(guess) if _on_main_thread() else _in_worker("parse", (guess,))


def math_correct(guess: str, gold: str) -> bool:
    """Whether the committed answer ``guess`` (from :func:`math_answer`) equals the reference ``gold``:
    plain numbers and fractions exactly (``0.5`` = ``\\frac{1}{2}``), anything else with math-verify
    under its 1-second timeouts (``2x+1`` = ``1 + 2x``), in a worker process when called off the
    main thread."""
    mine, theirs = exact_number(guess), exact_number(gold)
    if mine is not None and theirs is not None:
        if mine == theirs:
            return True
        if is_integer_text(guess) and is_integer_text(gold):
            return False  # exact integers and fractions that differ: no rounding can make them equal
    return _verify_here(guess, gold) if _on_main_thread() else _in_worker("verify", (guess, gold))
