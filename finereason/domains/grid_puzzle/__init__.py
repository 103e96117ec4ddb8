"""Logic grid puzzles: one clue per minimal move."""
from ...core.engine import register
from .domain import GridPuzzleDomain

DOMAIN = register(GridPuzzleDomain(), "logic_grid", "grid")
