"""Training data for GRPO: FineReason puzzle rows and math rows mixed into one conversational dataset.

Glossary:

- *pool*: every usable row of one source (puzzle or math), already in the mixed schema;
- *mix*: ``total_size`` rows, ``round(total_size * math_ratio)`` of them math, drawn without
  replacement from the pools and shuffled, all with one seed (same seed, same rows, same order);
- *puzzle identity*: the instance a row is about (Sudoku givens, the graph, the Game-of-24 numbers,
  the logic-grid clues), read from the row's ``inputs``; training rows must not share one with the
  test configs (:func:`finereason.core.rows.row_identity`, the identity the build's train/test split uses).

Every row of a mix has the columns of :data:`MIX_COLUMNS` that its sources provide (``None`` where a
column does not apply): ``prompt`` is a list of ``{"role", "content"}`` messages; the rest are strings.
Math rows have ``task="math"`` and the final answer in ``answer``. Only :func:`load_puzzle_rows` and
:func:`load_math_rows` touch ``datasets``/``pyarrow``; everything else is plain Python.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from finereason.common.input_errors import InputError
from finereason.common.vocabulary import TASKS
from finereason.core.engine import engine_names
from finereason.core.puzzle_sources import rng_for
from finereason.core.rows import DOMAIN, LEGACY_DOMAIN, row_domain, row_identity, with_domain
from finereason.data.official_files import OfficialDataError, read_official_records
from finereason.integrations.training.boxed import last_boxed

MATH_TASK = "math"
MAX_REFERENCE_BOX = 9_998  # characters of a reference solution's last \boxed{} answer that are read
MATH_SUFFIX = "\nPlease reason step by step, and put your final answer within \\boxed{}."
PUZZLE_COLUMNS = (DOMAIN, LEGACY_DOMAIN, "task", "label", "inputs", "outputs")  # ``puzzle``: the old name of ``domain``
MIX_COLUMNS = ("id", "prompt", "task", DOMAIN, LEGACY_DOMAIN, "label", "inputs", "outputs", "answer")
QUESTION_COLUMNS = ("question", "query", "problem")
ANSWER_COLUMNS = ("answer", "response", "solution")


def test_configs() -> tuple[str, ...]:
    """The benchmark's test configs (``<puzzle>_<task>``) of every registered domain."""
    return tuple(f"{p}_{t}" for p in engine_names() for t in TASKS)


class DataError(InputError):
    """Unusable training data: a missing file or column, too few rows, a bad ratio (one clear line)."""


# ------------------------------------------------------------------ reading
def _is_file_source(path: Path) -> bool:
    return path.suffix.lower() in (".jsonl", ".json", ".parquet")


def _read_file(path: Path) -> list[dict]:
    """Rows of a local ``.jsonl``, ``.json`` (a list of objects, or JSON Lines) or ``.parquet`` file."""
    if not path.is_file():
        raise DataError(f"{path}: no such file")
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    try:
        return read_official_records(path)
    except OfficialDataError as err:
        raise DataError(str(err)) from None


PUZZLE_ALTERNATIVES = ("build it locally (`finereason build --out data/finereason`, then --puzzle_dataset "
                       "data/finereason) or use --puzzle_dataset embedded (a small offline set)")
MATH_ALTERNATIVES = ("use a local .jsonl/.json/.parquet file with question and answer columns (--math_dataset "
                     "math.jsonl) or --math_dataset embedded (seeded arithmetic word problems)")


