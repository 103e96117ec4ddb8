"""Every command that reads inputs and writes an --out refuses, before anything is opened, an --out
that is one of its inputs or lies inside an input folder (``common.atomic_io.check_output``): one line,
exit 2, nothing written."""
from __future__ import annotations

from pathlib import Path

import pytest

from finereason.commands import main


def _cases(inp: Path) -> dict[str, list[str]]:
    out = str(inp / "written")
    return {
        "report": ["report", str(inp), "--out", out],
        "leaderboard build": ["leaderboard", "build", str(inp), "--out", out],
        "leaderboard submit": ["leaderboard", "submit", str(inp), "--repo-id", "me/requests", "--dry-run", "--out", out],
        "merge-shards": ["merge-shards", "--out", out, str(inp)],
        "import-official": ["import-official", "--src", str(inp), "--out", out],
        "build": ["build", "--out", out, "--tot-csv", str(inp), "--per-task", "1", "--train-size", "0", "--e2e-size", "1"],
    }


@pytest.mark.parametrize("name", list(_cases(Path("."))))
def test_an_out_inside_an_input_is_refused_before_anything_is_written(name, tmp_path, capsys):
    inp = tmp_path / "inputs"
    inp.mkdir()
    (inp / "kept.txt").write_text("mine", encoding="utf-8")
    argv = _cases(inp)[name]
    if name == "build":
        pytest.importorskip("pyarrow")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--out" in err and "inside" in err, err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["inputs", "kept.txt"]


def test_evaluate_checkpoint_refuses_an_output_dir_inside_its_data(tmp_path, capsys):
    import sys

    repo = Path(__file__).resolve().parents[2]
    if str(repo) not in sys.path:
        sys.path.insert(0, str(repo))
    from trainers import evaluate_checkpoint

    data = tmp_path / "data"
    data.mkdir()
    code = evaluate_checkpoint.main(["--checkpoint", "ckpt", "--data", str(data), "--output_dir", str(data / "eval"),
                                     "--table_only"])
    assert code == 2
    assert "--output_dir" in capsys.readouterr().err and sorted(p.name for p in tmp_path.rglob("*")) == ["data"]
