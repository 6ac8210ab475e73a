"""Known cards and edge sorting: the exact value of knowing, before betting, the cards (or
only the class of the cards) at some shoe positions (`baccarat known`).

Positions are the order cards leave the shoe (`analyzer.analyses.known_tensor`): 1 Player's
first, 2 Banker's first, 3 Player's second, 4 Banker's second, 5 the next card (Player's
third if the Player draws, else Banker's third if the Banker draws, else unused), 6 the one
after. By exchangeability the known cards are a sample of the shoe taken without
replacement; given them, the coup is the rest of the shoe with those positions fixed.

An *information state* is what is known: a rank at each known position, or, with a sort,
whether each known card is in the sorted class (as an edge sorter knows it). For every state:
its probability, every bet's exact expectation, and the best action: the bet of highest
expectation, or none when no bet's is positive (an advantage player sits out). The value:
the edge per coup (sitting out counted as 0), the fraction of coups bet, and the edge per bet
made, all exact, positive when the player wins.

>>> from analyzer import Shoe
>>> result = known_cards(Shoe.decks(8), positions=(1,))
>>> f"{float(result.value.edge_per_coup):.3%}"  # Jacobson, "Baccarat: The Known Card"
'6.765%'
>>> sort = parse_sort("6,7,8,9")
>>> f"{float(known_cards(Shoe.decks(8), (1,), sort=sort).value.edge_per_coup):.4%}"  # as good as the card
'6.7647%'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from typing import TYPE_CHECKING, Any

from analyzer.core.checks import check_type
from analyzer.core.conventions import check_arguments
from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.parsing import list_items, read_int
from analyzer.core.ranks import RANK_POINTS, RANKS, parse_rank
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.core.suits import COLOURS, SUITS

if TYPE_CHECKING:
    import numpy as np

    from analyzer.analyses.choice import BetChoice
    from analyzer.core.bets import Bet

__all__ = [
    "DEFAULT_BETS",
    "MAX_STATES",
    "POSITION_NAMES",
    "KnownResult",
    "KnownState",
    "KnownValue",
    "Sort",
    "SortValue",
    "best_sorts",
    "check_positions",
    "checked",
    "known_bets",
    "known_cards",
    "known_result",
    "known_values",
    "parse_positions",
    "parse_sort",
    "sort_of",
    "value_of",
]

#: What each shoe position is in the coup.
POSITION_NAMES = {
    1: "Player's first card",
    2: "Banker's first card",
    3: "Player's second card",
    4: "Banker's second card",
    5: "the fifth card (Player's third if the Player draws, else Banker's third if it draws)",
    6: "the sixth card (Banker's third when both hands draw)",
}
#: The bets an advantage player makes, valued when none are named.
DEFAULT_BETS = ("player", "banker")
#: The most information states listed card by card (four positions known rank by rank).
MAX_STATES = 13**4
#: The labels of a sorted card's class and of the rest.
SORTED, OTHER = "sorted", "other"
_POSITIONS_ALLOWED = "give shoe positions 1-6, each once, e.g. 1 or 1,3"
_SORT_ALLOWED = "point values 0-9, ranks A, 2-9, 10, J, Q, K, suits S, H, D, C or colours red, black"


@dataclass(frozen=True)
class Sort:
    """A class of cards an edge sorter tells apart from the rest: `ranks` (indexes into
    RANKS) are in it; `members` as given (point values, ranks, suits or colours). A sort
    naming a suit or a colour is of card types: `types` (indexes of `analyzer.core.suits`),
    and `ranks` the ranks whose every suit is in it; else `types` is None."""

    ranks: frozenset[int]
    members: tuple[str, ...]
    types: frozenset[int] | None = None

    def __str__(self) -> str:
        return ",".join(self.members)


#: A sort's suits and colours, as the card types they hold.
_SUITED = {
    **{suit.value: frozenset(s * 13 + r for r in range(13)) for s, suit in enumerate(SUITS)},
    **{
        colour: frozenset(SUITS.index(suit) * 13 + r for suit in suits for r in range(13))
        for colour, suits in COLOURS.items()
    },
}


def _sort_item(item: str) -> frozenset[int]:
    """The card types of one item of a sort."""
    text = item.strip().upper()
    if text.lower() in _SUITED or text in _SUITED:
        return _SUITED.get(text, _SUITED.get(text.lower(), frozenset()))
    if text.isdigit() and len(text) == 1:
        ranks = frozenset(r for r, points in enumerate(RANK_POINTS) if points == int(text))
    else:
        try:
            ranks = frozenset({RANKS.index(parse_rank(text))})
        except AnalyzerError:
            raise AnalyzerError(f"{mention('sort')} {quoted(item)}: use {_SORT_ALLOWED}") from None
    return frozenset(s * 13 + r for r in ranks for s in range(len(SUITS)))


def parse_sort(text: str) -> Sort:
    """The sort of a comma-separated list: point values (0 is 10, J, Q and K), ranks, suits
    (S, H, D, C) or colours (red, black).

    >>> sorted(parse_sort("6,7,8,9").ranks), sorted(parse_sort("0").ranks), str(parse_sort("K, 9"))
    ([5, 6, 7, 8], [9, 10, 11, 12], 'K,9')
    >>> red = parse_sort("red")
    >>> len(red.types), red.ranks
    (26, frozenset())
    """
    items = list_items(text, mention("sort"), allowed=f"give {_SORT_ALLOWED}, comma-separated, none empty")
    types: set[int] = set()
    suited = False
    for item in items:
        types |= _sort_item(item)
        suited = suited or item.strip().upper() in _SUITED or item.strip().lower() in _SUITED
    members = tuple(
        item.strip() if item.strip().lower() in COLOURS else item.strip().upper() for item in items
    )
    for i, member in enumerate(members):
        if member.lower() in (m.lower() for m in members[:i]):
            raise AnalyzerError(
                f"{mention('sort')} {quoted(text)}: {member} is given twice; give each value once"
            )
    ranks = frozenset(r for r in range(13) if all(s * 13 + r in types for s in range(len(SUITS))))
    if suited:
        if len(types) == 13 * len(SUITS):
            raise AnalyzerError(
                f"{mention('sort')} {quoted(text)}: holds every card, so it says nothing; "
                "leave out a suit or a value"
            )
        return Sort(ranks, members, frozenset(types))
    return sort_of(ranks, members, text)


def sort_of(ranks: frozenset[int], members: tuple[str, ...], given: str = "") -> Sort:
    """A Sort of `ranks`, refused when it holds every rank (a sort then says nothing)."""
    if len(ranks) == len(RANKS):
        raise AnalyzerError(
            f"{mention('sort')} {quoted(given or ','.join(members))}: holds every card, so it says "
            "nothing; leave out at least one value"
        )
    return Sort(ranks, members)


def parse_positions(text: str) -> tuple[int, ...]:
    """Known shoe positions from "1" or "1,3": integers 1-6, each once (ascending)."""
    items = list_items(text, mention("positions"), allowed=_POSITIONS_ALLOWED)
    found = []
    for item in items:
        position = read_int(item, f"{mention('positions')} {quoted(item)}:", 10**18)
        if position is None or not 1 <= position <= 6:
            raise AnalyzerError(f"{mention('positions')} {quoted(item)}: {_POSITIONS_ALLOWED}")
        found.append(position)
    return check_positions(found)


def check_positions(positions: Sequence[int]) -> tuple[int, ...]:
    """`positions` sorted, refused unless each is 1-6 and given once."""
    allowed = "a tuple of positions 1-6, e.g. (1, 3)"
    check_type("known_cards()", "positions", positions, (tuple, list), allowed)
    for position in positions:
        if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= 6:
            raise AnalyzerError(f"{mention('positions')} {quoted(position)}: {_POSITIONS_ALLOWED}")
        if positions.count(position) > 1:
            raise AnalyzerError(f"{mention('positions')}: position {position} is given twice; give each once")
    if not positions:
        raise AnalyzerError(f"{mention('positions')}: none given; {_POSITIONS_ALLOWED}")
    return tuple(sorted(positions))


@dataclass(frozen=True)
class KnownValue:
    """What the information is worth, per unit bet: `edge_per_coup` over every coup (sitting
    out counted as 0), `fraction_bet` of coups bet, `edge_per_bet` made (None: never bet)."""

    edge_per_coup: Fraction
    fraction_bet: Fraction
    edge_per_bet: Fraction | None


@dataclass(frozen=True)
class KnownState:
    """One information state: what is known at each position (a rank, or SORTED / OTHER),
    its probability, each bet's expectation (in the result's bet order) and the best bet
    (None: sit out)."""

    known: tuple[tuple[int, str], ...]
    probability: Fraction
    expectations: tuple[Fraction, ...]
    best: str | None


@dataclass(frozen=True)
class SortValue:
    """A sort of `best_sorts`: the class sorted (point values or ranks) and its value."""

    sorted: tuple[str, ...]
    value: KnownValue


@dataclass(frozen=True)
class KnownResult:
    """`baccarat known`: the value of knowing the cards at `positions` (with `sort`: only
    their class) before betting, on `shoe` under `rules`, for `bets`; `best_sorts`, when
    searched, every split ranked, the best first (`sort`, `value` and `states` are the best's)."""

    shoe: Shoe
    rules: Rules
    bets: tuple[Bet, ...]
    positions: tuple[int, ...]
    sort: Sort | None
    value: KnownValue
    states: tuple[KnownState, ...]
    best_sorts: tuple[SortValue, ...] | None = None
    by_ranks: bool = False


def checked(
    where: str, shoe: Shoe, positions: Sequence[int], bets: Sequence[Bet] | None, rules: Rules
) -> tuple[tuple[int, ...], tuple[Bet, ...]]:
    """The positions (sorted) and bets (default Player and Banker) of `where`, checked: a
    shoe, rules, positions 1-6 once each, one or more bets."""
    check_arguments(where, shoe=shoe, rules=rules)
    positions = check_positions(positions)
    if bets is not None:
        check_arguments(where, bets=bets)
    chosen = _default_bets() if bets is None else tuple(bets)
    if not chosen:
        raise AnalyzerError(f"{mention('bets')}: none given; give one or more bets, e.g. player,banker")
    return positions, chosen


def _default_bets() -> tuple[Bet, ...]:
    from analyzer.core.catalogue import get_bet

    return tuple(get_bet(name) for name in DEFAULT_BETS)


def value_of(
    nums: Sequence[Sequence[int]], scales: Sequence[int], weights: Sequence[int], total: int
) -> tuple[KnownValue, list[int | None]]:
    """The value of states with these numerators (per bet, per state), scales, weights, and
    each state's best bet (an index into the bets, None: sit out)."""
    common = math.lcm(*scales)
    gained, bet_weight = 0, 0
    best: list[int | None] = []
    for state, weight in enumerate(weights):
        if not weight:
            best.append(None)
            continue
        scaled = [int(num[state]) * (common // scale) for num, scale in zip(nums, scales, strict=True)]
        top = max(range(len(scaled)), key=scaled.__getitem__)
        if scaled[top] > 0:
            gained += scaled[top]
            bet_weight += int(weight)
            best.append(top)
        else:
            best.append(None)
    edge = Fraction(gained, common * total)
    fraction = Fraction(bet_weight, total)
    return KnownValue(edge, fraction, edge / fraction if fraction else None), best


def _classes(tensor: np.ndarray, sort: Sort, axes: int) -> np.ndarray:
    """`tensor` over ranks (13 per axis) summed into the sort's classes (SORTED, OTHER)."""
    import numpy as np

    member = np.zeros((13, 2), dtype=np.int64)
    for rank in range(13):
        member[rank, 0 if rank in sort.ranks else 1] = 1
    out = tensor
    for _ in range(axes):  # each contraction moves the summed axis to the end
        out = np.tensordot(out, member.astype(tensor.dtype), axes=([0], [0]))
    return out


def _check_suited_informs(shoe: Shoe, sort: Sort, bets: Sequence[Bet]) -> None:
    """Refuse a sort of suits or colours for rank-level bets alone on a shoe where the class
    holds the same share of every rank's cards: it then tells them nothing (every state is
    the whole shoe). On a shoe of uneven suits (`--cards`) it tells something of the ranks."""
    from analyzer.core.catalogue import CARD_BETS

    assert sort.types is not None
    types = [1] * 52 if shoe.counts is None else shoe.types
    if types is None:  # suits not known: refused where the classes are valued
        return
    shares = set()
    for rank in range(13):
        of_rank = [s * 13 + rank for s in range(len(SUITS))]
        held = sum(types[t] for t in of_rank)
        if held:
            shares.add(Fraction(sum(types[t] for t in of_rank if t in sort.types), held))
    if len(shares) <= 1:
        suited = ", ".join(name for name, bet in CARD_BETS.items() if bet.needs_suits)
        names = ", ".join(bet.name for bet in bets)
        raise AnalyzerError(
            f"{mention('sort')} {sort}: a suit or colour tells the rank-level bets {names} nothing on "
            f"this shoe ({shoe}: every rank has the same share of its cards in the class); suits and "
            f"colours matter only to card-level bets ({suited}): add one, or sort point values or ranks"
        )


def _check_states(positions: Sequence[int]) -> None:
    """AnalyzerError if knowing `positions` card by card is more than MAX_STATES states."""
    if 13 ** len(positions) > MAX_STATES:
        raise AnalyzerError(
            f"{mention('positions')} {','.join(map(str, positions))}: {13 ** len(positions):,} states "
            f"of ranks; know at most four positions card by card, or give a {mention('sort')}"
        )


def known_values(
    shoe: Shoe, positions: Sequence[int], bet_sets: Sequence[Sequence[Bet]], rules: Rules = STANDARD
) -> list[KnownValue]:
    """`known_cards(shoe, positions, bets, rules).value` for each `bets` of `bet_sets`, from one
    tensor of every bet they name (a bet's numerators do not depend on the bets asked with it)."""
    from analyzer.analyses.known_shown import numerators

    sets = [checked("known_values()", shoe, positions, bets, rules)[1] for bets in bet_sets]
    named = {bet.name: bet for bets in sets for bet in bets}
    positions, union = checked("known_values()", shoe, positions, tuple(named.values()), rules)
    _check_states(positions)
    tensor = numerators(shoe, rules, union, positions)
    nums = {bet.name: array.reshape(-1).tolist() for bet, array in zip(union, tensor.nums, strict=True)}
    scales = {bet.name: scale for bet, scale in zip(union, tensor.scales, strict=True)}
    weights = tensor.weights.reshape(-1).tolist()
    return [
        value_of([nums[b.name] for b in bets], [scales[b.name] for b in bets], weights, tensor.total)[0]
        for bets in sets
    ]


def known_cards(
    shoe: Shoe,
    positions: Sequence[int],
    bets: Sequence[Bet] | None = None,
    rules: Rules = STANDARD,
    sort: Sort | None = None,
) -> KnownResult:
    """The exact value of knowing the cards at `positions` (1-6) before betting, or with
    `sort` only whether each is in the sorted class; `bets` default Player and Banker
    (card-level bets at one of positions 1-4: `analyzer.analyses.known_shown`)."""
    from analyzer.analyses.known_shown import numerators

    positions, chosen = checked("known_cards()", shoe, positions, bets, rules)
    if sort is not None:
        check_type("known_cards()", "sort", sort, Sort, "a Sort, e.g. parse_sort('6,7,8,9')")
    else:
        _check_states(positions)
    if sort is not None and sort.types is not None and not any(bet.card_level for bet in chosen):
        _check_suited_informs(shoe, sort, chosen)
    if sort is not None and sort.types is not None:  # a sort of suits or colours
        from analyzer.analyses.known_shown import suited_classes

        tensor = suited_classes(shoe, rules, chosen, positions, sort.types)
        arrays: tuple[Any, ...] = (*tensor.nums, tensor.weights)
        labels: Sequence[str] = (SORTED, OTHER)
    else:
        tensor = numerators(shoe, rules, chosen, positions)
        arrays = (*tensor.nums, tensor.weights)
        labels = [str(rank) for rank in RANKS]
        if sort is not None:
            arrays = tuple(_classes(array, sort, len(positions)) for array in arrays)
            labels = (SORTED, OTHER)
    flat = [array.reshape(-1).tolist() for array in arrays]
    nums, weights = flat[:-1], flat[-1]
    value, best = value_of(nums, tensor.scales, weights, tensor.total)
    states = []
    for index, known in enumerate(product(labels, repeat=len(positions))):
        weight = int(weights[index])
        if not weight:
            continue
        expectations = tuple(
            Fraction(int(num[index]), scale * weight) for num, scale in zip(nums, tensor.scales, strict=True)
        )
        top = best[index]
        states.append(
            KnownState(
                tuple(zip(positions, known, strict=True)),
                Fraction(weight, tensor.total),
                expectations,
                None if top is None else chosen[top].name,
            )
        )
    return KnownResult(shoe, rules, chosen, positions, sort, value, tuple(states))


def best_sorts(
    shoe: Shoe,
    positions: Sequence[int],
    bets: Sequence[Bet] | None = None,
    rules: Rules = STANDARD,
    by_ranks: bool = False,
) -> KnownResult:
    """Every split of the point values (with `by_ranks`, of the ranks) into a sorted class
    and the rest, valued and ranked (highest edge per coup first, then the fewest coups bet);
    the result's sort, value and states are the best split's."""
    from analyzer.analyses.known_sorts import members, split_sums

    positions, chosen = checked("best_sorts()", shoe, positions, bets, rules)
    sums = split_sums(shoe, rules, chosen, positions, by_ranks)
    values = []
    for gained, weight in zip(sums.gained, sums.bet_weight, strict=True):
        edge, fraction = Fraction(gained, sums.common * sums.total), Fraction(weight, sums.total)
        values.append(KnownValue(edge, fraction, edge / fraction if fraction else None))
    ranked = sorted(range(len(values)), key=lambda i: (-values[i].edge_per_coup, values[i].fraction_bet, i))
    sorts = tuple(SortValue(members(sums.found[i], by_ranks), values[i]) for i in ranked)
    best = sums.found[ranked[0]]
    ranks = best if by_ranks else frozenset(r for r, points in enumerate(RANK_POINTS) if points in best)
    result = known_cards(shoe, positions, chosen, rules, sort=sort_of(ranks, sorts[0].sorted))
    return replace(result, best_sorts=sorts, by_ranks=by_ranks)


def known_bets(shoe: Shoe, rules: Rules | None, bets: Sequence[str] | None, table: str | Any) -> BetChoice:
    """The bets and rules a known-cards command values (`analyzer.analyses.choice.choose_bets`;
    default Player and Banker)."""
    from analyzer.analyses.choice import choose_bets

    default = _default_bets() if bets is None and table is None else None
    return choose_bets(table, bets, None, rules, shoe, default=default)


def known_result(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Sequence[str] | None = None,
    table: str | Any = None,
    positions: str | Sequence[int] = "1",
    sort: str | Sort | None = None,
    best_sort: bool = False,
    ranks: bool = False,
) -> KnownResult:
    """`baccarat known`: the bets chosen (`analyzer.analyses.choice.choose_bets`; default
    Player and Banker), positions as "1,3" or a sequence, a sort as "6,7,8,9" or a Sort;
    `best_sort` searches every split of the point values (with `ranks`, of the 13 ranks)."""
    chosen = known_bets(shoe, rules, bets, table)
    where = parse_positions(positions) if isinstance(positions, str) else check_positions(positions)
    if isinstance(sort, str):
        sort = parse_sort(sort)
    if best_sort:
        if sort is not None:
            raise AnalyzerError(
                f"{mention('sort')} {sort}: the best sort searches every sort; give one or the other"
            )
        return best_sorts(shoe, where, chosen.bets, chosen.rules, by_ranks=ranks)
    if ranks:
        raise AnalyzerError(
            f"{mention('ranks')} splits the ranks in the search of the best sort: give it with "
            f"{mention('best_sort')}"
        )
    return known_cards(shoe, where, chosen.bets, chosen.rules, sort)
