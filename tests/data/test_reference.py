"""``finereason reference``: public reference sets fetched from their pinned commits, every file checked
against the manifest's sha256, and ``FINEREASON_REFERENCE`` as the default of the commands that read them.

No network: the files come from ../shared (copied unchanged from the same commits; its PROVENANCE.md
files name them), served by an injected opener or laid out as a ``file://`` mirror.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from conftest import shared_path
from finereason.commands import main
from finereason.data import reference
from finereason.data.reference_sets import SETS, reference_set


def _serve(root: Path, name: str):
    """An opener answering a set's URLs with the files of ``root/<folder>`` (the URL's last parts)."""
    chosen = reference_set(name)
    by_url = {chosen.url(f): root / chosen.folder / f.path for f in chosen.files}
    asked = []

    def opener(url: str) -> bytes:
        asked.append(url)
        return by_url[url].read_bytes()

    return opener, asked


def test_the_manifest_pins_every_set_and_file():
    for s in SETS:
        assert re.fullmatch(r"[0-9a-f]{40}", s.commit), s.name
        assert s.files, s.name
        paths = [f.path for f in s.files]
        assert len(set(paths)) == len(paths)
        assert all(re.fullmatch(r"[0-9a-f]{64}", f.sha256) for f in s.files)
        assert all(not p.startswith("/") and ".." not in p.split("/") for p in paths)
    assert len(reference_set("planbench").files) == 2210  # 2,209 PDDL files of plan-bench/instances/blocksworld + LICENSE
    url = reference_set("folio").url(reference_set("folio").files[0])
    assert url == ("https://raw.githubusercontent.com/Yale-LILY/FOLIO/5d7bb84c7edab3fb358e057d2807f19cf5cf5e2d/"
                   "data/v0.0/folio-train.jsonl")


@pytest.mark.parametrize("name", ["folio", "game24"])
def test_the_manifest_sums_are_those_of_the_published_files(name):
    """../shared holds these sets byte for byte as published (its PROVENANCE.md): sums computed here."""
    chosen = reference_set(name)
    for f in chosen.files:
        data = shared_path(chosen.folder, f.path).read_bytes()
        assert hashlib.sha256(data).hexdigest() == f.sha256, f.path


def test_fetch_writes_checked_files_and_keeps_good_ones(tmp_path):
    opener, asked = _serve(shared_path(), "folio")
    done = reference.fetch("folio", tmp_path / "ref", opener=opener)
    assert done.folder == tmp_path / "ref" / "folio" and (done.written, done.present) == (3, 0)
    for name in ("folio-train.jsonl", "folio-validation.jsonl", "LICENSE.FOLIO.txt"):
        assert (done.folder / name).read_bytes() == shared_path("folio", name).read_bytes()
    assert len(asked) == 3
    again = reference.fetch("folio", tmp_path / "ref", opener=opener)
    assert (again.written, again.present) == (0, 3) and len(asked) == 3  # nothing downloaded twice
    (done.folder / "folio-train.jsonl").write_text("changed\n")
    assert reference.check("folio", tmp_path / "ref") == ["folio-train.jsonl"]
    assert reference.fetch("folio", tmp_path / "ref", opener=opener).written == 1
    assert reference.check("folio", tmp_path / "ref") == []


def test_a_file_that_differs_from_the_manifest_is_an_error_and_not_written(tmp_path):
    """The official states files of ../shared are samples: served as the full release, they do not match."""
    opener, _ = _serve(tmp_path / "mirror", "finereason-official")
    folder = tmp_path / "mirror" / "finereason_official"
    folder.mkdir(parents=True)
    official = shared_path("finereason_official")
    for f in reference_set("finereason-official").files:
        source = official / f.path.replace("_states.jsonl", "_states_sample.jsonl")
        (folder / f.path).write_bytes(source.read_bytes() if source.is_file() else b"licence\n")
    with pytest.raises(reference.ReferenceError, match=r"sha256 mismatch \(expected [0-9a-f]{64}, got [0-9a-f]{64}\)"):
        reference.fetch("finereason-official", tmp_path / "ref", opener=opener, workers=1)
    written = {p.name for p in (tmp_path / "ref" / "finereason_official").glob("*")} if (tmp_path / "ref").exists() else set()
    assert not any(name.endswith("_states.jsonl") or name.startswith("LICENSE") for name in written)


def _mirror(root: Path, name: str, source: Path) -> None:
    """``root`` laid out like raw.githubusercontent.com for set ``name``, from the files in ``source``."""
    chosen = reference_set(name)
    for f in chosen.files:
        target = root / chosen.repo / chosen.commit / f.upstream
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((source / f.path).read_bytes())


def test_fetch_from_a_file_mirror_on_the_command_line(tmp_path, capsys, monkeypatch):
    _mirror(tmp_path / "mirror", "game24", shared_path("game24"))
    monkeypatch.setenv("FINEREASON_REFERENCE", str(tmp_path / "ref"))
    assert main(["reference", "fetch", "game24", "--mirror", (tmp_path / "mirror").as_uri()]) == 0
    out = capsys.readouterr().out
    assert "2 files fetched" in out and "sha256" in out
    assert (tmp_path / "ref" / "game24" / "24.csv").read_bytes() == shared_path("game24", "24.csv").read_bytes()
    assert main(["reference", "list"]) == 0
    listing = capsys.readouterr().out
    assert re.search(r"^game24 .*\[present\]$", listing, re.M) and f"FINEREASON_REFERENCE={tmp_path / 'ref'}" in listing
    assert not re.search(r"^folio .*\[present\]", listing, re.M)
    (tmp_path / "mirror" / "princeton-nlp").rename(tmp_path / "gone")
    (tmp_path / "ref" / "game24" / "24.csv").unlink()
    assert main(["reference", "fetch", "game24", "--mirror", (tmp_path / "mirror").as_uri()]) == 2
    err = capsys.readouterr().err
    assert err.startswith("finereason: error: cannot fetch file://") and err.count("\n") == 1


@pytest.mark.parametrize("argv, env, message", [
    (["reference", "fetch", "nope", "--to", "x"], None, "unknown reference set 'nope' (known: finereason-official"),
    (["reference", "fetch", "folio"], None, "--to DIR, or set FINEREASON_REFERENCE"),
    (["check-official"], None, "--src DIR is needed, or set FINEREASON_REFERENCE"),
    (["check-official"], "missing", "does not exist: finereason reference fetch finereason-official"),
    (["import-official", "--out", "data"], None, "--src DIR is needed, or set FINEREASON_REFERENCE"),
])
def test_errors_are_one_line(tmp_path, capsys, monkeypatch, argv, env, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FINEREASON_REFERENCE", raising=False)
    if env:
        monkeypatch.setenv("FINEREASON_REFERENCE", str(tmp_path / env))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_check_official_reads_the_reference_folder_by_default(tmp_path, capsys, monkeypatch):
    ref = tmp_path / "ref" / "finereason_official"
    ref.mkdir(parents=True)
    sample = shared_path("finereason_official", "game24_states_sample.jsonl")
    (ref / "game24_states.jsonl").write_text("".join(sample.read_text(encoding="utf-8").splitlines(True)[:5]))
    monkeypatch.setenv("FINEREASON_REFERENCE", str(tmp_path / "ref"))
    assert main(["check-official"]) == 0
    assert "agreement: 5/5" in capsys.readouterr().out


def test_folio_reads_the_reference_folder_when_finereason_folio_is_unset(tmp_path, monkeypatch):
    from finereason.data.folio import load_folio_versioned

    (tmp_path / "ref" / "folio").mkdir(parents=True)
    (tmp_path / "ref" / "folio" / "folio-validation.jsonl").write_bytes(shared_path("folio", "folio-validation.jsonl").read_bytes())
    monkeypatch.delenv("FINEREASON_FOLIO", raising=False)
    monkeypatch.setenv("FINEREASON_REFERENCE", str(tmp_path / "ref"))
    rows, version = load_folio_versioned(None, "validation")
    assert (len(rows), version) == (204, "v0.0")  # PROVENANCE.md: 204 validation examples of v0.0


def test_official_configs_name_the_reference_setting_when_no_release_is_found(tmp_path, monkeypatch):
    from finereason.data.resolve import DataUnavailable, _import_official_into

    monkeypatch.delenv("FINEREASON_OFFICIAL_SRC", raising=False)
    monkeypatch.delenv("FINEREASON_REFERENCE", raising=False)
    with pytest.raises(DataUnavailable, match="FINEREASON_REFERENCE"):
        _import_official_into(tmp_path / "data", "official_sudoku_state_checking")
