"""``finereason baselines --data``: a folder that does not exist (or holds no built dataset) is an error,
not a place to build in, unless ``--build-missing`` asks for the build."""
from __future__ import annotations

import pytest

from finereason.commands import baselines as command
from finereason.commands import main
from finereason.commands.options import CliError


@pytest.fixture
def builds(monkeypatch) -> list:
    """Where the command would build (the stand-in builder records it and stops the run)."""
    pytest.importorskip("lm_eval")
    made: list = []

    def fake_build(config):
        made.append(config.out)
        raise CliError("stand-in builder: stopped here")

    monkeypatch.setattr(command, "build_and_print", fake_build)
    return made


@pytest.mark.parametrize("kind", ["absent", "not-a-dataset"])
def test_a_mistyped_data_folder_is_an_error(tmp_path, capsys, builds, kind):
    target = tmp_path / "nope"
    if kind == "not-a-dataset":
        target.mkdir()
        (target / "notes.txt").write_text("mine\n")
    assert main(["baselines", "--data", str(target), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("finereason: error:") and str(target) in err
    assert "--build-missing" in err
    assert builds == [] and not (tmp_path / "out").exists()
    assert (sorted(p.name for p in target.iterdir()) == ["notes.txt"]) if kind == "not-a-dataset" else not target.exists()


def test_build_missing_builds_the_default_benchmark_there(tmp_path, capsys, builds):
    target = tmp_path / "new"
    assert main(["baselines", "--data", str(target), "--build-missing", "--out", str(tmp_path / "out")]) == 2
    assert "stand-in builder: stopped here" in capsys.readouterr().err
    assert [str(p) for p in builds] == [str(target)]
