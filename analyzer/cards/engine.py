"""Exact card-level enumeration: bets that look at individual cards (ranks, suits, colours).

Independent of the rank-level coup classes of `analyzer.ranks.enumeration`: the rules' coup graph
is unrolled into every *rank* sequence of a coup (about 1.7 million under the standard
tableau; only the 13**4 first-four deals when the chosen bets look no further). A bet's
lines are tried on each row with what the ranks decide; only rows where a suit or
colour condition could change the settlement are refined, by enumerating the suits of
just the positions those conditions read, and the hands' colours through signed
colour-restricted terms. Suits are enumerated by class, not one by one: where suits are
read by name (the 9 of diamonds) a position takes each named suit and the others as one
class, and where they are compared (a perfect pair) the last position of each group compared
takes an earlier one's suit or the others as one class (`analyzer.cards.suitclasses`).

Weights are exact integers in the ordered 6-card-sequence convention of
`analyzer.ranks.enumeration`: a row of k dealt cards, each a *class* of card types (one rank,
with all its suits, one colour or one suit), counts the ordered ways to deal distinct
physical cards of those classes, times (N-k)_(6-k) for the cards that would follow.
Classes at one position and another are nested or disjoint, so that count is
prod_i (n(C_i) - #{earlier j: C_j within C_i}) with the smaller classes placed first.
For the infinite deck every card type has probability 1/52 and the total is 52**6.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise
from math import perm
from typing import TYPE_CHECKING, Any

import numpy as np

from analyzer.cards.budget import plan_cuts
from analyzer.cards.conditions import Condition, bet_conditions, condition_holds, needs_coup, needs_ranks
from analyzer.cards.factored import factored_weights
from analyzer.cards.suitclasses import ANY_SUIT, refine_rows
from analyzer.core.bets import FIELDS, Bet, can_price
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.fields import CardRows
from analyzer.core.outcome import CARDS_PER_COUP, Outcome
from analyzer.core.ranks import RANK_POINTS
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import SUITS_REMEDY, Shoe
from analyzer.core.suits import TYPES

if TYPE_CHECKING:  # the rows load with the first plan: a factored bet never needs them
    from analyzer.cards.rows import CoupRows

__all__ = [
    "ANY_SUIT",
    "COLOUR_INDICATOR",
    "COLOUR_RESTRICTIONS",
    "CardPlan",
    "PlanPart",
    "any_in_row",
    "card_line_weights",
    "card_plan",
    "cell_sign",
    "check_suits_known",
    "colour_terms",
    "outcome_weights",
    "plan_in_parts",
    "plan_line_weights",
    "plan_rows",
    "rows_kind",
    "settle_cards",
    "shoe_types",
]

#: A hand restricted to red or black suits (suit masks: bit s for suit s, S, H, D, C).
_RED, _BLACK = 0b0110, 0b1001
COLOUR_RESTRICTIONS = (ANY_SUIT, _RED, _BLACK)
#: Colour indicators (red, black, mixed) of a hand as signed sums of restriction terms (any, red, black).
COLOUR_INDICATOR = np.array([[0, 1, 0], [0, 0, 1], [1, -1, -1]], dtype=np.int64)
_POPCOUNT = np.array([bin(m).count("1") for m in range(16)], dtype=np.int64)
_CHUNK = 1 << 18  # rows settled at a time
_BITS = 1 << np.arange(6)  # a position's bit in a mask of positions
_PARENTS = 1 << 15  # rows refined by suit at a time (each into up to hundreds of rows)
#: Colour cells of a plan part: none (-1, -1), or every (Player, Banker) pair of colour codes.
_NO_COLOURS = ((-1, -1),)
_COLOUR_CELLS = tuple((cp, cb) for cp in range(3) for cb in range(3))


def any_in_row(values: np.ndarray) -> np.ndarray:
    """(R,) whether each row of a few columns holds a nonzero value (column by column:
    several times faster than `any` along rows of six)."""
    found: np.ndarray = values[:, 0] != 0
    for column in values.T[1:]:
        found |= column != 0
    return found


@dataclass(frozen=True)
class _ShoeFactors:
    """Per-shoe tables: class sizes by (rank, suit mask), tails by cards dealt, total."""

    sizes: np.ndarray  # (13, 16): cards of rank r with a suit in mask m (-1: suits unknown)
    tails: np.ndarray  # (7,)
    total: int
    infinite: bool
    dtype: Any


def _factors(shoe: Shoe, by_value: bool) -> _ShoeFactors:
    """Class sizes of `shoe`; `by_value`: row 9 counts every ten-valued rank."""
    if shoe.counts is None:
        sizes = np.tile(_POPCOUNT, (13, 1))
        if by_value:
            sizes[9] *= 4
        tails = np.array([52 ** (CARDS_PER_COUP - k) for k in range(7)], dtype=np.int64)
        return _ShoeFactors(sizes, tails, 52**CARDS_PER_COUP, True, np.int64)
    n = shoe.size
    dtype: Any = np.int64 if n**CARDS_PER_COUP < 2**62 else object
    sizes = np.full((13, 16), -1, dtype=np.int64)
    if shoe.types is not None:
        types = np.array(shoe.types, dtype=np.int64).reshape(4, 13)
        for mask in range(16):
            sizes[:, mask] = types[[s for s in range(4) if mask >> s & 1]].sum(axis=0)
    sizes[:, ANY_SUIT] = shoe.counts
    if by_value:
        sizes[9] = sizes[9:].sum(axis=0)
    tails = np.array([perm(n - k, CARDS_PER_COUP - k) for k in range(7)], dtype=dtype)
    return _ShoeFactors(sizes.astype(dtype), tails, perm(n, CARDS_PER_COUP), False, dtype)


_LAST: list[tuple[CoupRows, tuple[int, ...], np.ndarray]] = []  # the last rows and shoe weighed


def _rank_weights(rows: CoupRows, f: _ShoeFactors) -> np.ndarray:
    """Weight of every row with every position at rank level (all suits); the last result
    is kept, as several bets are usually priced on one shoe."""
    key = (*map(int, f.sizes[:, ANY_SUIT]), *map(int, f.tails), int(f.infinite))
    if _LAST and _LAST[0][0] is rows and _LAST[0][1] == key:
        return _LAST[0][2]
    weights = _weigh_ranks(rows, f)
    _LAST[:] = [(rows, key, weights)]
    return weights


def _weigh_ranks(rows: CoupRows, f: _ShoeFactors) -> np.ndarray:
    ranks = rows.ranks
    weight = np.ones(len(ranks), dtype=f.dtype)
    dealt = np.zeros(len(ranks), dtype=np.int64)
    for i in range(6):
        present = ranks[:, i] >= 0
        size = f.sizes[ranks[:, i].astype(np.int64), ANY_SUIT]
        factor = size if f.infinite else size - rows.repeats[:, i]
        weight = weight * np.where(present, factor, 1)
        dealt += present
    return np.asarray(weight * f.tails[dealt])


def class_offsets(ranks: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """(R, 6) how many cards of position i's class (rank, suit mask) the positions placed
    before it have used: the positions whose class lies within i's, smaller classes first
    (ties in dealing order). Position i then has size(class) - offset cards to choose from."""
    present = ranks >= 0
    cols = [i for i in range(6) if present[:, i].any()]
    offsets = np.zeros(ranks.shape, dtype=np.int8)
    for i in cols:
        for j in cols:
            if j <= i:
                continue
            # rows where positions i and j hold one rank (few): which class lies within the
            # other, the smaller placed first (ties: the earlier position, i)
            at = np.flatnonzero((ranks[:, j] == ranks[:, i]) & present[:, i])
            mi, mj = masks[at, i], masks[at, j]
            bi, bj = _POPCOUNT[mi], _POPCOUNT[mj]
            offsets[at, i] += (bj < bi) & ((mj & ~mi) == 0)  # j placed first, within i
            offsets[at, j] += (bi <= bj) & ((mi & ~mj) == 0)  # i placed first, within j
    return offsets


def _class_weights(ranks: np.ndarray, masks: np.ndarray, f: _ShoeFactors) -> np.ndarray:
    """Weight of rows whose position i is the class (rank, suit mask) (nested or disjoint)."""
    present = ranks >= 0
    offsets = None if f.infinite else class_offsets(ranks, masks)
    weight = np.ones(len(ranks), dtype=f.dtype)
    for i in (i for i in range(6) if present[:, i].any()):
        size = f.sizes[np.maximum(ranks[:, i], 0).astype(np.int64), masks[:, i]]
        if offsets is not None:
            size = size - offsets[:, i]
        weight = weight * np.where(present[:, i], size, 1)
    return np.asarray(weight * f.tails[present.sum(axis=1)])


# -- settling rows --------------------------------------------------------------------------


def _settle(
    lines: list[list[Condition]], rows: CardRows, outcomes: Sequence[Outcome]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each row's first matching line (-1: none) on its ranks, and which rows need
    suits or colours resolved before they can be settled: (line, refine, need, linked,
    named, colour), `need` (R, 6) the positions whose suits matter, `linked` (R, 6) for
    each position the mask of the positions its suit is compared with (itself included;
    0: none), `named` (R, 6) the suits read by name at each position (a mask), `colour`
    whether the hands' colours matter.

    A line whose rank-level conditions fail on a row cannot match it whatever the suits,
    so only the lines that could still settle a row add to what it needs."""
    count = len(rows.ranks)
    line_of = np.full(count, -1, dtype=np.int64)
    open_rows = np.ones(count, dtype=bool)
    refine = np.zeros(count, dtype=bool)
    need = np.zeros(rows.ranks.shape, dtype=bool)
    linked = np.zeros(rows.ranks.shape, dtype=np.int8)
    named = np.zeros(rows.ranks.shape, dtype=np.int8)
    colour = np.zeros(count, dtype=bool)
    for index, conds in enumerate(lines):
        ok = open_rows.copy()
        cards = [c.card for c in conds if c.card is not None and c.card.needs_suits]
        for cond in conds:
            if cond.card not in cards:
                ok &= condition_holds(cond, rows, outcomes)
        if cards:
            at = np.flatnonzero(ok)
            # A suit condition that reads no suit of a row (no pair for a perfect pair, no 9
            # for a count of 9D) is decided by its ranks: where it fails, the line cannot
            # match whatever the suits and colours; where every one holds, it matches.
            sample = CardRows(
                rows.ranks[at], np.zeros((len(at), 6), dtype=np.int8), rows.colours[at], rows.outcome[at]
            )
            possible = np.ones(len(at), dtype=bool)
            line_colour = any(card.colour for card in cards)
            settled = np.full(len(at), not line_colour)
            line_need = np.zeros((len(at), rows.ranks.shape[1]), dtype=bool)
            line_linked = np.zeros(line_need.shape, dtype=np.int8)
            line_named = np.zeros(line_need.shape, dtype=np.int8)
            for cond in conds:
                card = cond.card
                if card is None or card.suits is None:
                    continue
                reads = card.suits(sample.ranks)
                decided = ~any_in_row(reads)
                holds = condition_holds(cond, sample, outcomes)
                possible &= ~decided | holds
                settled &= decided & holds
                line_need |= reads
                if card.suit_names is None:  # compared: each position with the others read
                    line_linked |= np.where(reads, (reads @ _BITS)[:, None], 0).astype(np.int8)
                else:
                    bits = sum(1 << suit for suit in card.suit_names)
                    line_named |= np.where(reads, bits, 0).astype(np.int8)
            free = settled & ~refine[at]  # matched on any suits, unrefined
            line_of[at[free]] = index
            open_rows[at[free]] = False
            rest = possible & ~free
            at = at[rest]
            refine[at] = True
            need[at] |= line_need[rest]
            linked[at] |= line_linked[rest]
            named[at] |= line_named[rest]
            colour[at] |= line_colour
        else:
            line_of[ok & ~refine] = index
            open_rows &= ~ok
    dealt = rows.ranks >= 0
    return line_of, refine, need & dealt, np.where(dealt, linked, 0).astype(np.int8), named, colour


