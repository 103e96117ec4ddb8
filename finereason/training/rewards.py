"""GRPO reward functions for TRL, looked up by name from one registry (``get_rewards``).

Every function has TRL's signature ``f(completions, **columns) -> list[float | None]``: dataset
columns arrive as keyword arguments, and ``None`` means "not applicable" (a puzzle reward on a math
row and vice versa). Rewards read model text exactly as evaluation does: puzzle verdicts come from
``finereason.verification.scoring.score_row`` and the format check from ``finereason.verification.verifiers.format_ok`` (the
one answer reader), so a reward never pays for what a published score would not credit.

Registry names: ``state_checking``, ``state_transition``, ``end_to_end``, ``puzzle`` (any puzzle
task), ``format`` and ``math``. :func:`get_rewards` takes ``partial_credit`` (state-transition credit
per error category) and ``starts_in_think`` (the chat template's generation prompt already opened
``<think>``, as for R1-distill, QwQ and Qwen3 thinking models: see :func:`prompt_opens_think`).

Rules, for every reward:

* Text up to the last ``</think>`` is reasoning and is never graded; unfinished reasoning (``<think>``
  without ``</think>``, or no ``</think>`` at all with ``starts_in_think``) earns 0 from every reward.
* ``format``: 1.0 only for exactly one committed final answer in the form the prompt asks for
  (``Answer: (A)``, ``Next state: [...]``, ``Answer: <solution>``, a final ``\\boxed{}`` for math).
  Hedging (``(A) or (B)``) and keyword spam earn 0.
* ``math``: only ``\\boxed{}`` answers after the reasoning count (no last-number fallback); they must all
  agree (``\\boxed{3} or \\boxed{5}`` earns 0). Verification is bounded (see :func:`math_answer`): the
  boxed text is capped, plain numbers and fractions are compared exactly without math-verify, explosive
  constructs are refused, math-verify runs under its own 1-second timeouts (signal-based; off the
  main thread in a worker process that is killed when it overruns) with its loggers silenced, so no
  completion text is ever logged.
"""
from __future__ import annotations

import logging
import re
import threading
import warnings
from collections import Counter
from contextlib import contextmanager
from fractions import Fraction
from collections.abc import Mapping  # not typing.Mapping: its isinstance check is several times slower
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator

from finereason.verification.aggregation import PARSE_ERROR_RATE, rate_name
from finereason.reading import final_region, find_signals
from finereason.verification.verifiers import format_ok
from finereason.verification.scoring import score_row
from finereason.training.mixing import MATH_TASK, PUZZLE_COLUMNS
from finereason.common.verdict import TRANSITION_CATEGORIES, Category
from finereason.common.vocabulary import END_TO_END, STATE_CHECKING, STATE_TRANSITION, TASKS

Reward = Callable[..., list]
PUZZLE_TASKS = TASKS  # the tasks the puzzle rewards judge (every FineReason task)
ROW_COLUMNS = PUZZLE_COLUMNS  # the dataset columns a puzzle verdict reads
REASONING_KEYS = ("reasoning_content", "reasoning", "thinking")  # parsed-out reasoning in a message

# Bounds of the math reward (issue: math verification of any completion within a fixed time budget).
MAX_BOXED_CHARS = 256      # a longer boxed answer earns nothing (and is never parsed)
MAX_BOXES = 32             # more boxed answers than this in the final region is spam: uncommitted
MAX_BRACE_DEPTH = 8        # deeper nesting in a boxed answer is refused
MAX_GOLD_CHARS = 1_000     # a longer reference answer is not parsed
MATH_TIMEOUT_S = 1         # math-verify's own timeouts (whole seconds: signal.alarm), parse and compare


class RewardConfigError(ValueError):
    """An unknown reward name or bad reward parameters (reported before any model is loaded)."""


# ------------------------------------------------------------------ completions
def _content_text(content: Any) -> str:
    """A message's content: a string, or a list of parts whose text parts are joined in order."""
    if isinstance(content, str):  # the common case first
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text") or "") for part in content
                       if isinstance(part, Mapping) and part.get("type", "text") == "text")
    if isinstance(content, Mapping):  # a single part
        return _content_text([content])
    return "" if content is None else str(content)


