"""FOLIO: loading (local and Hub layout), the careful answer reader, and hand-written ASP programs
for 10 training stories that pass their own tests and answer every conclusion of their story."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import read_jsonl, shared_path
from finereason.data.folio import FolioError, load_folio, normalize, read_truth_value

DATA = Path(__file__).parents[1] / "data" / "folio_asp"
STORIES = json.loads((DATA / "stories.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------ the 10 stories
def test_ten_distinct_training_stories_cover_every_conclusion():
    gold = read_jsonl(shared_path("folio", "folio-train.jsonl"))
    assert len({s["story_id"] for s in STORIES}) == 10
    for story in STORIES:
        examples = {str(r["example_id"]) for r in gold if r["story_id"] == story["story_id"]}
        assert set(story["conclusions"]) == examples, story["story_id"]


@pytest.mark.parametrize("story", STORIES, ids=lambda s: f"story{s['story_id']}")
def test_hand_written_program_passes_its_tests_and_answers_its_conclusions(story):
    pytest.importorskip("clingo")
    from finereason.asp.critic import run_program

    gold = {str(r["example_id"]): r for r in read_jsonl(shared_path("folio", "folio-train.jsonl"))}
    program = (DATA / story["program"]).read_text(encoding="utf-8")
    report = run_program(program, story["tests"])
    assert report.status == "ok", report.feedback()
    assert report.tests and all(t.passed for t in report.tests), report.feedback()
    assert all(not t.unused_rules for t in report.tests), report.feedback()
    assert {t["type"] for t in story["tests"]} - {"infer-True-All", "infer-True-Any", "infer-False", "expect-Contradiction"} == set()
    for example_id, query in story["conclusions"].items():
        expected = normalize(gold[example_id], "train", 0)["label"]
        answer = run_program(program, [], query, explain=False).answer
        assert answer == expected, (example_id, gold[example_id]["conclusion"], query)


def test_the_test_types_used_across_stories():
    used = {t["type"] for s in STORIES for t in s["tests"]}
    assert used == {"infer-True-All", "infer-True-Any", "infer-False", "expect-Contradiction"}


# ------------------------------------------------------------------ loading
def test_v0_release_loads_with_uncertain_labels():
    folder = shared_path("folio")
    train, val = load_folio(folder, "train"), load_folio(folder, "validation")
    assert (len(train), len(val)) == (1004, 204)
    assert {r["label"] for r in train} == {"True", "False", "Uncertain"}
    assert sum(r["label"] == "Uncertain" for r in train) == 330
    assert sum(r["label"] == "Uncertain" for r in val) == 69
    assert len({r["id"] for r in train}) == 1004 and len({r["id"] for r in val}) == 204
    assert len({r["story_id"] for r in val}) == 73
    assert all(isinstance(r["premises"], list) and r["premises"] for r in val)


def test_v2_schema_and_env_source(tmp_path, monkeypatch):
    path = tmp_path / "folio_v2_validation.jsonl"
    path.write_text(json.dumps({"story_id": 5, "example_id": 9, "premises": "A is B.\nB is C.", "premises-FOL": "B(a)\nC(b)",
                                "conclusion": "A is C.", "conclusion-FOL": "C(a)", "label": "Uncertain"}) + "\n")
    monkeypatch.setenv("FINEREASON_FOLIO", str(tmp_path))
    (row,) = load_folio(None, "validation")
    assert row == {"id": "folio-validation-9", "story_id": "5", "premises": ["A is B.", "B is C."], "conclusion": "A is C.",
                   "label": "Uncertain", "premises_fol": ["B(a)", "C(b)"], "conclusion_fol": "C(a)"}


def test_release_is_told_apart(tmp_path):
    from finereason.data.folio import load_folio_versioned

    assert load_folio_versioned(shared_path("folio"), "validation")[1] == "v0.0"
    assert load_folio_versioned(shared_path("folio"), "train")[1] == "v0.0"
    path = tmp_path / "folio_v2_validation.jsonl"
    path.write_text(json.dumps({"story_id": 5, "example_id": 9, "premises": "A is B.\nB is C.", "conclusion": "A is C.",
                                "label": "Uncertain"}) + "\n")
    docs, version = load_folio_versioned(tmp_path, "validation")
    assert version == "v2" and docs[0]["premises"] == ["A is B.", "B is C."]


def test_hub_layout_folder(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pytest.importorskip("datasets")
    import pyarrow.parquet as pq

    rows = read_jsonl(shared_path("folio", "folio-validation.jsonl"))[:7]
    (tmp_path / "data").mkdir()
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "data" / "validation-00000-of-00001.parquet")
    (tmp_path / "README.md").write_text("---\nconfigs:\n- config_name: default\n  data_files:\n  - split: validation\n"
                                        "    path: data/validation-*.parquet\n---\n")
    loaded = load_folio(tmp_path, "validation")
    assert [r["conclusion"] for r in loaded] == [r["conclusion"].strip() for r in rows]


def test_errors_are_one_line(tmp_path):
    with pytest.raises(FolioError, match="holds no FOLIO"):
        load_folio(tmp_path, "validation")
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"premises": ["a"], "conclusion": "b", "label": "Maybe"}\n')
    with pytest.raises(FolioError, match="label 'Maybe'"):
        load_folio(bad, "validation")
    bad.write_text("{not json\n")
    with pytest.raises(FolioError, match="x.jsonl:1"):
        load_folio(bad, "validation")
    bad.write_bytes(b'{"premises": ["a"], "conclusion": "b", "label": "True"}\n\xff\xfe\n')  # a user's binary file
    with pytest.raises(FolioError, match="x.jsonl:2: FOLIO file is not UTF-8"):
        load_folio(bad, "validation")
    with pytest.raises(FolioError, match="cannot load FOLIO"):  # offline: the Hub is never reached
        load_folio("no-such-org/no-such-folio", "validation")


_GOOD = b'{"premises": ["a"], "conclusion": "b", "label": "True"}\n'


@pytest.mark.parametrize("content, message", [
    (_GOOD + b'["a", "list"]\n', r"x\.jsonl:2: a FOLIO record is a JSON object, not list"),
    (_GOOD + b"\xff\xfe\x00binary\n", r"x\.jsonl:\d+: FOLIO file is not UTF-8 text"),
    (b"[" * 100_000 + b"\n", r"x\.jsonl:1: FOLIO line is nested too deeply"),
])
def test_a_user_file_is_read_by_the_one_jsonl_reader(tmp_path, content, message):
    """A FOLIO file is read like every file a user hands in (``common.jsonl``): one line naming file and line."""
    bad = tmp_path / "x.jsonl"
    bad.write_bytes(content)
    with pytest.raises(FolioError, match=message) as err:
        load_folio(bad, "validation")
    assert "\n" not in str(err.value)


# ------------------------------------------------------------------ answer reading
@pytest.mark.parametrize("text, expected", [
    ("Answer: True", "True"), ("The answer is **False**.", "False"), ("Final answer: Uncertain", "Uncertain"),
    ("Answer: Unknown", "Uncertain"), ("\\boxed{\\text{False}}", "False"), ("...\n\n**Uncertain**", "Uncertain"),
    ("<think>Answer: True</think>\nAnswer: False", "False"), ("<think>Answer: True", None),
    ("Answer: True\nOn reflection... Answer: Uncertain", "Uncertain"),
    ("Answer: True or Uncertain", None), ("Answer: True/False", None), ("Answer: True (or possibly Uncertain)", None),
    ("Answer: False, since it is not true that all cats bark.", "False"),
    ("It is true that cats are mammals.", None), ("", None), ("True or False?", None), (None, None),
    ("x " * 90_000 + "\nAnswer: True", "True"),
    ("Answer: True " + "blah " * 100_000, "True"),  # the whole final region is read: no window
])
def test_read_truth_value(text, expected):
    assert read_truth_value(text) == expected


# ------------------------------------------------------------------ the verdict and the registry's metrics
@pytest.mark.parametrize("text, truth, correct, category", [
    ("Answer: True", "True", True, "correct"),
    ("Answer: Uncertain", "False", False, "incorrect"),
    ("Answer: True or Uncertain", "True", False, "parse_error"),  # a hedge earns nothing
    ("Answer: True\nWait, that is wrong.", "True", False, "parse_error"),  # withdrawn
    ("<think>Answer: True", "True", False, "parse_error"),  # the reasoning never closed
])
def test_verify_folio_is_the_one_folio_verdict(text, truth, correct, category):
    from finereason.verification.verifiers import verify_folio

    verdict = verify_folio(text, truth)
    assert (verdict.correct, verdict.category) == (correct, category)
    assert verdict.prediction == (None if category == "parse_error" else text.split(": ")[1])


def test_folio_metrics_are_declared_in_the_registry():
    from finereason.verification.metrics import FOLIO, task_metrics

    assert [(m.name, m.higher_is_better, m.per_row) for m in task_metrics(FOLIO)] == [
        ("acc", True, True), ("parse_error_rate", False, True)]
