"""The command package: one module per command, the parser and the README table built from the list,
deprecated names that still work with a one-line warning, every output through atomic_io."""
from __future__ import annotations

import argparse
import ast
import json
import re
from pathlib import Path

import pytest

import finereason.commands as commands
from finereason.commands import COMMANDS, build_parser, main
from finereason.commands.leaderboard import ACTIONS
from finereason.commands.table import command_table
from finereason.workflows.loop import SAMPLING, loop_conditions

PACKAGE = Path(commands.__file__).parent
HELPERS = {"__init__.py", "options.py", "table.py"}
WARNING = re.compile(r"^finereason: warning: .* is deprecated, use .*$")


def test_every_command_module_has_a_name_help_register_and_run():
    for module in (*COMMANDS, *ACTIONS):
        assert isinstance(module.NAME, str) and module.NAME and isinstance(module.HELP, str) and module.HELP
        assert callable(module.register) and callable(module.run), module.__name__
        sub = argparse.ArgumentParser().add_subparsers()
        assert isinstance(module.register(sub), argparse.ArgumentParser)
        assert module.NAME in sub.choices


def test_every_module_of_the_package_is_a_listed_command():
    listed = {Path(m.__file__).resolve() for m in (*COMMANDS, *ACTIONS)}
    files = {p.resolve() for p in PACKAGE.rglob("*.py") if p.name not in HELPERS or p.parent != PACKAGE}
    assert files == listed
    assert len({m.NAME for m in COMMANDS}) == len(COMMANDS)


def test_the_table_lists_every_command_once_and_no_deprecated_name():
    table = command_table()
    rows = {line.split("`")[1].removeprefix("finereason "): line for line in table.splitlines()[2:]}
    expected = {}
    for module in COMMANDS:  # a group (leaderboard) has a row per action, not one of its own
        for name, leaf in ([(f"{module.NAME} {a.NAME}", a) for a in module.ACTIONS] if hasattr(module, "ACTIONS")
                           else [(module.NAME, module)]):
            expected[name] = leaf
    assert sorted(rows) == sorted(expected) and len(table.splitlines()) - 2 == len(rows) == 25
    assert "puzzles" not in rows and "domains" in rows
    for name, module in expected.items():
        assert module.HELP.replace("<", "&lt;").replace(">", "&gt;") in rows[name]


def test_the_parser_keeps_the_order_of_the_list():
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert [c.dest for c in sub._choices_actions] == [m.NAME for m in COMMANDS]


@pytest.mark.parametrize("old, new", [("--puzzles", "--domains")])
def test_build_puzzles_is_a_deprecated_alias_of_domains(capsys, old, new):
    args = build_parser().parse_args(["build", "--out", "x", old, "sudoku", "game_of_24"])
    assert args.domains == ["sudoku", "game_of_24"]
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and WARNING.match(err[0]) and old in err[0] and new in err[0]
    assert build_parser().parse_args(["build", "--out", "x", new, "sudoku"]).domains == ["sudoku"]
    assert capsys.readouterr().err == ""


def test_label_puzzle_still_works_and_warns(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text('"' + "0" * 81 + '"\n')
    assert main(["label", "--domain", "sudoku", "--input", str(src), "--out", str(tmp_path / "new.jsonl")]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["label", "--puzzle", "sudoku", "--input", str(src), "--out", str(tmp_path / "old.jsonl")]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and WARNING.match(warnings[0]) and "--puzzle " in warnings[0] and "--domain" in warnings[0]
    assert (tmp_path / "old.jsonl").read_bytes() == (tmp_path / "new.jsonl").read_bytes()
    assert json.loads((tmp_path / "new.jsonl").read_text()) == {"solvable": True}


def test_the_puzzles_command_still_works_and_warns(capsys):
    assert main(["domains"]) == 0
    new = capsys.readouterr()
    assert main(["puzzles"]) == 0
    old = capsys.readouterr()
    assert old.out == new.out and "sudoku" in new.out and new.err == ""
    assert len(old.err.splitlines()) == 1 and WARNING.match(old.err.strip()) and "'domains'" in old.err


def test_label_needs_a_domain(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["label", "--input", "x"])
    assert exit_.value.code == 2 and "--domain" in capsys.readouterr().err


def test_loop_conditions():
    assert loop_conditions(None, False) == ["all_errors"]
    assert loop_conditions(None, True) == [SAMPLING]
    assert loop_conditions(["binary", "binary", "none"], True) == ["binary", "none", SAMPLING]


def _writes_outside_atomic_io(path: Path) -> list[str]:
    """Calls that write a file directly: ``.write_text``, ``.write_bytes``, ``open(..., "w"/"a"...)``,
    ``json.dump``, ``savefig(path)``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        direct = isinstance(node.func, ast.Attribute) and name in ("write_text", "write_bytes", "savefig", "dump")
        if name == "open":
            modes = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant)]
            modes += [k.value.value for k in node.keywords if k.arg == "mode" and isinstance(k.value, ast.Constant)]
            direct = any(set(str(m)) & set("wx") for m in modes)
        if name == "write_table" and node.args[1:2] and not isinstance(node.args[1], ast.Name):
            direct = True
        if direct:
            found.append(f"{path.name}:{node.lineno} {name}")
    return found


def test_commands_and_the_jobs_they_run_write_through_atomic_io():
    import finereason.workflows.arc_export as arc_export
    import finereason.workflows.loop as loop
    import finereason.workflows.loop_plot as loop_plot

    files = [*PACKAGE.rglob("*.py"), Path(loop.__file__), Path(loop_plot.__file__), Path(arc_export.__file__)]
    found = [hit for f in files for hit in _writes_outside_atomic_io(f)]
    savefig_to_buffer = [h for h in found if h.startswith("loop_plot.py") and h.endswith("savefig")]
    assert found == savefig_to_buffer and len(savefig_to_buffer) == 1  # the plot goes to a buffer, then write_bytes
