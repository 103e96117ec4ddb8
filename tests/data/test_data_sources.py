"""Data sources: fresh loads by content, one named source, safe folder opening (issues 9.1, 9.2, 10.5)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from finereason.data import resolve as fdata
from finereason.commands import main
from finereason.data.folder import DataFolderError, data_manifest, open_data_folder

pytest.importorskip("datasets")
pytest.importorskip("pyarrow")

CONFIG = "sudoku_state_checking"


def build(out: Path, seed: int, per_task: int, *extra: str) -> Path:
    args = ["build", "--out", str(out), "--seed", str(seed), "--per-task", str(per_task), "--train-size", "0",
            "--e2e-size", "0", "--domains", "sudoku", *extra]
    assert main(args) == 0
    return out


def ids(rows) -> list[str]:
    return list(rows["id"])


@pytest.fixture(scope="session")
def two_builds(tmp_path_factory) -> tuple[Path, Path]:
    """Two different builds: seed 2 with 4 rows per config and seed 9 with 8."""
    root = tmp_path_factory.mktemp("builds")
    return build(root / "a" / "ds", 2, 4), build(root / "b" / "ds", 9, 8)


@pytest.fixture
def local(monkeypatch):
    def point(folder: Path) -> Path:
        monkeypatch.setenv("FINEREASON_DATA_DIR", str(folder))
        monkeypatch.delenv("FINEREASON_HUB_ID", raising=False)
        return folder

    return point


def expected_ids(folder: Path) -> list[str]:
    import pyarrow.parquet as pq

    files = sorted((folder / CONFIG).glob("*.parquet"))
    return [i for f in files for i in pq.read_table(f).column("id").to_pylist()]


def lm_eval_rows(config: str) -> list[str]:
    from lm_eval.tasks import TaskManager

    from finereason.integrations.lm_eval.cli import tasks_dir

    manager = TaskManager(include_path=str(tasks_dir()), include_defaults=False)
    task = manager.load([f"finereason_{config}"])["tasks"][f"finereason_{config}"]
    return [doc["id"] for doc in task.test_docs()]


def all_three(folder: Path, hf_cache: Path) -> tuple[list[str], list[str], list[str]]:
    """Row ids through load_config, lm-eval and plain datasets.load_dataset (shared HF cache)."""
    import datasets

    plain = datasets.load_dataset(str(folder), CONFIG, split="test", cache_dir=str(hf_cache))
    return ids(fdata.load_config(CONFIG)["test"]), lm_eval_rows(CONFIG), ids(plain)


@pytest.mark.parametrize("how", ["rebuild_in_place", "same_named_folder"])
def test_every_loader_serves_the_folders_own_rows(two_builds, local, tmp_path, how):
    pytest.importorskip("lm_eval")
    first, second = two_builds
    hf_cache = tmp_path / "hf-cache"  # one cache for both loads, as on a user's machine
    target = tmp_path / "ds"
    shutil.copytree(first, target)
    local(target)
    assert all_three(target, hf_cache) == (expected_ids(first),) * 3
    if how == "rebuild_in_place":
        build(target, 9, 8, "--overwrite")
    else:
        target = tmp_path / "other" / "ds"
        shutil.copytree(second, target)
        local(target)
    want = expected_ids(second)
    assert len(want) == 8 and want != expected_ids(first)
    assert all_three(target, hf_cache) == (want,) * 3


def test_results_name_the_data_source_and_no_warning_flood(two_builds, local, tmp_path, capfd):
    pytest.importorskip("lm_eval")
    from finereason.integrations.lm_eval.models import our_tasks_only

    folder = local(two_builds[0])
    fdata._announced.clear()
    out = tmp_path / "runs"
    with our_tasks_only():
        assert main(["eval", "--model", "finereason-random", "--tasks", f"finereason_{CONFIG}", "--limit", "2",
                     "--output_path", str(out)]) == 0
    err = capfd.readouterr().err
    assert "Custom kwargs can be passed" not in err
    manifest = json.loads((folder / "build_info.json").read_text())["data"]
    line = f"finereason data: local folder {folder.resolve()} (FINEREASON_DATA_DIR), fingerprint {manifest['fingerprint'][:12]}"
    assert err.count("finereason data:") == 1 and line in err
    results = json.loads(next(out.rglob("results_*.json")).read_text())
    config = results["configs"][f"finereason_{CONFIG}"]
    assert config["dataset_path"] == str(folder.resolve()) and config["dataset_name"] == CONFIG
    assert config["metadata"]["data_source"] == {
        "kind": "local", "path": str(folder.resolve()), "fingerprint": manifest["fingerprint"], "config": CONFIG,
        "config_fingerprint": manifest["configs"][CONFIG]["fingerprint"]}


# ------------------------------------------------------------------ tampered folders
@pytest.fixture
def copy(two_builds, tmp_path, local) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(two_builds[0], target)
    return local(target)


def rewrite_manifest(folder: Path) -> None:
    """Re-fingerprint the folder (a tamperer who also updates build_info.json)."""
    info = json.loads((folder / "build_info.json").read_text())
    info["data"] = data_manifest(folder, {c: [f"{c}/{p.name}" for p in (folder / c).glob("*.parquet")] for c in info["data"]["configs"]})
    (folder / "build_info.json").write_text(json.dumps(info))


def one_line(err: Exception) -> str:
    text = str(err)
    assert "\n" not in text and "Traceback" not in text
    return text


def test_changed_bytes_fail_the_fingerprint(copy):
    path = next((copy / CONFIG).glob("*.parquet"))
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(DataFolderError) as err:
        fdata.load_config(CONFIG)
    assert "does not match its fingerprint" in one_line(err.value) and str(path) in str(err.value)
    # verify=False lets a checker look inside anyway (the bytes may still not parse)
    assert open_data_folder(copy, verify=False).files(CONFIG)["test"] == [path.relative_to(copy).as_posix()]


def test_a_lost_shard_is_refused(copy):
    info = json.loads((copy / "build_info.json").read_text())
    info["data"]["configs"][CONFIG]["files"][f"{CONFIG}/test-00001-of-00002.parquet"] = "0" * 64
    (copy / "build_info.json").write_text(json.dumps(info))
    with pytest.raises(DataFolderError, match="test-00001-of-00002.parquet: recorded in build_info.json but missing"):
        fdata.load_config(CONFIG)


def test_missing_manifest_is_refused(copy):
    info = json.loads((copy / "build_info.json").read_text())
    del info["data"]
    (copy / "build_info.json").write_text(json.dumps(info))
    with pytest.raises(DataFolderError, match="no data fingerprints"):
        fdata.load_config(CONFIG)


@pytest.mark.parametrize("path", ["../other/test.parquet", "/etc/passwd", "hf://datasets/x/y/a.parquet",
                                  f"{CONFIG}/../../x.parquet", "..\\x.parquet"])
def test_paths_outside_the_folder_are_refused(copy, tmp_path, path):
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(next((copy / CONFIG).glob("*.parquet")), other / "test.parquet")
    readme = copy / "README.md"
    text, count = re.subn(rf"path: {CONFIG}/\S+", lambda m: f"path: '{path}'", readme.read_text())
    assert count == 1
    readme.write_text(text)
    with pytest.raises(DataFolderError) as err:
        fdata.load_config(CONFIG)
    assert "outside the dataset folder; refused" in one_line(err.value)


def test_symlink_out_of_the_folder_is_refused(copy, tmp_path):
    path = next((copy / CONFIG).glob("*.parquet"))
    outside = tmp_path / "outside.parquet"
    shutil.move(path, outside)
    path.symlink_to(outside)
    with pytest.raises(DataFolderError, match="a link out of the dataset folder; refused"):
        fdata.load_config(CONFIG)


def test_duplicate_ids_are_refused_even_with_a_matching_fingerprint(copy):
    import pyarrow.parquet as pq

    path = next((copy / CONFIG).glob("*.parquet"))
    table = pq.read_table(path)
    ids_ = table.column("id").to_pylist()
    ids_[1] = ids_[0]
    pq.write_table(table.set_column(table.schema.get_field_index("id"), "id", [ids_]), path)
    rewrite_manifest(copy)
    with pytest.raises(DataFolderError) as err:
        fdata.load_config(CONFIG)
    assert f"duplicate row id {ids_[0]!r}" in one_line(err.value)


def _set(table, column: str, value: str):
    """``table`` with every row's ``column`` set to ``value``."""
    return table.set_column(table.schema.get_field_index(column), column, [[value] * table.num_rows])


