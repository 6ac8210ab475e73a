"""Exact weights of full-deck shoes as polynomials in the number of decks d.

For a shoe of d full decks every weight of this project's ordered 6-card-sequence
convention is a polynomial in d of degree at most 6 with integer coefficients: a coup of
k cards weighs a product of k factors (m d - r) (m cards of its class per deck, r of them
already dealt) times (52 d - k)_(6-k). Seven exact evaluations, at d = 1..7, determine it.
So the built-in tableaux ship each outcome's weight polynomial, and the built-in bets
(card-level ones included) each line's, in analyzer/ranks/coups/ (built by
scripts/build_coups.py, checked by tests against a fresh build), and a full-deck shoe is
priced by evaluating them: the project's closed form in d at work, exact at any d, not a
cache of results. Bets are matched by content (their lines' conditions and the tableau),
so a user's bet that reads like a built-in one is priced the same way.

The leading coefficient is the infinite deck: 4**6 times its 13**6-scaled weight at rank
level, its 52**6-scaled weight at card level.

Depleted shoes, other tableaux and bets unlike any built-in keep the general paths
(the coup classes of `analyzer.ranks.enumeration`, the card enumeration of `analyzer.cards.engine`).
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from array import array
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import chain, pairwise, repeat
from math import factorial, perm
from operator import add, mul
from typing import TYPE_CHECKING, Any

from analyzer.core.parsing import bulk_loaded
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks.coupstore import rules_key, split_header

if TYPE_CHECKING:
    from pathlib import Path

    from analyzer.core.bets import Bet
    from analyzer.ranks.coupstore import StoredClasses

__all__ = [
    "DEGREE",
    "SAMPLE_DECKS",
    "OutcomePolynomials",
    "bet_key",
    "bet_polynomials",
    "evaluate",
    "full_decks",
    "interpolate",
    "line_weights",
    "outcome_key",
    "outcome_polynomials",
    "outcome_polynomials_path",
]

#: Degree of every weight polynomial (six cards at most), and the deck counts that fix it.
DEGREE = 6
SAMPLE_DECKS = tuple(range(1, DEGREE + 2))
#: Version of the stored layouts; part of every key.
FORMAT = 1
#: The folder of the shipped files and the bet polynomials' file, str paths (pathlib, about
#: 8 ms, is not loaded by a cold command).
_SHIPPED = os.path.join(os.path.dirname(__file__), "coups")
BET_FILE: str | os.PathLike[str] = os.path.join(_SHIPPED, "bet-polynomials.json")
LITTLE_ENDIAN = sys.byteorder == "little"


def full_decks(shoe: Shoe) -> int | None:
    """d if `shoe` holds d full decks by rank (4d cards of each rank), else None."""
    counts = shoe.counts
    if counts is None or counts[0] % 4 or counts.count(counts[0]) != len(counts) or not counts[0]:
        return None
    return counts[0] // 4


def _newton_basis() -> list[list[int]]:
    """Ascending coefficients of 6!/j! (d-1)(d-2)...(d-j) for j = 0..6."""
    rows, product = [], [1]
    for j in range(DEGREE + 1):
        rows.append([factorial(DEGREE) // factorial(j) * c for c in product])
        product = [0, *product]  # times d ...
        for power in range(len(product) - 1):
            product[power] -= (j + 1) * product[power + 1]  # ... minus (j + 1) times
    return rows


_NEWTON = _newton_basis()


def interpolate(values: Sequence[int]) -> list[int]:
    """Integer coefficients c0..c6 (ascending powers) of the polynomial of degree <= 6 taking
    `values[i]` at d = i + 1, found exactly: Newton's forward differences Delta^j f(1) on
    the basis (d-1)...(d-j)/j!, expanded in integers scaled by 6!; ValueError if a
    coefficient is not an integer."""
    if len(values) != len(SAMPLE_DECKS):
        raise ValueError(f"{len(values)} values: give one for each of d = 1..{len(SAMPLE_DECKS)}")
    differences, scaled = list(values), [0] * (DEGREE + 1)
    for row in _NEWTON:
        for power, c in enumerate(row):
            scaled[power] += differences[0] * c
        differences = [b - a for a, b in pairwise(differences)]
    coefs = []
    for c in scaled:
        whole, rest = divmod(c, factorial(DEGREE))
        if rest:
            raise ValueError(f"weights {list(values)} are not an integer polynomial in the number of decks")
        coefs.append(whole)
    return coefs


def evaluate(coefs: Sequence[int], d: int) -> int:
    """The polynomial with ascending coefficients `coefs` at d (exact)."""
    value = 0
    for c in reversed(coefs):
        value = value * d + c
    return value


# -- rank level: each outcome of a tableau ----------------------------------------------


class OutcomePolynomials:
    """The weight polynomials of every outcome of one tableau, in the order of its stored
    coup classes (`columns_crc` identifies that order), and of the three results."""

    def __init__(self, size: int, columns_crc: int, results: list[list[int]], body: bytes) -> None:
        self.size = size
        self.columns_crc = columns_crc
        self.results = results  # Banker, Player, tie, then the total
        self._body = body  # the per-outcome section, decompressed on first use
        self._powers: list[array[int]] | None = None

    @property
    def powers(self) -> list[array[int]]:
        """powers[j][i]: the coefficient of d**j in outcome i's weight (ValueError if damaged)."""
        if self._powers is None:
            values = array("q")
            try:
                values.frombytes(zlib.decompress(self._body))
            except zlib.error:
                raise ValueError("damaged outcome polynomials") from None
            if not LITTLE_ENDIAN:
                values.byteswap()
            width, size = DEGREE + 1, self.size
            if len(values) != width * size:
                raise ValueError("damaged outcome polynomials")
            self._powers = [values[j * size : (j + 1) * size] for j in range(width)]
        return self._powers

    def matches(self, stored: StoredClasses) -> bool:
        """Whether these polynomials are whole and follow `stored`'s outcome order."""
        try:
            powers = self.powers
        except ValueError:
            return False
        return len(powers[0]) == stored.size and zlib.crc32(stored.arrays["columns"]) == self.columns_crc

    def winner_weights(self, d: int) -> tuple[int, int, int]:
        """Weights of a Banker win, a Player win and a tie with d decks."""
        banker, player, tie = (evaluate(row, d) for row in self.results[:3])
        return banker, player, tie

    def total(self, d: int) -> int:
        return evaluate(self.results[3], d)

    def outcome_weights(self, d: int) -> list[int]:
        """Each outcome's weight with d decks (Horner's rule down the columns)."""
        values: Any = self.powers[-1]
        for column in reversed(self.powers[:-1]):
            values = map(add, map(mul, values, repeat(d)), column)
        return list(values)