def _is_part(item: Any) -> bool:
    return isinstance(item, Mapping) and "type" in item and "role" not in item and "content" not in item


def _message_text(message: Mapping) -> str:
    """One assistant message as raw model text: reasoning that a response parser split off
    (``reasoning_content``/``reasoning``/``thinking``) goes back inside ``<think>...</think>``."""
    content = _content_text(message.get("content"))
    for key in REASONING_KEYS:
        reasoning = message.get(key)
        if isinstance(reasoning, str) and reasoning:
            return f"<think>{reasoning}</think>{content}"
    return content


def completion_text(completion: Any) -> str:
    """The model's text in a completion: a string; one message (dict); or a conversation (list of
    messages, whose assistant turns are joined in order: tool and user turns are not the model's
    words). Content may be a string or a list of ``{"type": "text", "text": ...}`` parts."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        return _content_text([completion]) if _is_part(completion) else _message_text(completion)
    if isinstance(completion, (list, tuple)):
        if all(_is_part(m) for m in completion):  # the content parts themselves
            return _content_text(list(completion))
        turns = [_message_text(m) for m in completion
                 if isinstance(m, Mapping) and m.get("role", "assistant") == "assistant"]
        return "\n".join(turns)
    return "" if completion is None else str(completion)


def prompt_opens_think(tokenizer: Any, chat_template_kwargs: Mapping[str, Any] | None = None) -> bool:
    """Whether the tokenizer's chat template ends its generation prompt inside an open ``<think>``
    (R1-distill, QwQ, Qwen3 thinking models), so completions never contain the opening tag and a
    completion without ``</think>`` is unfinished. False without a chat template."""
    messages = [{"role": "user", "content": "Is the state solvable?"}]
    kwargs = dict(chat_template_kwargs or {})
    try:
        with_prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True, **kwargs)
        without = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=False, **kwargs)
    except Exception:  # no chat template (plain prompts) or one that needs other messages
        return False
    if not isinstance(with_prompt, str):
        return False
    suffix = with_prompt[len(without):] if isinstance(without, str) and with_prompt.startswith(without) else with_prompt
    return "<think>" in suffix.lower() and final_region(suffix) is None


# ------------------------------------------------------------------ puzzle rewards
def _rows(kwargs: Mapping[str, Any], n: int) -> list[dict]:
    columns = {name: kwargs.get(name) or [None] * n for name in ROW_COLUMNS}
    return [{name: columns[name][i] for name in ROW_COLUMNS} for i in range(n)]


def _score_tasks(completions: list, kwargs: Mapping[str, Any], tasks: Iterable[str], starts_in_think: bool) -> list:
    tasks = set(tasks)
    rows = _rows(kwargs, len(completions))
    return [score_row(row, completion_text(c), starts_in_think=starts_in_think) if row["task"] in tasks else None
            for row, c in zip(rows, completions)]


def _log(kwargs: Mapping[str, Any], scores: list, task: str) -> None:
    """Log ``finereason/<task>/parse_error_rate`` (and ``rate_<category>`` for state transition)."""
    log_metric = kwargs.get("log_metric")
    judged = [s for s in scores if s is not None]
    if log_metric is None or not judged:
        return
    prefix = f"finereason/{task}"
    counts = Counter(s.verdict.category for s in judged)
    log_metric(f"{prefix}/{PARSE_ERROR_RATE}", counts.get(Category.PARSE_ERROR.value, 0) / len(judged))
    if task == STATE_TRANSITION:
        for category in TRANSITION_CATEGORIES:
            log_metric(f"{prefix}/{rate_name(category)}", counts.get(category, 0) / len(judged))


def _binary(scores: list) -> list:
    return [None if s is None else float(s.verdict.correct) for s in scores]


def state_checking_reward(completions: list, *, starts_in_think: bool = False, **kwargs: Any) -> list:
    """1.0 for the right committed (A)/(B) choice on a state-checking row, else 0.0; ``None`` on other rows."""
    scores = _score_tasks(completions, kwargs, [STATE_CHECKING], starts_in_think)
    _log(kwargs, scores, STATE_CHECKING)
    return _binary(scores)


def state_transition_reward(partial_credit: Mapping[str, float] | None = None, *,
                            starts_in_think: bool = False) -> Reward:
    """A state-transition reward: 1.0 for a correct move (strict verifier), ``partial_credit[category]``
    for the other categories (default 0.0; never for a parse error or unfinished reasoning), ``None``
    on other rows. Logs every category's rate."""
    credit = dict(partial_credit or {})
    unknown = sorted(set(credit) - set(TRANSITION_CATEGORIES))
    if unknown:
        raise RewardConfigError(f"unknown state-transition categories in partial credit: {', '.join(unknown)}")
    if credit.get(Category.PARSE_ERROR.value):
        raise RewardConfigError("parse_error cannot earn partial credit: an unreadable answer or unfinished "
                                "reasoning earns 0")
    for category, value in credit.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= float(value) <= 1.0:
            raise RewardConfigError(f"partial credit for {category} must be a number in [0, 1], got {value!r}")

    def reward(completions: list, **kwargs: Any) -> list:
        scores = _score_tasks(completions, kwargs, [STATE_TRANSITION], starts_in_think)
        _log(kwargs, scores, STATE_TRANSITION)
        return [None if s is None else 1.0 if s.verdict.correct else float(credit.get(s.verdict.category, 0.0))
                for s in scores]

    reward.__name__ = reward.__qualname__ = "state_transition_reward"
    return reward