@pytest.mark.parametrize("change, message", [
    (lambda t: t.drop_columns(["inputs"]), "missing column(s) inputs"),
    (lambda t: t.set_column(t.schema.get_field_index("task"), "task", [["end_to_end"] * t.num_rows]),
     "task(s) end_to_end in config"),
    (lambda t: _set(_set(t, "domain", "chess"), "puzzle", "chess"), "unknown domain(s) chess"),
    (lambda t: _set(t.drop_columns(["domain"]), "puzzle", "chess"), "unknown domain(s) chess"),  # a folder built before the rename
    (lambda t: _set(t, "domain", "graph_coloring"), "columns 'domain' and 'puzzle' (its old name) disagree"),
    (lambda t: t.drop_columns(["domain", "puzzle"]), "missing column(s) domain"),
])
def test_schema_is_checked(copy, change, message):
    import pyarrow.parquet as pq

    path = next((copy / CONFIG).glob("*.parquet"))
    pq.write_table(change(pq.read_table(path)), path)
    rewrite_manifest(copy)
    with pytest.raises(DataFolderError) as err:
        fdata.load_config(CONFIG)
    assert message in one_line(err.value)


@pytest.mark.parametrize("drop", ["puzzle", "domain"])
def test_a_folder_with_one_domain_column_loads_and_scores_alike(copy, drop):
    """A folder written before the rename (only ``puzzle``) and one without the deprecated duplicate
    (only ``domain``) load, pass the checks and score exactly like the folder with both columns."""
    import pyarrow.parquet as pq

    from finereason.core.rows import row_domain
    from finereason.verification.scoring import score_row

    both = list(fdata.load_config(CONFIG)["test"])
    assert all(r["domain"] == r["puzzle"] == "sudoku" for r in both)
    path = next((copy / CONFIG).glob("*.parquet"))
    pq.write_table(pq.read_table(path).drop_columns([drop]), path)
    rewrite_manifest(copy)
    one = list(fdata.load_config(CONFIG)["test"])
    assert len(one) == len(both) and all(drop not in r for r in one)
    for old, new in zip(one, both):
        assert row_domain(old) == row_domain(new) == "sudoku"
        for answer in ("Answer: (A)", "Answer: (B)", "no idea"):
            assert score_row(old, answer) == score_row(new, answer)


