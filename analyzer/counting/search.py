"""The exact search for the count of highest betting correlation.

Over the ranks (equal weights, as `betting_correlation`), the correlation of tags t with
effects e is N / sqrt(Q - S^2 / n) / sqrt(V), with S the sum of the tags, Q the sum of their
squares, N = sum t_r (e_r - mean e) and V the effects' own spread (a constant). For each
pair (S, Q) the best tags are those of the largest N, a sum of one term per rank: a dynamic
programme over the ranks keeps, for every (S, Q) reached, the tags of the largest N, which
visits every tag vector of the level once in effect (7^13 at level 3) in a few thousand
states. The best count is then the best ratio over the states, S = 0 for a balanced count.
The effects are scaled to integers first (their common denominator), so every comparison is
exact: no float decides which count is best.

The ten-valued ranks are searched either tied (one tag for 10, J, Q and K, as a counter reads
them when their effects agree) or split (a tag for each rank).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product

from analyzer.core.errors import AnalyzerError

__all__ = ["LEVELS", "TENS", "Search", "brute_force_count", "exact_best_count"]

#: The levels searched (tags in [-level, level]).
LEVELS = (1, 2, 3)
#: How the ten-valued ranks (the last four of 13) are tagged: "tied" (one tag) or "split".
TENS = ("tied", "split")
_TEN_RANKS = 4


@dataclass(frozen=True)
class Search:
    """How a best count was found: `level`, `balanced` (only tags summing to zero),
    `tens` ("tied", "split"; for 13 ranks) and `vectors`, the tag vectors the search covers
    (every one is compared exactly, in effect)."""

    level: int
    balanced: bool
    tens: str
    vectors: int

    @property
    def text(self) -> str:
        """The search in words, e.g. "all 59,049 tag vectors in [-1, 1] (one tag for 10, J, Q
        and K), balanced ..."."""
        kind = "balanced (tags summing to 0 over the 13 ranks)" if self.balanced else "balanced or not"
        tens = "one tag for 10, J, Q and K" if self.tens == "tied" else "a tag for each of 10, J, Q and K"
        return f"all {self.vectors:,} tag vectors in [-{self.level}, {self.level}] ({tens}), {kind}"


def _groups(n: int, tens: str) -> list[list[int]]:
    """Ranks searched together: one group per rank, or the last four tied when `tens` is
    "tied" (13 ranks only)."""
    if tens == "tied" and n == 13:
        return [[r] for r in range(n - _TEN_RANKS)] + [list(range(n - _TEN_RANKS, n))]
    return [[r] for r in range(n)]


def _scaled(effects: Sequence[Fraction]) -> list[int]:
    """n * e_r - sum e, times the common denominator: the centred effects as integers."""
    values = [Fraction(e) for e in effects]
    scale = math.lcm(*(v.denominator for v in values))
    ints = [int(v * scale) for v in values]
    total = sum(ints)
    return [len(ints) * v - total for v in ints]


def _better(a: tuple[int, int, int], b: tuple[int, int, int] | None) -> bool:
    """Whether state a = (N, S, Q) has a higher correlation than b (N > 0 for both): N^2 / (nQ -
    S^2) compared by cross multiplication; on a tie the smaller |S|, then the smaller Q."""
    if b is None:
        return True
    (na, sa, qa), (nb, sb, qb) = a, b
    lhs, rhs = na * na * qb, nb * nb * qa  # q here is n*Q - S^2, > 0
    if lhs != rhs:
        return lhs > rhs
    return (abs(sa), qa) < (abs(sb), qb)


def exact_best_count(
    effects: Sequence[Fraction], level: int, balanced: bool = True, tens: str = "split"
) -> tuple[tuple[int, ...], Search] | None:
    """The integer tags in [-level, level] of highest betting correlation with `effects`
    (one per rank; 13 ranks for `tens` to tie the last four), with `balanced` only tags
    summing to zero; None when no such tags correlate positively (every effect equal, or no
    balanced vector of the level does). Exact: see the module doc. Sign convention: a
    positive tag marks a rank whose removal raises the bettor's expectation."""
    if level not in LEVELS:
        raise AnalyzerError(f"level {level}: use 1, 2 or 3", argument="level")
    if tens not in TENS:
        raise AnalyzerError(f"tens {tens!r}: use tied or split", argument="tens")
    return _search(tuple(_scaled(effects)), level, balanced, tens)


