"""Sudoku: 9x9 grids, one digit per minimal move."""
from ...core.engine import register
from .domain import SudokuDomain

DOMAIN = register(SudokuDomain())
