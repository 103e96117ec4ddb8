"""Deprecated: FOLIO's answers are truth values, read by :mod:`finereason.reading.truth_values` (a *label*
is a state's ``Solvable``/``Unsolvable``). The old names still work for one version, with a warning."""
from __future__ import annotations

from ..common.deprecated import renamed_names
from . import truth_values

_RENAMED = {"LABEL_WORDS": "TRUTH_VALUE_WORDS", "LABEL_SIGNALS": "TRUTH_VALUE_SIGNALS", "UNCERTAIN_REASONS": "UNCERTAIN_REASONS",
            "label_reading": "truth_value_reading", "label_statements": "truth_value_statements",
            "read_label": "read_truth_value"}
__getattr__ = renamed_names(__name__, _RENAMED, vars(truth_values), moved_to=truth_values.__name__)
