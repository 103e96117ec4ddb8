"""Logic grid puzzles: one clue per minimal move."""
from ...engines import register
from .domain import GridPuzzleDomain

DOMAIN = register(GridPuzzleDomain(), "logic_grid", "grid")
