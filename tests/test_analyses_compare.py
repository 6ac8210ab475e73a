"""Payout-rule and tableau comparisons."""

from __future__ import annotations

from fractions import Fraction

from analyzer import BANCO_4_DRAWS_ON_0_1, STANDARD, Shoe, distribution
from analyzer.analyses.compare import STANDARD_SHOES, compare_tables, matching_commission, tableau_effects
from analyzer.analyses.pricing import analyze
from analyzer.core.bets import commission_banker
from analyzer.core.catalogue import RANK_BETS, TABLES
from analyzer.present.text import percent


def test_super6_is_a_5_87_percent_commission() -> None:
    """The English Wikipedia article: Super 6 'is equivalent to raising the commission by
    17.45%, to 5.87%'."""
    match = matching_commission(RANK_BETS["super6-banker"], Shoe.decks(8), STANDARD)
    assert percent(match.commission, 2) == "5.87%"
    assert percent(match.relative_to(), 2) == "17.45%"
    dist = distribution(Shoe.decks(8))
    assert analyze(commission_banker(match.commission), dist).house_edge == match.house_edge


def test_matching_commission_round_trips() -> None:
    for bet in ("banker", "banker-4pct"):
        match = matching_commission(RANK_BETS[bet], Shoe.decks(6), STANDARD)
        assert match.commission == {"banker": Fraction(1, 20), "banker-4pct": Fraction(1, 25)}[bet]


def test_banco_4_rules_move_only_bets_that_see_banco_4_draws() -> None:
    bets = list(RANK_BETS.values())
    effects = {e.bet.name: e for e in tableau_effects(bets, Shoe.decks(8), STANDARD, BANCO_4_DRAWS_ON_0_1)}
    # Bets settled on the first four cards cannot move.
    for name in (
        "player-pair",
        "banker-pair",
        "either-pair",
        "banker-natural-8",
        "banker-natural-9",
        "small",
    ):
        assert effects[name].change == 0, name
    # Panda 8 needs a Player three-card 8 after drawing 0 or 1: impossible (Punto stands on 7, 8).
    assert effects["panda8"].change == 0
    # Banco drawing on 4 against 0/1 helps Player and hurts Banker.
    assert effects["player"].change < 0 < effects["banker"].change
    assert effects["dragon7"].change < 0


def test_compare_tables_covers_every_table_and_shoe() -> None:
    bets = list(RANK_BETS.values())
    cmp = compare_tables(list(TABLES.values()), STANDARD_SHOES, Shoe.decks(8), BANCO_4_DRAWS_ON_0_1, bets)
    assert len(cmp.shoes) == 6
    for table in TABLES.values():
        for bet in table.bets:
            assert len(cmp.edges[(table.name, bet.name)]) == 6
    assert {m.bet.name for m in cmp.commissions} == {"banker", "banker-4pct", "super6-banker", "ez-banker"}
    assert cmp.edges[("commission", "banker")][4] == cmp.edges[("uk", "banker")][4]
