"""The lm-eval task folder is generated from the domain registry, and old prompt versions re-render.

- the committed YAMLs are exactly what ``lm_eval_tasks/generate_configs.py`` writes;
- a domain registered at run time adds exactly its own task files and group entries, in registry order;
- every generated task and group resolves in lm-eval's ``TaskManager`` from a folder ``write_configs``
  made on its own (templates and hooks copied, includes and ``!function`` tags resolved);
- ``--check`` reports missing, edited and stale files, one line each;
- prompts re-rendered from rows: at a row's own version byte-identical to its stored prompt (every
  built, train and official row), at ``v1`` different only where the changelog in
  ``finereason/core/prompts.py`` says; the ``..._v1`` tasks show the v1 prompts through the harness.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import SHARED
from finereason.commands import main as cli_main
from finereason.dataset_builders.layout import configs_in, read_config
from finereason.core.engine import engine_names, engines, get_engine, register, unregister
from finereason.lm_eval_tasks.generate_configs import (
    HEADER,
    TASK_FOLDER,
    check_configs,
    groups,
    main as generate_main,
    older_prompt_versions,
    puzzle_task_configs,
    render_configs,
    task_templates,
    task_version,
    write_configs,
)
from finereason.core.prompts import PROMPT_VERSION, PROMPT_VERSIONS, render_row_prompt, with_prompt_version
from finereason.core.rows import row_item
from finereason.verification.llm_verifier import verify_configs
from finereason.common.vocabulary import STATE_TRANSITION, TASKS


def members(text: str) -> list[str]:
    """The ``task:`` list of a group YAML."""
    return [line[4:] for line in text.splitlines() if line.startswith("  - ") and not line.startswith("  - metric")]


def extra_domain(position: int, in_default_set: bool = True):
    """A copy of the first registered domain under another name, placed by ``position``."""
    base = type(engines()[0])
    extra = type("ExtraDomain", (base,), {"name": "extra_demo", "official_name": "extrademo", "position": position,
                                          "in_default_set": in_default_set})
    return extra()


def grouped() -> list[str]:
    return [e.name for e in engines() if e.in_default_set]


# ------------------------------------------------------------------ the committed folder
def test_committed_yamls_are_what_the_generator_writes():
    problems = check_configs(TASK_FOLDER)
    assert not problems, "run python -m finereason.lm_eval_tasks.generate_configs:\n" + "\n".join(problems)
    for name, text in render_configs().items():
        assert (TASK_FOLDER / name).read_text(encoding="utf-8") == text


def test_generated_names_follow_the_registry():
    files = puzzle_task_configs(engines())
    # the three families (task templates with the registry's metric lists, puzzle tasks, verify tasks), nothing else
    assert render_configs() == {**task_templates(), **files, **verify_configs(engines(), HEADER)}
    names = [e.name for e in engines()]
    suffixes = ["", *(f"_{v}" for v in older_prompt_versions())]
    official = [e.name for e in engines() if e.official_release]  # the others have no official_* tasks
    expected = {f"finereason_{prefix}{name}_{task}{suffix}.yaml"
                for prefix, domain_names in (("", names), ("official_", official))
                for name in domain_names for task in TASKS for suffix in suffixes}
    expected |= {f"_{group}{suffix}.yaml" for group, _, _ in groups() for suffix in suffixes}
    assert set(files) == expected
    assert older_prompt_versions() == [v for v in PROMPT_VERSIONS if v != PROMPT_VERSION]
    # group members run over the domains in registry order, tasks in vocabulary order
    assert members(files["_finereason.yaml"]) == [f"finereason_{n}_{t}" for n in grouped() for t in ("state_checking", "state_transition")]
    assert members(files["_finereason_official.yaml"]) == [f"finereason_official_{n}_{t}" for n in grouped() for t in TASKS]
    # versioned tasks read the same data and are in their own groups only
    for version in older_prompt_versions():
        text = files[f"finereason_{names[0]}_{STATE_TRANSITION}_{version}.yaml"]
        assert f"  config: {names[0]}_{STATE_TRANSITION}\n" in text and f"  prompt_version: {version}\n" in text
        assert all(not m.endswith(f"_{version}") for g, _, _ in groups() for m in members(files[f"_{g}.yaml"]))
        assert all(m.endswith(f"_{version}") for g, _, _ in groups() for m in members(files[f"_{g}_{version}.yaml"]))
    assert all(text.startswith(HEADER) for text in files.values())


def test_hand_written_files_are_not_generated():
    """The common template, hooks and FOLIO tasks are hand-written; the task templates are generated
    (their ``metric_list`` comes from the metric registry, see tests/verification/test_metric_registry.py)."""
    names = set(render_configs())
    assert {f"_{task}_template_yaml" for task in TASKS} <= names
    for path in TASK_FOLDER.iterdir():
        if path.name == "_common_template_yaml" or "folio" in path.name or path.suffix == ".py":
            assert path.name not in names
            assert not path.read_text(encoding="utf-8").startswith(HEADER)


# ------------------------------------------------------------------ a new domain
@pytest.mark.parametrize("position, in_default_set", [(-1, True), (10_000, True), (-1, False)],
                         ids=["first", "last", "outside-the-default-set"])
def test_a_registered_domain_adds_exactly_its_files_and_group_entries(position, in_default_set):
    before = render_configs()
    extra = register(extra_domain(position, in_default_set))
    try:
        after = render_configs()
    finally:
        unregister(extra.name)
    assert render_configs() == before
    suffixes = ["", *(f"_{v}" for v in older_prompt_versions())]
    added = set(after) - set(before)
    assert set(before) <= set(after) and added == {name for name in after if "_extra_demo" in name}
    assert {f"finereason_{prefix}extra_demo_{task}{suffix}.yaml" for prefix in ("", "official_") for task in TASKS
            for suffix in suffixes} <= added
    assert "  config: official_extra_demo_end_to_end\n" in after["finereason_official_extra_demo_end_to_end.yaml"]
    changed = {name for name in before if after[name] != before[name]}
    if not in_default_set:  # its own tasks, no group: the groups keep meaning the same benchmark
        assert not changed
        return
    assert {f"_{group}{suffix}.yaml" for group, _, _ in groups() for suffix in suffixes} <= changed
    assert all(name.startswith("_") for name in changed)  # only groups change
    for name in changed:
        old, new = members(before[name]), members(after[name])
        mine = [m for m in new if "_extra_demo" in m]
        assert mine and [m for m in new if m not in mine] == old
        # registry order: all of the domain's members first or last
        assert (new[:len(mine)] if position < 0 else new[-len(mine):]) == mine


def test_bad_domain_name_is_refused():
    domain = extra_domain(10_000)
    type(domain).name = "Bad Name"
    with pytest.raises(ValueError, match="cannot name a task"):
        render_configs([*engines(), domain])


# ------------------------------------------------------------------ lm-eval sees every generated task
def test_every_generated_task_and_group_resolves_in_lm_eval(tmp_path):
    pytest.importorskip("lm_eval")
    import yaml
    from lm_eval.tasks import TaskManager
    from lm_eval.tasks._yaml_loader import load_yaml

    folder = tmp_path / "tasks"
    extra = register(extra_domain(10_000))
    try:
        written = write_configs(folder)
        files = render_configs()
    finally:
        unregister(extra.name)
    assert set(files) <= set(written) and (folder / "utils.py").is_file()
    manager = TaskManager(include_path=str(folder), include_defaults=False)
    puzzle_tasks = set(puzzle_task_configs([*engines(), extra]))
    for name, text in files.items():
        if name.endswith("_template_yaml"):  # included by the tasks below (their merged metric_list is checked)
            continue
        if name.startswith("_"):
            group = name[1:-len(".yaml")]
            assert group in manager.all_groups
            assert manager.task_index[group].cfg["task"] == members(text)
            continue
        task = name[:-len(".yaml")]
        entry = manager.task_index[task]
        assert entry.yaml_path == folder / name
        cfg = load_yaml(entry.yaml_path, resolve_func=True)  # includes merged, !function resolved
        assert cfg["task"] == task and isinstance(cfg["class"], type) and callable(cfg["process_results"])
        if name not in puzzle_tasks:  # the verify family is checked in its own tests
            continue
        assert cfg["class"].__name__ == "FineReasonTask"
        version = next((v for v in older_prompt_versions() if task.endswith(f"_{v}")), None)
        expected = {"version": yaml.safe_load(task_version()), **({"prompt_version": version} if version else {})}
        assert cfg["metadata"] == expected
        assert "finereason_" + cfg["dataset_kwargs"]["config"] == (task[:-len(version) - 1] if version else task)
        metric = "f1_unsolvable" if "state_checking" in task else "rate_sibling" if "state_transition" in task else "acc"
        assert metric in [m["metric"] for m in cfg["metric_list"]]


# ------------------------------------------------------------------ the command line
def test_check_reports_each_file_and_write_repairs_it(tmp_path, capsys):
    folder = tmp_path / "tasks"
    assert generate_main(["--out", str(folder)]) == 0
    assert generate_main(["--out", str(folder), "--check"]) == 0
    first, *_ = render_configs()
    (folder / first).write_text((folder / first).read_text().replace("task:", "task:  "))
    (folder / "_finereason.yaml").unlink()
    (folder / "finereason_gone_end_to_end.yaml").write_text(HEADER + "task: finereason_gone_end_to_end\n")
    (folder / "mine.yaml").write_text("task: mine\n")  # hand-written: never reported or removed
    capsys.readouterr()
    assert generate_main(["--out", str(folder), "--check"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert sorted(Path(line).name.split(":")[0] for line in lines) == sorted([first, "_finereason.yaml", "finereason_gone_end_to_end.yaml"])
    assert any("differs (line 3" in line for line in lines)
    assert generate_main(["--out", str(folder)]) == 0
    assert generate_main(["--out", str(folder), "--check"]) == 0
    assert (folder / "mine.yaml").is_file() and not (folder / "finereason_gone_end_to_end.yaml").exists()
    (tmp_path / "file").write_text("x")
    assert generate_main(["--out", str(tmp_path / "file")]) == 2
    assert generate_main(["--import", "no_such_module_here"]) == 2


def test_import_registers_a_plugin_domain_first(tmp_path, monkeypatch):
    (tmp_path / "plugin_for_configs.py").write_text(
        "from finereason.core.engine import engines, register\n"
        "class PluginDomain(type(engines()[0])):\n"
        "    name, official_name, position = 'plugin_demo', 'plugindemo', 10_000\n"
        "register(PluginDomain())\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert generate_main(["--import", "plugin_for_configs", "--out", str(tmp_path / "tasks")]) == 0
    finally:
        unregister("plugin_demo")
    assert (tmp_path / "tasks" / "finereason_plugin_demo_end_to_end.yaml").is_file()
    assert "  - finereason_plugin_demo_state_checking\n" in (tmp_path / "tasks" / "_finereason.yaml").read_text()


# ------------------------------------------------------------------ prompt versions
@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """A small build of every registered domain with train rows, plus the official sample when ../shared has it."""
    out = tmp_path_factory.mktemp("versions") / "ds"
    assert cli_main(["build", "--out", str(out), "--per-task", "12", "--train-size", "24", "--e2e-size", "3", "--seed", "5",
                     "--domains", *engine_names()]) == 0
    official = SHARED / "finereason_official"
    if official.is_dir():  # the release's states too when ../shared has them (they are checked below if present)
        assert cli_main(["import-official", "--src", str(official), "--out", str(out), "--overwrite"]) == 0
    return out


def all_rows(folder: Path) -> list[dict]:
    return [row for config in configs_in(folder) for row in read_config(folder, config)]


def test_current_version_re_renders_every_stored_prompt_byte_for_byte(built):
    rows = all_rows(built)
    assert {r["puzzle"] for r in rows} == {e.name for e in engines()} and {r["task"] for r in rows} == set(TASKS)
    assert "train" in configs_in(built)
    for row in rows:
        assert row["prompt_version"] == PROMPT_VERSION
        assert render_row_prompt(row) == row["prompt"], row["id"]
        assert render_row_prompt(row, PROMPT_VERSION) == row["prompt"], row["id"]


def test_v1_differs_only_where_the_changelog_says(built):
    """v2 added the parent's state note (the grid puzzle's applied clues) under "Previous state:" of the
    state-transition prompt; nothing else changed."""
    differs = 0
    for row in all_rows(built):
        old = render_row_prompt(row, "v1")
        if row["task"] != STATE_TRANSITION:
            assert old == row["prompt"], row["id"]
            continue
        engine, item = get_engine(row["puzzle"]), row_item(row)
        if item.parent is None:
            assert old == row["prompt"], row["id"]
            continue
        shown = f"Previous state:\n{engine.render(item.puzzle, item.parent)}"
        note = engine.state_note(item.parent, "Clues applied in the previous state")
        assert old.count(shown) == 1 and old.replace(shown, shown + note) == row["prompt"], row["id"]
        differs += old != row["prompt"]
    assert differs > 0, "no row shows the v1/v2 difference: the check would pass vacuously"


def test_unknown_version_and_task_are_refused(built):
    row = read_config(built, f"{engines()[0].name}_state_checking")[0]
    with pytest.raises(ValueError, match="unknown prompt version 'v9'"):
        render_row_prompt(row, "v9")
    with pytest.raises(ValueError, match="unknown task"):
        render_row_prompt({**row, "task": "summarize"}, PROMPT_VERSION)
    old = with_prompt_version(row, "v1")
    assert old["prompt_version"] == "v1" and old["messages"] == [{"role": "user", "content": old["prompt"]}]
    assert {k: v for k, v in old.items() if k not in ("prompt", "messages", "prompt_version")} == \
        {k: v for k, v in row.items() if k not in ("prompt", "messages", "prompt_version")}


def run_oracle(out: Path, tasks: list[str], *extra: str) -> dict:
    """lm-eval results of the oracle model on ``tasks``, with ``samples[task] = {row id: logged sample}``."""
    from finereason.integrations.lm_eval.models import our_tasks_only

    with our_tasks_only():
        assert cli_main(["eval", "--model", "finereason-oracle", "--tasks", ",".join(tasks), "--output_path", str(out),
                         "--log_samples", *extra]) == 0
    results = json.loads(sorted(out.rglob("results_*.json"))[-1].read_text())
    results["samples"] = {}
    for task in tasks:
        path = next(p for p in out.rglob(f"samples_{task}_*.jsonl") if p.name[len(f"samples_{task}_"):][:1].isdigit())
        results["samples"][task] = {s["doc"]["id"]: s for s in map(json.loads, path.read_text().splitlines())}
    return results


def shown(sample: dict) -> str:
    """The prompt lm-eval gave the model."""
    return sample["arguments"]["gen_args_0"]["arg_0"]


def test_versioned_tasks_show_the_old_prompts_through_lm_eval(built, tmp_path, monkeypatch):
    pytest.importorskip("lm_eval")
    pytest.importorskip("datasets")
    monkeypatch.setenv("FINEREASON_DATA_DIR", str(built))
    version = older_prompt_versions()[0]
    tasks = [f"finereason_{e.name}_{STATE_TRANSITION}" for e in engines()]
    results = run_oracle(tmp_path / "both", [*tasks, *(f"{t}_{version}" for t in tasks)])
    differs = 0
    for task in tasks:
        old, new = results["results"][f"{task}_{version}"], results["results"][task]
        assert old["acc,none"] == new["acc,none"] == 1.0  # same rows, same verdicts
        assert results["configs"][f"{task}_{version}"]["metadata"]["prompt_version"] == version
        samples, current = results["samples"][f"{task}_{version}"], results["samples"][task]
        assert samples.keys() == current.keys() and samples
        for key, sample in samples.items():
            assert sample["doc"]["prompt_version"] == version and sample["doc"]["prompt"] == shown(sample)
            assert shown(sample) == render_row_prompt(current[key]["doc"], version)
            assert shown(current[key]) == current[key]["doc"]["prompt"]
            differs += shown(sample) != current[key]["doc"]["prompt"]
    assert differs > 0
    # --metadata selects the version for any task: the plain tasks then show the same old prompts
    chosen = run_oracle(tmp_path / "metadata", tasks, "--limit", "6", "--metadata", json.dumps({"prompt_version": version}))
    for task in tasks:
        assert chosen["samples"][task]
        for key, sample in chosen["samples"][task].items():
            assert shown(sample) == shown(results["samples"][f"{task}_{version}"][key])