def end_to_end_reward(completions: list, *, starts_in_think: bool = False, **kwargs: Any) -> list:
    """1.0 when a proposed full solution satisfies every rule; ``None`` on other rows."""
    scores = _score_tasks(completions, kwargs, [END_TO_END], starts_in_think)
    _log(kwargs, scores, END_TO_END)
    return _binary(scores)


def puzzle_reward(completions: list, *, starts_in_think: bool = False, **kwargs: Any) -> list:
    """Correctness on any puzzle row (strict verifier for state transition); ``None`` on math rows.
    Logs each task's parse-error rate and every state-transition category's rate."""
    scores = _score_tasks(completions, kwargs, PUZZLE_TASKS, starts_in_think)
    for task in PUZZLE_TASKS:
        _log(kwargs, [s if s is not None and s.task == task else None for s in scores], task)
    return _binary(scores)


def format_reward(completions: list, *, starts_in_think: bool = False, **kwargs: Any) -> list:
    """1.0 for exactly one committed final answer in the requested form (puzzle rows:
    ``verifiers.format_ok``; math rows: a committed final ``\\boxed{}`` answer that reads as math),
    right or wrong; else 0.0. ``None`` on rows of an unknown task."""
    n = len(completions)
    tasks = kwargs.get("task") or [None] * n
    puzzles = kwargs.get("puzzle") or [None] * n
    answers = kwargs.get("answer") or [None] * n
    out: list = []
    for task, puzzle, gold, completion in zip(tasks, puzzles, answers, completions):
        text = completion_text(completion)
        if task in PUZZLE_TASKS:
            out.append(1.0 if format_ok(task, text, starts_in_think=starts_in_think, puzzle=puzzle) else 0.0)
        elif task == MATH_TASK:
            guess = math_answer(text, starts_in_think=starts_in_think, gold=gold)
            out.append(1.0 if guess is not None and _readable_math(guess) else 0.0)
        else:
            out.append(None)
    return out


# ------------------------------------------------------------------ math: the committed boxed answer
_BOXED = re.compile(r"\\boxed[ \t]{0,4}\{")
_SPACING = re.compile(r"\\[,!;: ]|\\quad|\\qquad|[\s$]")
_HEDGE = re.compile(r"(?<![A-Za-z\\])(?:or|either|maybe|perhaps)(?![A-Za-z])|\\lor(?![A-Za-z])|\\vee(?![A-Za-z])|\?",
                    re.IGNORECASE)