def _exact_sums(keys: np.ndarray, weights: np.ndarray, size: int) -> list[int]:
    """Exact sums of integer `weights` grouped by `keys` in 0..size-1 (Python ints)."""
    if len(keys) == 0:
        return [0] * size
    if weights.dtype != object and np.abs(weights).max() < 2**57 and len(keys) < 2**20:
        high, low = np.divmod(weights, 2**26)
        hs = np.bincount(keys, weights=high.astype(np.float64), minlength=size)
        ls = np.bincount(keys, weights=low.astype(np.float64), minlength=size)
        return [
            int(h) * 2**26 + int(lo) for h, lo in zip(np.rint(hs).tolist(), np.rint(ls).tolist(), strict=True)
        ]
    order = np.argsort(keys, kind="stable")
    sums = [0] * size
    for k, w in zip(keys[order].tolist(), weights[order].tolist(), strict=True):
        sums[k] += int(w)
    return sums


def settle_cards(
    bet: Bet, ranks: np.ndarray, suits: np.ndarray, outcomes: Sequence[Outcome], which: np.ndarray
) -> np.ndarray:
    """The line of `bet` each dealt coup settles on (`bet.no_line`: none matched), from its cards:
    `ranks` and `suits` (C, 6) in dealing order (-1 where no card is dealt; suits may be -1
    throughout for a bet that reads none), `outcomes` the coups' distinct rank-level
    outcomes and `which` (C,) each coup's index among them."""
    dealt = ranks >= 0
    red = (suits == 1) | (suits == 2)  # hearts, diamonds
    colours = np.zeros((len(ranks), 2), dtype=np.int8)
    for hand in (0, 1):
        cols = slice(hand, None, 2)
        all_red = (red[:, cols] | ~dealt[:, cols]).all(axis=1)
        all_black = (~red[:, cols] | ~dealt[:, cols]).all(axis=1)
        colours[:, hand] = np.where(all_red, 0, np.where(all_black, 1, 2))
    rows = CardRows(ranks, suits, colours, which)
    line = np.full(len(ranks), bet.no_line, dtype=np.int64)
    unsettled = np.ones(len(ranks), dtype=bool)
    for index, conds in enumerate(bet_conditions(bet)):
        ok = unsettled.copy()
        for cond in conds:
            if cond.card is None:
                read = FIELDS[cond.name][0]
                ok &= np.array([read(o) in cond.allowed for o in outcomes], dtype=bool)[which]
            else:
                ok &= condition_holds(cond, rows, outcomes)
        line[ok] = index
        unsettled &= ~ok
    return line


