"""Known cards and edge sorting: Jacobson's published figure, a plain card-by-card
enumeration of six cards, the card engine's shown cards, the mixture over the states (which
is analyze_bets on the whole shoe), sorts as sums of rank states, and bad input."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.analyses.known import (
    KnownResult,
    best_sorts,
    known_cards,
    known_result,
    known_values,
    parse_positions,
    parse_sort,
)
from analyzer.analyses.pricing import analyze_bets
from analyzer.analyses.shown import parse_shown, shown_analyses
from analyzer.core.bets import Bet
from analyzer.core.catalogue import RANK_BETS, get_bet
from analyzer.core.errors import AnalyzerError
from analyzer.core.outcome import Outcome
from analyzer.core.ranks import RANK_POINTS, RANKS
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.present.text import percent
from tests.clirun import one_line_error, run

EIGHT = Shoe.decks(8)
MAIN = [get_bet(name) for name in ("player", "banker")]
SIDE = [
    RANK_BETS[name] for name in ("player", "banker", "tie", "dragon7", "panda8", "player-pair", "banker-pair")
]
#: The shoe position of each dealt card of the card engine's shown cards.
SHOWN_NAMES = {1: "p1", 2: "b1", 3: "p2", 4: "b2"}


def test_jacobson_the_first_card_of_an_eight_deck_shoe() -> None:
    """Jacobson, "Baccarat: The Known Card": knowing the first card of an 8-deck shoe (5%
    commission) is worth 6.765% per coup; the Player's second card is worth as much."""
    first = known_cards(EIGHT, (1,))
    assert percent(first.value.edge_per_coup, 3) == "6.765%"
    assert first.value == known_cards(EIGHT, (3,)).value
    assert first.value.fraction_bet == 1  # some bet is positive whatever the card
    best = {state.known[0][1]: state.best for state in first.states}
    assert [rank for rank, bet in best.items() if bet == "player"] == ["6", "7", "8", "9"]


def test_a_sort_of_six_to_nine_is_worth_the_first_card_itself() -> None:
    """Whether the first card is 6-9 decides the same bets as the card: the same value."""
    assert known_cards(EIGHT, (1,), sort=parse_sort("6,7,8,9")).value == known_cards(EIGHT, (1,)).value
    assert percent(known_cards(EIGHT, (1,), sort=parse_sort("7,8,9")).value.edge_per_coup, 4) == "6.4782%"


# -- the plain path: six cards dealt one by one ------------------------------------------------


def _play(rules: Rules, cards: Sequence[int]) -> Outcome:
    """The coup of six dealt ranks, card by card (positions 1-4, then third cards in order)."""
    points = [RANK_POINTS[r] for r in cards]
    player, banker = (points[0] + points[2]) % 10, (points[1] + points[3]) % 10
    pairs = (cards[0] == cards[2], cards[1] == cards[3])
    if rules.is_natural(player) or rules.is_natural(banker):
        return Outcome(player, banker, player, banker, 2, 2, True, *pairs)
    following = iter(points[4:])
    player_cards, banker_cards, player_final, banker_final, third = 2, 2, player, banker, None
    if rules.player_draws_on(player):
        third = next(following)
        player_cards, player_final = 3, (player + third) % 10
    if rules.banker_draws_on(banker, third):
        banker_cards, banker_final = 3, (banker + next(following)) % 10
    return Outcome(player, banker, player_final, banker_final, player_cards, banker_cards, False, *pairs)


def _plain(
    shoe: Shoe, rules: Rules, bets: Sequence[Bet], positions: Sequence[int]
) -> dict[tuple[str, ...], tuple[Fraction, list[Fraction]]]:
    """Each state's probability and expectations: every sequence of six ranks, weighed by the
    cards of each rank left as it is dealt."""
    assert shoe.counts is not None
    left = list(shoe.counts)
    sums: dict[tuple[str, ...], list[Fraction]] = {}
    weights: dict[tuple[str, ...], int] = {}
    present = [r for r in range(13) if left[r]]
    for cards in product(present, repeat=6):
        weight = 1
        for r in cards:
            weight *= left[r]
            left[r] -= 1
        for r in cards:
            left[r] += 1
        if weight <= 0:
            continue
        outcome = _play(rules, cards)
        state = tuple(str(RANKS[cards[p - 1]]) for p in positions)
        row = sums.setdefault(state, [Fraction(0)] * len(bets))
        for i, bet in enumerate(bets):
            net = bet.settle(outcome)
            row[i] += weight * (net or 0)
        weights[state] = weights.get(state, 0) + weight
    total = sum(weights.values())
    return {state: (Fraction(w, total), [s / w for s in sums[state]]) for state, w in weights.items()}