_HEAVY = re.compile(r"\\(?:sum|prod|int|iint|oint|lim|binom|dbinom|tbinom|choose)(?![A-Za-z])|\*\*")
_NUMBER = re.compile(r"([+-]?)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|\.\d+)")
_FRACTION = re.compile(r"([+-]?)\\[dt]?frac(?:\{([+-]?\d{1,30})\}\{([+-]?\d{1,30})\}|(\d)(\d))|([+-]?)(\d{1,30})/(\d{1,30})")


def _boxed_contents(region: str) -> list[str] | None:
    """The contents of the ``\\boxed{}`` answers in ``region`` (last :data:`MAX_BOXES`), or ``None``
    when there are more (spam). A box that is unclosed, longer than :data:`MAX_BOXED_CHARS` or nested
    deeper than :data:`MAX_BRACE_DEPTH` yields ``None`` as its content (never parsed)."""
    starts: list[int] = []
    for m in _BOXED.finditer(region):
        starts.append(m.end())
        if len(starts) > MAX_BOXES:
            return None
    contents: list[str] = []
    for begin in starts:
        depth, i, stop = 1, begin, min(len(region), begin + MAX_BOXED_CHARS + 1)
        deepest = 1
        while i < stop and depth:
            ch = region[i]
            if ch == "{":
                depth += 1
                deepest = max(deepest, depth)
            elif ch == "}":
                depth -= 1
            i += 1
        ok = depth == 0 and deepest <= MAX_BRACE_DEPTH
        contents.append(region[begin:i - 1] if ok else None)
    return contents


def _normal(content: str) -> str:
    return _SPACING.sub("", content).replace("{,}", ",").replace("\\left", "").replace("\\right", "").rstrip(".")


def _exponents_explode(content: str) -> bool:
    """Whether ``content`` asks for a huge number (``10^{10^{10}}``, ``{9^9}^9``, ``(10^{99})!``,
    ``9^{99999}``): such numbers are computed in C, where no timeout can stop them."""
    for i, ch in enumerate(content):
        if ch == "!" and i and (content[i - 1] in ")}]" or content[max(0, i - 4):i].isdigit()):
            return True  # factorial of a group or of a number with 4+ digits
        if ch != "^":
            continue
        exponent = _group_after(content, i + 1)
        if "^" in exponent or "!" in exponent or any(len(run) > 3 for run in re.findall(r"\d+", exponent)):
            return True
        if i and content[i - 1] in ")}]" and "^" in _group_before(content, i - 1):
            return True  # a power of a power
    return False


def _group_after(text: str, i: int) -> str:
    """The exponent starting at ``text[i]``: a braced group, else one character."""
    while i < len(text) and text[i] == " ":
        i += 1
    if i >= len(text):
        return ""
    if text[i] != "{":
        return text[i]
    depth, j = 0, i
    while j < len(text):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        j += 1
        if depth == 0:
            break
    return text[i:j]


def _group_before(text: str, close: int) -> str:
    """The bracketed group ending at ``text[close]`` (``)``, ``}`` or ``]``), with what opens it."""
    pairs = {")": "(", "}": "{", "]": "["}
    depth, j = 0, close
    while j >= 0:
        if text[j] == text[close]:
            depth += 1
        elif text[j] == pairs[text[close]]:
            depth -= 1
            if depth == 0:
                return text[max(0, j - 1):close + 1]
        j -= 1
    return text[:close + 1]