@lru_cache(maxsize=256)
def _search(
    centred: tuple[int, ...], level: int, balanced: bool, tens: str
) -> tuple[tuple[int, ...], Search] | None:
    """`exact_best_count` of the centred integer effects `centred`, once per arguments (the
    effects-of-removal report and the par sheets search the same rank-level bets' counts)."""
    n = len(centred)
    groups = _groups(n, tens)
    values, steps = _states(centred, level, tens)
    best: tuple[int, int, int] | None = None
    found = (0, 0)
    for (s, q), value in values.items():
        spread = n * q - s * s
        if value <= 0 or spread <= 0 or (balanced and s != 0):
            continue
        if _better((value, s, spread), best):
            best, found = (value, s, spread), (s, q)
    if best is None:
        return None
    chosen = []  # the tags by group, last first, followed back from the state found
    for step in reversed(steps):
        found, tag = step[found]
        chosen.append(tag)
    full = tuple(t for group, t in zip(groups, reversed(chosen), strict=True) for _ in group)
    vectors = (2 * level + 1) ** len(groups)
    return full, Search(level, balanced, tens if n == 13 else "split", vectors)


_State = tuple[int, int]  # (S, Q): the sum of the tags and of their squares


@lru_cache(maxsize=1)  # the last one (its two searches ask in turn): 2 MB at level 3
def _states(
    centred: tuple[int, ...], level: int, tens: str
) -> tuple[dict[_State, int], list[dict[_State, tuple[_State, int]]]]:
    """The dynamic programme over the rank groups: its last states, (S, Q) -> the largest N
    reached (the first found on ties), and for each group the way back, (S, Q) -> (the state
    before, the group's tag). Shared by the balanced and the unbalanced search of the same
    effects (the programme is most of a search's time; both are asked in turn)."""
    values: dict[_State, int] = {(0, 0): 0}
    steps: list[dict[_State, tuple[_State, int]]] = []
    for group in _groups(len(centred), tens):
        weight, gain = len(group), sum(centred[r] for r in group)
        moves = [(weight * t, weight * t * t, gain * t, t) for t in range(-level, level + 1)]
        reached: dict[_State, int] = {}
        back: dict[_State, tuple[_State, int]] = {}
        for state, value in values.items():
            s, q = state
            for ds, dq, dn, t in moves:
                key = (s + ds, q + dq)
                held = reached.get(key)
                if held is None or value + dn > held:
                    reached[key] = value + dn
                    back[key] = (state, t)
        values = reached
        steps.append(back)
    return values, steps


def brute_force_count(
    effects: Sequence[Fraction], level: int, balanced: bool = True, tens: str = "split"
) -> tuple[tuple[int, ...], Fraction] | None:
    """The slow path `exact_best_count` is checked against: every tag vector in turn, scored
    by its squared correlation times a constant, (n sum t e - S sum e)^2 / (n Q - S^2), exact
    (the effects over their common denominator). For small levels and few ranks."""
    n = len(effects)
    scale = math.lcm(*(Fraction(e).denominator for e in effects))
    values = [int(Fraction(e) * scale) for e in effects]
    total = sum(values)
    groups = _groups(n, tens)
    best: tuple[Fraction, tuple[int, ...]] | None = None
    for choice in product(range(-level, level + 1), repeat=len(groups)):
        tags = tuple(t for group, t in zip(groups, choice, strict=True) for _ in group)
        s, q = sum(tags), sum(t * t for t in tags)
        top = n * sum(t * v for t, v in zip(tags, values, strict=True)) - s * total
        if top <= 0 or n * q - s * s <= 0 or (balanced and s != 0):
            continue
        score = Fraction(top * top, n * q - s * s)
        if best is None or score > best[0]:
            best = (score, tags)
    return None if best is None else (best[1], best[0])
