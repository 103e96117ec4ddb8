"""``finereason report``: tables and plots from real lm-eval runs of the oracle and random baselines."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from finereason.commands import main

pytest.importorskip("lm_eval")
pytest.importorskip("datasets")
pytest.importorskip("matplotlib")

PUZZLES = ("Sudoku", "Graph Coloring", "Game of 24", "Grid Puzzles")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="session")
def runs(tmp_path_factory, small_dataset) -> dict[str, Path]:
    """One small dataset and two lm-eval runs (with samples) under one output root, as users do."""
    root = tmp_path_factory.mktemp("report")
    data = small_dataset
    out = root / "evalout"
    from finereason.integrations.lm_eval.models import our_tasks_only

    with pytest.MonkeyPatch.context() as mp, our_tasks_only():
        mp.setenv("FINEREASON_DATA_DIR", str(data))
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("HF_DATASETS_OFFLINE", "1")
        for model in ("finereason-oracle", "finereason-random"):
            code = main(["eval", "--model", model, "--tasks", "finereason", "--output_path", str(out), "--log_samples"])
            assert code == 0
    assert len(list(out.rglob("results_*.json"))) == 2
    return {"root": root, "out": out}


def table(markdown: str, title: str, level: str = "##") -> list[list[str]]:
    """The rows of the Markdown table under the heading that starts with ``title``."""
    section = markdown.split(f"\n{level} {title}", 1)[1].split("\n#", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def row(rows: list[list[str]], model: str) -> list[str]:
    matches = [r for r in rows if r[0] == model]
    assert len(matches) == 1, (model, rows)
    return matches[0]


@pytest.fixture(scope="session")
def report(runs) -> tuple[str, Path]:
    target = runs["root"] / "rep"
    assert main(["report", str(runs["out"]), "--out", str(target)]) == 0
    return (target / "summary.md").read_text(encoding="utf-8"), target


def test_tables_show_both_models(report, capsys):
    markdown, _ = report
    t3 = table(markdown, "Table 3")
    assert [r[0] for r in t3] == ["finereason-oracle", "finereason-random"]
    header = markdown.split("## Table 3", 1)[1].splitlines()[4]
    for puzzle in PUZZLES:
        assert f"{puzzle} SC" in header and f"{puzzle} ST" in header
    oracle = row(t3, "finereason-oracle")
    assert oracle[1:] == ["100.0 (pe 0.0)"] * 8  # every accuracy with the task's parse-error rate beside it
    random = row(t3, "finereason-random")
    assert len(random) == 9 and all(re.fullmatch(r"\d+\.\d \(pe \d+\.\d\)", v) for v in random[1:])
    assert random[1:] != ["100.0 (pe 0.0)"] * 8

    modes = table(markdown, "State transition accuracy, strict vs paper mode", "###")
    assert row(modes, "finereason-oracle")[1:] == ["100.0 (pe 0.0)"] * 8

    t4 = table(markdown, "Table 4")
    assert row(t4, "finereason-oracle")[1:] == ["100.0"] * 12
    assert len(row(t4, "finereason-random")) == 13

    groups = table(markdown, "Group accuracy")
    assert row(groups, "finereason-oracle")[1] == "100.0 (n=64)"
    assert "End-to-end" not in markdown  # not run


def test_group_table_shows_the_number_lm_eval_printed(runs, report):
    """The report computes each group's overall score with the metric registry; on a real run it is
    the value lm-eval itself wrote for the group."""
    markdown, _ = report
    groups = table(markdown, "Group accuracy")
    for path in runs["out"].rglob("results_*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        printed = data["groups"]["finereason"]["acc,none"]
        assert row(groups, data["config"]["model"])[1].startswith(f"{100 * printed:.1f} (n=")


def test_breakdown_rejudges_samples(report):
    markdown, _ = report
    rows = table(markdown, "State transition outcomes by class")
    oracle = [r for r in rows if r[0] == "finereason-oracle"]
    assert len(oracle) == 8  # 4 puzzles x {solvable, unsolvable}
    for r in oracle:
        assert r[4] == "100.0" and set(r[5:]) == {"0.0"}
    random = [r for r in rows if r[0] == "finereason-random"]
    for r in random:
        assert abs(sum(float(v) for v in r[4:]) - 100.0) < 0.5
    assert "## Notes" not in markdown  # re-judged samples agree with the stored metrics


def test_plots_are_png(report):
    markdown, target = report
    for name in ("st_error_breakdown.png", "sc_accuracy_vs_difficulty.png", "model_comparison.png"):
        data = (target / name).read_bytes()
        assert data[:8] == PNG_MAGIC and len(data) > 5000, name
        assert f"`{name}`" in markdown and f"`{name}` skipped" not in markdown


def test_summary_printed_to_stdout(runs, tmp_path, capsys):
    capsys.readouterr()
    assert main(["report", str(runs["out"]), "--out", str(tmp_path / "r")]) == 0
    printed = capsys.readouterr().out
    assert printed == (tmp_path / "r" / "summary.md").read_text(encoding="utf-8")


def test_results_files_newest_wins_and_no_samples(runs, tmp_path):
    """Explicit results files; a newer run of the same model replaces that task; no samples: plots skipped."""
    files = sorted(runs["out"].rglob("results_*.json"))
    oracle = next(f for f in files if json.loads(f.read_text())["config"]["model"] == "finereason-oracle")
    data = json.loads(oracle.read_text())
    data["date"] += 1000
    data["results"] = {"finereason_sudoku_state_checking": dict(data["results"]["finereason_sudoku_state_checking"])}
    data["results"]["finereason_sudoku_state_checking"]["acc,none"] = 0.5
    data.pop("groups", None)
    newer = tmp_path / "later" / "results_2099-01-01T00-00-00.000000.json"
    newer.parent.mkdir()
    newer.write_text(json.dumps(data))
    out = tmp_path / "r"
    assert main(["report", str(oracle), str(newer), "--out", str(out)]) == 0
    markdown = (out / "summary.md").read_text()
    values = row(table(markdown, "Table 3"), "finereason-oracle")
    assert values[1] == "50.0 (pe 0.0)" and values[2:] == ["100.0 (pe 0.0)"] * 7
    # the other tasks still come with samples from the older run
    assert (out / "st_error_breakdown.png").read_bytes()[:8] == PNG_MAGIC

    only_results = tmp_path / "bare" / newer.name
    only_results.parent.mkdir()
    shutil.copy(oracle, only_results)
    (out / "st_error_breakdown.png").write_bytes(PNG_MAGIC)  # stale plot from an earlier report
    assert main(["report", str(only_results.parent), "--out", str(out)]) == 0
    markdown = (out / "summary.md").read_text()
    assert "`st_error_breakdown.png` skipped: no state-transition samples" in markdown
    assert "`sc_accuracy_vs_difficulty.png` skipped" in markdown
    assert not (out / "st_error_breakdown.png").exists()
    assert (out / "model_comparison.png").read_bytes()[:8] == PNG_MAGIC


def test_errors(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    bad = tmp_path / "results_bad.json"
    bad.write_text("{not json")
    other = tmp_path / "other.json"
    other.write_text("[1, 2]")
    cases = {
        str(tmp_path / "missing"): "no such file or folder",
        str(empty): "no lm-eval results files",
        str(bad): "not valid JSON",
        str(other): "not an lm-eval results file",
    }
    for path, message in cases.items():
        capsys.readouterr()
        assert main(["report", path, "--out", str(tmp_path / "r")]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("finereason: error: ") and message in err and "\n" not in err, err


def test_bad_samples_line_is_an_error(runs, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(runs["out"], copy)
    sample = next(copy.rglob("samples_finereason_sudoku_state_checking_*.jsonl"))
    with open(sample, "a", encoding="utf-8") as handle:
        handle.write("{truncated\n")
    capsys.readouterr()
    assert main(["report", str(copy), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "not valid JSON" in err and sample.name in err


def test_missing_matplotlib_is_explained(runs, tmp_path, monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    monkeypatch.setitem(sys.modules, "matplotlib.backends", None)
    monkeypatch.setitem(sys.modules, "matplotlib.backends.backend_agg", None)
    capsys.readouterr()
    assert main(["report", str(runs["out"]), "--out", str(tmp_path / "r")]) == 2
    assert "'.[eval]'" in capsys.readouterr().err


# ------------------------------------------------------------------ paper-grade details
def test_wilson_interval_hand_computed():
    from finereason.integrations.report.results import wilson

    lo, hi = wilson(5, 10)  # p = 0.5, z = 1.96: 0.5 -+ 1.96 * sqrt(0.025 + 0.009604) / 1.38416
    assert abs(lo - 0.2366) < 1e-4 and abs(hi - 0.7634) < 1e-4
    lo, hi = wilson(0, 6)  # never (0, 0): no successes in 6 tries still allows up to ~39 %
    assert lo == 0.0 and abs(hi - 0.3903) < 1e-4
    assert wilson(12, 12)[1] == 1.0 and wilson(12, 12)[0] < 0.76
    assert wilson(0, 0) == (0.0, 1.0)


def test_parse_errors_are_shown_beside_accuracy():
    from finereason.integrations.report.results import acc_cell

    # the case: grid state checking at 0.0 while 5 of 6 answers were unparseable
    assert acc_cell({"acc,none": 0.0, "parse_error_rate,none": 5 / 6}) == "0.0 (pe 83.3)"
    assert acc_cell({"acc,none": 0.25}) == "25.0"
    assert acc_cell(None) == "—"  # undefined or absent: a dash, never 0


def test_small_difficulty_bins_are_merged():
    from finereason.integrations.report.plots import _bins

    # depths 1 x 30, 2 x 1, 3 x 7, 4 x 20: 2 joins 3 (8 items, still too few), then 2-3 joins the smaller neighbour 4
    values = [1] * 30 + [2] + [3] * 7 + [4] * 20
    bins = _bins(values)
    counts = [sum(lo <= v <= hi for v in values) for lo, hi, _ in bins]
    assert [label for *_, label in bins] == ["1", "2–4"] and counts == [30, 28]
    assert [label for *_, label in _bins([5] * 3)] == ["5"]  # one small bin stays (marked hollow in the plot)
    many = list(range(100))  # equal-width ranges, each with >= 10 items
    assert all(hi - lo >= 9 for lo, hi, _ in _bins(many))


def test_plot_titles_name_the_metric(report):
    import finereason.integrations.report.plots as rep

    source = Path(rep.__file__).read_text()
    assert "State checking accuracy (strict)" not in source  # SC has no strict mode
    _, target = report
    assert (target / "model_comparison.png").stat().st_size > 5000


def test_mean_bars_have_real_intervals_and_runs_are_named(runs, report):
    """The comparison's mean bars carry an interval (not zero-height); run folders are named after the
    model; the summary shows no absolute path; undefined P / F1 are dashes."""
    from finereason.integrations.report.results import load_models, domain_order
    from finereason.integrations.report.plots import bar_cells

    assert sorted(p.name for p in runs["out"].iterdir() if p.is_dir()) == ["finereason-oracle", "finereason-random"]
    models, _ = load_models([runs["out"]])
    random = next(m for m in models if m.title == "finereason-random")
    present = [p for p in domain_order() if random.get("finereason", p, "state_transition")]
    assert len(present) == 4
    *parts, avg = bar_cells(random, "finereason", "state_transition", present)
    assert avg.lo < avg.value < avg.hi and avg.n == sum(c.n for c in parts)
    assert avg.hi - avg.lo < min(c.hi - c.lo for c in parts)  # a mean of four is tighter than each part
    markdown, _ = report
    assert str(runs["out"]) not in markdown and "`/" not in markdown
    assert "`evalout/finereason-oracle/results_" in markdown  # from the folder that holds the runs
    for r in table(markdown, "Table 4"):
        assert all(v == "—" or re.fullmatch(r"\d+\.\d", v) for v in r[1:])


def test_undefined_precision_is_a_dash_in_table_4(runs, tmp_path):
    """A model that never answers 'unsolvable' has no precision (0 of 0): "—", never 0.0."""
    copy = tmp_path / "copy"
    shutil.copytree(runs["out"], copy)
    for samples in copy.rglob("samples_finereason_sudoku_state_checking_*.jsonl"):
        rows = [json.loads(line) for line in samples.read_text().splitlines() if line.strip()]
        for r in rows:
            r["filtered_resps"] = ["solvable"]
            r["resps"] = [["solvable"]]
        samples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for results in copy.rglob("results_*.json"):
        data = json.loads(results.read_text())
        data["results"]["finereason_sudoku_state_checking"].update({"precision_unsolvable,none": 0.0, "recall_unsolvable,none": 0.0,
                                                                    "f1_unsolvable,none": 0.0})
        results.write_text(json.dumps(data))
    assert main(["report", str(copy), "--out", str(tmp_path / "r")]) == 0
    t4 = table((tmp_path / "r" / "summary.md").read_text(), "Table 4")
    for r in t4:
        assert r[1:4] == ["—", "0.0", "—"], r  # Sudoku P, R, F1


def _drawn(runs, maker_name: str, keep=lambda model, doc, score: True):
    """The figure a plot maker draws from the two runs (captured before it is saved); ``keep`` filters
    the models' scored samples (a model left with none is not drawn)."""
    import finereason.integrations.report.plots as plots
    from finereason.integrations.report.results import load_models, load_samples, domain_order

    models, _ = load_models([runs["out"]])
    for model in models:
        for result in model.tasks.values():
            if result.samples_file is not None:
                result.scores = [(d, sc) for d, sc in load_samples(result) if keep(model, d, sc)]
    models = [m for m in models if any(r.scores for r in m.tasks.values())]
    made, real = [], plots.matplotlib_figure()

    def figure(**kwargs):
        made.append(real(**kwargs))
        return made[-1]

    assert plots.PLOT_MAKERS[maker_name](figure, models, "finereason", list(domain_order()), runs["root"] / maker_name) is None
    (fig,) = made
    fig.canvas.draw()
    return fig


