"""The engine interface every puzzle domain implements.

A domain plugs in by subclassing :class:`Engine` and calling :func:`register`; the verifiers,
CLI, metrics and rewards only talk to this interface, so a new domain touches no other domain.

Glossary:
- *puzzle*: the immutable instance (givens, graph and k, numbers, clues).
- *state*: a node of the puzzle's tree (a partial grid, a partial coloring, remaining expressions,
  a partially filled table with its applied clues).
- *minimal move*: one edge of the tree; ``children`` are the forward moves, ``undo_moves`` the backward ones.
- *item*: a state shown to a model, with its path (parent, grandparent) and one unsolvable child.
"""
from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Generic, Iterator, TypeVar

import warnings

from ..common.verdict import SOLVABLE, UNSOLVABLE, ParseError, StateError, label_solvable, solvable_label
from ..common.vocabulary import END_TO_END, ORDERS, PAPER, STATE_TRANSITION
from ..reading import Reading, answer_region
from ..reading.lone import task_reading
from .difficulty import DifficultyConfig
from .literals import parse_literal

P = TypeVar("P")
S = TypeVar("S")


class StepKind(str, Enum):
    """How a proposed state relates to the current one."""

    FORWARD = "forward"      # exactly one valid minimal forward move
    NONE = "none"            # nothing changed
    BACKWARD = "backward"    # exactly one valid backward (undo) move
    MULTIPLE = "multiple"    # more than one move (cells / vertices / operations / clues)
    INVALID = "invalid"      # breaks a rule or is malformed for this puzzle


@dataclass(frozen=True)
class Step:
    """How a proposed state follows from the current one (``Engine.step``): its kind and, when it is
    not a valid move, the broken rules (a plan's action as read is :class:`finereason.planning.PlanAction`)."""

    kind: StepKind
    reasons: tuple[str, ...] = ()

    def __init__(self, kind: StepKind, reasons: tuple[str, ...] = ()) -> None:
        self.__dict__.update(kind=kind, reasons=reasons)  # one call, not one frozen setattr per field


@dataclass(frozen=True)
class BrokenStep:
    """A step named in model text that cannot even be written as a state of the puzzle (a false
    calculation, a vertex or cell that does not exist); ``reasons`` say which rule it breaks."""

    reasons: tuple[str, ...]


@dataclass(frozen=True)
class StateItem(Generic[P, S]):
    """A state shown to a model, with its path and the explored unsolvable child.

    ``solvable`` is the stored label when one is known (official data), else ``None``;
    verifiers always use the oracle's verdict, and ``check-official`` compares the two.
    """

    puzzle: P
    current: S
    parent: S | None = None
    grandparent: S | None = None
    unsolvable_child: S | None = None
    solvable: bool | None = None


