"""baccarat-analyzer: exact combinatorial analysis of baccarat.

>>> from analyzer import Shoe, odds
>>> result = odds(Shoe.decks(8))
>>> result.counts["banker"]
2292252566437888
"""

from analyzer.cards import RANKS, Rank
from analyzer.enumerate import Distribution, Outcome, Winner, compile_rules, distribution
from analyzer.errors import AnalyzerError
from analyzer.odds import Odds, PuntoRow, odds, punto_table
from analyzer.plain import plain_distribution
from analyzer.rules import RULES, SEED004, STANDARD, Rules, get_rules
from analyzer.shoe import Shoe

__all__ = [
    "RANKS",
    "RULES",
    "SEED004",
    "STANDARD",
    "AnalyzerError",
    "Distribution",
    "Odds",
    "Outcome",
    "PuntoRow",
    "Rank",
    "Rules",
    "Shoe",
    "Winner",
    "compile_rules",
    "distribution",
    "get_rules",
    "odds",
    "plain_distribution",
    "punto_table",
]