def test_unknown_config_and_missing_folder(copy, local, tmp_path):
    with pytest.raises(fdata.DataUnavailable, match="has no config 'grid_puzzle_state_checking'"):
        fdata.load_config("grid_puzzle_state_checking")
    local(tmp_path / "nowhere")
    with pytest.raises(fdata.DataUnavailable, match="FINEREASON_DATA_DIR=.*nowhere: no such folder"):
        fdata.load_config(CONFIG)


def test_eval_with_a_missing_data_dir_is_one_line(local, tmp_path, capsys):
    pytest.importorskip("lm_eval")
    from finereason.integrations.lm_eval.models import our_tasks_only

    local(tmp_path / "nowhere")
    with our_tasks_only():
        code = main(["eval", "--model", "finereason-random", "--tasks", f"finereason_{CONFIG}", "--limit", "1",
                     "--output_path", str(tmp_path / "o")])
    ours = [line for line in capsys.readouterr().err.splitlines() if line.startswith("finereason")]
    assert code == 2 and len(ours) == 1 and "FINEREASON_DATA_DIR=" in ours[0] and "no such folder" in ours[0]


def test_score_data_checks_the_folder(copy, tmp_path, capsys):
    responses = tmp_path / "r.jsonl"
    responses.write_text(json.dumps({"id": expected_ids(copy)[0], "response": "Answer: (A)"}) + "\n")
    assert main(["score", "--data", str(copy), "--config", CONFIG, "--responses", str(responses)]) == 0
    path = next((copy / CONFIG).glob("*.parquet"))
    path.write_bytes(path.read_bytes() + b"\0")
    capsys.readouterr()
    assert main(["score", "--data", str(copy), "--config", CONFIG, "--responses", str(responses)]) == 2
    err = capsys.readouterr().err.strip()
    assert "does not match its fingerprint" in err and len(err.splitlines()) == 1


# ------------------------------------------------------------------ the Hub, only when named
def fake_hub_cache(folder: Path, hub_cache: Path, repo: str, commit: str = "a" * 40) -> Path:
    """``folder`` laid out as huggingface_hub's cache of a dataset repo (blobs + snapshot symlinks)."""
    repo_dir = hub_cache / f"datasets--{repo.replace('/', '--')}"
    snapshot = repo_dir / "snapshots" / commit
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        blob = repo_dir / "blobs" / f"{path.relative_to(folder).as_posix().replace('/', '_')}"
        blob.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, blob)
        link = snapshot / path.relative_to(folder)
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(blob)
    (repo_dir / "refs").mkdir(parents=True)
    (repo_dir / "refs" / "main").write_text(commit)
    return snapshot


@pytest.fixture
def hub(monkeypatch, tmp_path):
    pytest.importorskip("huggingface_hub")
    import huggingface_hub.constants as constants

    cache = tmp_path / "hub"
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(cache))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.delenv("FINEREASON_DATA_DIR", raising=False)
    return cache