class Engine(ABC, Generic[P, S]):
    """One puzzle domain: states, rules, minimal moves, exact oracle, official formats."""

    name: ClassVar[str]            # canonical name (also the prefix of its configs and tasks)
    official_name: ClassVar[str]   # name in the official release's files (``<official_name>_states.json``)

    # ------------------------------------------------------------------ domain description
    # What builders, prompts, reports, trainers and the CLI ask the registry about a puzzle; none
    # of them names one. See DEVELOPERS.md "Adding a domain".
    title: ClassVar[str] = ""                       # display title in reports
    position: ClassVar[int] = 1000                  # order in builds, tables and task groups
    move_text: ClassVar[str] = "make exactly one minimal move"   # one minimal move, in the ST prompt
    checking_question: ClassVar[str] = ("can the current state still be completed to a valid solution by continuing "
                                        "from it, without changing what is already filled in?")  # the SC question
    choice_words: ClassVar[tuple[str, str]] = (SOLVABLE, UNSOLVABLE)  # state-checking options (A), (B)
    difficulty_fields: ClassVar[tuple[str, ...]] = ()  # difficulty columns (besides depth) it fills
    plot_fields: ClassVar[tuple[str, ...]] = ()     # difficulty columns the report plots SC accuracy by
    identity_fields: ClassVar[tuple[str, ...]] = ()  # fields of the official ``inputs`` naming the instance
    train_samples: ClassVar[int] = 0                # train rows per task per instance (0: not in ``train``)
    split_note: ClassVar[str] = ""                  # how its source keeps test and train apart (build card)
    source_options: ClassVar[dict[str, str]] = {}   # build options (files) its source reads -> help text
    official_release: ClassVar[bool] = True         # the FineReason release has its files (official_* configs, tasks)
    in_default_set: ClassVar[bool] = True           # built by a plain ``finereason build`` (False: only when named)
    recorded_dialogs: ClassVar[tuple[str, str]] = ()  # (rescore format name, help) of recorded back-prompting
                                                      # dialogs (gpt-and-i layout) on this domain; () none

    def rules(self, puzzle: P) -> str:
        """The puzzle's rules and fixed data (graph, numbers, clues), opening every prompt."""
        raise NotImplementedError(f"{type(self).__name__} gives no rules text")

    def state_note(self, state: S, label: str) -> str:
        """Extra lines shown under a rendered state (empty for most domains)."""
        return ""

    def end_to_end_request(self, puzzle: P, initial: S) -> tuple[str, str]:
        """(what the end-to-end prompt shows before the question, how the answer must end)."""
        return (f"Initial state:\n{self.render(puzzle, initial)}\n\n",
                "End your response with \"Answer: \" followed by the complete solution, written in the same "
                "format as the initial state.")

    def answer_text(self, puzzle: P, state: S) -> str:
        """A full solution written the way the end-to-end prompt asks for it (after "Answer: ")."""
        return self.render(puzzle, state)

    def difficulty(self, puzzle: P) -> dict[str, Any]:
        """Difficulty fields read off the puzzle itself (for data without source statistics)."""
        return {}

    def depth(self, puzzle: P, state: S) -> int | None:
        """Moves from the initial state, read off a state (the official release stores no depth)."""
        return None

    def identity_value(self, field: str, value: Any) -> Any:
        """``value`` of identity field ``field`` in a canonical form (same instance, same value)."""
        return value

    def source(self, split: str, seed: int, index: int, options: dict[str, Any]) -> Any:
        """The ``index``-th seeded instance (a :class:`~finereason.core.puzzle_sources.SourcePuzzle`) of ``split``
        (``test`` or ``train``, disjoint streams); ``options`` holds the build's source options."""
        raise NotImplementedError(f"{type(self).__name__} has no seeded source")

    def check_source_options(self, options: dict[str, Any]) -> None:
        """Raise ``ValueError`` (one line) when a source option this domain reads is unusable."""

    difficulty_config: ClassVar[type[DifficultyConfig]] = DifficultyConfig  # its generator's knobs (none by default)

    def configured_source(self, split: str, seed: int, index: int, config: DifficultyConfig) -> Any:
        """The ``index``-th seeded instance of ``split`` drawn under the difficulty knobs ``config`` (an
        instance of :attr:`difficulty_config`; with no knob set, the same instance as :meth:`source`).
        The default ignores ``config``: domains without knobs."""
        return self.source(split, seed, index, {})

    # ------------------------------------------------------------------ official formats
    @abstractmethod
    def puzzle_from_official(self, record: dict) -> P:
        """The puzzle of an official ``*_questions`` or ``*_states`` record."""

    @abstractmethod
    def item_from_official(self, record: dict) -> StateItem[P, S]:
        """A state item from one official ``*_states`` line."""

    def record_item(self, puzzle: P, current: S, inputs: dict, solvable: bool | None) -> StateItem[P, S]:
        """The item of a states record's ``inputs`` whose ``current`` state and label the caller read:
        its ``parent``, ``grandparent`` and ``unsolvable_child`` (``None`` when absent) read with
        :meth:`parse_state`, in that order."""

        def state(key: str) -> S | None:
            value = inputs.get(key)
            return None if value is None else self.parse_state(puzzle, value)

        return StateItem(puzzle, current, state("parent"), state("grandparent"), state("unsolvable_child"), solvable)

    @abstractmethod
    def item_to_official(self, item: StateItem[P, S], record: dict) -> dict:
        """The official ``*_states`` line of ``item``; ``record`` is the puzzle's questions record.

        The inverse of :meth:`item_from_official`: ``outputs.current_status`` comes from
        ``item.solvable``.
        """

    @abstractmethod
    def to_official(self, puzzle: P, state: S) -> Any:
        """The JSON value of ``state`` in the official release's schema."""

    def render(self, puzzle: P, state: S) -> str:
        """The state as the official textual format (a Python list literal)."""
        return repr(self.to_official(puzzle, state))

    @abstractmethod
    def parse_state(self, puzzle: P, value: Any) -> S:
        """A state from a parsed literal (official format). Raises :class:`StateError`."""

    def parse_state_text(self, puzzle: P, text: str) -> S:
        """The state after the last "Next state:" in model text.

        Raises :class:`ParseError` when no list can be read and :class:`StateError` when the list
        is not a well-formed state of this puzzle.
        """
        return self.parse_state(puzzle, parse_literal(self.answer(answer_region(text), STATE_TRANSITION)))

    def parse_solution_text(self, puzzle: P, text: str) -> S:
        """A full solution proposed in model text (end-to-end task)."""
        return self.parse_state(puzzle, parse_literal(self.answer(answer_region(text), END_TO_END)))

    def read_answer(self, region: str, task: str) -> Reading:
        """The committed answer in the final ``region`` of a response for ``task`` (the commitment
        rule of :mod:`finereason.reading` applied to this domain's answer syntax): ``state_transition``,
        the list of the last "Next state:"; ``end_to_end``, the solution list. Domains with another
        answer syntax (expressions, plans) override it; the rule stays the reader's."""
        return task_reading(region, task == STATE_TRANSITION)

    def answer(self, region: str, task: str) -> Any:
        """The committed answer's value (:meth:`read_answer`); :class:`ParseError` with the reason
        when nothing commits."""
        reading = self.read_answer(region, task)
        if reading.value is None:
            raise ParseError(reading.reason)
        return reading.value

    def answer_readable(self, region: str, task: str) -> bool:
        """Whether the final-answer ``region`` of a response holds a readable answer of this domain
        for ``task`` (``state_transition``: a "Next state:" list; ``end_to_end``: a solution), before
        any puzzle is consulted. Raises :class:`ParseError` when it does not."""
        parse_literal(self.answer(region, task))
        return True

    def inputs_from_recorded(self, value: Any) -> dict | None:
        """The official ``inputs`` record of a puzzle as another tool recorded it (a field of a recorded
        file, or the first prompt of a recorded dialog), or ``None`` when ``value`` names none. The
        default takes an ``inputs`` record as it is; domains add their compact forms."""
        return value if isinstance(value, dict) else None

    def from_input(self, obj: Any) -> tuple[P, S]:
        """(puzzle, state) from one ``finereason label`` input line.

        The default reads an official ``*_states`` record (its ``current`` state). Domains
        override it to accept their compact forms too.
        """
        if isinstance(obj, dict) and "inputs" in obj:
            item = self.item_from_official(obj)
            return item.puzzle, item.current
        raise StateError(f"expected an official {self.official_name} record with 'inputs'")

    # ------------------------------------------------------------------ rules and moves
    @abstractmethod
    def violations(self, puzzle: P, state: S) -> list[str]:
        """Rules already broken by ``state``, in a fixed order (empty when none)."""

    @abstractmethod
    def is_solvable(self, puzzle: P, state: S) -> bool:
        """Exact oracle, the domain's primitive: can ``state`` still be completed to a solution?

        Unmemoised: only the domain itself calls it. Everyone else asks the memoised
        :func:`finereason.core.oracle.oracle_solvable` (which calls this once per puzzle and state)."""

    @abstractmethod
    def children(self, puzzle: P, state: S) -> Iterator[S]:
        """All states one valid minimal forward move away."""

    @abstractmethod
    def initial(self, puzzle: P) -> S:
        """The root state of the puzzle's tree."""

    def branch(self, puzzle: P, state: S, order: str = PAPER) -> Iterator[S]:
        """The children a tree expands, in a variable order.

        ``paper``: the official trees' fixed order (first empty cell, lowest uncolored vertex, any
        pair, clue order); ``mrv``: the most constrained variable first. Domains where the two
        coincide keep this default: every child.
        """
        if order not in ORDERS:
            raise ValueError(f"unknown order {order!r}; use one of {', '.join(ORDERS)}")
        return self.children(puzzle, state)

    @abstractmethod
    def undo_moves(self, puzzle: P, state: S) -> Iterator[S]:
        """All states one minimal backward move away."""

    @abstractmethod
    def step(self, puzzle: P, current: S, proposed: S) -> Step:
        """Classify ``proposed`` as a move from ``current``."""

    @abstractmethod
    def solve(self, puzzle: P, state: S | None = None) -> S | None:
        """A complete solution extending ``state`` (default: the initial state), or ``None``."""

    @abstractmethod
    def check_solution(self, puzzle: P, state: S) -> list[str]:
        """Violations of ``state`` as a complete solution; empty means it solves ``puzzle``."""

    # ------------------------------------------------------------------ process scoring and verifier audits
    def read_steps(self, puzzle: P, text: str) -> list[Any]:
        """The successive states a full answer shows (a fill order, a step list, a plan), in the order
        written, the initial state excluded; a step that cannot be a state is a :class:`BrokenStep`.

        ``text`` is hostile model text: read it with limits, never ``eval``. The default reads no
        steps (``[]``): the domain's answers are scored as final solutions only. See
        :func:`finereason.verification.process.process_score`.
        """
        return []

    def mutate_solution(self, puzzle: P, solution: S, rng: Any, kind: str) -> S | None:
        """A wrong candidate made from a valid ``solution`` for the LLM-as-verifier tasks, or ``None``
        when this domain cannot make that ``kind`` (see :data:`finereason.verification.llm_verifier.MUTATIONS`):
        ``broken`` (one rule broken), ``ablated`` (one number, value or action left out) or ``random``.
        ``rng`` is a seeded :class:`random.Random`; the default makes none."""
        return None

    # ------------------------------------------------------------------ reasoning-gym counterpart (benchmarks)
    reasoning_gym_name: ClassVar[str] = ""  # the reasoning-gym dataset of the same puzzle ("" when none)

    def from_reasoning_gym(self, entry: dict) -> tuple[P, S]:
        """(puzzle, a solution) of an entry of :attr:`reasoning_gym_name` (its ``metadata``)."""
        raise NotImplementedError(f"{type(self).__name__} has no reasoning-gym counterpart")

    def reasoning_gym_answer(self, puzzle: P, state: S) -> str:
        """A full solution written the way that reasoning-gym dataset's prompt asks for it."""
        raise NotImplementedError(f"{type(self).__name__} has no reasoning-gym counterpart")

    def same(self, a: S, b: S) -> bool:
        """Whether two states are the same node (ignoring formatting)."""
        return a == b

    def status(self, solvable: bool | None) -> str | None:
        """The official ``current_status`` string of a label (:func:`~finereason.common.verdict.solvable_label`)."""
        return solvable_label(solvable)

    def label(self, puzzle: P, state: S) -> str:
        """Deprecated: ``solvable_label(finereason.core.oracle.oracle_solvable(engine, puzzle, state))``."""
        warnings.warn("Engine.label is deprecated; use finereason.common.verdict.solvable_label with "
                      "finereason.core.oracle.oracle_solvable (memoised)", DeprecationWarning, stacklevel=2)
        return solvable_label(self.is_solvable(puzzle, state))