#: Cards shown at dealt positions: position index -> (rank index, suit index or None).
Shown = dict[int, tuple[int, int | None]]


@dataclass(frozen=True, eq=False)
class PlanPart:
    """Refined rows sharing a colour treatment: `parent` indexes the plan's refined rows;
    `lines[c]` is each row's settled line in colour cell `cells[c]` ((-1, -1): no colours)."""

    parent: np.ndarray
    ranks: np.ndarray
    masks: np.ndarray
    cells: tuple[tuple[int, int], ...]
    lines: tuple[np.ndarray, ...]


@dataclass(frozen=True, eq=False)
class CardPlan:
    """What settles a bet on every row, independent of the shoe: `settled` the line of each
    chosen row (slots - 1: none; -2: refined), `refined` the chosen rows refined by suit."""

    rows: CoupRows
    chosen: np.ndarray
    settled: np.ndarray
    refined: np.ndarray
    parts: tuple[PlanPart, ...]
    slots: int


def rows_kind(bet: Bet, shown: Shown) -> tuple[bool, bool]:
    """Which rows `plan_rows` gives, without building them: (whole coups, by point value)."""
    tens = any(RANK_POINTS[rank] == 0 for rank, _ in shown.values())
    coup = needs_coup(bet) or any(position >= 4 for position in shown)
    return coup, coup and not (needs_ranks(bet_conditions(bet)) or tens)


