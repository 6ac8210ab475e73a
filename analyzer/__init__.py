"""baccarat-analyzer: exact combinatorial analysis of baccarat.

The public names are re-exported here and load on first use. The subpackages, from the
values up to the command: ``core`` (cards, shoes, rules, bets), ``ranks`` (the rank-level
engine), ``cards`` (the card-level engine), ``analyses`` (pricing, odds, effects of removal,
closed forms, paytable design), ``games`` and ``counting`` (games where the hands choose;
counting studies and par sheets), ``present`` (tables, JSON, Markdown, HTML, reports) and
``cli`` (the ``baccarat`` command, also ``python -m analyzer``: ``__main__``); ``version``
holds ``__version__``.

>>> from analyzer import Shoe, odds
>>> result = odds(Shoe.decks(8))
>>> result.counts["banker"]
2292252566437888
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analyzer.analyses.effects import CardEffects, RemovalEffects, effects_of_removal
    from analyzer.analyses.odds import Odds, PlayerRow, odds, player_table
    from analyzer.analyses.pricing import analyze, analyze_bets
    from analyzer.analyses.shown import ShownCards, parse_shown, shown_analyses, shown_odds
    from analyzer.cards.batch import CardEvaluator, analyze_cards
    from analyzer.core.analysis import BetAnalysis
    from analyzer.core.bets import Bet
    from analyzer.core.catalogue import (
        ALL_BETS,
        BETS,
        CARD_BETS,
        RANK_BETS,
        TABLES,
        Table,
        get_bet,
        get_table,
    )
    from analyzer.core.errors import AnalyzerError
    from analyzer.core.outcome import Outcome, Winner
    from analyzer.core.ranks import RANKS, Rank
    from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, RULES, SEED004, STANDARD, Rules, get_rules
    from analyzer.core.shoe import Shoe
    from analyzer.core.suits import SUITS, Suit
    from analyzer.counting.simulation import Procedure, evaluate_systems
    from analyzer.counting.systems import SYSTEMS, CountSystem, get_system
    from analyzer.ranks.enumeration import Distribution, compile_rules, distribution
    from analyzer.ranks.fast import FastEvaluator
    from analyzer.ranks.plain import plain_distribution

from analyzer.version import __version__

#: Public name -> the module that defines it. Modules load on first use (PEP 562), so a
#: command imports only what it needs: a cold `baccarat odds` never loads numpy or networkx.
_HOME = {
    "Bet": "analyzer.core.bets",
    "BetAnalysis": "analyzer.core.analysis",
    "analyze": "analyzer.analyses.pricing",
    "analyze_bets": "analyzer.analyses.pricing",
    "CardEvaluator": "analyzer.cards.batch",
    "CardEffects": "analyzer.analyses.effects",
    "analyze_cards": "analyzer.cards.batch",
    "RANKS": "analyzer.core.ranks",
    "Rank": "analyzer.core.ranks",
    "ALL_BETS": "analyzer.core.catalogue",
    "BETS": "analyzer.core.catalogue",
    "CARD_BETS": "analyzer.core.catalogue",
    "RANK_BETS": "analyzer.core.catalogue",
    "TABLES": "analyzer.core.catalogue",
    "Table": "analyzer.core.catalogue",
    "get_bet": "analyzer.core.catalogue",
    "get_table": "analyzer.core.catalogue",
    "FastEvaluator": "analyzer.ranks.fast",
    "effects_of_removal": "analyzer.analyses.effects",
    "RemovalEffects": "analyzer.analyses.effects",
    "SYSTEMS": "analyzer.counting.systems",
    "CountSystem": "analyzer.counting.systems",
    "get_system": "analyzer.counting.systems",
    "Distribution": "analyzer.ranks.enumeration",
    "Outcome": "analyzer.core.outcome",
    "Winner": "analyzer.core.outcome",
    "compile_rules": "analyzer.ranks.enumeration",
    "distribution": "analyzer.ranks.enumeration",
    "AnalyzerError": "analyzer.core.errors",
    "Odds": "analyzer.analyses.odds",
    "odds": "analyzer.analyses.odds",  # no submodule analyzer.odds: the function loads lazily too
    "PlayerRow": "analyzer.analyses.odds",
    "player_table": "analyzer.analyses.odds",
    "plain_distribution": "analyzer.ranks.plain",
    "RULES": "analyzer.core.rules",
    "BANCO_4_DRAWS_ON_0_1": "analyzer.core.rules",
    "SEED004": "analyzer.core.rules",  # the old name of BANCO_4_DRAWS_ON_0_1
    "STANDARD": "analyzer.core.rules",
    "Rules": "analyzer.core.rules",
    "get_rules": "analyzer.core.rules",
    "Shoe": "analyzer.core.shoe",
    "ShownCards": "analyzer.analyses.shown",
    "parse_shown": "analyzer.analyses.shown",
    "shown_analyses": "analyzer.analyses.shown",
    "shown_odds": "analyzer.analyses.shown",
    "Procedure": "analyzer.counting.simulation",
    "evaluate_systems": "analyzer.counting.simulation",
    "SUITS": "analyzer.core.suits",
    "Suit": "analyzer.core.suits",
}


#: Old public names (deprecated: each warns when called) -> the module that defines them. They
#: resolve as before but are left out of `__all__` and `dir(analyzer)`.
_DEPRECATED = {
    "card_effects_of_removal": "analyzer.analyses.effects",  # now effects_of_removal
    "PuntoRow": "analyzer.analyses.odds",  # now PlayerRow
    "punto_table": "analyzer.analyses.odds",  # now player_table
}


__all__ = [
    "ALL_BETS",
    "BANCO_4_DRAWS_ON_0_1",
    "BETS",
    "CARD_BETS",
    "RANKS",
    "RANK_BETS",
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
    "PlayerRow",
    "Procedure",
    "Rank",
    "RemovalEffects",
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
    "player_table",
    "shown_analyses",
    "shown_odds",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name) or _DEPRECATED.get(name)
    if home is None:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, each once: not the module's helpers (`sys`, `import_module`, ...) nor
    the submodules that happen to be loaded (import those by name: `analyzer.core.shoe`)."""
    return sorted(__all__)


def _notebook_display() -> None:
    """In IPython or Jupyter, results render as Markdown (analyzer.present.notebook)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None and getattr(shell, "display_formatter", None) is not None:
        from analyzer.present.notebook import register

        register(shell)


_notebook_display()