def official_label(record: dict) -> bool | None:
    """The label in a states record's ``outputs.current_status`` (``None`` when it has none; a value
    that is neither ``Solvable`` nor ``Unsolvable`` raises :class:`ValueError`)."""
    return label_solvable((record.get("outputs") or {}).get("current_status"))


_REGISTRY: dict[str, Engine[Any, Any]] = {}
_ALIASES: dict[str, str] = {}
_SOURCES: dict[str, str] = {}    # domain name -> the distribution whose entry point registered it
_BUILTINS_LOADED = False

ENTRY_POINT_GROUP = "finereason.domains"
"""The entry-point group domain plugins register in: ``name = "package.module:OBJECT"`` where OBJECT is an
:class:`Engine` instance or an :class:`Engine` subclass taking no arguments (see docs/adding-a-domain.md)."""
_BUILTIN_POINT = "finereason-builtins"   # finereason's own entry point: the built-in domain packages


def domain_entry_points() -> list[Any]:
    """The installed entry points of :data:`ENTRY_POINT_GROUP`, sorted by name (the same order everywhere)."""
    from importlib.metadata import entry_points

    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: (ep.name != _BUILTIN_POINT, ep.name))


def _load_builtins() -> None:
    """Register every domain once: the built-ins (``finereason.domains``, each package registers itself) and
    then the installed plugins of :data:`ENTRY_POINT_GROUP`. A plugin that fails to load is a warning
    naming it, never a failure of finereason. The built-ins are finereason's own entry point; a source
    tree whose installed metadata lacks it (not installed, or installed before the entry point existed)
    imports the package directly."""
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    _BUILTINS_LOADED = True
    points = domain_entry_points()
    if not any(ep.name == _BUILTIN_POINT for ep in points):
        importlib.import_module("finereason.domains")
    for point in points:
        load_entry_point(point)


