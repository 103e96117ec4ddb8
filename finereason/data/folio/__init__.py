"""FOLIO (Han et al. 2022), the logic benchmark of the LLM-ARC loop and the FOLIO baselines, by concern:
:mod:`.source` loads and normalises the records (sources, ``FINEREASON_FOLIO``, the release), the
questions are written in :mod:`finereason.core.prompts` with every other prompt (re-exported here as
``problem_text``, ``direct_prompt`` and ``cot_prompt``), and answers are read by
:func:`finereason.reading.truth_values.read_truth_value` (the conclusion's truth value:
``True``/``False``/``Uncertain``, what FOLIO's ``label`` column holds). Every name stays importable from here.
"""
from __future__ import annotations

from ...common.deprecated import renamed_names
from ...core.prompts import folio_cot_prompt as cot_prompt
from ...core.prompts import folio_direct_prompt as direct_prompt
from ...core.prompts import folio_problem_text as problem_text
from ...reading.truth_values import TRUTH_VALUE_WORDS, TRUTH_VALUES, read_truth_value
from .source import (DEFAULT_HUB_ID, ENV_SOURCE, FolioError, folio_version, load_folio, load_folio_versioned, normalize,
                     offline)

__all__ = ["DEFAULT_HUB_ID", "ENV_SOURCE", "TRUTH_VALUES", "TRUTH_VALUE_WORDS", "FolioError", "cot_prompt", "direct_prompt",
           "folio_version", "load_folio", "load_folio_versioned", "normalize", "offline", "problem_text", "read_truth_value"]

_RENAMED = {"LABELS": "TRUTH_VALUES", "LABEL_MAP": "TRUTH_VALUE_WORDS", "read_label": "read_truth_value"}
__getattr__ = renamed_names(__name__, _RENAMED, globals())
