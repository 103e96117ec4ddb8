"""One prompt per puzzle on every path: the loop's round 1 sends the end-to-end task's text, and the
loop's self-verification sends the one verify request, whose reply the self-verdict reader reads.

The task's text is rendered by lm-eval itself (its Jinja ``doc_to_text`` of the generated task file);
the model is a stand-in registered under a test name that records what it is sent.
"""
from __future__ import annotations

import pytest

pytest.importorskip("lm_eval")
pytest.importorskip("pyarrow")

from lm_eval.api.model import LM  # noqa: E402
from lm_eval.api.registry import register_model  # noqa: E402
from lm_eval.tasks._yaml_loader import load_yaml  # noqa: E402
from lm_eval.utils import apply_template  # noqa: E402

from finereason.core.engine import default_names, get_engine  # noqa: E402
from finereason.core.prompts import VERIFY_REQUEST, verify_prompt  # noqa: E402
from finereason.integrations.lm_eval.generate import lm_eval_generator  # noqa: E402
from finereason.lm_eval_tasks.generate_configs import TASK_FOLDER  # noqa: E402
from finereason.reading.verdicts import verdict_reading  # noqa: E402
from finereason.workflows.loop import Counter, LoopDialog, play_round  # noqa: E402

SENT: list[tuple[str, dict]] = []
TEMPLATED: list[list[dict]] = []
REPLIES: dict[str, str] = {}


@register_model("finereason-test-recorder")
class Recorder(LM):
    """Records every request's text; answers from ``REPLIES`` by the request's ``id`` suffix."""

    @classmethod
    def create_from_arg_string(cls, arg_string: str, additional_config: dict | None = None) -> "Recorder":
        return cls()

    def loglikelihood(self, requests, disable_tqdm=False):  # pragma: no cover
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm=False):  # pragma: no cover
        raise NotImplementedError

    def apply_chat_template(self, chat_history, add_generation_prompt=True):
        TEMPLATED.append([dict(m) for m in chat_history])
        return f"<chat add_generation_prompt={add_generation_prompt}>" + "|".join(m["content"] for m in chat_history)

    def generate_until(self, requests, disable_tqdm=False):
        out = []
        for r in requests:
            SENT.append((r.arguments[0], r.doc))
            out.append(REPLIES["verify" if str(r.doc["id"]).endswith("/verify") else "answer"])
        return out


@pytest.fixture(scope="module")
def rows(e2e_dataset) -> dict[str, dict]:
    from finereason.data.folder import open_data_folder

    folder = open_data_folder(e2e_dataset)
    return {d: folder.read_table(f"{d}_end_to_end").to_pylist()[0] for d in default_names()}


def task_text(domain: str, row: dict) -> str:
    """What the end-to-end lm-eval task sends for ``row`` (its ``doc_to_text``, rendered by lm-eval)."""
    config = load_yaml(str(TASK_FOLDER / f"finereason_{domain}_end_to_end.yaml"), resolve_func=False)
    return apply_template(config["doc_to_text"], row)


def round_one(row: dict, chat: bool) -> str:
    SENT.clear()
    REPLIES.update(answer="Answer: none", verify="Verdict: incorrect")
    generate = lm_eval_generator("finereason-test-recorder", apply_chat_template=chat)
    play_round([LoopDialog(row, get_engine(row["puzzle"]))], generate, "binary", Counter(generate))
    assert len(SENT) == 1
    return SENT[0][0]


def test_round_one_is_the_end_to_end_tasks_prompt(rows):
    for domain, row in rows.items():
        expected = task_text(domain, row)
        assert expected == row["prompt"]  # the task sends the row's prompt as it is
        assert round_one(row, chat=False) == expected, domain


def test_with_a_chat_template_round_one_is_templated_as_lm_eval_does(rows):
    """``--apply_chat_template`` in both: lm-eval hands a zero-shot task's text to the model's template
    as one user turn with ``add_generation_prompt=True``; the loop hands it the same."""
    row = rows["sudoku"]
    TEMPLATED.clear()
    sent = round_one(row, chat=True)
    assert TEMPLATED[-1] == [{"role": "user", "content": task_text("sudoku", row)}]
    assert sent.startswith("<chat add_generation_prompt=True>")


def test_later_rounds_extend_the_first(rows):
    row = rows["game_of_24"]
    generate = lm_eval_generator("finereason-test-recorder")
    dialog = LoopDialog(row, get_engine(row["puzzle"]))
    REPLIES.update(answer="Answer: 1 + 1")
    SENT.clear()
    for _ in range(2):
        dialog.records += play_round([dialog], generate, "binary", Counter(generate))
    first, second = SENT[0][0], SENT[1][0]
    assert second.startswith(first + "\n\nAssistant: Answer: 1 + 1\n\nUser: ") and second.endswith("\n\nAssistant:")


def test_self_verification_asks_for_a_verdict_only_and_reads_it(rows):
    row = rows["game_of_24"]
    generate = lm_eval_generator("finereason-test-recorder")
    for reply in ("The first error: 1 + 1 is 2, not 24.\nVerdict: incorrect", "Every rule holds.\nVerdict: correct",
                  "Verdict: correct\nWait, actually the numbers are not all used."):
        REPLIES.update(answer="Answer: 1 + 1", verify=reply)
        SENT.clear()
        [record] = play_round([LoopDialog(row, get_engine(row["puzzle"]))], generate, "self", Counter(generate))
        asked = SENT[1][0]
        assert asked == verify_prompt(row, "Answer: 1 + 1")
        assert asked.startswith(VERIFY_REQUEST) and asked.count("End your response with") == 1
        assert 'with "Answer: "' not in asked and "Verdict:" in asked
        assert record["accepted"] == verdict_reading(reply).value
        assert record["done"] is (verdict_reading(reply).value is True)
