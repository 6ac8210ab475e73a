"""Closed forms in the number of decks (analyzer.analyses.closed_form) against the enumerator.

The functions are derived symbolically from the coup classes; the enumerator evaluates the
same classes numerically per shoe, and the plain enumerator (tests/test_ranks_enumeration.py) checks
those. Here: every d from 1 to 8 exactly, and the limit against the infinite deck.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy as sp

from analyzer.analyses import closed_form
from analyzer.analyses.closed_form import D, closed_forms, derived_outcome_polynomials, evaluate
from analyzer.analyses.pricing import analyze
from analyzer.core.catalogue import RANK_BETS
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD
from analyzer.core.shoe import Shoe
from analyzer.ranks.enumeration import class_distribution, distribution

NAMES = ["banker", "player", "tie", "super6-banker", "dragon7", "player-pair", "either-pair", "big"]


@pytest.fixture(scope="module")
def forms() -> dict[str, object]:
    return {form.bet.name: form for form in closed_forms([RANK_BETS[name] for name in NAMES])}


@pytest.mark.parametrize("decks", range(1, 9))
def test_closed_forms_equal_the_enumerator_at_every_deck_count(forms: dict, decks: int) -> None:
    dist = distribution(Shoe.decks(decks))
    for name in NAMES:
        form, analysis = forms[name], analyze(RANK_BETS[name], dist)
        assert evaluate(form.house_edge, decks) == analysis.house_edge, name
        expected = {row.label: row.probability for row in analysis.lines}
        got = {label: evaluate(p, decks) for label, p in form.results}
        assert got == {label: p for label, p in expected.items() if label in got}, name
        assert sum(got.values()) == 1


def test_limits_are_the_infinite_deck(forms: dict) -> None:
    dist = distribution(Shoe.infinite())
    for name in NAMES:
        form, analysis = forms[name], analyze(RANK_BETS[name], dist)
        assert Fraction(str(form.house_edge_limit)) == analysis.house_edge, name
        assert sp.limit(form.house_edge, D, sp.oo) == form.house_edge_limit
        expected = {row.label: row.probability for row in analysis.lines}
        for label, limit in form.results_limit:
            assert Fraction(str(limit)) == expected[label], (name, label)


def test_pair_bet_has_the_textbook_form(forms: dict) -> None:
    """Player Pair at 11:1: P(pair) = (4d-1)/(52d-1), so the edge is (4d+11)/(52d-1)."""
    assert sp.simplify(forms["player-pair"].house_edge - (4 * D + 11) / (52 * D - 1)) == 0


def test_other_rules_at_six_decks() -> None:
    (form,) = closed_forms([RANK_BETS["dragon7"]], BANCO_4_DRAWS_ON_0_1)
    assert (
        evaluate(form.house_edge, 6)
        == analyze(RANK_BETS["dragon7"], distribution(Shoe.decks(6), BANCO_4_DRAWS_ON_0_1)).house_edge
    )
    assert STANDARD != BANCO_4_DRAWS_ON_0_1


@pytest.mark.parametrize("rules", [STANDARD, BANCO_4_DRAWS_ON_0_1], ids=["standard", "banco-4"])
def test_shipped_outcome_polynomials_are_the_derived_ones(rules: object) -> None:
    """The closed forms of a built-in tableau read its shipped polynomials (interpolated from
    the coup classes at d = 1..7): the same integers as the sympy derivation from the basis
    monomials, which a tableau of one's own still uses."""
    assert closed_form._outcome_polynomials(rules) == derived_outcome_polynomials(rules)


def test_lines_summed_in_int64_are_the_python_sums(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line's weight summed in int64 (`_outcome_matrix`) is the sum in Python integers,
    which a tableau whose sums could leave int64 takes."""
    bets = list(RANK_BETS.values())
    summed = [closed_form._line_polynomials(bet, STANDARD) for bet in bets]
    assert all(type(c) is int for lines in summed for line in lines for c in line)
    monkeypatch.setattr(closed_form, "_outcome_matrix", lambda rules: None)
    assert summed == [closed_form._line_polynomials(bet, STANDARD) for bet in bets]
    assert {sum(line[-1] for line in lines) for lines in summed} == {52**6}  # every coup, once


def test_a_tableau_of_ones_own_is_derived() -> None:
    rules = STANDARD.with_player(6, True)  # Player draws on 6: no shipped polynomials
    (form,) = closed_forms([RANK_BETS["tie"]], rules)
    expected = analyze(RANK_BETS["tie"], class_distribution(Shoe.decks(3), rules)).house_edge
    assert evaluate(form.house_edge, 3) == expected


def test_simplified_is_factor_of_cancel() -> None:
    """`_simplified` (sympy's factor alone) gives the very expression factor(cancel(.)) gives,
    structure included: on each line weight of the bets above over (52d)_6, on ratios sharing
    factors with it (d, 52d - k, ...) or not, with integer and rational coefficients."""
    rng = random.Random(5)
    total = closed_form._total()
    shared = [D, 52 * D - 1, 52 * D - 5, 4 * D - 1, 16 * D - 3, 2 * D - 1]
    ratios = [
        closed_form._as_expr(weights) / total
        for name in NAMES[:4]
        for weights in closed_form._line_polynomials(RANK_BETS[name], STANDARD)
        if any(weights)
    ]
    for _ in range(24):
        numerator = sp.Integer(rng.choice([-1, 1]) * rng.randint(1, 10**6))
        for _ in range(rng.randint(0, 6)):
            numerator *= rng.choice([*shared, rng.randint(1, 60) * D - rng.randint(-60, 60)])
        ratios.append(sp.expand(sp.Rational(rng.randint(1, 99), rng.randint(1, 99)) * numerator) / total)
    for ratio in ratios:
        assert sp.srepr(closed_form._simplified(ratio)) == sp.srepr(sp.factor(sp.cancel(ratio)))
