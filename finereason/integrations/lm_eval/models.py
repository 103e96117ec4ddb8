"""lm-eval models: ``finereason-oracle``, ``finereason-random``, ``finereason-shallow`` and
``finereason-replay``. Importing this module registers them (``finereason eval`` does it for you).

They read each request's document (``Instance.doc``), so they answer any FineReason task without a
neural network; ``finereason-replay`` replays responses from a JSONL file keyed by the row ``id``
(``model_args: path=responses.jsonl``), so outputs from any API or batch runner can be scored; an id
the file lacks is an error.
"""
from __future__ import annotations

import contextlib
import inspect
from typing import Any, Iterator

import lm_eval.models  # noqa: F401  (lm-eval loads its own models only into an empty registry: load them first)
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model

from ...common.input_errors import InputError
from ...common.jsonl import iter_json_lines
from ...common.progress import progress_bar
from ...models.baselines import answerer, check_answerable

_BARS: dict[str, Any] = {"file": None}  # where the baselines' progress bars go (progress_to)


@contextlib.contextmanager
def progress_to(stream: Any) -> Iterator[None]:
    """Within this block the baseline models draw one lasting progress bar per run on ``stream``
    (the main job keeps the terminal for them while lm-eval's own output goes to a log file)."""
    saved = _BARS["file"]
    _BARS["file"] = stream
    try:
        yield
    finally:
        _BARS["file"] = saved


class _GenerateOnly(LM):
    """What every model here shares: ``key=value`` model_args, generation only, plain-text chat turns."""

    name = "finereason"

    @classmethod
    def create_from_arg_string(cls, arg_string: str, additional_config: dict | None = None) -> "_GenerateOnly":
        args = dict(kv.split("=", 1) for kv in arg_string.split(",") if "=" in kv) if arg_string else {}
        return cls(**args)

    def loglikelihood(self, requests: list, disable_tqdm: bool = False) -> list:
        raise NotImplementedError(f"{self.name} only generates")

    def loglikelihood_rolling(self, requests: list, disable_tqdm: bool = False) -> list:
        raise NotImplementedError(f"{self.name} only generates")

    @property
    def tokenizer_name(self) -> str:
        return self.name

    def apply_chat_template(self, chat_history: list[dict[str, str]], add_generation_prompt: bool = True) -> str:
        return "\n\n".join(m["content"] for m in chat_history)


class _DocModel(_GenerateOnly):
    """Base for models that answer from the request's document."""

    strategy = "oracle"

    def __init__(self, seed: int | str = 0, **kwargs: Any) -> None:
        super().__init__()
        self.answer = answerer(self.strategy, int(seed))
        self.name = f"finereason-{self.strategy}"

    def generate_until(self, requests: list, disable_tqdm: bool = False) -> list[str]:
        check_answerable(((getattr(r, "task_name", None) or "?", r.doc) for r in requests), self.strategy)
        bar = progress_bar(requests, len(requests), self.name, file=_BARS["file"],
                           leave=_BARS["file"] is not None, unit="doc")
        return [self.answer(request.doc) for request in bar]


@register_model("finereason-oracle")
class OracleLM(_DocModel):
    strategy = "oracle"


@register_model("finereason-random")
class RandomLM(_DocModel):
    strategy = "random"


@register_model("finereason-shallow")
class ShallowLM(_DocModel):
    strategy = "shallow"


@register_model("finereason-replay")
class ReplayLM(_GenerateOnly):
    """Replays ``{"id": ..., "response": ...}`` lines; a request whose id has no line is an error
    (:class:`InputError` naming the first missing ids), never an empty answer."""

    name = "finereason-replay"

    def __init__(self, path: str | None = None, **kwargs: Any) -> None:
        super().__init__()
        if not path:
            raise InputError("finereason-replay needs model_args path=RESPONSES.jsonl")
        self.path = path
        self.responses: dict[str, str] = {}
        for lineno, obj in iter_json_lines(path, "replay responses", InputError):
            if not isinstance(obj, dict) or "id" not in obj or "response" not in obj:
                raise InputError(f"{path}:{lineno}: expected {{\"id\": ..., \"response\": ...}}")
            self.responses[str(obj["id"])] = str(obj["response"])

    def generate_until(self, requests: list, disable_tqdm: bool = False) -> list[str]:
        ids = [str(request.doc.get("id")) for request in requests]
        missing = list(dict.fromkeys(i for i in ids if i not in self.responses))
        if missing:
            shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
            raise InputError(f"finereason-replay: {len(missing)} of {len(set(ids))} requested ids have no response in "
                             f"{self.path} (first missing: {shown})")
        return [self.responses[i] for i in ids]


@contextlib.contextmanager
def our_tasks_only() -> Iterator[None]:
    """Within this block lm-eval indexes only ``--include_path`` folders, not its thousands of
    built-in task files (about 15 s saved per run); for runs that use FineReason tasks alone."""
    from lm_eval.tasks.manager import TaskManager

    init = TaskManager.__init__
    if "include_defaults" not in inspect.signature(init).parameters:
        yield
        return

    def fast_init(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("include_defaults", False)
        init(self, *args, **kwargs)

    TaskManager.__init__ = fast_init
    try:
        yield
    finally:
        TaskManager.__init__ = init