def _error_segments(ax) -> list[tuple[float, float, float]]:
    """(x, low, high) of every vertical error bar of ``ax``."""
    from matplotlib.collections import LineCollection

    out = []
    for collection in ax.collections:
        if isinstance(collection, LineCollection):
            for (x0, y0), (x1, y1) in (seg[:2] for seg in collection.get_segments() if len(seg) >= 2):
                if abs(x0 - x1) < 1e-9:
                    out.append((x0, min(y0, y1), max(y0, y1)))
    return out


def test_value_labels_sit_above_their_error_bars(runs):
    fig = _drawn(runs, "model_comparison.png")
    for ax in fig.axes:
        labels = [t for t in ax.texts if t.get_text().isdigit()]
        assert labels
        for text in labels:
            x, y = text.get_position()
            tops = [hi for sx, _, hi in _error_segments(ax) if abs(sx - x) < 1e-9]
            assert tops and y >= max(tops), (text.get_text(), y, tops)


def test_breakdown_labels_do_not_sit_on_the_error_bars(runs):
    from finereason.integrations.report.plots import ERRORBAR_SHIFT

    fig = _drawn(runs, "st_error_breakdown.png")
    for ax in fig.axes:
        segments = _error_segments(ax)
        assert segments
        for text in ax.texts:
            x, y = text.get_position()
            assert all(abs(sx - x) >= ERRORBAR_SHIFT - 1e-9 for sx, lo, hi in segments if lo <= y <= hi)


def test_a_one_bin_difficulty_plot_is_centred(runs):
    """The small build's 8 rows per config merge into one difficulty bin: it sits in the middle of its panel,
    even when only one of the side-by-side series (here: one model, solvable states) has points."""
    fig = _drawn(runs, "sc_accuracy_vs_difficulty.png",
                 keep=lambda model, doc, score: model.title == "finereason-oracle" and score.solvable is True)
    single = [ax for ax in fig.axes if ax.get_visible() and len(ax.get_xticks()) == 1]
    assert single
    for ax in single:
        lo, hi = ax.get_xlim()
        assert (lo + hi) / 2 == pytest.approx(ax.get_xticks()[0])


def test_legends_sit_above_every_panel(runs):
    for name in ("model_comparison.png", "st_error_breakdown.png", "sc_accuracy_vs_difficulty.png"):
        fig = _drawn(runs, name)
        renderer = fig.canvas.get_renderer()
        (legend,) = fig.legends
        box = legend.get_window_extent(renderer)
        for ax in fig.axes:
            if ax.get_visible():
                assert ax.get_tightbbox(renderer).y1 <= box.y0 + 1, name