def _states(result: KnownResult) -> dict[tuple[str, ...], tuple[Fraction, list[Fraction]]]:
    return {tuple(card for _, card in s.known): (s.probability, list(s.expectations)) for s in result.states}


@st.composite
def small_shoes(draw: st.DrawFn) -> Shoe:
    """Shoes of 6 to 11 cards of at most 6 ranks (so that 6**6 sequences are dealt)."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=2, max_size=6, unique=True))
    counts = [0] * 13
    for r in ranks:
        counts[r] = draw(st.integers(1, 3))
    while sum(counts) < 6:
        counts[ranks[0]] += 1
    return Shoe.from_counts(counts)


position_sets = st.lists(st.integers(1, 6), min_size=1, max_size=3, unique=True)


@settings(max_examples=12, deadline=None)
@given(small_shoes(), position_sets, st.sampled_from([STANDARD, BANCO_4_DRAWS_ON_0_1]))
def test_every_state_against_six_cards_dealt_one_by_one(
    shoe: Shoe, positions: list[int], rules: Rules
) -> None:
    """Positions 5 and 6 included: a card the coup never uses still leaves the shoe."""
    got = _states(known_cards(shoe, positions, SIDE, rules))
    assert got == _plain(shoe, rules, SIDE, sorted(positions))


@pytest.mark.parametrize("positions", [(5,), (6,), (4, 5), (5, 6)])
def test_positions_five_and_six_against_six_cards_on_a_fixed_shoe(positions: tuple[int, ...]) -> None:
    shoe = Shoe.from_counts([2, 1, 0, 1, 0, 2, 0, 0, 1, 2, 0, 0, 1])
    assert _states(known_cards(shoe, positions, SIDE)) == _plain(shoe, STANDARD, SIDE, positions)


# -- the card engine and the whole shoe ---------------------------------------------------------

shoes = (
    st.lists(st.integers(0, 10), min_size=13, max_size=13).filter(lambda c: sum(c) >= 8).map(Shoe.from_counts)
)


@settings(max_examples=5, deadline=None)
@given(shoes, st.lists(st.integers(1, 4), min_size=1, max_size=2, unique=True))
def test_states_of_the_deal_against_the_card_engine(shoe: Shoe, positions: list[int]) -> None:
    """A state of positions 1-4 is the card engine's shown cards (`--shown p1=9,b1=K`)."""
    result = known_cards(shoe, positions, SIDE)
    for state in result.states[:3]:
        shown = parse_shown(",".join(f"{SHOWN_NAMES[p]}={card}" for p, card in state.known))
        expected = [a.expectation for a in shown_analyses(SIDE, shoe, shown)]
        assert list(state.expectations) == expected, state.known


@settings(max_examples=10, deadline=None)
@given(shoes, position_sets)
def test_the_states_weighted_by_their_probabilities_are_the_whole_shoe(
    shoe: Shoe, positions: list[int]
) -> None:
    """Sum over the states of probability times expectation = analyze_bets on the shoe, and
    the value is the probability-weighted best positive expectation."""
    result = (
        known_cards(shoe, positions, SIDE)
        if len(positions) < 3
        else known_cards(shoe, positions, SIDE, sort=parse_sort("5,6,7,8,9"))
    )
    assert sum(s.probability for s in result.states) == 1
    mixture = [sum(s.probability * s.expectations[i] for s in result.states) for i in range(len(SIDE))]
    assert mixture == [a.expectation for a in analyze_bets(SIDE, shoe, STANDARD)]
    gained = sum(s.probability * max(0, *s.expectations) for s in result.states)
    assert result.value.edge_per_coup == gained
    assert result.value.fraction_bet == sum(s.probability for s in result.states if s.best is not None)


