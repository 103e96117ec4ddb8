"""The FOLIO prompts: the problem text (premises, conclusion) and the direct and chain-of-thought questions."""
from __future__ import annotations


def problem_text(doc: dict) -> str:
    """The numbered premises and the conclusion of a normalised FOLIO record."""
    premises = "\n".join(f"{i}. {p}" for i, p in enumerate(doc["premises"], start=1))
    return f"Premises:\n{premises}\n\nConclusion: {doc['conclusion']}"


def direct_prompt(doc: dict) -> str:
    """The direct question: one word, True, False or Uncertain (``finereason_folio_direct``)."""
    return ("Based only on the premises, is the conclusion True, False, or Uncertain?\n\n" + problem_text(doc) +
            "\n\nReply with exactly one word: True, False, or Uncertain.\nAnswer:")


def cot_prompt(doc: dict) -> str:
    """The chain-of-thought question, ending with an ``Answer:`` line (``finereason_folio_cot``)."""
    return ("Based only on the premises, is the conclusion True, False, or Uncertain? Reason step by step, "
            "then end with a line 'Answer: True', 'Answer: False' or 'Answer: Uncertain'.\n\n" + problem_text(doc))


__all__ = ["cot_prompt", "direct_prompt", "problem_text"]
