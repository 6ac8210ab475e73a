"""baccarat-analyzer: exact combinatorial analysis of baccarat.

>>> from analyzer import Shoe, odds
>>> result = odds(Shoe.decks(8))
>>> result.counts["banker"]
2292252566437888
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analyzer.bets import Bet, BetAnalysis, analyze, analyze_bets
    from analyzer.cardbatch import CardEvaluator
    from analyzer.cardeor import CardEffects, card_effects_of_removal
    from analyzer.cardlevel import analyze_cards
    from analyzer.cards import RANKS, Rank
    from analyzer.catalogue import ALL_BETS, BETS, CARD_BETS, TABLES, Table, get_bet, get_table
    from analyzer.composition import FastEvaluator, effects_of_removal
    from analyzer.counting import SYSTEMS, CountSystem, get_system
    from analyzer.enumerate import Distribution, Outcome, Winner, compile_rules, distribution
    from analyzer.errors import AnalyzerError
    from analyzer.odds import Odds, PuntoRow, punto_table
    from analyzer.plain import plain_distribution
    from analyzer.rules import RULES, SEED004, STANDARD, Rules, get_rules
    from analyzer.shoe import Shoe
    from analyzer.shown import ShownCards, parse_shown, shown_analyses, shown_odds
    from analyzer.simulation import Procedure, evaluate_systems
    from analyzer.suits import SUITS, Suit

# `odds` is also a submodule's name: importing analyzer.odds binds the module to the
# package's `odds` attribute, so the function is bound here, after it (a light import).
from analyzer.odds import odds
from analyzer.version import __version__

#: Public name -> the module that defines it. Modules load on first use (PEP 562), so a
#: command imports only what it needs: a cold `baccarat odds` never loads numpy or networkx.
_HOME = {
    "Bet": "analyzer.bets",
    "BetAnalysis": "analyzer.bets",
    "analyze": "analyzer.bets",
    "analyze_bets": "analyzer.bets",
    "CardEvaluator": "analyzer.cardbatch",
    "CardEffects": "analyzer.cardeor",
    "card_effects_of_removal": "analyzer.cardeor",
    "analyze_cards": "analyzer.cardlevel",
    "RANKS": "analyzer.cards",
    "Rank": "analyzer.cards",
    "ALL_BETS": "analyzer.catalogue",
    "BETS": "analyzer.catalogue",
    "CARD_BETS": "analyzer.catalogue",
    "TABLES": "analyzer.catalogue",
    "Table": "analyzer.catalogue",
    "get_bet": "analyzer.catalogue",
    "get_table": "analyzer.catalogue",
    "FastEvaluator": "analyzer.composition",
    "effects_of_removal": "analyzer.composition",
    "SYSTEMS": "analyzer.counting",
    "CountSystem": "analyzer.counting",
    "get_system": "analyzer.counting",
    "Distribution": "analyzer.enumerate",
    "Outcome": "analyzer.enumerate",
    "Winner": "analyzer.enumerate",
    "compile_rules": "analyzer.enumerate",
    "distribution": "analyzer.enumerate",
    "AnalyzerError": "analyzer.errors",
    "Odds": "analyzer.odds",
    "PuntoRow": "analyzer.odds",
    "punto_table": "analyzer.odds",
    "plain_distribution": "analyzer.plain",
    "RULES": "analyzer.rules",
    "SEED004": "analyzer.rules",
    "STANDARD": "analyzer.rules",
    "Rules": "analyzer.rules",
    "get_rules": "analyzer.rules",
    "Shoe": "analyzer.shoe",
    "ShownCards": "analyzer.shown",
    "parse_shown": "analyzer.shown",
    "shown_analyses": "analyzer.shown",
    "shown_odds": "analyzer.shown",
    "Procedure": "analyzer.simulation",
    "evaluate_systems": "analyzer.simulation",
    "SUITS": "analyzer.suits",
    "Suit": "analyzer.suits",
}


__all__ = [
    "ALL_BETS",
    "BETS",
    "CARD_BETS",
    "RANKS",
    "RULES",
    "SEED004",
    "STANDARD",
    "SUITS",
    "SYSTEMS",
    "TABLES",
    "AnalyzerError",
    "Bet",
    "BetAnalysis",
    "CardEffects",
    "CardEvaluator",
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
    "ShownCards",
    "Suit",
    "Table",
    "Winner",
    "__version__",
    "analyze",
    "analyze_bets",
    "analyze_cards",
    "card_effects_of_removal",
    "compile_rules",
    "distribution",
    "effects_of_removal",
    "evaluate_systems",
    "get_bet",
    "get_rules",
    "get_system",
    "get_table",
    "odds",
    "parse_shown",
    "plain_distribution",
    "punto_table",
    "shown_analyses",
    "shown_odds",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    value = getattr(import_module(_HOME[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
