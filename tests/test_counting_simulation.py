"""The casino shoe procedure, exact values at every coup, and the evaluation of systems."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analyzer import STANDARD, Shoe, distribution
from analyzer.analyses.pricing import analyze
from analyzer.core.catalogue import RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.ranks import RANK_POINTS, RANKS
from analyzer.counting.choice import banker_player_choice
from analyzer.counting.simulation import (
    Procedure,
    deal_cards,
    deal_coup,
    deal_shoe,
    evaluate_systems,
    shuffled,
)
from analyzer.counting.systems import SYSTEMS

R = {str(rank): i for i, rank in enumerate(RANKS)}


def test_deal_coup_follows_the_tableau() -> None:
    # Punto 2+3 = 5 draws a 4 -> 9; Banco K+5 = 5 draws against a 4 -> takes the 6 -> 1.
    cards = [R["2"], R["K"], R["3"], R["5"], R["4"], R["6"], R["9"]]
    outcome, used = deal_coup(cards, 0, STANDARD)
    assert used == 6
    assert (outcome.player_total, outcome.banker_total, outcome.winner) == (9, 1, "player")
    # A natural stops at four cards.
    outcome, used = deal_coup([R["4"], R["A"], R["4"], R["2"], R["9"], R["9"]], 0, STANDARD)
    assert used == 4 and outcome.natural and outcome.player_total == 8 and outcome.player_pair


def test_stacked_shoe_burn_and_cut_card() -> None:
    """A hand-stacked 22-card shoe: a 3 turned up burns 3 more; coups of 4, 6 and 5 cards
    follow; the cut card 7 from the end (after card 15) comes out in the third coup."""
    c = [R[x] for x in ["3", "K", "K", "K"]]  # burn: the 3 face up, then three face down
    c += [R[x] for x in ["9", "2", "K", "5"]]  # coup 1: Punto 9 natural -> 4 cards
    c += [R[x] for x in ["2", "K", "3", "5", "4", "6"]]  # coup 2: 5 draws 4 -> 9; Banco 5 draws on 4 -> 1
    c += [R[x] for x in ["K", "K", "K", "K", "7", "Q"]]  # coup 3 (cards 14-19): 0 v 0, both draw
    c += [R[x] for x in ["8", "8"]]  # 22 cards: 2 left, too few for another coup anyway
    procedure = Procedure(shoe=Shoe.from_counts([c.count(i) for i in range(13)]), cut_card=7)
    record = deal_cards(c, procedure, STANDARD)
    assert [o.cards for o in record.outcomes] == [4, 6, 6]
    assert record.left[:, :].sum(axis=1).tolist() == [18, 14, 8]
    assert record.seen.sum(axis=1).tolist() == [1, 5, 11]  # the face-down burn cards stay unseen
    assert record.outcomes[1].player_total == 9 and record.outcomes[1].banker_total == 1
    # Cut card deeper: after card 10 it comes out in coup 2, and the shoe ends there.
    early = deal_cards(c, Procedure(shoe=procedure.shoe, cut_card=12), STANDARD)
    assert len(early.outcomes) == 2
    extra = deal_cards(c, Procedure(shoe=procedure.shoe, cut_card=12, extra_coup=True), STANDARD)
    assert len(extra.outcomes) == 3


def test_ten_valued_burn_card_burns_ten() -> None:
    c = [R["Q"]] + [R["A"]] * 10 + [R[x] for x in ["2", "2", "2", "2", "9", "9"]] + [R["9"]] * 6
    procedure = Procedure(shoe=Shoe.from_counts([c.count(i) for i in range(13)]), cut_card=0)
    record = deal_cards(c, procedure, STANDARD)
    assert record.left[0].sum() == len(c) - 11 and record.seen[0][R["Q"]] == 1


@pytest.mark.parametrize("cut_card", [7, 14, 16])
def test_burn_and_cut_card(cut_card: int) -> None:
    procedure = Procedure(shoe=Shoe.decks(1), cut_card=cut_card)
    cards = shuffled(procedure, 1, 0)
    record = deal_shoe(procedure, STANDARD, seed=1, index=0)
    burned = 1 + (RANK_POINTS[cards[0]] or 10)
    # Before the first coup: the burn cards are gone; only the first one was seen.
    assert record.left[0].sum() == 52 - burned
    assert record.seen[0].sum() == 1 and record.seen[0][cards[0]] == 1
    # Cards left always shrink by the cards each coup used; the last coup took the cut card.
    used = [int(u) for u in record.left[:-1].sum(axis=1) - record.left[1:].sum(axis=1)]
    assert all(4 <= u <= 6 for u in used)
    stop = 52 - cut_card
    pos_before_last = 52 - int(record.left[-1].sum())
    assert pos_before_last <= stop  # the cut card had not come out before the last coup
    last_outcome_cards = record.outcomes[-1].cards
    assert pos_before_last + last_outcome_cards > stop or 52 - pos_before_last - last_outcome_cards < 6


def test_extra_coup_plays_one_more() -> None:
    plain = deal_shoe(Procedure(shoe=Shoe.decks(2), cut_card=20), STANDARD, seed=3, index=4)
    extra = deal_shoe(Procedure(shoe=Shoe.decks(2), cut_card=20, extra_coup=True), STANDARD, seed=3, index=4)
    assert len(extra.outcomes) == len(plain.outcomes) + 1
    assert extra.outcomes[: len(plain.outcomes)] == plain.outcomes


def test_coups_are_valued_on_the_cards_left() -> None:
    procedure = Procedure(shoe=Shoe.decks(1), cut_card=7)
    record = deal_shoe(procedure, STANDARD, seed=1, index=2)
    # seen + left + unseen burn cards = the shoe
    unseen = 52 - record.left[0].sum() - record.seen[0].sum()
    assert (record.left[-1] + record.seen[-1]).sum() + unseen == 52
    left = record.left[5].tolist()
    dist = distribution(Shoe.from_counts(left))
    assert (
        analyze(RANK_BETS["dragon7"], dist).expectation
        != analyze(RANK_BETS["dragon7"], distribution(Shoe.decks(1))).expectation
    )


def test_evaluation_is_reproducible_and_independent_of_workers() -> None:
    systems = [SYSTEMS["dragon7-jacobson"], SYSTEMS["banker-eor"]]
    bets = [RANK_BETS["dragon7"], RANK_BETS["banker"]]
    procedure = Procedure(shoe=Shoe.decks(8), cut_card=14)
    one = evaluate_systems(systems, bets, procedure, shoes=60, seed=9, workers=1, chunk=20)
    two = evaluate_systems(systems, bets, procedure, shoes=60, seed=9, workers=2, chunk=20)
    for a, b in zip(one, two, strict=True):
        assert a.expectation_triggered == b.expectation_triggered
        assert a.shoe_moments == b.shoe_moments and a.moments == b.moments
    again = evaluate_systems(systems, bets, procedure, shoes=60, seed=9, chunk=20)
    assert again[0].realized_triggered == one[0].realized_triggered
    other = evaluate_systems(systems, bets, procedure, shoes=60, seed=10)
    assert other[0].expectation_all != one[0].expectation_all


def test_evaluation_bookkeeping() -> None:
    system, bet = SYSTEMS["dragon7-jacobson"], RANK_BETS["dragon7"]
    [result] = evaluate_systems([system], [bet], Procedure(shoe=Shoe.decks(8), cut_card=14), shoes=40, seed=2)
    assert result.shoes == 40
    assert 0 < result.triggers < result.coups
    assert result.perfect >= result.expectation_triggered  # betting exactly the positive coups is best
    assert result.perfect >= 0 and result.expectation_all < 0
    assert sum(n for n, _ in result.by_count.values()) == result.coups
    assert float(result.expectation_triggered) == pytest.approx(result.shoe_moments["expected"][0], rel=1e-9)
    assert result.correlation > 0.5  # the true count tracks the exact expectation


def test_perfect_information_bound_on_banker_and_player() -> None:
    banker, player = RANK_BETS["banker"], RANK_BETS["player"]
    choice = banker_player_choice(banker, player, Procedure(cut_card=14), shoes=20, seed=1)
    assert choice.better >= max(choice.banker, choice.player)
    assert choice.banker_positive >= 0 and choice.player_positive >= 0
    assert Fraction(-12, 1000) < choice.banker < Fraction(-9, 1000)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cut_card": 500}, "cut card 500"),
        ({"cut_card": -1}, "cut card -1"),
        ({"shoe": Shoe.infinite()}, "finite shoe"),
    ],
)
def test_bad_procedures(kwargs: dict, message: str) -> None:
    with pytest.raises(AnalyzerError, match=message):
        Procedure(**kwargs)


def test_bad_run_sizes() -> None:
    with pytest.raises(AnalyzerError, match="shoes 0"):
        evaluate_systems([SYSTEMS["banker-eor"]], [RANK_BETS["banker"]], Procedure(), shoes=0)
    with pytest.raises(AnalyzerError, match="workers 0"):
        evaluate_systems([SYSTEMS["banker-eor"]], [RANK_BETS["banker"]], Procedure(), shoes=1, workers=0)
    with pytest.raises(AnalyzerError, match="start -1: use a shoe number, 0 or more"):
        evaluate_systems([SYSTEMS["banker-eor"]], [RANK_BETS["banker"]], Procedure(), shoes=1, start=-1)
    assert np.array_equal(
        deal_shoe(Procedure(), STANDARD, 1, 0).left, deal_shoe(Procedure(), STANDARD, 1, 0).left
    )


def test_evaluator_cache_follows_the_bets_not_their_names() -> None:
    """Two different bets named alike must not share a cached evaluator."""
    from analyzer.core.bets import commission_banker

    system, procedure = SYSTEMS["banker-eor"], Procedure(cut_card=14)
    [usual] = evaluate_systems([system], [RANK_BETS["banker"]], procedure, shoes=3, seed=1)
    [free] = evaluate_systems(
        [system], [commission_banker(Fraction(0), name="banker")], procedure, shoes=3, seed=1
    )
    assert free.expectation_all > 0 > usual.expectation_all


def test_shoe_dealer_agrees_with_the_enumerator() -> None:
    """deal_coup on freshly shuffled 1-deck shoes: result frequencies within 4 standard
    errors of the exact probabilities (60,000 coups)."""
    import random

    rng = random.Random(11)
    cards = [rank for rank in range(13) for _ in range(4)]
    tally = {"banker": 0, "player": 0, "tie": 0}
    coups = 60_000
    for _ in range(coups):
        outcome, _ = deal_coup(rng.sample(cards, 6), 0, STANDARD)
        tally[outcome.winner] += 1
    exact = distribution(Shoe.decks(1)).winner_probabilities()
    for winner, p in exact.items():
        se = (float(p) * (1 - float(p)) / coups) ** 0.5
        assert abs(tally[winner] / coups - float(p)) < 4 * se, winner


@pytest.mark.parametrize("divisor", ["exact", "half-deck", "deck"])
@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("burn_seen", ["none", "first", "all"])
def test_scalar_and_vectorised_triggers_agree(divisor: str, strict: bool, burn_seen: str) -> None:
    """The study's vectorised trigger counts exactly the coups the one-composition path
    (CountSystem.bets on each coup's seen cards and cards left) says it bets on."""
    systems = [
        SYSTEMS[n].variant(divisor, strict) for n in ("dragon7-jacobson", "panda8-jacobson", "dragon7-how")
    ]
    bets = [RANK_BETS[s.bet] for s in systems]
    procedure = Procedure(shoe=Shoe.decks(2), cut_card=14, burn_seen=burn_seen)
    results = evaluate_systems(systems, bets, procedure, shoes=30, seed=8, chunk=10)
    assert results[0].triggers > 0
    for system, result in zip(systems, results, strict=True):
        fired = 0
        for index in range(30):
            record = deal_shoe(procedure, STANDARD, 8, index)
            cards = shuffled(procedure, 8, index)
            burned = [cards[: 1 + (RANK_POINTS[cards[0]] or 10)].count(r) for r in range(13)]
            for seen, left in zip(record.seen.tolist(), record.left.tolist(), strict=True):
                if burn_seen == "none":
                    seen[cards[0]] -= 1
                elif burn_seen == "all":
                    seen = [
                        s - (r == cards[0]) + b for r, (s, b) in enumerate(zip(seen, burned, strict=True))
                    ]
                fired += system.bets(seen, sum(left))
        assert result.triggers == fired


def test_true_count_divisors() -> None:
    system = SYSTEMS["dragon7-jacobson"]
    seen = [0] * 13
    seen[7] = 5  # five 8s: running count +10
    assert system.count(seen, 130) == Fraction(10 * 52, 130)  # 2.5 decks exactly: 4
    assert system.variant("half-deck").count(seen, 140) == Fraction(10 * 2, 5)  # 2.69 decks -> 2.5
    assert system.variant("deck").count(seen, 140) == Fraction(10, 3)  # 2.69 decks -> 3
    assert system.variant("deck").count(seen, 10) == 10  # never below one deck
    assert system.bets(seen, 130) and not system.variant(strict=True).bets(seen, 130)  # 4 >= 4, not 4 > 4
    assert system.variant(strict=True).rule == "true count (exact) > 4"
    with pytest.raises(AnalyzerError, match="true count 'quarter'"):
        system.variant("quarter")


def test_a_run_from_a_later_shoe_is_those_shoes_of_the_whole_run() -> None:
    """Shoes `start` onwards of a run are the same shoes as in the run from shoe 0: the two
    halves' exact sums add up to the whole run's."""
    bets, systems = [RANK_BETS["dragon7"]], [SYSTEMS["dragon7-jacobson"]]
    [whole] = evaluate_systems(systems, bets, Procedure(), shoes=9, seed=6, chunk=4)
    [first] = evaluate_systems(systems, bets, Procedure(), shoes=5, seed=6, chunk=4)
    [later] = evaluate_systems(systems, bets, Procedure(), shoes=4, seed=6, start=5)
    assert first.expectation_all + later.expectation_all == whole.expectation_all
    assert first.expectation_triggered + later.expectation_triggered == whole.expectation_triggered
    assert (first.coups + later.coups, first.triggers + later.triggers) == (whole.coups, whole.triggers)


def test_a_thread_keeps_its_two_last_used_evaluators() -> None:
    """`_keep`: the least recently used evaluator goes first; one used again stays."""
    from analyzer.counting.simulation import _KEPT_EVALUATORS, _keep
    from analyzer.ranks.fast import FastEvaluator

    cache: dict[str, FastEvaluator | None] = {}
    for token in ("a", "b", "a", "c"):  # "a" used again before "c" came: "b" goes
        _keep(cache, token, None)
    assert _KEPT_EVALUATORS == 2 and list(cache) == ["a", "c"]


def test_the_choice_study_keeps_its_old_names_in_simulation() -> None:
    """`banker_player_choice` and `ChoiceValue` moved to `analyzer.counting.choice`; the old
    module still gives them (code importing them from there keeps working)."""
    from analyzer.counting import choice, simulation

    assert simulation.banker_player_choice is choice.banker_player_choice
    assert simulation.ChoiceValue is choice.ChoiceValue
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        simulation.nothing  # noqa: B018
