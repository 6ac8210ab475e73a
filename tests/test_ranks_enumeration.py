"""The compiled enumerator (analyzer.ranks.enumeration) against the plain nested-loop enumerator
(analyzer.ranks.plain), and exact identities every distribution must satisfy.

The two paths share only the Rules object and the Outcome type, so agreement on the whole
weights dict (not just the winner counts) is an independent check of the compile, the
pair refinement for ten-valued ranks, and the int64 evaluation.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import perm
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer.ranks.compiler as compiler_module
from analyzer.core.outcome import Outcome, Winner
from analyzer.core.ranks import RANK_POINTS, ZERO_RANKS
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD, Rules, get_rules
from analyzer.core.shoe import Shoe
from analyzer.ranks.enumeration import Distribution, compile_rules, distribution
from analyzer.ranks.plain import plain_distribution

CUSTOM_TOML = """\
name = "custom-test"
base = "seed004"
natural = 9
punto_draws = [0, 1, 2, 3, 4, 5, 6]
banco_draws_when_punto_stands = [0, 1, 2, 3, 4]

[banco_draws]
6 = [0, 6, 7]
7 = [9]
8 = [1, 2]
"""


@pytest.fixture(scope="session")
def custom_rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    """A rules file far from the casino tableau: no natural 8, Banco draws on 8 sometimes."""
    path: Path = tmp_path_factory.mktemp("rules") / "custom.toml"
    path.write_text(CUSTOM_TOML, encoding="utf-8")
    rules = get_rules(str(path))
    assert rules.natural == 9 and rules.banker_draws_on(8, 1) and not rules.is_natural(8)
    return rules


def _shoe(counts: list[int]) -> Shoe:
    return Shoe.from_counts(counts)


@st.composite
def tiny_shoes(draw: st.DrawFn) -> Shoe:
    """6-15 cards of any ranks."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=6, max_size=15))
    counter = Counter(ranks)
    return _shoe([counter[r] for r in range(13)])


@st.composite
def lopsided_shoes(draw: st.DrawFn) -> Shoe:
    """One or two dominant ranks, a few stragglers, and ten-valued ranks with unequal counts
    (10-10 is a pair, 10-K is not: the compile's pair refinement)."""
    counts = [0] * 13
    for i in ZERO_RANKS:
        counts[i] = draw(st.integers(0, 5))
    for r in draw(st.lists(st.integers(0, 12), max_size=3, unique=True)):
        counts[r] += draw(st.integers(1, 2))
    for r in draw(st.lists(st.integers(0, 12), min_size=1, max_size=2, unique=True)):
        counts[r] += draw(st.integers(6, 40))
    if sum(counts) < 6:
        counts[draw(st.integers(0, 12))] += 6
    return _shoe(counts)


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """An arbitrary valid tableau."""
    totals = st.frozensets(st.integers(0, 9))
    return Rules(
        name="random",
        natural=draw(st.integers(1, 10)),
        player_draws=draw(totals),
        banker_draws_player_stood=draw(totals),
        banker_draws=tuple(draw(totals) for _ in range(10)),
    )


def assert_same(fast: Distribution, slow: Distribution) -> None:
    assert fast.total == slow.total
    assert fast.weights == slow.weights


RULE_NAMES = ["standard", "seed004", "custom"]


def _rules(name: str, custom: Rules) -> Rules:
    return {"standard": STANDARD, "seed004": BANCO_4_DRAWS_ON_0_1, "custom": custom}[name]


@settings(max_examples=40, deadline=None)
@given(shoe=tiny_shoes(), name=st.sampled_from(RULE_NAMES))
def test_fast_equals_plain_on_tiny_shoes(shoe: Shoe, name: str, custom_rules: Rules) -> None:
    rules = _rules(name, custom_rules)
    assert_same(distribution(shoe, rules), plain_distribution(shoe, rules))


@settings(max_examples=30, deadline=None)
@given(shoe=lopsided_shoes(), name=st.sampled_from(RULE_NAMES))
def test_fast_equals_plain_on_lopsided_shoes(shoe: Shoe, name: str, custom_rules: Rules) -> None:
    rules = _rules(name, custom_rules)
    assert_same(distribution(shoe, rules), plain_distribution(shoe, rules))


