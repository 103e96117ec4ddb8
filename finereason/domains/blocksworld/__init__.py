"""Blocksworld and Mystery Blocksworld (PlanBench): planning as a FineReason domain; one action per
minimal move, states labelled by whether the goal is reachable within a step budget (see ``engine``)."""
from ...core.engine import register
from .domain import BlocksworldDomain, MysteryBlocksworldDomain

DOMAIN = register(BlocksworldDomain())
MYSTERY = register(MysteryBlocksworldDomain())