def math_answer(text: str, *, starts_in_think: bool = False, gold: str | None = None) -> str | None:
    """The committed final math answer of ``text``: the content of its ``\\boxed{}`` answers after
    the reasoning, or ``None`` when there is none to grade.

    ``None`` when: reasoning is unfinished; no box; a withdrawal after the last box (the commitment
    rule of :mod:`finereason.reading`: "wait, that's wrong", "I'm not sure"); boxes that disagree (``\\boxed{3} or \\boxed{5}``)
    or more than :data:`MAX_BOXES` of them; an empty, unclosed, over-long or over-nested box; a hedge
    inside the box (``3 \\text{ or } 5``, ``?``) unless the reference answer has one too; sums,
    products, integrals, limits, binomials or exponent towers the reference answer does not use.
    """
    region = final_region(text, starts_in_think=starts_in_think)
    if region is None:
        return None
    contents = _boxed_contents(region)
    if not contents or any(c is None for c in contents):
        return None
    if find_signals(region, solving=True).first(region.rfind("\\boxed")) is not None:
        return None  # withdrawn after it is given ("wait, that's wrong", "I'm not sure")
    normal = {_normal(c) for c in contents}
    if len(normal) != 1 or not next(iter(normal)):
        return None  # boxes that disagree, or an empty box
    guess = contents[-1].strip()
    gold = gold if isinstance(gold, str) else ""
    if _HEDGE.search(guess) and not _HEDGE.search(gold):
        return None
    if (_HEAVY.search(guess) and not _HEAVY.search(gold)) or _exponents_explode(guess):
        return None
    return guess


def _exact_number(content: str) -> Fraction | None:
    """``content`` as an exact number when it is a plain integer, decimal or fraction, else ``None``."""
    text = _normal(content)
    m = _NUMBER.fullmatch(text)
    if m:
        value = Fraction(m.group(2).replace(",", ""))
        return -value if m.group(1) == "-" else value
    m = _FRACTION.fullmatch(text)
    if not m:
        return None
    sign = m.group(1) or m.group(6) or ""
    num, den = (m.group(2), m.group(3)) if m.group(2) else (m.group(4), m.group(5)) if m.group(4) else (m.group(7), m.group(8))
    if int(den) == 0:
        return None
    value = Fraction(int(num), int(den))
    return -value if sign == "-" else value


def _is_integer_text(content: str) -> bool:
    return "." not in _normal(content)


# ------------------------------------------------------------------ math-verify, bounded and silent
@contextmanager
def _quiet() -> Iterator[None]:
    """math-verify and its LaTeX parser log failing input verbatim ("Timeout during parsing: <text>"):
    disable their loggers (and warnings) while they run, so completion text never reaches a log."""
    names = [n for n in list(logging.root.manager.loggerDict)
             if n.split(".")[0] in ("math_verify", "latex2sympy2_extended")]
    loggers = [logging.getLogger(n) for n in names]
    before = [lg.disabled for lg in loggers]
    for lg in loggers:
        lg.disabled = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        for lg, was in zip(loggers, before):
            lg.disabled = was


@lru_cache(maxsize=1)
def _math_verify() -> tuple[Callable, Callable, list]:
    """math-verify's ``parse``, ``verify`` and the boxed-answer extraction config, warmed up once
    outside any timeout (its first call compiles regexes and the LaTeX grammar, which would otherwise
    eat the first completion's time budget)."""
    from math_verify import LatexExtractionConfig, parse, verify

    boxed = [LatexExtractionConfig(boxed_match_priority=0)]
    with _quiet():
        verify(parse("$x^2+1$", parsing_timeout=None), parse("\\boxed{1+x^{2}}", extraction_config=boxed,
                                                            parsing_timeout=None), timeout_seconds=None)
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


def _readable_math(guess: str) -> bool:
    if _exact_number(guess) is not None:
        return True
    return _readable_here(guess) if _on_main_thread() else _in_worker("parse", (guess,))


def math_correct(guess: str, gold: str) -> bool:
    """Whether the committed answer ``guess`` (from :func:`math_answer`) equals the reference ``gold``:
    plain numbers and fractions exactly (``0.5`` = ``\\frac{1}{2}``), anything else with math-verify
    under its 1-second timeouts (``2x+1`` = ``1 + 2x``), in a worker process when called off the
    main thread."""
    mine, theirs = _exact_number(guess), _exact_number(gold)
    if mine is not None and theirs is not None:
        if mine == theirs:
            return True
        if _is_integer_text(guess) and _is_integer_text(gold):
            return False  # exact integers and fractions that differ: no rounding can make them equal
    return _verify_here(guess, gold) if _on_main_thread() else _in_worker("verify", (guess, gold))