@settings(max_examples=25, deadline=None)
@given(shoe=tiny_shoes(), rules=any_rules())
def test_fast_equals_plain_under_arbitrary_rules(shoe: Shoe, rules: Rules) -> None:
    assert_same(distribution(shoe, rules), plain_distribution(shoe, rules))


@pytest.mark.slow
@pytest.mark.parametrize("shoe", [Shoe.decks(1), Shoe.infinite()], ids=str)
def test_fast_equals_plain_on_full_shoes(shoe: Shoe) -> None:
    assert_same(distribution(shoe), plain_distribution(shoe))


def test_int64_path_is_exact_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """1026 cards is the largest shoe evaluated in int64; compare with exact Python ints."""
    shoe = _shoe([900, 3, 0, 5, 0, 0, 0, 0, 40, 60, 1, 0, 17])
    assert shoe.size == 1026
    assert compiler_module._int_dtype(perm(1026, 6)) is not object
    assert compiler_module._int_dtype(perm(1027, 6)) is object
    fast = distribution(shoe)
    monkeypatch.setattr(compiler_module, "_int_dtype", lambda total: object)
    assert_same(fast, distribution(shoe))


# -- identities -----------------------------------------------------------------------


def _pair_probability(counts: tuple[int, ...]) -> Fraction:
    n = sum(counts)
    return Fraction(sum(c * (c - 1) for c in counts), n * (n - 1))


def _two_card_totals(counts: tuple[int, ...]) -> dict[int, Fraction]:
    """P(first two cards of a hand total t), straight from the counts."""
    n = sum(counts)
    result = dict.fromkeys(range(10), Fraction(0))
    for a, ca in enumerate(counts):
        for b, cb in enumerate(counts):
            ways = ca * (cb - (a == b))
            result[(RANK_POINTS[a] + RANK_POINTS[b]) % 10] += Fraction(ways, n * (n - 1))
    return result


shoes = st.one_of(tiny_shoes(), lopsided_shoes(), st.integers(1, 8).map(Shoe.decks))


@settings(max_examples=60, deadline=None)
@given(shoe=shoes, rules=st.sampled_from([STANDARD, BANCO_4_DRAWS_ON_0_1]))
def test_identities(shoe: Shoe, rules: Rules) -> None:
    dist = distribution(shoe, rules)
    n = shoe.size
    assert dist.total == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert sum(dist.weights.values()) == dist.total
    assert all(w > 0 for w in dist.weights.values())
    assert sum(dist.winner_probabilities().values()) == 1
    # Pairs: P(Punto pair) = sum_r n_r(n_r-1) / (N(N-1)); Banco's the same by symmetry.
    pair = _pair_probability(shoe.counts)
    assert dist.probability(lambda o: o.player_pair) == pair
    assert dist.probability(lambda o: o.banker_pair) == pair
    # Both pairs: sum over ranks r, s of (n_r)_2 (n_s - 2[r=s])_2 / (N)_4.
    both = sum(
        perm(a, 2) * perm(b - 2 * (r == s), 2) if b - 2 * (r == s) >= 0 else 0
        for r, a in enumerate(shoe.counts)
        for s, b in enumerate(shoe.counts)
    )
    assert dist.probability(lambda o: o.player_pair and o.banker_pair) == Fraction(both, perm(n, 4))
    # Two-card totals: each hand's from the counts, and the joint law is symmetric.
    expected = _two_card_totals(shoe.counts)
    player = dist.group(lambda o: o.player_initial)
    banker = dist.group(lambda o: o.banker_initial)
    for t in range(10):
        assert Fraction(player.get(t, 0), dist.total) == expected[t]
        assert Fraction(banker.get(t, 0), dist.total) == expected[t]
    joint = dist.group(lambda o: (o.player_initial, o.banker_initial))
    assert all(joint.get((b, p), 0) == w for (p, b), w in joint.items())


@settings(max_examples=40, deadline=None)
@given(shoe=shoes)
def test_outcomes_follow_the_rules(shoe: Shoe) -> None:
    for o in distribution(shoe).weights:
        natural = o.player_initial >= 8 or o.banker_initial >= 8
        assert o.natural == natural
        assert o.player_cards == (3 if not natural and o.player_initial <= 5 else 2)
        if natural or (o.player_cards == 2 and o.banker_cards == 2):
            assert (o.player_total, o.banker_total) == (o.player_initial, o.banker_initial)
        if o.banker_cards == 2 and not natural:
            assert o.banker_total == o.banker_initial
        if o.player_pair:
            assert o.player_initial % 2 == 0  # two equal points sum to an even total