def outcome_polynomials_path(rules: Rules) -> Path:
    """Where the shipped outcome polynomials of `rules` live (whether or not they exist)."""
    from pathlib import Path

    return Path(_SHIPPED, _outcome_file_name(rules))


def _outcome_file_name(rules: Rules) -> str:
    return f"polys-{zlib.crc32(outcome_key(rules).encode()):08x}.bin"


def outcome_key(rules: Rules) -> str:
    return f"polys{FORMAT}-{rules_key(rules)}"


def _decode_outcomes(data: bytes, rules: Rules) -> OutcomePolynomials | None:
    try:
        header = split_header(data, outcome_key(rules))
        if header is None:
            return None
        sizes, start = header
        head = array("q")
        head.frombytes(zlib.decompress(data[start : start + sizes["head"]]))
        size, crc = sizes["outcomes"], sizes["crc"]
    except (ValueError, KeyError, UnicodeDecodeError, zlib.error):
        return None
    if not LITTLE_ENDIAN:
        head.byteswap()
    width = DEGREE + 1
    if len(head) != 4 * width:
        return None
    results = [head[i * width : (i + 1) * width].tolist() for i in range(4)]
    return OutcomePolynomials(size, crc, results, data[start + sizes["head"] :])


@lru_cache(maxsize=16)
def outcome_polynomials(rules: Rules) -> OutcomePolynomials | None:
    """The shipped outcome polynomials of `rules` (built-in tableaux), or None."""
    try:
        with open(os.path.join(_SHIPPED, _outcome_file_name(rules)), "rb") as file:
            data = file.read()
    except OSError:
        return None
    return _decode_outcomes(data, rules)


