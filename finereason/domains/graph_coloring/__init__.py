"""Graph coloring: k colors, one vertex per minimal move."""
from ...core.engine import register
from .domain import GraphColoringDomain

DOMAIN = register(GraphColoringDomain(), "coloring")
