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
