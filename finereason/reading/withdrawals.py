"""What withdraws an answer once it is given: retractions, doubt and inability.

The one list of withdrawal signals, found in one linear pass over the final region. The
commitment rule (:mod:`finereason.reading.commit`) voids an answer when any signal follows it:

- *retraction*: ``wait``, ``actually no``, sentence-initial ``Actually``/``No,``, ``scratch that``,
  ``never mind``, ``this is wrong``, ``I made a mistake``, ``let me redo / reconsider``,
  ``Correction:``;
- *doubt*: ``not sure``, ``unsure``, ``uncertain``, ``can't be ruled out``, ``might be wrong``, ``hmm``;
- *inability to decide*: ``I can't determine``, ``I don't know``, ``unable to decide``;
- *inability to solve* (``solving=True`` only, for answers that are solutions: a plan, an
  expression, a filled grid): ``I could not find``, ``no valid plan found``. For a state-checking
  answer "I cannot find a placement" is an argument, not a doubt.

Every pattern is a bounded alternation of phrases (no nested repeats), so the pass is linear.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

_S = r"[ \t]{1,3}"           # a space between the words of a phrase
_SUBJ = r"(?:this|that|which|the above|my (?:previous |last |first )?(?:answer|plan|solution|expression|state|list|reasoning))"
_COPULA = r"(?:'s|’s|" + _S + r"(?:is|was|seems|looks|must be|might be|may be|could be|is definitely|is clearly))"
_BAD = r"(?:wrong|incorrect|not right|not correct|a mistake|mistaken|invalid|not valid|flawed|an error)"
_I = r"(?:i|we)"
_CANNOT = r"(?:can't|can’t|cannot|can not|couldn't|couldn’t|could not|am unable to|was unable to|'m unable to|are unable to|am not able to|was not able to|wasn't able to|were unable to)"
_DECIDE = r"(?:determine|decide|tell|say|answer|be sure|be certain|figure|verify|conclude|confirm|know|give an answer|choose)"
_SOLVE = r"(?:find|solve|complete|reach|make|get|come up with|construct|produce|build)"
_REDO = r"(?:re-?do|re-?consider|re-?think|re-?check|re-?examine|re-?evaluate|re-?calculate|re-?compute|re-?verify|start over|try again|correct (?:this|that|it|myself)|fix (?:this|that|it))"

_RETRACT = (
    r"\bwait\b", r"\bhold on\b", r"\bscratch that\b", r"\bstrike that\b", r"\bnever" + r"[ \t]{0,1}" + r"mind\b",
    r"\bdisregard\b", r"\bignore (?:that|this|the above|my (?:previous|last|above))\b", r"\bon second thought",
    r"\bon further (?:thought|reflection|inspection)", r"\boops\b", r"\bwhoops\b", r"\bmy (?:bad|mistake|error)\b",
    _I + _S + r"made (?:a |an )?(?:mistake|error)", _I + r"(?:'m|" + _S + r"am|" + _S + r"was|" + _S + r"were)" + _S + r"wrong\b",
    r"\b" + _SUBJ + _COPULA + _S + _BAD + r"\b", r"\bthat" + _S + r"(?:doesn't|does not|can't|cannot) be right\b",
    r"\bactually,?" + _S + r"(?:no|not)\b", r"\bno,?" + _S + r"wait\b",
    r"(?:^|[.!?;:]|\n)[ \t*_>#-]{0,6}(?:actually|no|nope|correction|instead|rather)\b[ \t]{0,2}[,:—–-]",
    r"(?:^|[.!?;]|\n)[ \t*_>#-]{0,6}actually\b",
    r"\blet(?:'s| me| us)" + _S + _REDO, _I + _S + r"(?:need|have|should|must) to" + _S + _REDO,
    r"\b(?:correction|corrected|revised|revision|amended|update)\b[ \t*_]{0,3}:",
    r"\bcorrected (?:answer|plan|solution|expression|state|list|version)\b",
)
_DOUBT = (
    r"\bnot" + _S + r"(?:entirely |completely |totally |100% )?(?:sure|certain|confident)\b", r"\bunsure\b",
    r"\buncertain\b", _I + _S + r"doubt\b", r"\b(?:can't|can’t|cannot|can not)" + _S + r"be ruled out\b",
    r"\bcan(?:'t|’t|not| not)" + _S + r"rule out\b", r"\b(?:might|may|could) be (?:wrong|incorrect|mistaken|off)\b",
    r"\bhmm+\b", r"\bi'?m" + _S + r"not" + _S + r"(?:sure|certain|confident)\b", r"\bno idea\b",
)
_UNDECIDED = (
    _I + _S + _CANNOT + _S + r"(?:\w+" + _S + r"){0,2}?" + _DECIDE + r"\b",
    _I + _S + r"(?:don't|don’t|do not|really don't)" + _S + r"know\b",
    r"\bunable to" + _S + _DECIDE + r"\b", r"\b(?:impossible|hard|difficult) (?:for me )?to (?:determine|decide|tell)\b",
)
_UNSOLVED = (
    _I + _S + _CANNOT + _S + r"(?:\w+" + _S + r"){0,2}?" + _SOLVE + r"\b",
    r"\bunable to" + _S + _SOLVE + r"\b",
    r"\bno (?:valid |correct |working |possible )?(?:plan|solution|expression|answer)s?" + _S + r"(?:was |were |could be |can be )?found\b",
    r"\b(?:there is|there's|there are) no (?:valid |correct |working |possible )?(?:plan|solution|expression|way)\b",
)

_GENERAL = re.compile("|".join(_RETRACT + _DOUBT + _UNDECIDED), re.IGNORECASE | re.MULTILINE)
_SOLVING = re.compile("|".join(_RETRACT + _DOUBT + _UNDECIDED + _UNSOLVED), re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Signals:
    """The withdrawal signals of one final region: sorted ``starts`` and the matched ``texts``."""

    starts: tuple[int, ...]
    texts: tuple[str, ...]

    def first_in(self, lo: int, hi: int | None = None) -> str | None:
        """The text of the first signal starting in ``[lo, hi)`` (``hi`` ``None``: to the end)."""
        k = bisect_left(self.starts, lo)
        if k < len(self.starts) and (hi is None or self.starts[k] < hi):
            return self.texts[k]
        return None


def find_signals(region: str, *, solving: bool = False) -> Signals:
    """Every withdrawal signal in ``region`` (one pass). ``solving``: the answer is a solution, so
    "I could not find one" withdraws it too."""
    pattern = _SOLVING if solving else _GENERAL
    starts: list[int] = []
    texts: list[str] = []
    for m in pattern.finditer(region):
        text = m.group()
        starts.append(m.start() + len(text) - len(text.lstrip(".!?;:\n \t*_>#-")))
        texts.append(text.strip(".!?;:\n \t*_>#-,—–"))
    return Signals(tuple(starts), tuple(texts))
