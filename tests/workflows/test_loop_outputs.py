"""``finereason loop`` outputs: another run's folder is refused unless ``--overwrite``, every
condition's summary is kept, rounds are in numeric order, the plot has integer rounds and
distinguishable lines, and the model's device defaults to the CPU without a GPU."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

pytest.importorskip("lm_eval")
pytest.importorskip("pyarrow")

from test_cli_errors import one_line_error  # noqa: E402

from finereason.commands import main  # noqa: E402
from finereason.commands.options import model_generator  # noqa: E402
from finereason.common.devices import default_device, has_gpu  # noqa: E402
from finereason.common.input_errors import EXIT_BUG  # noqa: E402
from finereason.workflows.loop import figure  # noqa: E402

BASE = ["loop", "--model", "finereason-oracle", "--limit", "1", "--max-rounds", "2"]


def run(data: Path, out: Path, *extra: str) -> int:
    return main([*BASE, "--data", str(data), "--out", str(out), *extra])


def summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


def test_another_domain_is_refused_until_overwrite(e2e_dataset, tmp_path, capsys):
    out = tmp_path / "out"
    assert run(e2e_dataset, out, "--domain", "sudoku", "--feedback", "binary") == 0
    before = (out / "summary.json").read_bytes()
    capsys.readouterr()
    message = one_line_error(capsys, [*BASE, "--data", str(e2e_dataset), "--out", str(out), "--domain", "graph_coloring",
                                      "--feedback", "binary"])
    assert "another run's summary" in message and "domain" in message and "--overwrite" in message
    assert (out / "summary.json").read_bytes() == before  # nothing touched
    assert run(e2e_dataset, out, "--domain", "graph_coloring", "--feedback", "first_error", "--overwrite") == 0
    assert summary(out)["domain"] == "graph_coloring" and set(summary(out)["conditions"]) == {"first_error"}
    assert not (out / "binary").exists()  # the old run's folders went with --overwrite


def test_the_read_context_is_the_runs_and_is_recorded(e2e_dataset, tmp_path, capsys):
    """--starts-in-think: the oracle's answers carry no </think>, so none is finished; the context is
    recorded, and resuming the run in another context is refused."""
    out = tmp_path / "out"
    assert run(e2e_dataset, out, "--domain", "sudoku", "--feedback", "binary", "--starts-in-think") == 0
    record = {"read_context_version": 1, "starts_in_think": True}
    assert summary(out)["read_context"] == record
    assert json.loads((out / "binary" / "run.json").read_text(encoding="utf-8"))["read_context"] == record
    rounds = [json.loads(line) for line in (out / "binary" / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rounds) == 2 and {r["verdict"]["category"] for r in rounds} == {"parse_error"}
    assert summary(out)["conditions"]["binary"]["final"] == 0.0
    capsys.readouterr()
    message = one_line_error(capsys, [*BASE, "--data", str(e2e_dataset), "--out", str(out), "--domain", "sudoku",
                                      "--feedback", "binary"])
    assert "read_context" in message
    fresh = tmp_path / "fresh"
    assert run(e2e_dataset, fresh, "--domain", "sudoku", "--feedback", "binary") == 0
    assert summary(fresh)["conditions"]["binary"]["final"] == 1.0
    assert summary(fresh)["read_context"] == {"read_context_version": 1, "starts_in_think": False}


def test_conditions_of_the_same_run_are_kept(e2e_dataset, tmp_path):
    out = tmp_path / "out"
    assert run(e2e_dataset, out, "--domain", "sudoku", "--feedback", "binary") == 0
    assert run(e2e_dataset, out, "--domain", "sudoku", "--feedback", "first_error") == 0
    assert set(summary(out)["conditions"]) == {"binary", "first_error"}
    for condition in ("binary", "first_error"):
        own = json.loads((out / condition / "summary.json").read_text(encoding="utf-8"))
        assert own["condition"] == condition and own["domain"] == "sudoku"
        assert own["accuracy_by_round"] == summary(out)["conditions"][condition]["accuracy_by_round"]


def test_rounds_are_in_numeric_order(e2e_dataset, tmp_path):
    out = tmp_path / "out"
    assert main(["loop", "--model", "finereason-random", "--limit", "1", "--max-rounds", "11", "--data", str(e2e_dataset),
                 "--out", str(out), "--domain", "sudoku", "--feedback", "binary"]) == 0
    text = (out / "summary.json").read_text(encoding="utf-8")
    keys = list(json.loads(text)["conditions"]["binary"]["accuracy_by_round"])
    assert keys == [str(r) for r in range(1, 12)]  # the file itself lists 1, 2, ..., 10, 11
    assert text.index('"2":') < text.index('"10":')


def test_plot_has_integer_rounds_and_distinct_lines():
    pytest.importorskip("matplotlib")
    same = {str(r): 1.0 for r in range(1, 4)}
    fig = figure({c: {"accuracy_by_round": same} for c in ("binary", "first_error", "all_errors")}, "t")
    ax = fig.axes[0]
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert ticks and all(float(t).is_integer() for t in ticks)
    lines = ax.get_lines()
    assert len({line.get_marker() for line in lines}) == 3
    assert len({tuple(line.get_xdata()) for line in lines}) == 3  # equal curves do not sit on each other


def test_the_model_device_defaults_to_the_cpu_without_a_gpu(monkeypatch):
    seen = {}

    def fake(model, model_args, **options):
        seen.update(options)
        return lambda batch: []

    import finereason.integrations.lm_eval.generate as arc

    monkeypatch.setattr(arc, "lm_eval_generator", fake)
    args = argparse.Namespace(model="hf", model_args="", apply_chat_template=False, max_gen_toks=8, batch_size="1", device=None)
    model_generator(args)
    assert seen["device"] == ("cuda" if has_gpu() else "cpu") == default_device()
    model_generator(argparse.Namespace(**{**vars(args), "device": "cuda:1"}))
    assert seen["device"] == "cuda:1"


def test_a_bug_while_loading_a_model_is_not_an_input_error(monkeypatch, e2e_dataset, tmp_path, capsys):
    import finereason.integrations.lm_eval.generate as arc

    def broken(*args, **kwargs):
        return {}["no such key"]  # a bug in our code: KeyError

    monkeypatch.setattr(arc, "lm_eval_generator", broken)
    assert run(e2e_dataset, tmp_path / "out", "--domain", "sudoku") == EXIT_BUG
    err = capsys.readouterr().err
    assert "Traceback" in err and "please report" in err


def test_progress_names_condition_and_round_and_the_plot_names_the_model(e2e_dataset, tmp_path, capsys, monkeypatch):
    """Without a terminal, one progress line per round: ``condition X, round r/R``; the plot's title names
    the domain and the model (the folder of ``pretrained=``, else the ``--model`` name)."""
    from finereason.workflows import loop as loop_module
    from finereason.workflows.loop_plot import model_title

    titles = []
    real = loop_module.plot
    monkeypatch.setattr(loop_module, "plot", lambda out, summaries, title: titles.append(title) or real(out, summaries, title))
    assert main(["loop", "--model", "finereason-random", "--limit", "2", "--max-rounds", "3", "--data", str(e2e_dataset),
                 "--out", str(tmp_path / "out"), "--domain", "sudoku", "--feedback", "binary"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("finereason loop:")]
    assert lines and lines[0] == "finereason loop: condition binary, round 1/3 (2 instances)"
    assert all(", round " in line and "/3 (" in line for line in lines)
    assert titles == ["sudoku: finereason-random"]
    assert model_title("hf", "pretrained=/models/Qwen2.5-7B,dtype=bfloat16") == "Qwen2.5-7B (hf)"
    assert model_title("hf", "pretrained=Qwen/Qwen2.5-7B") == "Qwen2.5-7B (hf)"
