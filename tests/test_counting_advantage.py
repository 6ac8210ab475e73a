"""Advantage-play figures from a study summary: the stated formulas, on known sums."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from analyzer.core.catalogue import RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.counting.advantage import advantage_figures
from analyzer.counting.summary import ExactSum, SystemEvaluation
from analyzer.counting.systems import SYSTEMS


def _summary(
    expected: list[float], realized: list[float], edge_sum: Fraction, squares: Fraction
) -> SystemEvaluation:
    result = SystemEvaluation(
        SYSTEMS["dragon7-jacobson"], RANK_BETS["dragon7"], shoes=len(expected), coups=80 * len(expected)
    )
    result.triggers = 8 * len(expected)
    result.sums["triggered"] = (
        ExactSum(1, {1: edge_sum.numerator}) if edge_sum.denominator == 1 else ExactSum()
    )
    result.realized_triggered = Fraction(int(sum(realized)))
    result.realized_squares = squares
    result.shoe_moments["expected"] = [sum(expected), sum(x * x for x in expected)]
    result.shoe_moments["realized"] = [sum(realized), sum(x * x for x in realized)]
    return result


def test_formulas() -> None:
    expected, realized = [1.0, 0.0, 2.0, 1.0], [40.0, -8.0, 33.0, -1.0]
    result = _summary(expected, realized, Fraction(4), Fraction(3400))
    f = advantage_figures(result, bankroll=50, coups_per_hour=40)
    sd_shoe = math.sqrt(sum((x - 16) ** 2 for x in realized) / 3)
    assert f.win_per_shoe == 1.0 and f.sd_per_shoe == pytest.approx(sd_shoe)
    assert f.win_per_shoe_se == pytest.approx(math.sqrt(sum((x - 1) ** 2 for x in expected) / 3 / 4))
    assert f.win_per_100_coups == pytest.approx(100 / 80)
    assert f.risk_of_ruin == pytest.approx(math.exp(-2 * 1.0 * 50 / sd_shoe**2))
    mean_bet = 64 / 32
    sd_bet = math.sqrt(3400 / 32 - mean_bet**2)
    assert f.sd_per_coup_bet == pytest.approx(sd_bet)
    assert f.n0 == pytest.approx((sd_bet / (4 / 32)) ** 2)
    assert f.bets_per_hour == pytest.approx(40 * 8 / 80) and f.win_per_hour == pytest.approx(40 / 80)


def test_no_edge_means_certain_ruin_and_no_n0() -> None:
    f = advantage_figures(_summary([-1.0, -1.0], [0.0, -2.0], Fraction(-2), Fraction(2)))
    assert f.risk_of_ruin == 1.0 and f.n0 is None
    with pytest.raises(AnalyzerError, match="bankroll 0"):
        advantage_figures(_summary([1.0], [1.0], Fraction(1), Fraction(1)), bankroll=0)


def test_cvdata_figures_against_the_coups_themselves() -> None:
    """DI and SCORE per 100 coups dealt, from every coup of a small study settled on its own
    (`deal_shoe`, the bet's line on the outcome; its exact expectation from `analyze_bets`)."""
    from analyzer.analyses.pricing import analyze_bets
    from analyzer.core.rules import STANDARD
    from analyzer.core.shoe import Shoe
    from analyzer.counting.simulation import Procedure, deal_shoe, evaluate_systems
    from analyzer.counting.systems import CountSystem

    banker, procedure = RANK_BETS["banker"], Procedure(shoe=Shoe.decks(1), cut_card=7)
    system = CountSystem("low", "low", "banker", (1, 1, 1, 1, -1, -1, -1, -1, 0, 0, 0, 0, 0), Fraction(0))
    [result] = evaluate_systems([system], [banker], procedure, shoes=3, seed=2)
    ev, squares, coups = Fraction(0), Fraction(0), 0
    for index in range(3):
        record = deal_shoe(procedure, STANDARD, 2, index)
        rows = zip(record.left.tolist(), record.seen.tolist(), record.outcomes, strict=True)
        for left, seen, outcome in rows:
            coups += 1
            if system.bets(seen, sum(left)):
                ev += analyze_bets([banker], Shoe.from_counts(left))[0].expectation
                squares += banker.nets[banker.line_index(outcome)] ** 2
    assert 0 < result.triggers < coups and result.coups == coups and result.expectation_triggered == ev
    f = advantage_figures(result)
    sd = math.sqrt(float(squares) / coups - (float(ev) / coups) ** 2)
    assert f.sd_per_100_coups == pytest.approx(10 * sd)
    assert f.desirability_index == pytest.approx(1000 * float(ev) / coups / sd)
    assert f.desirability_index == pytest.approx(100 * f.win_per_100_coups / f.sd_per_100_coups)
    assert f.score == (f.desirability_index**2 if f.desirability_index > 0 else 0.0)
    # the coups by count add up to the coups dealt
    from analyzer.present.counting import count_bins

    assert sum(n for _, n, _, _ in count_bins(result)) == coups


def test_a_system_that_never_bets_risks_nothing() -> None:
    """No bets: the same result (0) every shoe, so no ruin (it read 100%), and a sure loss
    (a result that never varies, below 0) still ruins."""
    idle = SystemEvaluation(SYSTEMS["dragon7-jacobson"], RANK_BETS["dragon7"], shoes=3, coups=240)
    f = advantage_figures(idle)
    assert (f.bets_per_shoe, f.win_per_shoe, f.sd_per_shoe, f.risk_of_ruin) == (0.0, 0.0, 0.0, 0.0)
    sure_loss = _summary([-1.0, -1.0], [-1.0, -1.0], Fraction(-2), Fraction(2))
    assert advantage_figures(sure_loss).risk_of_ruin == 1.0


def test_a_system_that_never_bets_shows_no_win_per_hour_or_per_100_coups() -> None:
    """Its advantage and CVData rows say `NO_BETS` where a win would stand (they read
    "+0.000" and "+0.0000"), right-aligned with the figures of the other systems."""
    from analyzer.present.counting import NO_BETS, advantage_rows, cvdata_rows
    from analyzer.present.text import table

    idle = SystemEvaluation(SYSTEMS["dragon7-jacobson"], RANK_BETS["dragon7"], shoes=3, coups=240)
    busy = _summary([1.0, 0.0, 2.0, 1.0], [40.0, -8.0, 33.0, -1.0], Fraction(4), Fraction(3400))
    figures = [advantage_figures(idle), advantage_figures(busy)]
    advantage = advantage_rows([idle, busy], figures)
    assert advantage[0][-1] == NO_BETS and advantage[1][-1] == "+1.000"
    cvdata = cvdata_rows([idle, busy], figures)
    assert cvdata[0][2] == NO_BETS and cvdata[1][2] == "+1.2500"
    lines = table([row[-1:] for row in advantage], ["win/hour"], "table").splitlines()
    assert [line.rstrip() for line in lines[-2:]] == [NO_BETS, " " * (len(NO_BETS) - 6) + "+1.000"]