def hub_offline() -> bool:
    """True when ``HF_HUB_OFFLINE`` or ``HF_DATASETS_OFFLINE`` asks for no Hub access."""
    return any(os.environ.get(v, "").strip().lower() in ("1", "true", "yes", "on")
               for v in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"))


def _hub_failure(what: str, err: BaseException, alternatives: str) -> str:
    """One line for a Hub dataset that could not be loaded, naming the local alternatives."""
    if hub_offline():
        return f"cannot load {what}: the Hub is offline (HF_HUB_OFFLINE=1) and no cached copy exists; {alternatives}"
    first = str(err).splitlines()[0] if str(err) else type(err).__name__
    return f"cannot load {what} from the Hub ({first[:300]}); {alternatives}"


def _split(config: str) -> str:
    return "train" if config == "train" else "test"


EMBEDDED = "embedded"  # a dataset name that means "made here, offline" (smoke runs and tests)
EMBEDDED_TRAIN_SIZE = 64


def embedded_puzzle_dir() -> Path:
    """A small ``train`` config built once into the cache (``finereason build``, seed 0)."""
    from finereason.core.prompts import PROMPT_VERSION
    from finereason.data.resolve import cache_dir

    out = cache_dir() / f"embedded-train-{EMBEDDED_TRAIN_SIZE}-s0-{PROMPT_VERSION}"
    if not (out / "README.md").is_file():
        from finereason.dataset_builders.build import BuildConfig, build

        build(BuildConfig(out=out, per_task=0, e2e_size=0, train_size=EMBEDDED_TRAIN_SIZE, overwrite=True,
                          progress=False, command="finereason build (embedded smoke set)"))
    return out


def embedded_math_records(n: int = 200, seed: int = 0) -> list[dict]:
    """Seeded arithmetic word problems with exact answers (offline stand-in for a math set)."""
    rng = rng_for(seed, "embedded-math")
    records = []
    for _ in range(n):
        a, b, c = rng.randint(2, 60), rng.randint(2, 60), rng.randint(2, 9)
        kind = rng.randrange(3)
        if kind == 0:
            question, answer = f"A shop sells {a} apples in the morning and {b} in the afternoon. How many apples does it sell?", a + b
        elif kind == 1:
            question, answer = f"Each box holds {c} pens. How many pens are in {a} boxes?", a * c
        else:
            question, answer = f"Tom has {a + b} marbles and gives {b} away. How many marbles are left?", a
        records.append({"question": question, "answer": str(answer)})
    return records


def _read_config(source: str, config: str) -> list[dict]:
    """Rows of one config: a ``finereason build`` folder (read and verified by :mod:`finereason.data.folder`), a file, a Hub id,
    or ``embedded`` (a small set built offline into the cache)."""
    if source == EMBEDDED:
        source = str(embedded_puzzle_dir())
    path = Path(source).expanduser()
    if _is_file_source(path):
        return _read_file(path)
    if path.is_dir():  # read through the dataset folder's README configs, verified by content
        from finereason.data.folder import DataFolderError, open_data_folder

        try:
            folder = open_data_folder(path)
            if config not in folder.configs:
                raise DataError(f"{path} has no config {config!r} (its configs: {', '.join(folder.configs) or 'none'})")
            return folder.read_table(config).to_pylist()
        except DataFolderError as err:
            raise DataError(str(err)) from None
    if source.startswith((".", "/", "~")) or source.count("/") != 1:
        raise DataError(f"{source}: no such folder or file, and not a Hub dataset id (ORG/NAME)")
    try:
        import datasets

        return datasets.load_dataset(source, config, split=_split(config)).to_list()
    except Exception as err:  # the Hub raises many types; one line is enough
        raise DataError(_hub_failure(f"{source} (config {config!r})", err, PUZZLE_ALTERNATIVES)) from None


def _messages(value: Any) -> list[dict] | None:
    """A conversational prompt from a ``messages`` list or a plain prompt string."""
    if isinstance(value, str) and value.strip():
        return [{"role": "user", "content": value}]
    if isinstance(value, (list, tuple)) and value and all(isinstance(m, Mapping) for m in value):
        return [{"role": str(m.get("role") or "user"), "content": str(m.get("content") or "")} for m in value]
    return None


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def puzzle_rows_from(records: Iterable[Mapping[str, Any]], source: str = "puzzle data") -> list[dict]:
    """Rows of the FineReason ``train`` schema in the mixed schema: ``prompt`` from ``messages``
    (else the ``prompt`` string); ``domain``/``task``/``label``/``inputs``/``outputs`` kept when present
    (``domain`` read from the old ``puzzle`` column too, and written under both names)."""
    rows = []
    for i, record in enumerate(records):
        prompt = _messages(record.get("messages")) or _messages(record.get("prompt"))
        if prompt is None:
            raise DataError(f"{source}: row {i} has neither a 'messages' list nor a 'prompt' string")
        row = {"id": str(record.get("id") or f"puzzle-{i}"), "prompt": prompt}
        row.update({c: _text(record[c]) for c in PUZZLE_COLUMNS if c in record})
        rows.append(with_domain(row))
    return rows


def load_puzzle_rows(path_or_id: str, config: str = "train") -> list[dict]:
    """The puzzle pool: ``config`` of a built dataset folder, a ``.jsonl``/``.json``/``.parquet`` file,
    or a Hub dataset id (``finereason/finereason``)."""
    return puzzle_rows_from(_read_config(path_or_id, config), f"{path_or_id} ({config})")


# ------------------------------------------------------------------ math
def final_answer(text: Any) -> str | None:
    """The final answer of a reference solution: MetaMathQA's "The answer is: X", GSM8K's "#### X",
    MATH's last ``\\boxed{X}``, else the (short) text itself."""
    if text is None:
        return None
    text = str(text).strip()
    if not text:
        return None
    tail = text[-2000:]
    if "The answer is:" in tail:                       # MetaMathQA
        return _after(tail, "The answer is:")
    if "####" in tail:                                 # GSM8K
        return tail.rsplit("####", 1)[1].strip().replace(",", "") or None
    boxed = last_boxed(text, max_chars=MAX_REFERENCE_BOX)  # MATH
    if boxed is not None:
        return boxed or None
    lowered = tail.lower()
    if "the answer is" in lowered:
        idx = lowered.rfind("the answer is")
        return _after(tail[idx:], tail[idx:idx + len("the answer is")])
    return text if len(text) <= 200 else None


def _after(text: str, marker: str) -> str | None:
    """The rest of the line after the last ``marker``, without a final period or ``$`` signs."""
    rest = text.rsplit(marker, 1)[1].strip()
    line = rest.splitlines()[0].strip() if rest else ""
    line = line.rstrip(".").strip().strip("$").strip()
    return line or None


def math_row(index: int, record: Mapping[str, Any]) -> dict | None:
    """One math row in the mixed schema, or ``None`` when the record has no question or answer."""
    question = next((record[c] for c in QUESTION_COLUMNS if isinstance(record.get(c), str) and record[c].strip()), None)
    raw = next((record[c] for c in ANSWER_COLUMNS if record.get(c) not in (None, "")), None)
    answer = final_answer(raw)
    if question is None or answer is None:
        return None
    return {"id": f"math-{index}", "prompt": [{"role": "user", "content": question.strip() + MATH_SUFFIX}],
            "task": MATH_TASK, "answer": answer}


def _math_records(path_or_id: str) -> Sequence[Mapping[str, Any]]:
    if path_or_id == EMBEDDED:
        return embedded_math_records()
    path = Path(path_or_id).expanduser()
    if _is_file_source(path):
        records = _read_file(path)
    elif path.is_dir() or path_or_id.startswith((".", "/", "~")) or path_or_id.count("/") != 1:
        raise DataError(f"math dataset {path_or_id}: use a .jsonl/.json/.parquet file or a Hub id (ORG/NAME)")
    else:
        try:
            import datasets

            records = datasets.load_dataset(path_or_id, split="train")
        except Exception as err:
            raise DataError(_hub_failure(f"math dataset {path_or_id}", err, MATH_ALTERNATIVES)) from None
    columns = set(records[0]) if len(records) else set()
    if len(records) and not (columns & set(QUESTION_COLUMNS) and columns & set(ANSWER_COLUMNS)):
        raise DataError(f"math dataset {path_or_id} needs a question column ({'/'.join(QUESTION_COLUMNS)}) and an "
                        f"answer column ({'/'.join(ANSWER_COLUMNS)}); it has {', '.join(sorted(columns))}")
    return records


def load_math_rows(path_or_id: str, n: int | None = None, seed: int = 0) -> list[dict]:
    """``n`` math rows (all when ``None``) drawn without replacement with ``seed``: a local
    ``.jsonl``/``.json``/``.parquet`` file or a Hub dataset (MetaMathQA's ``query``/``response`` work
    as they are). Rows without a question or a readable final answer are skipped."""
    records = _math_records(path_or_id)
    order = list(range(len(records)))
    rng_for(seed, "math-rows").shuffle(order)
    rows: list[dict] = []
    for index in order:
        if n is not None and len(rows) >= n:
            break
        row = math_row(index, records[index])
        if row is not None:
            rows.append(row)
    if n is not None and len(rows) < n:
        raise DataError(f"math dataset {path_or_id} has {len(rows)} usable rows; {n} are needed")
    return rows


# ------------------------------------------------------------------ mixing
def split_sizes(math_ratio: float, total_size: int) -> tuple[int, int]:
    """(puzzle rows, math rows) of a mix."""
    if isinstance(math_ratio, bool) or not isinstance(math_ratio, (int, float)) or not 0.0 <= float(math_ratio) <= 1.0:
        raise DataError(f"math_ratio must be a number in [0, 1], got {math_ratio!r}")
    if isinstance(total_size, bool) or not isinstance(total_size, int) or total_size <= 0:
        raise DataError(f"total_size must be a positive integer, got {total_size!r}")
    n_math = round(total_size * float(math_ratio))
    return total_size - n_math, n_math


def mix(puzzle: Sequence[dict], math: Sequence[dict], math_ratio: float, total_size: int, seed: int = 0) -> list[dict]:
    """``total_size`` rows, ``round(total_size * math_ratio)`` of them math, drawn without replacement
    and shuffled with ``seed``. Columns: those of :data:`MIX_COLUMNS` that the used pools provide,
    ``None`` where a row lacks one."""
    n_puzzle, n_math = split_sizes(math_ratio, total_size)
    if len(puzzle) < n_puzzle:
        raise DataError(f"the puzzle data has {len(puzzle)} rows; {n_puzzle} are needed "
                        f"(total_size {total_size} x {1 - math_ratio:g} puzzle share)")
    if len(math) < n_math:
        raise DataError(f"the math data has {len(math)} rows; {n_math} are needed "
                        f"(total_size {total_size} x math_ratio {math_ratio:g})")
    chosen = [puzzle[i] for i in sorted(rng_for(seed, "mix-puzzle").sample(range(len(puzzle)), n_puzzle))]
    chosen += [math[i] for i in sorted(rng_for(seed, "mix-math").sample(range(len(math)), n_math))]
    present = set()
    for pool, used in ((puzzle, n_puzzle), (math, n_math)):
        if used:
            present.update(k for row in pool for k in row)
    columns = [c for c in MIX_COLUMNS if c in present]
    rows = [{c: row.get(c) for c in columns} for row in chosen]
    rng_for(seed, "mix-order").shuffle(rows)
    return rows


def columns_of(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The columns of a mix (every row has the same keys)."""
    return list(rows[0]) if rows else []


def describe(rows: Iterable[Mapping[str, Any]]) -> str:
    """A one-line summary: rows per task (and per puzzle)."""
    counts = Counter(r.get("task") if r.get("task") == MATH_TASK else f"{row_domain(r, None)}/{r.get('task')}" for r in rows)
    total = sum(counts.values())
    return f"{total} rows: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0]))))


# ------------------------------------------------------------------ disjointness
puzzle_identity = row_identity  # the instance a puzzle row is about: the identity the build's split uses


@dataclass(frozen=True)
class Disjointness:
    """Train rows whose puzzle appears in the test rows (by index), and how many test puzzles were seen."""

    overlap: tuple[int, ...]
    test_puzzles: int

    @property
    def clean(self) -> bool:
        return not self.overlap


def check_disjoint(train: Sequence[Mapping[str, Any]], test: Iterable[Mapping[str, Any]]) -> Disjointness:
    """Which ``train`` rows share a puzzle instance with any ``test`` row."""
    seen = {k for k in map(row_identity, test) if k is not None}
    overlap = tuple(i for i, row in enumerate(train) if row_identity(row) in seen)
    return Disjointness(overlap, len(seen))


def load_test_rows(path_or_id: str, configs: Iterable[str] | None = None) -> tuple[list[dict], list[str], list[str]]:
    """Rows of the test configs that can be read: ``(rows, configs read, configs missing)``. For a
    local folder ``configs=None`` means every config but ``train``; for a Hub id, :func:`test_configs`.
    A file source has no test configs."""
    path = Path(path_or_id).expanduser()
    if _is_file_source(path):
        return [], [], list(configs or test_configs())
    if configs is None:
        if path.is_dir():
            configs = sorted(p.name for p in path.iterdir() if p.is_dir() and p.name != "train" and any(p.glob("*.parquet")))
        else:
            configs = test_configs()
    rows: list[dict] = []
    found: list[str] = []
    missing: list[str] = []
    for config in configs:
        try:
            rows += [{DOMAIN: row_domain(r, None), "inputs": _text(r.get("inputs"))} for r in _read_config(path_or_id, config)]
            found.append(config)
        except DataError:
            missing.append(config)
    return rows, found, missing
