"""Seed 003's Russian rules: Punto bettors draw or stand on a two-card 5 (analyzer.games.punto5).

Seed 003 ("Table 2", credited to Lesnoy and Natanson's book "PuntoBanco") gives, for a Punto
5, P(Punto) / P(Banco) / P(égalité) = 0.3585 / 0.5378 / 0.1036 when drawing and
0.3605 / 0.5699 / 0.0696 when standing.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.enumerate import Winner
from analyzer.errors import AnalyzerError
from analyzer.format import decimal, percent
from analyzer.games.punto5 import solve_punto5
from analyzer.odds import odds
from analyzer.plain import plain_distribution
from analyzer.rules import STANDARD, rules_from_mapping
from analyzer.shoe import Shoe


def _direct(shoe: Shoe, draws: bool) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """P(Punto), P(Banco), P(égalité) given a two-card 5, and P(5), by the plain enumerator."""
    dist = plain_distribution(shoe, STANDARD.with_punto(5, draws))
    five = dist.count(lambda o: o.punto_initial == 5)
    return (
        Fraction(dist.count(lambda o: o.punto_initial == 5 and o.winner == Winner.PLAYER), five),
        Fraction(dist.count(lambda o: o.punto_initial == 5 and o.winner == Winner.BANKER), five),
        Fraction(dist.count(lambda o: o.punto_initial == 5 and o.winner == Winner.TIE), five),
        Fraction(five, dist.total),
    )


def test_expectations_agree_with_the_plain_enumerator() -> None:
    shoe = Shoe.decks(1)
    result = solve_punto5(shoe)
    for choice, draws in ((result.draw, True), (result.stand, False)):
        punto, banco, egalite, five = _direct(shoe, draws)
        assert (choice.punto, choice.banco, choice.egalite) == (punto, banco, egalite)
        assert choice.probability_five == five
        assert choice.punto_expectation == punto - banco
        assert choice.contribution == (punto - banco) * five


def test_seed_003_table_2_is_the_infinite_deck() -> None:
    """Seed 003's two rows for 5 agree with the infinite deck to the 4 decimals printed."""
    result = solve_punto5(Shoe.infinite())
    assert [decimal(p, 4) for p in (result.draw.punto, result.draw.banco, result.draw.egalite)] == [
        "0.3585", "0.5378", "0.1036",
    ]  # fmt: skip
    assert [decimal(p, 4) for p in (result.stand.punto, result.stand.banco, result.stand.egalite)] == [
        "0.3605", "0.5699", "0.0696",
    ]  # fmt: skip
    assert result.draw.punto_expectation == Fraction(-5121, 28561)
    assert result.stand.punto_expectation == Fraction(-460, 2197)


@pytest.mark.parametrize("shoe", [Shoe.infinite(), Shoe.decks(6), Shoe.decks(8)], ids=str)
def test_drawing_is_better_and_the_edges_are_punto_banco(shoe: Shoe) -> None:
    """Drawing is better, so the edges are the standard tableau's (seed 000 on 8 decks: Player
    1.24%, Banker 1.06%, tie 14.4%)."""
    result = solve_punto5(shoe)
    assert result.better is result.draw
    o = odds(shoe)
    assert result.draw.edge_punto == o.banker - o.player
    assert result.draw.edge_banco == o.player - Fraction(19, 20) * o.banker
    assert result.draw.edge_egalite == 1 - 9 * o.tie
    # Whole-coup expectations differ only through the coups with a two-card 5.
    stood = odds(shoe, STANDARD.with_punto(5, False))
    assert (o.player - o.banker) - (stood.player - stood.banker) == result.gain
    if shoe == Shoe.decks(8):
        d = result.draw
        assert [percent(d.edge_punto, 2), percent(d.edge_banco, 2), percent(d.edge_egalite, 1)] == [
            "1.24%", "1.06%", "14.4%",
        ]  # fmt: skip


def test_standing_on_five_helps_banco_bettors() -> None:
    result = solve_punto5(Shoe.decks(8))
    assert result.stand.edge_banco < result.draw.edge_banco
    assert result.stand.edge_punto > result.draw.edge_punto


def test_commission_and_bad_rules() -> None:
    plain = solve_punto5(Shoe.infinite(), STANDARD, Fraction(0))
    assert plain.draw.edge_banco == plain.draw.edge_punto * -1
    no_choice = rules_from_mapping({"name": "natural-5", "natural": 5})
    with pytest.raises(AnalyzerError, match="5 is a natural"):
        solve_punto5(Shoe.infinite(), no_choice)
