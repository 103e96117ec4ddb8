"""The read context: one object, recorded as JSON, read back from results files and submissions."""
from __future__ import annotations

import json

import pytest

from finereason.reading import ReadContext, read_context_of, resolve_context
from finereason.reading.context import RECORD_KEY, VERSION_KEY


def test_record_round_trips_through_json():
    for context in (ReadContext(), ReadContext(starts_in_think=True)):
        record = json.loads(json.dumps(context.to_dict()))
        assert record == {VERSION_KEY: 1, "starts_in_think": context.starts_in_think}
        assert ReadContext.from_dict(record) == context
    assert ReadContext.from_dict(None) == ReadContext.from_dict({}) == ReadContext()
    assert hash(ReadContext(True)) == hash(ReadContext.from_dict({"starts_in_think": True}))


@pytest.mark.parametrize("record, message", [
    ({VERSION_KEY: 2, "starts_in_think": True}, "version 2"),
    ({"starts_in_think": True, "answer_language": "fr"}, "unknown settings 'answer_language'"),
    ({"starts_in_think": "maybe"}, "must be true or false"),
    (["starts_in_think"], "JSON object"),
])
def test_a_record_this_version_cannot_honour_is_refused(record, message):
    with pytest.raises(ValueError, match=message):
        ReadContext.from_dict(record)


def test_it_is_immutable_and_coerces_flag_spellings():
    context = ReadContext(starts_in_think=True)
    with pytest.raises(AttributeError):
        context.starts_in_think = False  # type: ignore[misc]
    assert ReadContext("true") == ReadContext(1) == context and ReadContext("no") == ReadContext()
    with pytest.raises(ValueError):
        ReadContext("2")


def test_the_old_keyword_is_an_alias():
    assert resolve_context() == ReadContext()
    assert resolve_context(starts_in_think=True) == ReadContext(True)
    assert resolve_context(ReadContext(True), True) == ReadContext(True)
    assert resolve_context({"starts_in_think": True}) == ReadContext(True)
    with pytest.raises(ValueError, match="contradicts"):
        resolve_context(ReadContext(True), starts_in_think=False)


def test_region_and_unfinished_follow_the_context():
    opened = ReadContext(True)
    assert ReadContext().region("Answer: (A)") == "Answer: (A)" and opened.region("Answer: (A)") is None
    assert opened.region("hmm</think>Answer: (A)") == "Answer: (A)"
    assert opened.unfinished("Answer: (A)") and not ReadContext().unfinished("Answer: (A)")
    assert ReadContext().unfinished("<think>Answer: (A)") and ReadContext().unfinished(None)


def _lm_eval(*metas: dict) -> dict:
    return {"results": {}, "configs": {f"task_{i}": {"task": f"task_{i}", "metadata": m} for i, m in enumerate(metas)}}


def test_read_context_of_an_lm_eval_results_file():
    assert read_context_of(_lm_eval({"version": 2.0})) == ReadContext()  # written before contexts were recorded
    assert read_context_of(_lm_eval({"starts_in_think": True}, {"starts_in_think": True})) == ReadContext(True)
    recorded = {"starts_in_think": True, RECORD_KEY: ReadContext(True).to_dict()}
    assert read_context_of(_lm_eval(recorded)) == ReadContext(True)
    mixed = _lm_eval({"starts_in_think": True}, {"version": 2.0})
    with pytest.raises(ValueError, match="different contexts"):
        read_context_of(mixed)
    assert read_context_of(mixed, "task_0") == ReadContext(True) and read_context_of(mixed, "task_1") == ReadContext()
    assert read_context_of({"results": {}}) == ReadContext()


def test_read_context_of_a_submission():
    submission = {"config": {"model_name": "org/m", RECORD_KEY: ReadContext(True).to_dict()}, "results": {}}
    assert read_context_of(submission) == ReadContext(True)
    with pytest.raises(ValueError):
        read_context_of({"config": {RECORD_KEY: {VERSION_KEY: 9}}, "results": {}})