def plan_rows(bet: Bet, rules: Rules, shown: Shown) -> CoupRows:
    """The rows a plan of `bet` settles: every rank sequence of the coup (by point value when
    no condition or shown card tells the ten-valued ranks apart), or of the first four cards."""
    from analyzer.cards.rows import coup_rows, first_four_rows

    coup, by_value = rows_kind(bet, shown)
    return coup_rows(rules, by_value) if coup else first_four_rows()


def _reads_colour(cond: Condition) -> bool:
    return cond.card is not None and cond.card.colour


def _settle_cells(
    lines: list[list[Condition]],
    rows: CardRows,
    outcomes: Sequence[Outcome],
    cells: tuple[tuple[int, int], ...],
    slots: int,
) -> tuple[np.ndarray, ...]:
    """The line each of `rows` (suits resolved) settles on in each colour cell (Player's and
    Banker's colour codes; (-1, -1): no colours), `slots - 1` for none; the conditions that
    read no colours are evaluated once for every cell."""
    fixed = [[condition_holds(c, rows, outcomes) for c in conds if not _reads_colour(c)] for conds in lines]
    settled = []
    for cell in cells:
        colours = np.tile(np.array(cell, dtype=np.int8), (len(rows.ranks), 1))
        coloured = CardRows(rows.ranks, rows.suits, colours, rows.outcome)
        line = np.full(len(rows.ranks), slots - 1, dtype=np.int32)
        open_rows = np.ones(len(rows.ranks), dtype=bool)
        for index, (conds, held) in enumerate(zip(lines, fixed, strict=True)):
            ok = open_rows.copy()
            for hit in held:
                ok &= hit
            for cond in conds:
                if _reads_colour(cond):
                    ok &= condition_holds(cond, coloured, outcomes)
            line[ok] = index
            open_rows &= ~ok
        settled.append(line)
    return tuple(settled)