@settings(max_examples=10, deadline=None)
@given(shoes, position_sets, st.sets(st.sampled_from(list(RANKS)), min_size=1, max_size=12))
def test_a_sort_is_the_sum_of_its_rank_states(shoe: Shoe, positions: list[int], members: set[str]) -> None:
    positions = positions[:2]
    sort = parse_sort(",".join(members))
    by_rank = known_cards(shoe, positions, SIDE)
    classes: dict[tuple[str, ...], list[Fraction]] = {}
    for state in by_rank.states:
        key = tuple("sorted" if card in members else "other" for _, card in state.known)
        row = classes.setdefault(key, [Fraction(0)] * (len(SIDE) + 1))
        row[0] += state.probability
        for i, e in enumerate(state.expectations):
            row[i + 1] += state.probability * e
    expected = {key: (row[0], [x / row[0] for x in row[1:]]) for key, row in classes.items()}
    assert _states(known_cards(shoe, positions, SIDE, sort=sort)) == expected


def test_the_infinite_deck() -> None:
    result = known_cards(Shoe.infinite(), (1, 2), MAIN)
    assert all(s.probability == Fraction(1, 169) for s in result.states)
    mixture = [sum(s.probability * s.expectations[i] for s in result.states) for i in range(2)]
    assert mixture == [a.expectation for a in analyze_bets(MAIN, Shoe.infinite(), STANDARD)]


def test_a_large_shoe_takes_python_integers() -> None:
    """Beyond the int64 bound (60 decks), the same path with exact Python integers."""
    shoe = Shoe.decks(60)
    result = known_cards(shoe, (2,), MAIN)
    mixture = [sum(s.probability * s.expectations[i] for s in result.states) for i in range(2)]
    assert mixture == [a.expectation for a in analyze_bets(MAIN, shoe, STANDARD)]


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [("0", "'0'"), ("7", "'7'"), ("1,1", "position 1 is given twice"), ("", "give shoe positions 1-6"),
     ("x", "'x'")],
)  # fmt: skip
def test_bad_positions(text: str, words: str) -> None:
    with pytest.raises(AnalyzerError, match=words) as error:
        parse_positions(text)
    assert "\n" not in str(error.value) and error.value.argument == "positions"


@pytest.mark.parametrize(
    ("text", "words"),
    [("", "give point values"), ("0,1,2,3,4,5,6,7,8,9", "holds every card"), ("X", "'X'"),
     ("A,2,3,4,5,6,7,8,9,10,J,Q,K", "holds every card"), ("11", "'11'"), ("9,9", "9 is given twice"),
     ("6, K, k", "K is given twice"), ("red,H,Red", "Red is given twice")],
)  # fmt: skip
def test_bad_sorts(text: str, words: str) -> None:
    with pytest.raises(AnalyzerError, match=words) as error:
        parse_sort(text)
    assert error.value.argument == "sort"