def test_named_hub_repo_is_read_from_its_snapshot(two_builds, hub, monkeypatch):
    fake_hub_cache(two_builds[1], hub, "org/fr", commit="b" * 40)
    monkeypatch.setenv("FINEREASON_HUB_ID", "org/fr")
    rows, source, facts = fdata.load_config_with_source(CONFIG)
    assert ids(rows["test"]) == expected_ids(two_builds[1])
    manifest = json.loads((two_builds[1] / "build_info.json").read_text())["data"]
    assert facts == {"kind": "hub", "repo": "org/fr", "revision": "b" * 40, "fingerprint": manifest["fingerprint"],
                     "config": CONFIG, "config_fingerprint": manifest["configs"][CONFIG]["fingerprint"]}
    assert source.describe().startswith(f"Hub dataset org/fr@{'b' * 40} (FINEREASON_HUB_ID), fingerprint ")


def test_unreachable_named_repo_is_one_clear_error(hub, monkeypatch):
    monkeypatch.setenv("FINEREASON_HUB_ID", "org/missing@v2")
    called = []
    monkeypatch.setattr(fdata, "ensure_default_build", lambda: called.append(1))
    with pytest.raises(fdata.DataUnavailable) as err:
        fdata.load_config(CONFIG)
    assert one_line(err.value).startswith("Hub dataset org/missing@v2 (FINEREASON_HUB_ID) is unavailable: ")
    assert not called, "fell back to the embedded default"


def test_hub_is_never_contacted_unless_named(two_builds, monkeypatch):
    pytest.importorskip("huggingface_hub")
    import huggingface_hub

    monkeypatch.delenv("FINEREASON_DATA_DIR", raising=False)
    monkeypatch.delenv("FINEREASON_HUB_ID", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)

    def no_hub(*args, **kwargs):
        raise AssertionError("the Hub was contacted")

    monkeypatch.setattr(huggingface_hub, "snapshot_download", no_hub)
    monkeypatch.setattr(fdata, "ensure_default_build", lambda: two_builds[0])
    rows, source, _ = fdata.load_config_with_source(CONFIG)
    assert source.kind == "default" and ids(rows["test"]) == expected_ids(two_builds[0])


@pytest.mark.parametrize("value", ["noslash", "a/b/c", "/x"])
def test_bad_hub_id(monkeypatch, value):
    monkeypatch.delenv("FINEREASON_DATA_DIR", raising=False)
    monkeypatch.setenv("FINEREASON_HUB_ID", value)
    with pytest.raises(fdata.DataUnavailable, match="expected a dataset repo id like org/name"):
        fdata.load_config(CONFIG)


# ------------------------------------------------------------------ the embedded default's cache key
def test_default_build_key_holds_version_and_builder_fingerprint(tmp_path, monkeypatch):
    from importlib import resources

    from finereason import __version__

    monkeypatch.setenv("FINEREASON_CACHE", str(tmp_path))
    name = fdata.default_build_dir().name
    assert name == f"default-s0-{__version__}-{fdata.builder_fingerprint()}"

    package = tmp_path / "pkg"
    shutil.copytree(Path(str(resources.files("finereason"))), package, ignore=shutil.ignore_patterns("__pycache__"))
    real = resources.files

    def files(name: str):
        if name == "finereason" or name.startswith("finereason.") and name.count(".") == 1 and (package / name[11:]).is_dir():
            return package if name == "finereason" else package / name[11:]
        return real(name)

    monkeypatch.setattr(fdata.resources, "files", files)
    base = fdata.builder_fingerprint()
    for layer in ("verification", "integrations", "workflows"):  # the layers above data only read data
        module = next((package / layer).glob("*.py"))
        module.write_text(module.read_text() + "\n# not data\n")
        assert fdata.builder_fingerprint() == base, layer
    for layer in fdata.DATA_LAYERS:  # any change in a data-making layer, a new module included
        (package / layer / "new_module.py").write_text("# changes data\n")
        changed = fdata.builder_fingerprint()
        assert changed != base, layer
        base = changed


def test_memory_mapped_reads_are_checked_and_keyed_by_content(two_builds, tmp_path, monkeypatch):
    import datasets

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-cache")
    target = tmp_path / "ds"
    shutil.copytree(two_builds[0], target)
    assert ids(open_data_folder(target).read(CONFIG, in_memory=False)["test"]) == expected_ids(two_builds[0])
    shutil.rmtree(target)
    shutil.copytree(two_builds[1], target)  # same path, other rows
    assert ids(open_data_folder(target).read(CONFIG, in_memory=False)["test"]) == expected_ids(two_builds[1])
    path = next((target / CONFIG).glob("*.parquet"))
    path.write_bytes(path.read_bytes() + b"\0")
    with pytest.raises(DataFolderError, match="does not match its fingerprint"):
        open_data_folder(target).read(CONFIG, in_memory=False)