def _build_plan(bet: Bet, rules: Rules, shown: Shown, alive: np.ndarray | None) -> CardPlan:
    """The plan of `bet` given `shown` cards; `alive` (per row) skips rows a shoe cannot deal."""
    plan, parts = plan_in_parts(bet, rules, shown, alive)
    return replace(plan, parts=tuple(parts))


def plan_in_parts(
    bet: Bet, rules: Rules, shown: Shown, alive: np.ndarray | None = None, rows: CoupRows | None = None
) -> tuple[CardPlan, Iterator[PlanPart]]:
    """The plan of `bet` without its parts, and its parts one at a time (the refined rows
    of `_PARENTS` rows at a time): a caller that reads each part once holds one part's
    memory, not the plan's. `rows` (default `plan_rows`) must tell apart what it reads."""
    lines = bet_conditions(bet)
    rows = plan_rows(bet, rules, shown) if rows is None else rows
    selected = np.ones(len(rows.ranks), dtype=bool) if alive is None else alive.copy()
    for position, (rank, _) in shown.items():
        symbol = min(rank, 9) if rows.by_value else rank
        selected &= rows.ranks[:, position] == symbol
    chosen = np.flatnonzero(selected)
    if len(chosen) == len(rows.ranks):  # every row: no copies
        row_ranks, row_outcome = rows.ranks, rows.outcome
    else:
        row_ranks, row_outcome = rows.ranks[chosen], rows.outcome[chosen]
    settles = []
    for at in range(0, max(len(chosen), 1), _CHUNK):  # each row settles alone: in chunks, less memory
        ranks = row_ranks[at : at + _CHUNK]
        unresolved = np.full(ranks.shape, -1, dtype=np.int8)
        colours = np.full((len(ranks), 2), -1, dtype=np.int8)
        chunk = CardRows(ranks, unresolved, colours, row_outcome[at : at + _CHUNK])
        settles.append(_settle(lines, chunk, rows.outcomes))
    joined = (np.concatenate(arrays) for arrays in zip(*settles, strict=True))
    line_of, refine, need, linked, named, colour = joined
    del settles
    suited = {position: suit for position, (_, suit) in shown.items() if suit is not None}
    if suited:  # every suit its own class, so that the shown suits can be picked
        refine[:] = True
        need[:, list(suited)] = True
        named[:] = 15
    slots = len(bet.lines) + 1
    settled = np.where(refine, -2, np.where(line_of < 0, slots - 1, line_of)).astype(np.int32)
    refined = np.flatnonzero(refine)
    del line_of, refine
    reads = (need[refined], linked[refined], named[refined], colour[refined])
    refined_outcome = row_outcome[refined]
    del need, linked, named, colour  # the settling's largest work arrays
    cuts = plan_cuts(bet, row_ranks[refined], reads, _PARENTS)  # the work, said before it starts

    def parts() -> Iterator[PlanPart]:
        for at, stop in pairwise(cuts):
            cut = slice(at, stop)
            expanded = refine_rows(row_ranks[refined[cut]], *(array[cut] for array in reads))
            ranks, suits, masks, parent, coloured = expanded
            parent += at
            if suited:
                match = np.ones(len(ranks), dtype=bool)
                for position, suit in suited.items():
                    match &= suits[:, position] == suit
                ranks, suits, masks = ranks[match], suits[match], masks[match]
                parent, coloured = parent[match], coloured[match]
            outcome = refined_outcome[parent]
            for part, cells in ((~coloured, _NO_COLOURS), (coloured, _COLOUR_CELLS)):
                if part.any():
                    no_colours = np.zeros((0, 2), dtype=np.int8)
                    part_rows = CardRows(ranks[part], suits[part], no_colours, outcome[part])
                    settled_lines = _settle_cells(lines, part_rows, rows.outcomes, cells, slots)
                    yield PlanPart(parent[part], part_rows.ranks, masks[part], cells, settled_lines)

    return CardPlan(rows, chosen, settled, refined, (), slots), parts()


