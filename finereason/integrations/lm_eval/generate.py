"""Any registered lm-eval model as a plain ``generate`` function: chat turns in, completions out.

The generate-verify loops (``finereason loop``) and LLM-ARC (``finereason arc``) drive models through it.
"""
from __future__ import annotations

from typing import Callable

from ...core.prompts import TURN_MAX_GEN_TOKS, plain_dialog


def lm_eval_generator(model: str, model_args: str = "", *, apply_chat_template: bool = False,
                      max_gen_toks: int = TURN_MAX_GEN_TOKS, batch_size: str | int = 1, device: str | None = None,
                      temperature: float = 0.0) -> Callable[[list[tuple[dict, list[dict]]]], list[str]]:
    """A ``generate`` function for ``finereason arc`` and ``finereason loop`` over any registered lm-eval
    model; greedy unless ``temperature`` > 0. A dialog is rendered with the model's chat template when
    ``apply_chat_template`` (as lm-eval's own option does for its tasks), else as
    :func:`~finereason.core.prompts.plain_dialog` (a single user turn is the prompt as it is, as an lm-eval
    task sends it). The function carries the model (``.lm``) and the prompt renderer (``.render``) for
    token counting."""
    from lm_eval.api.instance import Instance
    from lm_eval.api.registry import get_model

    from . import models  # noqa: F401  (registers finereason-replay and friends)

    extra = {"batch_size": batch_size, "device": device}
    lm = get_model(model).create_from_arg_string(model_args, {k: v for k, v in extra.items() if v is not None})
    gen_kwargs = {"until": [], "max_gen_toks": max_gen_toks, "do_sample": temperature > 0, "temperature": temperature}

    def render(messages: list[dict]) -> str:
        if apply_chat_template and hasattr(lm, "apply_chat_template"):
            return lm.apply_chat_template(messages, add_generation_prompt=True)
        return plain_dialog(messages)

    def generate(batch: list[tuple[dict, list[dict]]]) -> list[str]:
        requests = [Instance(request_type="generate_until", doc=doc, arguments=(render(msgs), dict(gen_kwargs)), idx=0)
                    for doc, msgs in batch]
        return [str(x) for x in lm.generate_until(requests)]

    generate.lm, generate.render = lm, render  # type: ignore[attr-defined]
    return generate
