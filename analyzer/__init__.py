"""baccarat-analyzer: exact combinatorial analysis of baccarat.

>>> from analyzer import Shoe, odds
>>> result = odds(Shoe.decks(8))
>>> result.counts["banker"]
2292252566437888
"""

from analyzer.bets import Bet, BetAnalysis, analyze
from analyzer.cards import RANKS, Rank
from analyzer.catalogue import BETS, TABLES, Table, get_bet, get_table
from analyzer.composition import FastEvaluator, effects_of_removal
from analyzer.counting import SYSTEMS, CountSystem, get_system
from analyzer.enumerate import Distribution, Outcome, Winner, compile_rules, distribution
from analyzer.errors import AnalyzerError
from analyzer.odds import Odds, PuntoRow, odds, punto_table
from analyzer.plain import plain_distribution
from analyzer.rules import RULES, SEED004, STANDARD, Rules, get_rules
from analyzer.shoe import Shoe
from analyzer.simulation import Procedure, evaluate_systems
from analyzer.version import __version__

__all__ = [
    "BETS",
    "RANKS",
    "RULES",
    "SEED004",
    "STANDARD",
    "SYSTEMS",
    "TABLES",
    "AnalyzerError",
    "Bet",
    "BetAnalysis",
    "CountSystem",
    "Distribution",
    "FastEvaluator",
    "Odds",
    "Outcome",
    "Procedure",
    "PuntoRow",
    "Rank",
    "Rules",
    "Shoe",
    "Table",
    "Winner",
    "__version__",
    "analyze",
    "compile_rules",
    "distribution",
    "effects_of_removal",
    "evaluate_systems",
    "get_bet",
    "get_rules",
    "get_system",
    "get_table",
    "odds",
    "plain_distribution",
    "punto_table",
]