@lru_cache(maxsize=16)
def card_plan(bet: Bet, rules: Rules, shown: tuple[tuple[int, tuple[int, int | None]], ...]) -> CardPlan:
    """The plan of `bet` under `rules` given `shown` cards (position, (rank, suit)) pairs,
    for every shoe (cached)."""
    return _build_plan(bet, rules, dict(shown), None)


_PLAYER = np.array([p % 2 == 0 for p in range(6)])  # the Player's positions


Term = tuple[int, int]  # a colour term: the Player's and Banker's restrictions (indices)


def colour_terms(ranks: np.ndarray, masks: np.ndarray) -> Iterator[tuple[Term, np.ndarray, np.ndarray]]:
    """The colour-restricted terms of rows (`ranks`, suit `masks`): for each term, the rows'
    masks restricted to it and which rows it leaves a dealt position without a suit (their
    term weighs 0). A colour cell weighs the sum of the terms with their `cell_sign`."""
    for tp, rp in enumerate(COLOUR_RESTRICTIONS):
        for tb, rb in enumerate(COLOUR_RESTRICTIONS):
            restricted = masks & np.where(_PLAYER, rp, rb)[None, :]
            empty = any_in_row((restricted == 0) & (ranks >= 0))
            yield (tp, tb), np.where(restricted == 0, ANY_SUIT, restricted), empty


def cell_sign(cell: tuple[int, int], term: Term) -> int:
    """The sign of colour term `term` in colour cell `cell` (Player's, Banker's codes)."""
    return int(COLOUR_INDICATOR[cell[0], term[0]] * COLOUR_INDICATOR[cell[1], term[1]])


def _part_sums(part: PlanPart, alive: np.ndarray, f: _ShoeFactors, slots: int) -> list[int]:
    """Line weights of a part's live rows; a colour cell's weight is a signed sum of
    colour-restricted terms (hands restricted to any, red or black suits)."""
    ranks, masks = part.ranks[alive], part.masks[alive].astype(np.int64)
    sums = [0] * slots
    if part.cells[0][0] < 0:
        weight = _class_weights(ranks, masks, f)
        return _exact_sums(part.lines[0][alive], weight, slots)
    terms = {
        term: np.where(empty, 0, _class_weights(ranks, restricted, f))
        for term, restricted, empty in colour_terms(ranks, masks)
    }
    for cell, lines in zip(part.cells, part.lines, strict=True):
        w = np.zeros(len(ranks), dtype=f.dtype)
        for term, weight in terms.items():
            sign = cell_sign(cell, term)
            if sign:
                w = w + sign * weight
        extra = _exact_sums(lines[alive], np.asarray(w), slots)
        sums = [a + b for a, b in zip(sums, extra, strict=True)]
    return sums


