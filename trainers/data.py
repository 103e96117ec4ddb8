"""Training data for GRPO (puzzle and math pools, mixing, train/test disjointness).

The code lives in :mod:`finereason.training.mixing`; this module re-exports it so the trainer scripts
(and ``sys.path``-based imports of ``trainers/``) keep working.
"""
from __future__ import annotations

import sys
from pathlib import Path

_REPO = Path(__file__).resolve().parents[1]
if str(_REPO) not in sys.path:  # imported from trainers/ as a plain module: make `finereason` importable
    sys.path.insert(0, str(_REPO))

from finereason.training.mixing import *  # noqa: E402,F401,F403
from finereason.training.mixing import (  # noqa: E402,F401  (names `import *` skips or tests use)
    EMBEDDED,
    EMBEDDED_TRAIN_SIZE,
    MATH_TASK,
    MIX_COLUMNS,
    DataError,
    Disjointness,
    check_disjoint,
    columns_of,
    describe,
    embedded_math_records,
    embedded_puzzle_dir,
    final_answer,
    hub_offline,
    load_math_rows,
    load_puzzle_rows,
    load_test_rows,
    math_row,
    mix,
    puzzle_identity,
    puzzle_rows_from,
    split_sizes,
)