def test_infinite_deck_identities() -> None:
    dist = distribution(Shoe.infinite())
    assert dist.total == 13**6
    assert sum(dist.weights.values()) == 13**6
    assert dist.probability(lambda o: o.player_pair) == Fraction(1, 13)
    assert dist.probability(lambda o: o.banker_pair) == Fraction(1, 13)
    assert dist.probability(lambda o: o.player_pair and o.banker_pair) == Fraction(1, 169)
    # Value pairs totalling 9: (0, 9), (9, 0) with P(0) = 4/13, and (1, 8)...(8, 1) at 1/169 each.
    assert dist.probability(lambda o: o.player_initial == 9) == Fraction(4 + 4 + 8, 169)


def test_six_card_shoe() -> None:
    """A 6-card shoe of 9,9,9,9 and two kings: every coup is two natural 8s (9+9 = 18)
    unless a king lands in a two-card hand."""
    shoe = _shoe([0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 2])
    dist = distribution(shoe)
    assert dist.total == 720
    assert_same(dist, plain_distribution(shoe))
    # Both hands are 9-9 (natural 8 vs 8, a tie) when the four first cards are the four 9s.
    assert dist.count(lambda o: (o.player_initial, o.banker_initial) == (8, 8)) == 4 * 3 * 2 * 1 * 2 * 1
    assert dist.winner_counts()[Winner.TIE] == dist.count(lambda o: o.player_total == o.banker_total)


def test_distribution_helpers() -> None:
    dist = distribution(Shoe.decks(8))
    counts = dist.winner_counts()
    assert list(counts) == [Winner.BANKER, Winner.PLAYER, Winner.TIE]
    assert sum(counts.values()) == dist.total
    assert dist.count(lambda o: True) == dist.total
    assert dist.probability(lambda o: False) == 0
    natural = dist.probability(lambda o: o.natural)
    assert dist.conditional(lambda o: True, lambda o: o.natural) == 1
    assert dist.conditional(lambda o: o.natural, lambda o: True) == natural
    by_cards = dist.group(lambda o: o.cards)
    assert set(by_cards) == {4, 5, 6}
    assert sum(by_cards.values()) == dist.total


def test_outcome_winner() -> None:
    base = Outcome(5, 3, 5, 3, 3, 3, False, False, False)
    assert base.winner is Winner.PLAYER
    assert base._replace(banker_total=6).winner is Winner.BANKER
    assert base._replace(banker_total=5).winner is Winner.TIE
    assert base.cards == 6


def test_compile_is_cached_and_sized() -> None:
    """The README's figure: about 7,900 monomials."""
    classes = compile_rules(STANDARD)
    assert compile_rules(STANDARD) is classes
    assert 7_500 <= len(classes.basis) <= 8_500
    assert classes.outcome_matrix().shape == (len(classes.outcomes), len(classes.basis))


def test_a_distribution_asked_again_is_kept_and_each_call_has_its_own_weights() -> None:
    """The last few distributions are kept, per shoe and rules (the report asks for 14
    distributions 58 times); each call gets its own weights, so changing them changes no
    later call, and holds the shoe it was asked for: an equal shoe of unknown suits stays one
    of unknown suits."""
    eight = distribution(Shoe.decks(8))
    eight.weights.clear()
    assert eight.weight_list is not None
    eight.weight_list[:] = [0] * len(eight.weight_list)
    again = distribution(Shoe.decks(8), STANDARD)
    assert again.weights == distribution(Shoe.decks(8)).weights and again.total == perm(416, 6)
    assert sum(again.weights.values()) == perm(416, 6) and again.weight_list is not None
    assert sum(again.weight_list) == perm(416, 6)
    banco = distribution(Shoe.decks(8), BANCO_4_DRAWS_ON_0_1)
    assert banco.rules == BANCO_4_DRAWS_ON_0_1 and banco.weights != again.weights
    deck = distribution(Shoe.decks(1))
    ranks = distribution(Shoe.from_counts([4] * 13))
    assert ranks.shoe == deck.shoe and ranks.weights == deck.weights
    assert ranks.shoe.types is None and deck.shoe.types is not None