def shoe_types(shoe: Shoe) -> tuple[int, ...]:
    """The 52 card-type counts of a finite shoe; a shoe of rank counts alone (suits not
    known) as all spades, which only bets that read no suits may price."""
    if shoe.types is not None:
        return shoe.types
    assert shoe.counts is not None
    return (*shoe.counts, *[0] * (TYPES - len(shoe.counts)))


def check_suits_known(bet: Bet, shoe: Shoe, shown: Shown) -> None:
    """Refuse a bet or shown card that reads suits on a shoe whose suits are not known."""
    if not can_price(bet, shoe) or (
        shoe.types is None and not shoe.is_infinite and any(suit is not None for _, suit in shown.values())
    ):
        raise AnalyzerError(
            f"bet {quoted(bet.name)} or a shown card depends on suits but the shoe's suits are not known "
            f"({shoe}): {SUITS_REMEDY}"
        )


def card_line_weights(
    bet: Bet, shoe: Shoe, rules: Rules = STANDARD, shown: Shown | None = None
) -> tuple[list[int], int]:
    """Weight of each line of `bet` (last item: no line matched, the stake is lost) in
    ordered 6-card sequences (52**6 scale for the infinite deck), and the total.

    With `shown`, only the coups where those cards lie at those dealt positions count, and
    the total is their weight (a position not dealt in a coup does not show the card).
    A bet of a factored shape (`analyzer.cards.factored`) on a finite shoe is valued from the
    cards it reads; other plans are cached per bet, and a small shoe (under 52 cards) gets
    one of its own, built only on the rank sequences it can deal.
    """
    shown = shown or {}
    check_suits_known(bet, shoe, shown)
    if not shown and shoe.counts is not None:
        found = factored_weights(bet, shoe_types(shoe), rules)
        if found is not None:
            return found, perm(shoe.size, CARDS_PER_COUP)
    return plan_line_weights(bet, shoe, rules, shown)


def plan_line_weights(
    bet: Bet, shoe: Shoe, rules: Rules = STANDARD, shown: Shown | None = None
) -> tuple[list[int], int]:
    """`card_line_weights` from the bet's plan, whatever its shape (the reference the
    factored forms are checked against); the caller has checked the bet and shoe."""
    shown = shown or {}
    if shoe.counts is not None and shoe.size < 52:
        rows = plan_rows(bet, rules, shown)
        plan = _build_plan(bet, rules, shown, _rank_weights(rows, _factors(shoe, rows.by_value)) != 0)
    else:
        plan = card_plan(bet, rules, tuple(sorted(shown.items())))
    f = _factors(shoe, plan.rows.by_value)
    weights = _rank_weights(plan.rows, f)
    if len(plan.chosen) < len(weights):
        weights = weights[plan.chosen]
    keep = plan.settled >= 0
    sums = _exact_sums(plan.settled[keep], weights[keep], plan.slots)
    live = weights[plan.refined] != 0
    for part in plan.parts:
        alive = live[part.parent]
        if alive.any():
            extra = _part_sums(part, alive, f, plan.slots)
            sums = [a + b for a, b in zip(sums, extra, strict=True)]
    return sums, (sum(sums) if shown else f.total)


def outcome_weights(shoe: Shoe, rules: Rules = STANDARD) -> tuple[dict[Outcome, int], int]:
    """The rank-level outcome distribution summed from the card-level rows (weights and
    total in this module's convention), to check both engines against each other."""
    from analyzer.cards.rows import coup_rows

    rows = coup_rows(rules)
    f = _factors(shoe, False)
    sums = _exact_sums(rows.outcome, _rank_weights(rows, f), len(rows.outcomes))
    return {o: w for o, w in zip(rows.outcomes, sums, strict=True) if w}, f.total