def load_entry_point(point: Any) -> list[str]:
    """Register the domain(s) of one entry point; the names registered (a warning and ``[]`` on failure).

    The object may be an :class:`Engine` instance, an :class:`Engine` subclass (made with no arguments) or
    a module that registers its domains when imported (the built-ins' way)."""
    import inspect
    import warnings

    before = set(_REGISTRY)
    dist = getattr(getattr(point, "dist", None), "name", None) or "?"
    try:
        obj = point.load()
        if inspect.isclass(obj) and issubclass(obj, Engine):
            obj = obj()
        if isinstance(obj, Engine):
            register(obj)
        elif not inspect.ismodule(obj):
            raise TypeError(f"{point.value} is a {type(obj).__name__}, not an Engine, an Engine subclass or a module")
    except Exception as err:  # a broken plugin must not break finereason: say which and go on
        warnings.warn(f"finereason: domain plugin {point.name!r} ({point.value}, from {dist}) was not loaded: "
                      f"{type(err).__name__}: {err}", RuntimeWarning, stacklevel=2)
        return []
    added = sorted(set(_REGISTRY) - before)
    if point.name != _BUILTIN_POINT:
        for name in added:
            _SOURCES[name] = dist
    return added


def domain_source(name: str) -> str | None:
    """The distribution whose entry point registered domain ``name``, or ``None`` (built in, or registered
    by a call to :func:`register`)."""
    _load_builtins()
    return _SOURCES.get(_ALIASES.get(name, name))


