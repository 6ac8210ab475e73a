"""The Russian gambling dictionary's rules: Punto bettors draw or stand on a two-card 5
(analyzer.games.punto5).

The dictionary ("Table 2", credited to Lesnoy and Natanson's book "PuntoBanco") gives, for a Punto
5, P(Punto) / P(Banco) / P(égalité) = 0.3585 / 0.5378 / 0.1036 when drawing and
0.3605 / 0.5699 / 0.0696 when standing.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.analyses.odds import odds
from analyzer.core.errors import AnalyzerError
from analyzer.core.outcome import Winner
from analyzer.core.rules import STANDARD, rules_from_mapping
from analyzer.core.shoe import Shoe
from analyzer.games.punto5 import solve_punto5
from analyzer.present.text import decimal, percent
from analyzer.ranks.plain import plain_distribution


def _direct(shoe: Shoe, draws: bool) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """P(Punto), P(Banco), P(égalité) given a two-card 5, and P(5), by the plain enumerator."""
    dist = plain_distribution(shoe, STANDARD.with_player(5, draws))
    five = dist.count(lambda o: o.player_initial == 5)
    return (
        Fraction(dist.count(lambda o: o.player_initial == 5 and o.winner == Winner.PLAYER), five),
        Fraction(dist.count(lambda o: o.player_initial == 5 and o.winner == Winner.BANKER), five),
        Fraction(dist.count(lambda o: o.player_initial == 5 and o.winner == Winner.TIE), five),
        Fraction(five, dist.total),
    )


def test_expectations_agree_with_the_plain_enumerator() -> None:
    shoe = Shoe.decks(1)
    result = solve_punto5(shoe)
    for choice, draws in ((result.draw, True), (result.stand, False)):
        player, banker, tie, five = _direct(shoe, draws)
        assert (choice.player, choice.banker, choice.tie) == (player, banker, tie)
        assert choice.probability_five == five
        assert choice.player_expectation == player - banker
        assert choice.contribution == (player - banker) * five


def test_seed_003_table_2_is_the_infinite_deck() -> None:
    """The dictionary's two rows for 5 agree with the infinite deck to the 4 decimals printed."""
    result = solve_punto5(Shoe.infinite())
    assert [decimal(p, 4) for p in (result.draw.player, result.draw.banker, result.draw.tie)] == [
        "0.3585", "0.5378", "0.1036",
    ]  # fmt: skip
    assert [decimal(p, 4) for p in (result.stand.player, result.stand.banker, result.stand.tie)] == [
        "0.3605", "0.5699", "0.0696",
    ]  # fmt: skip
    assert result.draw.player_expectation == Fraction(-5121, 28561)
    assert result.stand.player_expectation == Fraction(-460, 2197)


@pytest.mark.parametrize("shoe", [Shoe.infinite(), Shoe.decks(6), Shoe.decks(8)], ids=str)
def test_drawing_is_better_and_the_edges_are_punto_banco(shoe: Shoe) -> None:
    """Drawing is better, so the edges are the standard tableau's (the English Wikipedia
    article on 8 decks: Player 1.24%, Banker 1.06%, tie 14.4%)."""
    result = solve_punto5(shoe)
    assert result.better is result.draw
    o = odds(shoe)
    assert result.draw.edge_player == o.banker - o.player
    assert result.draw.edge_banker == o.player - Fraction(19, 20) * o.banker
    assert result.draw.edge_tie == 1 - 9 * o.tie
    # Whole-coup expectations differ only through the coups with a two-card 5.
    stood = odds(shoe, STANDARD.with_player(5, False))
    assert (o.player - o.banker) - (stood.player - stood.banker) == result.gain
    if shoe == Shoe.decks(8):
        d = result.draw
        assert [percent(d.edge_player, 2), percent(d.edge_banker, 2), percent(d.edge_tie, 1)] == [
            "1.24%", "1.06%", "14.4%",
        ]  # fmt: skip


def test_standing_on_five_helps_banco_bettors() -> None:
    result = solve_punto5(Shoe.decks(8))
    assert result.stand.edge_banker < result.draw.edge_banker
    assert result.stand.edge_player > result.draw.edge_player


def test_commission_and_bad_rules() -> None:
    plain = solve_punto5(Shoe.infinite(), STANDARD, Fraction(0))
    assert plain.draw.edge_banker == plain.draw.edge_player * -1
    no_choice = rules_from_mapping({"name": "natural-5", "natural": 5})
    with pytest.raises(AnalyzerError, match="5 is a natural"):
        solve_punto5(Shoe.infinite(), no_choice)


def test_edges_are_the_catalogue_bets_priced_on_each_choice() -> None:
    """One source of truth: the house edges are the catalogue's Player, Banker and Tie bets
    priced by `analyze` on the distribution of each choice; other commissions use the Banker
    bet with that commission."""
    from analyzer.analyses.pricing import analyze
    from analyzer.core.bets import commission_banker
    from analyzer.core.catalogue import RANK_BETS
    from analyzer.ranks.enumeration import distribution

    shoe = Shoe.decks(6)
    four = Fraction(1, 25)
    for commission, banker in ((Fraction(1, 20), RANK_BETS["banker"]), (four, commission_banker(four))):
        result = solve_punto5(shoe, STANDARD, commission)
        for choice, draws in ((result.draw, True), (result.stand, False)):
            dist = distribution(shoe, STANDARD.with_player(5, draws))
            assert choice.edge_player == analyze(RANK_BETS["player"], dist).house_edge
            assert choice.edge_banker == analyze(banker, dist).house_edge
            assert choice.edge_tie == analyze(RANK_BETS["tie"], dist).house_edge


def test_json_keeps_seed_003_keys_beside_player_banker_tie() -> None:
    import json

    from analyzer.present.games import solve_text

    data = json.loads(solve_text("punto-5", Shoe.infinite(), STANDARD, None, "json"))
    for old, new in (("punto", "player"), ("banco", "banker"), ("egalite", "tie")):
        assert data["draw"][old] == data["draw"][new]
        assert data["house_edges"][old] == data["house_edges"][new]
        assert data["stand"][f"house_edge_{old}"] == data["stand"][f"house_edge_{new}"]
    assert data["banco_commission"] == data["banker_commission"] == "1/20"
