"""Graph coloring: k colors, one vertex per minimal move."""
from ...engines import register
from .domain import GraphColoringDomain

DOMAIN = register(GraphColoringDomain(), "coloring")