def register(engine: Engine[Any, Any], *aliases: str) -> Engine[Any, Any]:
    """Add a domain to the registry under its name, official name and aliases.

    A second domain under a name already taken by another class is refused (a typo'd plugin must
    not silently replace a built-in); registering the same class again replaces it (reloads).
    """
    for key in (engine.name, engine.official_name, *aliases):
        owner = _REGISTRY.get(_ALIASES.get(key, key))
        if owner is not None and type(owner).__qualname__ != type(engine).__qualname__:
            raise ValueError(f"puzzle name {key!r} is already registered by {type(owner).__name__}")
    _REGISTRY[engine.name] = engine
    for alias in (engine.name, engine.official_name, *aliases):
        _ALIASES[alias] = engine.name
    return engine


def unregister(name: str) -> None:
    """Remove a domain and its aliases (tests that register a demo domain clean up with this)."""
    key = _ALIASES.get(name, name)
    _REGISTRY.pop(key, None)
    _SOURCES.pop(key, None)
    for alias in [a for a, k in _ALIASES.items() if k == key]:
        del _ALIASES[alias]


def get_engine(name: str | Engine[Any, Any]) -> Engine[Any, Any]:
    """The domain for a canonical name, official name or alias (an engine is returned as it is)."""
    if isinstance(name, Engine):
        return name
    _load_builtins()
    key = _ALIASES.get(name, name)
    try:
        return _REGISTRY[key]
    except KeyError:
        known = ", ".join(engine_names())
        raise KeyError(f"unknown domain {name!r} (known: {known})") from None


def engines() -> list[Engine[Any, Any]]:
    """Every registered domain, in registry order (``position``, then name)."""
    _load_builtins()
    return sorted(_REGISTRY.values(), key=lambda e: (e.position, e.name))


def engine_names() -> list[str]:
    """Canonical names of the registered domains, in registry order."""
    return [e.name for e in engines()]


def official_names() -> list[str]:
    """The official release's file prefixes of the registered domains it covers, in registry order."""
    return [e.official_name for e in engines() if e.official_release]


def default_names() -> list[str]:
    """Domains a plain ``finereason build`` builds (``in_default_set``), in registry order; the others
    are built when named with ``--domains``."""
    return [e.name for e in engines() if e.in_default_set]


def train_names() -> list[str]:
    """Domains that contribute to the ``train`` config, in registry order."""
    return [e.name for e in engines() if e.train_samples > 0]


__all__ = [
    "ENTRY_POINT_GROUP", "ORDERS", "BrokenStep", "Engine", "domain_entry_points", "domain_source", "load_entry_point",
    "official_label", "ParseError", "StateError", "StateItem", "Step", "StepKind",
    "default_names", "engine_names", "engines", "get_engine", "official_names", "register", "train_names", "unregister",
]
