"""``finereason verify-data``: every stored label and unsolvable child re-checked by the oracles."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from finereason.commands import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from test_cli_errors import tamper  # noqa: E402  (rewrites a config's parquet and its fingerprint)


@pytest.fixture(scope="session")
def small_build(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("verify") / "ds"
    assert main(["build", "--out", str(out), "--per-task", "8", "--train-size", "16", "--e2e-size", "4"]) == 0
    return out


@pytest.fixture()
def folder(small_build, tmp_path) -> Path:
    copy = tmp_path / "ds"
    shutil.copytree(small_build, copy)
    return copy


def verify(capsys, folder: Path, *extra: str) -> tuple[int, list[str]]:
    code = main(["verify-data", str(folder), *extra])
    return code, capsys.readouterr().out.splitlines()


def findings(lines: list[str], folder: Path) -> list[str]:
    return [line for line in lines if line.startswith(str(folder))]


def test_a_clean_build_verifies(small_build, capsys):
    code, lines = verify(capsys, small_build)
    assert code == 0 and findings(lines, small_build) == []
    assert lines[-1] == "verified: 96 rows in 13 configs, 0 findings"


def _flip_label(index: int):
    def change(rows, schema):
        rows[index]["label"] = "Unsolvable" if rows[index]["label"] == "Solvable" else "Solvable"
        return pa.Table.from_pylist(rows, schema=schema)
    return change


@pytest.mark.parametrize("refingerprint", [True, False], ids=["fingerprint-updated", "fingerprint-stale"])
def test_one_flipped_label_is_flagged(folder, capsys, refingerprint):
    [path] = (folder / "graph_coloring_state_checking").glob("*.parquet")
    row_id = pq.read_table(path).to_pylist()[3]["id"]
    tamper(folder, "graph_coloring_state_checking", _flip_label(3), refingerprint=refingerprint)
    code, lines = verify(capsys, folder)
    found = findings(lines, folder)
    assert code == 1
    label = [f for f in found if ": label: " in f]
    assert len(label) == 1 and row_id in label[0] and "graph_coloring_state_checking" in label[0]
    assert any(": fingerprint: " in f for f in found) is not refingerprint
    assert len(found) == (1 if refingerprint else 2)


def test_flipped_status_and_solvable_child_are_flagged(folder, capsys):
    def change(rows, schema):
        outputs = json.loads(rows[0]["outputs"])
        outputs["current_status"] = "Unsolvable" if outputs["current_status"] == "Solvable" else "Solvable"
        rows[0]["outputs"] = json.dumps(outputs)
        solvable = next(r for r in rows if r["label"] == "Solvable" and json.loads(r["inputs"]).get("unsolvable_child"))
        inputs = json.loads(solvable["inputs"])
        inputs["unsolvable_child"] = inputs["current"]  # a solvable state stored as the dead-end child
        solvable["inputs"] = json.dumps(inputs)
        return pa.Table.from_pylist(rows, schema=schema)

    tamper(folder, "sudoku_state_transition", change)
    code, lines = verify(capsys, folder, "--configs", "sudoku_state_transition")
    kinds = sorted(f.split(": ")[2] for f in findings(lines, folder))
    assert code == 1 and kinds == ["child", "status"]


def test_duplicate_ids_are_reported_through_the_loader(folder, capsys):
    def change(rows, schema):
        rows[1]["id"] = rows[0]["id"]
        return pa.Table.from_pylist(rows, schema=schema)

    tamper(folder, "game_of_24_state_checking", change)
    code, lines = verify(capsys, folder)
    found = findings(lines, folder)
    assert code == 1 and len(found) == 1 and "duplicate row id" in found[0]


def test_unreadable_rows_are_findings_not_crashes(folder, capsys):
    def change(rows, schema):
        rows[0]["inputs"] = "not json"
        rows[1]["inputs"] = json.dumps({"initial": [[1, 2]]})
        return pa.Table.from_pylist(rows, schema=schema)

    tamper(folder, "sudoku_state_checking", change)
    code, lines = verify(capsys, folder)
    found = findings(lines, folder)
    assert code == 1 and len(found) == 2 and all(": unreadable: " in f for f in found)


def test_paths_outside_the_folder_are_refused(folder, capsys):
    readme = folder / "README.md"
    readme.write_text(readme.read_text().replace("sudoku_state_checking/", "../elsewhere/", 1))
    code, lines = verify(capsys, folder)
    assert code == 1 and any("outside" in f or "elsewhere" in f for f in findings(lines, folder))


def test_an_unsolvable_end_to_end_puzzle_is_flagged(folder, capsys):
    def change(rows, schema):
        inputs = json.loads(rows[0]["inputs"])
        inputs["chromatic_number"] = 1  # every graph here has an edge, so one color cannot do
        rows[0]["inputs"] = json.dumps(inputs)
        return pa.Table.from_pylist(rows, schema=schema)

    tamper(folder, "graph_coloring_end_to_end", change)
    code, lines = verify(capsys, folder, "--configs", "graph_coloring_end_to_end")
    found = findings(lines, folder)
    assert code == 1 and len(found) == 1 and ": unsolvable_puzzle: " in found[0]
