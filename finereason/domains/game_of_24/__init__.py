"""Game of 24: four numbers, one operation per minimal move."""
from ...core.engine import register
from .domain import Game24Domain

DOMAIN = register(Game24Domain(), "24")
