"""No secrets in outputs: model arguments, URLs and headers are redacted in reports and logs."""
from __future__ import annotations

import json
import logging

import pytest

from finereason.common.redact import MASK, RedactingFilter, redact

SECRETS = ["hf_abcdefghijklmnopqrst", "sk-proj-ABCDEFGH12345678", "s3cr3t-pass", "Zm9vOmJhcg==", "ghp_abcdefghijklmnopqrstu"]


@pytest.mark.parametrize("text, kept", [
    ("pretrained=org/model,token=hf_abcdefghijklmnopqrst,max_new_tokens=20,tokenizer=org/tok",
     ["pretrained=org/model", "token=***", "max_new_tokens=20", "tokenizer=org/tok"]),
    ("base_url=https://me:s3cr3t-pass@api.example.com/v1?api_key=Zm9vOmJhcg==&model=x",
     ["https://***@api.example.com/v1", "api_key=***", "model=x"]),
    ('{"api_key": "sk-proj-ABCDEFGH12345678", "HF_TOKEN": "s3cr3t-pass", "dtype": "bfloat16"}',
     ['"api_key": "***"', '"HF_TOKEN": "***"', '"dtype": "bfloat16"']),
    ("Authorization: Bearer s3cr3t-pass", ["Authorization: Bearer ***"]),
    ("{'Authorization': 'Basic Zm9vOmJhcg=='}", ["'Authorization': 'Basic ***'"]),
    ("model=gpt,password='s3cr3t-pass'", ["model=gpt", "password='***'"]),
    ("a bare hf_abcdefghijklmnopqrst or sk-proj-ABCDEFGH12345678 or ghp_abcdefghijklmnopqrstu in text",
     ["a bare *** or *** or *** in text"]),
])
def test_redact(text, kept):
    clean = redact(text)
    assert not any(secret in clean for secret in SECRETS)
    for part in kept:
        assert part in clean


def test_redact_keeps_ordinary_text():
    text = "pretrained=EleutherAI/pythia-70m,dtype=float32,max_gen_toks=256,revision=main"
    assert redact(text) == text
    assert redact("") == "" and MASK == "***"


def test_logging_filter():
    record = logging.LogRecord("lm-eval", logging.INFO, __file__, 1, "args: %s", ({"token": "hf_abcdefghijklmnopqrst"},), None)
    assert RedactingFilter().filter(record)
    assert record.getMessage() == "args: {'token': '***'}"


def test_report_never_shows_a_token(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from finereason.commands import main

    run = tmp_path / "runs"
    run.mkdir()
    results = {"results": {"finereason_sudoku_state_checking": {"acc,none": 0.5}},
               "config": {"model": "hf", "model_args": "pretrained=org/m,token=hf_abcdefghijklmnopqrst,"
                                                         "base_url=https://me:s3cr3t-pass@host/v1"}}
    (run / "results_2026-01-01T00-00-00.000000.json").write_text(json.dumps(results))
    assert main(["report", str(run), "--out", str(tmp_path / "rep")]) == 0
    captured = capsys.readouterr()
    summary = (tmp_path / "rep" / "summary.md").read_text()
    for text in (summary, captured.out, captured.err):
        assert not any(secret in text for secret in SECRETS)
    assert "token=***" in summary and "https://***@host/v1" in summary
