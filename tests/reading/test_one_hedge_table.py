"""One hedge table: no module outside ``finereason/reading/`` spells its own list of hedge words.

A reader elsewhere (a domain's answer syntax, the FOLIO labels, the math reward, the self-verdict, the
ASP actor) imports the table of :mod:`finereason.reading.hedges`; a second list would disagree with it
sooner or later (``My best guess: ...`` was no answer for options and plans, and credited for a
Game-of-24 answer, a FOLIO label, a math answer and a self-verdict). The check reads every module's
string literals (docstrings and comments aside): one literal, or one literal collection, naming two
hedge words or more is a hedge list.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from finereason.reading import hedges, option_words
from test_no_puzzle_names import docstring_nodes  # tests/core: the docstrings every literal scan skips

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "finereason"
READING = PACKAGE / "reading"
# the words a hedge list would name (the table's words and the usual spellings of a guess)
PROBES = frozenset(hedges.HEDGE_WORDS) | {"best guess"}
_ESCAPES = re.compile(r"\\[a-z]")


def _named(text: str) -> set[str]:
    low = _ESCAPES.sub(" ", text.lower())  # regex text: "\\bmaybe\\b" names maybe
    return {p for p in PROBES if re.search(r"\b" + re.escape(p) + r"\b", low)}


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT)) if ROOT in path.parents else path.name


def hedge_lists(path: Path) -> list[str]:
    """The literals of ``path`` that name two hedge words or more (one string, or one tuple/list/set of strings)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstring_nodes(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if len(_named(node.value)) >= 2:
                found.append(f"{_name(path)}:{node.lineno}: {node.value[:60]!r}")
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            words = set()
            for elt in node.elts:
                if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
                    words |= _named(elt.value)
            if len(words) >= 2:
                found.append(f"{_name(path)}:{node.lineno}: {sorted(words)}")
    return found


def test_no_module_outside_reading_spells_a_hedge_list():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if READING in path.parents:
            continue
        offenders.extend(hedge_lists(path))
    assert offenders == [], "hedge words belong in finereason/reading/hedges.py:\n" + "\n".join(offenders)


def test_the_check_finds_a_hedge_list(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""Docs may say probably and maybe."""\nimport re\n_HEDGE = re.compile(r"\\b(?:maybe|perhaps)\\b")\n'
                      'WORDS = ("likely", "presumably")\nOK = "probably fine"\n')
    found = hedge_lists(sample)
    assert sorted(line.split(":")[1] for line in found) == ["3", "4"], found  # the docstring and one word are no list


def test_the_readers_of_reading_use_the_table():
    assert option_words._HEDGE_BEFORE == frozenset(hedges.HEDGE_WORDS)
    assert option_words._HEDGE_AFTER == frozenset(hedges.HEDGE_AFTER)
    assert option_words._HEDGE_MODALS == frozenset(hedges.HEDGE_MODALS)
    for word in hedges.HEDGE_WORDS:
        assert hedges.hedge_in(f"It is {word} so"), word


def test_no_module_of_reading_spells_a_hedge_list_either():
    """The hedge reader's tables are data (the ``hedge`` entries of ``vocabulary/en.json`` that name a
    table), so no module of ``reading/`` spells a hedge list: one place per language."""
    offenders = [line for path in sorted(READING.rglob("*.py")) for line in hedge_lists(path)]
    assert offenders == [], "hedge words belong in finereason/reading/vocabulary/<language>.json:\n" + "\n".join(offenders)


def test_the_tables_are_the_english_vocabulary_file():
    """Each table of the hedge reader is the list of ``en.json``'s hedge entries that name it, in file order,
    and every table word is a hedge entry of that file."""
    import json

    from finereason.reading import vocabulary

    raw = json.loads((vocabulary.HERE / "en.json").read_text(encoding="utf-8"))["hedge"]
    named = {table: tuple(e["word"] for e in raw if isinstance(e, dict) and table in e.get("tables", ()))
             for table in vocabulary.HEDGE_TABLES}
    assert (hedges.HEDGE_WORDS, hedges.HEDGE_MODALS, hedges.HEDGE_AFTER, hedges.HEDGE_ADVERBS) == tuple(
        named[t] for t in ("words", "modals", "after", "adverbs"))
    assert all(named.values())
    searched = {e.word for e in vocabulary.words("hedge") if e.language == "en"}
    kept_out = {e["word"] for e in raw if isinstance(e, dict) and e.get("search") is False}
    assert not searched & kept_out and {"might", "could"} <= kept_out  # "might" hedges only in "might be"


def test_an_unknown_table_is_refused(tmp_path):
    import json

    import pytest

    from finereason.reading import vocabulary

    data = json.loads((vocabulary.HERE / "en.json").read_text(encoding="utf-8"))
    data["hedge"].append({"word": "perchance", "tables": ["sometimes"]})
    (tmp_path / "xx.json").write_text(json.dumps({**data, "language": "xx"}), encoding="utf-8")
    with pytest.raises(ValueError, match="sometimes"):
        vocabulary.read_language(tmp_path / "xx.json")