# -- bets: each line of a built-in bet -------------------------------------------------


#: json.dumps(..., separators=(",", ":")), its encoder made once (json.dumps makes one a call).
_COMPACT = json.JSONEncoder(separators=(",", ":")).encode


def bet_key(bet: Bet, rules: Rules) -> str:
    """What a bet's line weights depend on: its lines' conditions, in order, and the
    tableau (names, labels and payouts play no part)."""
    lines = [[[name, [repr(v) for v in allowed]] for name, allowed in line.when] for line in bet.lines]
    return f"bet{FORMAT}-{rules_key(rules)}-" + _COMPACT(lines)


@cache
def bet_polynomials() -> dict[str, tuple[list[list[int]], list[int]]]:
    """The shipped line-weight polynomials (last: no line matched) and total polynomial of
    the built-in bets under the built-in tableaux, by content key; empty if the file is
    missing or damaged."""
    return bulk_loaded(_read_bet_polynomials)


def _read_bet_polynomials() -> dict[str, tuple[list[list[int]], list[int]]]:
    try:
        with open(BET_FILE, encoding="utf-8") as file:
            data = json.loads(file.read())
        if data["format"] != FORMAT:
            return {}
        entries = [(e["key"], e["lines"], e["total"]) for e in data["entries"]]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    # A damaged file is not used: each entry's lines must be integer polynomials summing,
    # coefficient by coefficient, to the total, which must be (52 d)_6.
    whole = interpolate([perm(52 * d, 6) for d in range(1, 8)])
    for _, lines, total in entries:
        if set(map(type, chain.from_iterable([*lines, total]))) != {int}:  # JSON's ints: never a bool
            return {}
        if total != whole or any(len(line) != len(whole) for line in lines):
            return {}
        if list(map(sum, zip(*lines, strict=True))) != whole:
            return {}
    return {key: (lines, total) for key, lines, total in entries}


def line_weights(bet: Bet, shoe: Shoe, rules: Rules) -> tuple[list[int], int] | None:
    """Each line's weight of `bet` (last: no line matched) and the total on a full-deck
    shoe, as the general paths give them, from the shipped polynomials; None when none
    ship for this bet (by content) and tableau, or the shoe is not full decks (for a
    card-level bet: with the suits of full decks, or unknown suits it does not read).
    The infinite deck, the limit of d full decks, gets the leading coefficients: its
    weights on the 52**6 scale of the general paths at card level, scaled by 4**6 at
    rank level (the same probabilities)."""
    if shoe.is_infinite:
        found = bet_polynomials().get(bet_key(bet, rules))
        if found is None or len(found[0]) != len(bet.lines) + 1:
            return None
        lines, total = found
        return [line[DEGREE] for line in lines], total[DEGREE]
    d = full_decks(shoe)
    if d is None:
        return None
    if bet.card_level and shoe.types is not None and shoe.types.count(d) != len(shoe.types):
        return None
    found = bet_polynomials().get(bet_key(bet, rules))
    if found is None:
        return None
    if bet.card_level and shoe.types is None and bet.needs_suits:
        return None
    lines, total = found
    if len(lines) != len(bet.lines) + 1:
        return None
    return [evaluate(line, d) for line in lines], evaluate(total, d)