@pytest.mark.parametrize(
    ("argv", "words"),
    [(["--sort", "9,9"], "--sort '9,9': 9 is given twice; give each value once"),
     (["--sort", "6,7,8,9,6"], "6 is given twice"),
     (["--sort", "red"], "--sort red: a suit or colour tells the rank-level bets player, banker nothing"),
     (["--sort", "H", "--bets", "tie,dragon7", "--decks", "6"], "tie, dragon7 nothing on this shoe (6 decks"),
     (["--sort", "black", "--decks", "2"], "matter only to card-level bets (perfect-pairs-v1,")],
)  # fmt: skip
def test_the_command_refuses_a_sort_that_says_nothing(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    """A value given twice; a suit or colour for rank-level bets alone where every rank has
    the same share of its cards in the class (every state would be the whole shoe)."""
    assert words in one_line_error(capsys, "known", "--positions", "1", *argv)


def test_a_suit_sort_is_taken_where_it_tells_something(capsys: pytest.CaptureFixture[str]) -> None:
    """With a card-level bet (valued, once: about 10 s), with a rank in the class, or on a
    shoe of uneven suits (the refusal's check passes; valuing them takes as long)."""
    from analyzer.analyses.known import _check_suited_informs

    argv = ["--sort", "H", "--bets", "player,lucky-nines"]
    code, out, err = run(capsys, "known", "--positions", "1", "--decks", "1", *argv)
    assert code == 0 and err == "" and "sorted" in out
    player = [get_bet("player")]
    _check_suited_informs(Shoe.decks(1), parse_sort("H,9"), player)
    _check_suited_informs(Shoe.decks(1).remove("9H"), parse_sort("H"), player)
    with pytest.raises(AnalyzerError, match="tells the rank-level bets player nothing"):
        _check_suited_informs(Shoe.decks(1), parse_sort("H"), player)


def test_bad_arguments() -> None:
    with pytest.raises(AnalyzerError, match="read suits"):
        known_result(Shoe.from_counts([4] * 13), bets=["perfect-pairs-v1"])
    with pytest.raises(AnalyzerError, match="states of ranks"):
        known_cards(EIGHT, (1, 2, 3, 4, 5))
    with pytest.raises(AnalyzerError, match="none given"):
        known_cards(EIGHT, (1,), [])
    with pytest.raises(AnalyzerError, match="bets is the Bet"):
        known_cards(EIGHT, (1,), get_bet("tie"))  # type: ignore[arg-type]
    with pytest.raises(AnalyzerError, match="give one or the other"):
        known_result(EIGHT, sort="6,7,8,9", best_sort=True)


# -- the best sort ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shoe", "positions"), [(Shoe.decks(1), (1, 2)), (Shoe.decks(2).remove("9,9,8,K"), (2, 5))]
)
def test_every_split_of_the_best_sort_is_its_sort(shoe: Shoe, positions: tuple[int, ...]) -> None:
    """The search's values equal the sort's own path, split by split (a sample), and the best
    is the highest."""
    result = best_sorts(shoe, positions, SIDE[:3])
    assert result.best_sorts is not None and len(result.best_sorts) == 511
    values = [entry.value.edge_per_coup for entry in result.best_sorts]
    assert values == sorted(values, reverse=True) and result.value == result.best_sorts[0].value
    for entry in result.best_sorts[::50]:
        sort = parse_sort(",".join(entry.sorted))
        assert known_cards(shoe, positions, SIDE[:3], sort=sort).value == entry.value, entry.sorted


def test_the_best_sort_of_the_ranks() -> None:
    result = best_sorts(Shoe.decks(1).remove("K,K,Q"), (1,), MAIN, by_ranks=True)
    assert result.best_sorts is not None and len(result.best_sorts) == 4095
    for entry in result.best_sorts[::400]:
        sort = parse_sort(",".join(entry.sorted))
        assert known_cards(result.shoe, (1,), MAIN, sort=sort).value == entry.value, entry.sorted


def _report_rows(section: str, first: str) -> list[list[str]]:
    """The cells of every table row of `section` whose first cell is `first`, in order."""
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines()]
    return [row for row in rows if row[0] == first]


def test_the_report_states_the_figures(report_texts: dict[str, str]) -> None:
    """reports/known-cards.md: Jacobson's first card, the sorts, the best sort of four cards;
    the cards at positions 5 and 6 of 8 decks and a row of 6 decks, each computed here exactly."""
    text = report_texts["known-cards.md"]
    assert "| 1 (Player's first)  |          6.7647% |" in text
    assert "| first four cards, 6-9 |        18.0774% |" in text
    assert "| first 4        | 4,5,6,7,8,9 |        24.5466% |" in text
    eight, six = text.split("## 6 decks")
    fifth, sixth = (known_cards(EIGHT, (p,), MAIN).value.edge_per_coup for p in (5, 6))
    assert fifth == Fraction(8760050563676, 97624966318425)
    assert sixth == Fraction(2960507902606, 32541655439475)
    for name, value in (("5 (the next card)", fifth), ("6 (the one after)", sixth)):
        percents, exacts = _report_rows(eight, name)
        assert percents[1] == percent(value) and Fraction(exacts[1]) == value, name
    values = [
        known_cards(Shoe.decks(6), (5,), [get_bet(name) for name in bets]).value
        for bets in (("player", "banker"), ("player", "banker", "tie"), [b.name for b in SIDE])
    ]
    percents, exacts = _report_rows(six, "5 (the next card)")
    assert percents[1:] == [*(percent(v.edge_per_coup) for v in values), percent(values[0].fraction_bet)]
    assert Fraction(exacts[1]) == values[0].edge_per_coup == Fraction(10531469343, 117370353485)


