"""The reward registry (finereason.integrations.training.rewards.registry): every reward registered
once, by ``@register_reward(name, columns=...)``; the columns it declares exist in real training rows
and are each required; the one ``\\boxed{}`` reader; the GRPO script imports the installed package."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from finereason.integrations.training import boxed, mixing
from finereason.integrations.training import rewards as R
from finereason.integrations.training.rewards import registry

REPO = Path(__file__).resolve().parents[2]
NAMES = ["state_checking", "state_transition", "end_to_end", "puzzle", "format", "math"]


@pytest.fixture(scope="session")
def mix_rows(small_dataset) -> list[dict]:
    """A real mix: puzzle rows of every task of a local build plus embedded math rows."""
    from finereason.dataset_builders.layout import configs_in

    puzzle = [row for config in configs_in(small_dataset) for row in mixing.load_puzzle_rows(str(small_dataset), config)]
    math = mixing.load_math_rows(mixing.EMBEDDED, 8, 0)
    rows = mixing.mix(puzzle, math, 0.5, 16, seed=0)
    assert {r["task"] for r in rows} > {"math"}
    return rows


def test_every_reward_registered_once_in_order():
    assert list(R.REGISTRY) == NAMES  # the order "known rewards: ..." lists them in
    for name, spec in R.REGISTRY.items():
        assert spec.name == name and spec.columns and len(set(spec.columns)) == len(spec.columns)
    specs = [spec.func for spec in R.REGISTRY.values()]
    assert len(set(specs)) == len(specs)  # one function per name
    with pytest.raises(ValueError, match="'puzzle' is registered twice"):
        R.register_reward("puzzle", columns=("task",))(lambda completions, **kw: [])
    assert R.REGISTRY["puzzle"].func is R.puzzle_reward


def test_declared_columns_exist_in_training_rows(mix_rows):
    have = set(mixing.columns_of(mix_rows))
    for name, spec in R.REGISTRY.items():
        assert set(spec.columns) <= set(mixing.MIX_COLUMNS), name
        assert set(spec.columns) <= have, name
    R.check_columns(NAMES, have)


def test_each_declared_column_is_required():
    every = set(mixing.MIX_COLUMNS)
    for name, spec in R.REGISTRY.items():
        for column in spec.columns:
            gone = {column, "puzzle"} if column == "domain" else {column}  # ``puzzle``: the old name of ``domain``
            with pytest.raises(R.RewardConfigError, match=f"'{name}' needs dataset column\\(s\\) {column}"):
                R.check_columns([name], every - gone)


def test_old_puzzle_column_stands_in_for_domain():
    """Training data written before the rename (a ``puzzle`` column, no ``domain``) passes the column check."""
    every = set(mixing.MIX_COLUMNS)
    assert "domain" in every and "puzzle" in every
    R.check_columns(list(R.REGISTRY), every - {"domain"})
    R.check_columns(list(R.REGISTRY), every - {"puzzle"})


def test_rewards_score_real_rows_with_their_columns(mix_rows):
    """Each reward scores its own rows of a real mix and says ``None`` (not applicable) elsewhere."""
    columns = {c: [r.get(c) for r in mix_rows] for c in mixing.MIX_COLUMNS}
    completions = ["Answer: (A)"] * len(mix_rows)
    for name, reward in zip(NAMES, R.get_rewards(NAMES)):
        values = reward(completions, **columns)
        assert len(values) == len(mix_rows) and all(v is None or 0.0 <= v <= 1.0 for v in values), name
        judged = {row["task"] for row, v in zip(mix_rows, values) if v is not None}
        if name == "math":
            assert judged == {"math"}
        elif name in ("puzzle", "state_checking", "state_transition", "end_to_end"):
            assert "math" not in judged
            assert name == "puzzle" or judged <= {name}


def test_register_reward_decorator(monkeypatch):
    monkeypatch.setattr(registry, "REGISTRY", dict(registry.REGISTRY))
    seen: list[bool] = []

    @R.register_reward("length_probe", columns=("task",))
    def length_probe(completions, *, starts_in_think=False, **kwargs):
        seen.append(starts_in_think)
        return [float(len(c) > 3) for c in completions]

    assert length_probe(["abcd"]) == [1.0]  # the decorator returns the function unchanged
    (plain,) = registry.get_rewards(["length_probe"])
    (thinking,) = registry.get_rewards(["length_probe"], starts_in_think=True)
    assert plain(["ab"], task=["x"]) == [0.0] and thinking(["abcde"], task=["x"]) == [1.0]
    assert seen[-2:] == [False, True] and thinking.__name__ == "length_probe"
    with pytest.raises(registry.RewardConfigError, match="'length_probe' needs dataset column\\(s\\) task"):
        registry.check_columns(["length_probe"], ["prompt"])
    with pytest.raises(ValueError, match="columns must be non-empty"):
        R.register_reward("no_columns", columns=())
    assert "length_probe" not in R.REGISTRY  # the module's registry was not touched


def test_one_boxed_reader():
    assert boxed.boxed_contents("\\boxed{1} and \\boxed {x^{2}}", max_chars=256) == ["1", "x^{2}"]
    assert boxed.boxed_contents("\\boxed{" + "a" * 300 + "}", max_chars=256) == [None]            # too long
    assert boxed.boxed_contents("\\boxed{{{1}}}", max_chars=256, max_depth=2) == [None]             # too deep
    assert boxed.boxed_contents("\\boxed{1}" * 3, max_chars=256, max_boxes=2) is None               # spam
    assert boxed.boxed_contents("\\boxed{1", max_chars=256) == [None]                               # unclosed
    assert boxed.last_boxed("so \\boxed{ 3 } then \\boxed{\\frac{1}{2}}.", max_chars=100) == "\\frac{1}{2}"
    assert boxed.last_boxed("\\boxed{1} and \\boxed {2}", max_chars=100) == "1"  # references write \boxed{ exactly
    assert boxed.last_boxed("\\boxed{2} \\boxed{3", max_chars=100) is None
    assert boxed.last_boxed("no box", max_chars=100) is None
    assert mixing.final_answer("We get $\\boxed{42}$.") == "42"
    assert R.math_answer("</think> \\boxed{42}") == "42"
    sources = [p for p in (REPO / "finereason" / "integrations" / "training").rglob("*.py") if p.name != "boxed.py"]
    readers = [p.name for p in sources if re.search(r"def \w*boxed|boxed\[", p.read_text(encoding="utf-8"))]
    assert readers == []  # no second reader: no other boxed function or box pattern


def test_training_scripts_use_the_installed_package():
    for script in ("grpo.py", "evaluate_checkpoint.py"):
        text = (REPO / "trainers" / script).read_text(encoding="utf-8")
        assert "trainers.rewards" not in text, script
        assert "sys.path" not in text, script  # the installed package, never a checkout on the path
    grpo = (REPO / "trainers" / "grpo.py").read_text(encoding="utf-8")
    assert "parse_args_and_config" in grpo
    assert not (REPO / "trainers" / "rewards.py").exists() and not (REPO / "finereason" / "training").exists()