def math_reward(completions: list, *, starts_in_think: bool = False, **kwargs: Any) -> list:
    """1.0 when the completion's committed final ``\\boxed{}`` answer equals the ``answer`` column
    (``\\frac{1}{2}`` equals ``0.5``), else 0.0; ``None`` on puzzle rows."""
    n = len(completions)
    tasks = kwargs.get("task") or [None] * n
    answers = kwargs.get("answer") or [None] * n
    out: list = []
    for task, gold, completion in zip(tasks, answers, completions):
        if task != MATH_TASK:
            out.append(None)
            continue
        if not isinstance(gold, str) or not gold.strip():
            out.append(0.0)
            continue
        guess = math_answer(completion_text(completion), starts_in_think=starts_in_think, gold=gold)
        out.append(1.0 if guess is not None and math_correct(guess, gold.strip()) else 0.0)
    return out


# ------------------------------------------------------------------ registry
def _bound(func: Callable[..., list], starts_in_think: bool) -> Reward:
    """``func`` with ``starts_in_think`` fixed, under its own name (TRL logs ``rewards/<name>/mean``)."""
    if not starts_in_think:
        return func

    def reward(completions: list, **kwargs: Any) -> list:
        return func(completions, starts_in_think=True, **kwargs)

    reward.__name__ = reward.__qualname__ = func.__name__
    reward.__doc__ = func.__doc__
    return reward


REGISTRY: dict[str, Callable[..., Reward]] = {
    STATE_CHECKING: lambda starts_in_think=False, **_: _bound(state_checking_reward, starts_in_think),
    STATE_TRANSITION: lambda partial_credit=None, starts_in_think=False, **_:
        state_transition_reward(partial_credit, starts_in_think=starts_in_think),
    END_TO_END: lambda starts_in_think=False, **_: _bound(end_to_end_reward, starts_in_think),
    "puzzle": lambda starts_in_think=False, **_: _bound(puzzle_reward, starts_in_think),
    "format": lambda starts_in_think=False, **_: _bound(format_reward, starts_in_think),
    "math": lambda starts_in_think=False, **_: _bound(math_reward, starts_in_think),
}

REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    STATE_CHECKING: ("task", "puzzle", "inputs", "outputs", "label"),
    STATE_TRANSITION: ("task", "puzzle", "inputs", "outputs", "label"),
    END_TO_END: ("task", "puzzle", "inputs", "outputs"),
    "puzzle": ("task", "puzzle", "inputs", "outputs", "label"),
    "format": ("task",),
    "math": ("task", "answer"),
}


def get_rewards(names: Iterable[str], *, partial_credit: Mapping[str, float] | None = None,
                starts_in_think: bool = False) -> list[Reward]:
    """Reward functions for ``names``; an unknown name fails with one clear line.

    ``starts_in_think``: the prompt already opened ``<think>`` (see :func:`prompt_opens_think`), so a
    completion without ``</think>`` is unfinished reasoning and earns 0 from every reward.
    """
    names = list(names)
    if not names:
        raise RewardConfigError("no reward functions named (reward_funcs is empty)")
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        raise RewardConfigError(f"unknown reward {unknown[0]!r}; known rewards: {', '.join(REGISTRY)}")
    return [REGISTRY[n](partial_credit=partial_credit, starts_in_think=bool(starts_in_think)) for n in names]


def check_columns(names: Iterable[str], columns: Iterable[str]) -> None:
    """Fail early when the training data lacks a column a named reward reads."""
    have = set(columns)
    for name in names:
        missing = [c for c in REQUIRED_COLUMNS.get(name, ()) if c not in have]
        if missing:
            raise RewardConfigError(f"reward {name!r} needs dataset column(s) {', '.join(missing)}, which the training data lacks")


__all__ = ["MATH_TASK", "MATH_TIMEOUT_S", "MAX_BOXED_CHARS", "MAX_BOXES", "PUZZLE_TASKS", "REGISTRY", "REQUIRED_COLUMNS",
           "ROW_COLUMNS", "Reward", "RewardConfigError", "check_columns", "completion_text", "end_to_end_reward",
           "format_reward", "get_rewards", "math_answer", "math_correct", "math_reward", "prompt_opens_think",
           "puzzle_reward", "state_checking_reward", "state_transition_reward"]