# -- card-level bets ------------------------------------------------------------------------------


@pytest.mark.parametrize(("positions", "sort"), [((1,), None), ((3,), None), ((4,), "6,7,8,9")])
def test_card_level_bets_mix_into_the_whole_shoe(positions: tuple[int, ...], sort: str | None) -> None:
    """The card engine's shown cards per state, weighted by the states' probabilities, give
    the card-level bets' values on the whole shoe by their own paths (factored forms, plans)."""
    shoe = Shoe.decks(1).remove("9H,KS,5D")
    bets = [get_bet(name) for name in ("perfect-pairs-v1", "lucky-nines", "tie-max-low")] + MAIN
    result = known_cards(shoe, positions, bets, sort=None if sort is None else parse_sort(sort))
    mixture = [sum(s.probability * s.expectations[i] for s in result.states) for i in range(len(bets))]
    assert mixture == [a.expectation for a in analyze_bets(bets, shoe, STANDARD)]


@pytest.mark.parametrize("positions", [(5,), (1, 2)])
def test_card_level_bets_take_one_of_the_first_four_positions(positions: tuple[int, ...]) -> None:
    with pytest.raises(AnalyzerError, match="valued at 1 of positions 1-4"):
        known_cards(EIGHT, positions, [get_bet("perfect-pairs-v1")])


def test_a_sort_of_suits_or_colours() -> None:
    """A colour sort on a shoe whose suits are lopsided: for rank-level bets each card type's
    expectation is its rank's (the tensor's), weighted by the type's count; with a card-level
    bet the classes mix into its value on the whole shoe."""
    types = [(t * 7) % 3 for t in range(52)]
    shoe = Shoe.from_cards(types)
    result = known_cards(shoe, (2,), SIDE[:3], sort=parse_sort("red"))
    by_rank = {s.known[0][1]: s for s in known_cards(shoe, (2,), SIDE[:3]).states}
    red = {t for t in range(52) if t // 13 in (1, 2)}
    for label, members in (("sorted", red), ("other", set(range(52)) - red)):
        weight = sum(types[t] for t in members)
        state = next(s for s in result.states if s.known == ((2, label),))
        assert state.probability == Fraction(weight, shoe.size)
        for i in range(3):
            expected = sum(types[t] * by_rank[str(RANKS[t % 13])].expectations[i] for t in members) / weight
            assert state.expectations[i] == expected
    bets = [get_bet("perfect-pairs-v1"), *MAIN]
    mixed = known_cards(shoe, (1,), bets, sort=parse_sort("H,9"))
    mixture = [sum(s.probability * s.expectations[i] for s in mixed.states) for i in range(3)]
    assert mixture == [a.expectation for a in analyze_bets(bets, shoe, STANDARD)]


@pytest.mark.parametrize("positions", [(1,), (5,), (2, 6)])
def test_known_values_of_several_bet_sets_from_one_tensor_are_known_cards_values(
    positions: tuple[int, ...],
) -> None:
    """Each set's value from the union's tensor is known_cards' for that set alone, a
    card-level bet among them too; more than five states of ranks are refused."""
    shoe = Shoe.decks(2)
    sets = [MAIN, [*MAIN, get_bet("tie")], SIDE, [get_bet("tie"), get_bet("dragon7")]]
    if positions == (1,):
        sets.append([*MAIN, get_bet("perfect-pairs-v1")])
    values = known_values(shoe, positions, sets)
    assert values == [known_cards(shoe, positions, bets).value for bets in sets]
    assert len(set(values)) > 1  # the sets are valued apart, not one value for all
    with pytest.raises(AnalyzerError, match="states"):
        known_values(shoe, (1, 2, 3, 4, 5), [MAIN])
    for empty in ([], [MAIN, []]):
        with pytest.raises(AnalyzerError, match="none given"):
            known_values(shoe, positions, empty)
