"""Fenced code blocks in model text (an ASP actor's program and query blocks), read as answer statements.

Each ```` ```tag ```` block of the final region whose tag is one of the kind's tags is an answer statement
(its value: the block's content; its key: the content stripped); a block the text ends inside (an
opening fence without its closing fence) is cut off. The commitment rule
(:mod:`finereason.reading.commit`) picks the block: a later block of the same kind replaces an earlier
one and must itself commit (a correction cut off by the token limit is no block, never a fallback to
the withdrawn one); a retraction, doubt or inability in the prose after a block voids it ("Wait, that
program is wrong."). Only prose is searched for withdrawals: the contents of every block (comments,
test explanations) are not. A block introduced by a hedge of the one hedge table
(:mod:`finereason.reading.hedges`: "My best guess at the program:") never commits.

Linear: each fence is found with ``str.find`` from where the previous block ended.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .commit import Reading, Statement, commit
from .hedges import hedge_in
from .ignoring import Ignoring
from .withdrawals import find_signals

_TAG = re.compile(r"[ \t]*([A-Za-z0-9_+-]*)")
FENCE = "```"


@dataclass(frozen=True)
class Block:
    """One fenced block: ``start`` (its opening fence), ``end`` (past its closing fence, or the end of
    the text), ``tag`` (lower case), ``body`` (where its content starts), ``content`` (``None`` when
    the text ends inside it)."""

    start: int
    end: int
    tag: str
    body: int
    content: str | None

    @property
    def closed(self) -> bool:
        return self.content is not None


def fenced_blocks(text: str) -> list[Block]:
    """Every ```-fenced block of ``text``, left to right; the last one may be unclosed (cut off). Linear:
    each search starts where the previous block ended (an opening fence's tag runs to the end of its
    line; the block to the next ```)."""
    out: list[Block] = []
    pos = 0
    while True:
        start = text.find(FENCE, pos)
        if start < 0:
            return out
        newline = text.find("\n", start + 3)
        if newline < 0:  # "```asp" and then the end of the text
            tag = _TAG.match(text, start + 3).group(1).lower()
            out.append(Block(start, len(text), tag, len(text), None))
            return out
        tag = _TAG.match(text, start + 3, newline).group(1).lower()
        end = text.find(FENCE, newline + 1)
        if end < 0:
            out.append(Block(start, len(text), tag, newline + 1, None))
            return out
        out.append(Block(start, end + 3, tag, newline + 1, text[newline + 1:end]))
        pos = end + 3


def prose(text: str, blocks: list[Block]) -> str:
    """``text`` with the content of every block replaced by spaces (offsets kept): what is read for
    withdrawals."""
    if not blocks:
        return text
    parts, pos = [], 0
    for b in blocks:
        parts.append(text[pos:b.body])
        stop = b.end - 3 if b.closed else b.end
        parts.append(" " * max(0, stop - b.body))
        pos = max(b.body, stop)
    parts.append(text[pos:])
    return "".join(parts)


def _introduced_by_hedge(text: str, start: int, floor: int) -> bool:
    """Whether the line that introduces the block at ``start`` (the last non-empty line before it, after
    ``floor``, at most 240 characters) holds a hedge of the table."""
    chunk = text[max(floor, start - 240):start].rstrip()
    return hedge_in(chunk[chunk.rfind("\n") + 1:])


def block_statements(text: str, blocks: list[Block], tags: frozenset[str]) -> list[Statement]:
    """The blocks whose tag is in ``tags`` as answer statements, in text order (module docstring)."""
    out: list[Statement] = []
    floor = 0
    for b in blocks:
        if b.tag in tags:
            hedged = "the block is offered with a hedge" if _introduced_by_hedge(text, b.start, floor) else ""
            if b.content is None:
                out.append(Statement(b.start, b.end, key=("cut", b.start), marked=True, complete=False))
            else:
                out.append(Statement(b.start, b.end, value=b.content, key=b.content.strip(), marked=True, hedged=hedged))
        floor = b.end
    return out


def block_readings(text: str, kinds: dict[str, frozenset[str]], *, answers: frozenset[str] = frozenset(),
                   reasons: frozenset[str] = frozenset()) -> dict[str, Reading]:
    """The committed block of each kind of ``kinds`` (a name, e.g. ``"program"``, and the tags of its
    blocks) in ``text`` (a final region), each read by the commitment rule (module docstring).
    ``answers``: withdrawal words that are answers in the prose (a FOLIO actor's "the conclusion is
    uncertain"), not withdrawals unless said of oneself; ``reasons``: withdrawal words that are not when
    followed by what they are about ("we cannot determine whether ...": see :mod:`.ignoring`)."""
    blocks = fenced_blocks(text)
    signals = find_signals(prose(text, blocks))
    if answers or reasons:
        signals = Ignoring(signals, answers, reasons)  # type: ignore[assignment]
    return {name: commit(block_statements(text, blocks, tags), signals, what=name) for name, tags in kinds.items()}


__all__ = ["Block", "block_readings", "block_statements", "fenced_blocks", "prose"]
