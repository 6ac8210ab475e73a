"""The coup compiler: a tableau compiled once into coup classes, integer coefficients on
monomials of the shoe's counts, and the monomials' values for a shoe.

A coup's probability depends only on the multiset of point values it uses (and, for pair
bets, on whether each hand's first two ten-valued cards share a rank). So the rules are
compiled once into *coup classes*: integer coefficients on a basis of monomials, each a
product of falling factorials of the shoe's counts. A shoe is then evaluated as a
polynomial in its counts, with integer arithmetic throughout and one Fraction at the end.

Weights follow the ordered 6-card-sequence convention: a coup that uses k cards is
counted once for every ordering of the 6 - k cards that would follow it, so the weights
of a finite shoe of N cards sum to N(N-1)...(N-5). For the infinite deck the weights sum
to 13**6 and each rank sequence of k cards has weight 13**(6-k).

The basis: a value-count vector m (how many cards of each point value 0..9, k = sum m
cards) and a pair kind z for the ten-valued cards:
- z = 0: (c0)_m0, the ten-valued cards in any ranks;
- z = 1: S2 * (c0-2)_(m0-2), one hand's first two cards are ten-valued of the same rank,
  where S2 = sum over ten-valued ranks r of (n_r)_2;
- z = 2: Q * (c0-4)_(m0-4), both hands' first two cards are same-rank ten-valued pairs,
  where Q = sum over ranks r, s of (n_r)_2 (n_s - 2[r=s])_2;
times prod over values v = 1..9 of (c_v)_(m_v), times (N-k)_(6-k). Pairs of values 1-9 need
no refinement (one rank each). Outcomes without a ten-valued pair take their weight by
inclusion-exclusion, hence signed coefficients.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import perm
from typing import TYPE_CHECKING, Any

from analyzer.core.outcome import CARDS_PER_COUP, OUTCOME_RADIX, Outcome, pack_codes, unpack_outcomes
from analyzer.core.ranks import RANK_POINTS, ZERO_RANKS
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe

if TYPE_CHECKING:  # numpy loads only where arrays are built: a cold `odds` never needs it
    import numpy as np

__all__ = ["CoupClasses", "basis_values", "compile_fresh", "count_factors", "shoe_factors"]

_CONT_CODES = 10 * 10 * 2 * 2 * 2  # codes of (player_total .. natural)


@dataclass(frozen=True, eq=False)
class CoupClasses:
    """The rules compiled into integer coefficients on monomials of the shoe's counts.

    - `basis`: (B, 10) value counts m of each monomial; `basis_zero_kind`: (B,) z;
      `basis_cards`: (B,) k.
    - `outcomes`: the distinct outcomes; entries (`entry_outcome`, `entry_basis`,
      `entry_coef`) are a sparse outcome x basis matrix sorted by outcome.
    """

    rules: Rules
    outcomes: tuple[Outcome, ...]
    basis: np.ndarray
    basis_zero_kind: np.ndarray
    basis_cards: np.ndarray
    entry_outcome: np.ndarray
    entry_basis: np.ndarray
    entry_coef: np.ndarray

    def outcome_matrix(self) -> np.ndarray:
        """Dense (outcomes, basis) int64 coefficient matrix."""
        import numpy as np

        dense = np.zeros((len(self.outcomes), len(self.basis)), dtype=np.int64)
        np.add.at(dense, (self.entry_outcome, self.entry_basis), self.entry_coef)
        return dense


# Inclusion-exclusion terms (player_pair, banker_pair, z, coefficient) by whether each hand's
# first two cards are ten-valued (a pair only if their ranks match); None: the pair flag is
# decided by point values alone.
_PAIR_TERMS: dict[tuple[bool, bool], list[tuple[bool | None, bool | None, int, int]]] = {
    (False, False): [(None, None, 0, 1)],
    (True, False): [(True, None, 1, 1), (False, None, 0, 1), (False, None, 1, -1)],
    (False, True): [(None, True, 1, 1), (None, False, 0, 1), (None, False, 1, -1)],
    (True, True): [
        (True, True, 2, 1),
        (True, False, 1, 1),
        (True, False, 2, -1),
        (False, True, 1, 1),
        (False, True, 2, -1),
        (False, False, 0, 1),
        (False, False, 1, -2),
        (False, False, 2, 1),
    ],
}
_Z = 3  # pair kinds


def compile_fresh(rules: Rules = STANDARD) -> CoupClasses:
    """Compile `rules` into coup classes now (no stored file, no cache).

    Walks every deal of point values (one per unordered pair of hands, with its number of
    orderings) and every continuation the coup graph allows from its totals.
    """
    import numpy as np

    from analyzer.ranks.graph import continuations

    pow7 = np.array([7**v for v in range(9, -1, -1)] + [0], dtype=np.int64)  # index -1: no card
    conts = continuations(rules)
    # Deals (P1, P2, B1, B2) with P1 <= P2 and B1 <= B2; `orders` counts their orderings.
    hands = [(a, b) for a in range(10) for b in range(a, 10)]
    deal = np.array([ph + bh for ph in hands for bh in hands], dtype=np.int64)
    p1, p2, b1, b2 = deal.T
    orders = (1 + (p1 != p2)) * (1 + (b1 != b2))
    player0, banker0 = (p1 + p2) % 10, (b1 + b2) % 10
    state = player0 * 10 + banker0
    deal_code = pow7[p1] + pow7[p2] + pow7[b1] + pow7[b2]
    # Continuations, one block per state: third cards and the settled outcome's fields.
    blocks = [conts[divmod(s, 10)] for s in range(100)]
    sizes = np.array([len(block) for block in blocks])
    starts = np.cumsum(sizes) - sizes
    table = np.array(
        [
            (
                -1 if c.player_third is None else c.player_third,
                -1 if c.banker_third is None else c.banker_third,
                c.player_total,
                c.banker_total,
                c.natural,
            )
            for block in blocks
            for c in block
        ],
        dtype=np.int64,
    ).reshape(-1, 5)
    third_p, third_b, final_p, final_b, natural = table.T
    cont_code = pack_codes([final_p, final_b, third_p >= 0, third_b >= 0, natural], OUTCOME_RADIX[2:7])
    cont_m = pow7[third_p] + pow7[third_b]
    # One row per (deal, continuation).
    per_deal = sizes[state]
    row_deal = np.repeat(np.arange(len(deal)), per_deal)
    row_cont = np.repeat(starts[state] - (np.cumsum(per_deal) - per_deal), per_deal) + np.arange(
        per_deal.sum()
    )
    m_code = deal_code[row_deal] + cont_m[row_cont]
    outcome_head = (state[row_deal] * _CONT_CODES + cont_code[row_cont]) * 4
    player_same, banker_same = (p1 == p2)[row_deal], (b1 == b2)[row_deal]
    player_tens, banker_tens = player_same & (p1[row_deal] == 0), banker_same & (b1[row_deal] == 0)
    keys, coefs = [], []
    for (pz, bz), terms in _PAIR_TERMS.items():
        rows = np.flatnonzero((player_tens == pz) & (banker_tens == bz))
        for pp, bp, z, coef in terms:
            pp_col = player_same[rows] if pp is None else pp
            bp_col = banker_same[rows] if bp is None else bp
            outcome = outcome_head[rows] + 2 * pp_col + bp_col
            keys.append((outcome * 7**10 + m_code[rows]) * _Z + z)
            coefs.append(coef * orders[row_deal[rows]])
    unique, inverse = np.unique(np.concatenate(keys), return_inverse=True)
    # Coefficients are small integers, so float64 bincount sums them exactly.
    summed = np.rint(np.bincount(inverse, weights=np.concatenate(coefs))).astype(np.int64)
    keep = summed != 0
    unique, summed = unique[keep], summed[keep]
    outcome_code, basis_code = np.divmod(unique, 7**10 * _Z)
    outcome_ids, entry_outcome = np.unique(outcome_code, return_inverse=True)
    basis_ids, entry_basis = np.unique(basis_code, return_inverse=True)
    m_ids, z_ids = np.divmod(basis_ids, _Z)
    basis = np.zeros((len(basis_ids), 10), dtype=np.int64)
    for v in range(9, -1, -1):
        m_ids, basis[:, v] = np.divmod(m_ids, 7)
    return CoupClasses(
        rules=rules,
        outcomes=tuple(unpack_outcomes(outcome_ids)),
        basis=basis,
        basis_zero_kind=z_ids,
        basis_cards=basis.sum(axis=1),
        entry_outcome=entry_outcome,
        entry_basis=entry_basis,
        entry_coef=summed,
    )


def _int_dtype(total: int) -> Any:
    """int64 when every partial sum of the evaluation fits, else exact Python ints."""
    import numpy as np

    return np.int64 if 4 * total < 2**62 else object


def shoe_factors(shoe: Shoe) -> tuple[list[list[int]], list[list[int]], list[int], int]:
    """Falling-factorial tables of a shoe: FF[v][j], Z[z][j], T[k] and the total weight.

    FF[v][j] = (c_v)_j for values v = 1..9 (row 0 unused), Z[z][j] the ten-valued factor of
    pair kind z with j ten-valued cards, T[k] = (N-k)_(6-k); infinite deck: the 13**6-scaled
    limits.
    """
    js = range(CARDS_PER_COUP + 1)
    if shoe.counts is None:
        ff = [[1] * len(js) for _ in range(10)]
        zero = [
            [4**j for j in js],
            [4 ** (j - 1) if j >= 2 else 0 for j in js],
            [4 ** (j - 2) if j >= 4 else 0 for j in js],
        ]
        tail = [13 ** (CARDS_PER_COUP - k) for k in js]
        return ff, zero, tail, 13**CARDS_PER_COUP
    return count_factors(shoe.counts, shoe.size)


Factors = tuple[list[list[int]], list[list[int]], list[int], int]


def count_factors(counts: Sequence[int], size: int) -> Factors:
    """`shoe_factors` of the rank counts `counts` (any number of cards, even under six),
    with the tails T[k] = (size-k)_(6-k) of a shoe of `size` cards: the weights, in that
    shoe's convention, of the coups that use only these cards."""
    c = [sum(counts[r] for r in range(13) if RANK_POINTS[r] == v) for v in range(10)]
    tens = [counts[i] for i in ZERO_RANKS]
    s2 = sum(perm(t, 2) for t in tens)
    q = s2 * s2 - sum(perm(t, 2) ** 2 for t in tens) + sum(perm(t, 4) for t in tens)
    js = range(CARDS_PER_COUP + 1)
    ff = [[perm(c[v], j) for j in js] for v in range(10)]
    zero = [
        [perm(c[0], j) for j in js],
        [s2 * perm(c[0] - 2, j - 2) if j >= 2 and c[0] >= 2 else 0 for j in js],
        [q * perm(c[0] - 4, j - 4) if j >= 4 and c[0] >= 4 else 0 for j in js],
    ]
    tail = [perm(size - k, CARDS_PER_COUP - k) for k in js]
    return ff, zero, tail, perm(size, CARDS_PER_COUP)


def basis_values(
    classes: CoupClasses, shoe: Shoe, within: Sequence[int] | None = None
) -> tuple[np.ndarray, int]:
    """Each basis monomial evaluated on `shoe` (exact integers), and the total weight; with
    `within` (rank counts of some of its cards), on the coups that use only those cards."""
    import numpy as np

    ff, zero, tail, total = shoe_factors(shoe) if within is None else count_factors(within, shoe.size)
    dtype = _int_dtype(total)
    m = classes.basis
    values = np.array(zero, dtype=dtype)[classes.basis_zero_kind, m[:, 0]]
    ff_arr = np.array(ff, dtype=dtype)
    for v in range(1, 10):
        values = values * ff_arr[v, m[:, v]]
    values = values * np.array(tail, dtype=dtype)[classes.basis_cards]
    return values, total
