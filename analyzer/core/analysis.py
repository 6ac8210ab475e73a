"""The exact figures of one bet on one shoe: the result type every engine returns.

>>> from analyzer import Shoe, analyze_bets, get_bet, STANDARD
>>> [analysis] = analyze_bets([get_bet("banker")], Shoe.decks(8), STANDARD)
>>> analysis.house_edge
Fraction(114753351728, 10847218479825)
>>> f"{float(analysis.house_edge):.4%}", f"{float(analysis.house_edge_resolved):.4%}"
('1.0579%', '1.1692%')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.core.bets import LOSS, Bet
from analyzer.core.values import value_class

__all__ = ["BetAnalysis", "LineResult", "analysis_from_weights"]


@value_class
class LineResult:
    """A row of a combinatorial table: `combinations` is None for the infinite deck."""

    label: str
    combinations: int | None
    probability: Fraction
    pays: Fraction | None  # None: push
    result: str

    @property
    def ret(self) -> Fraction:
        """Contribution to the expectation: probability times net win."""
        return Fraction(0) if self.pays is None else self.probability * self.pays


@value_class
class BetAnalysis:
    """Exact figures of one bet on one shoe, per unit staked.

    - `expectation`: the bettor's expected net win (exact Fraction).
    - `house_edge`: -expectation, positive when the house wins (pushes count as bets).
    - `house_edge_resolved`: house edge per bet that wins or loses (pushes excluded).
    - `hit_frequency`: probability that the bet wins something.
    - `variance`: of the net win; `std_dev` is its square root (a float, display only).

    An analysis made by `analysis_from_weights` builds its `lines` on first use (a summary of
    house edges reads none of them): the same rows, equal and pickled alike.
    """

    bet: Bet
    lines: tuple[LineResult, ...]
    expectation: Fraction
    push: Fraction
    hit_frequency: Fraction
    variance: Fraction

    if not TYPE_CHECKING:  # (hidden from the type checker: no attribute it does not know passes)

        def __getattr__(self, name: str) -> Any:
            """`lines` not built yet: built now from the weights kept for them, and kept."""
            kept = self.__dict__.get(_WEIGHTS) if name == "lines" else None
            if kept is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            lines = self.__dict__["lines"] = _line_results(self.bet, *kept)
            return lines

    @property
    def house_edge(self) -> Fraction:
        return -self.expectation

    @property
    def house_edge_resolved(self) -> Fraction | None:
        if not self.push:  # the same value as dividing by 1, without its gcd
            return self.house_edge
        return None if self.push == 1 else self.house_edge / (1 - self.push)

    # -- notebook use (Markdown display: analyzer.present.notebook) ------------------------

    def __repr__(self) -> str:
        return (
            f"BetAnalysis({self.bet.name}: house edge {float(self.house_edge) * 100:.4f}%, "
            f"{len(self.lines)} lines)"
        )

    def to_frame(self, exact: bool = True) -> Any:
        """A pandas DataFrame, one row per paytable line: exact probability, pays and return
        (floats with `exact=False`)."""
        from analyzer.core.frames import frame

        rows = [(r.label, r.combinations, r.probability, r.pays, r.result, r.ret) for r in self.lines]
        columns = ["event", "combinations", "probability", "pays", "result", "return"]
        return frame(rows, columns, "event", exact=exact)

    @property
    def std_dev(self) -> float:
        """Square root of the variance; inf only beyond the float range (payouts near 1e308)."""
        try:
            return math.sqrt(self.variance)
        except OverflowError:  # a huge payout: take the root through logarithms of the exact terms
            half_log = (math.log(self.variance.numerator) - math.log(self.variance.denominator)) / 2
            return math.exp(half_log) if half_log < 709 else math.inf


#: Where an analysis from `analysis_from_weights` keeps the weights of its `lines` until they
#: are built (in its __dict__, beside the fields).
_WEIGHTS = "_line_weights"


def _line_results(bet: Bet, weights: tuple[int, ...], total: int, finite: bool) -> tuple[LineResult, ...]:
    """The paytable rows of `bet` from each line's weight (last: no line matched, a row only
    when it has weight) over `total`; combinations kept when `finite`."""
    rows = []
    for line, w in zip((*bet.lines, None), weights, strict=True):
        if line is not None:
            label, pays, result = line.describe(), line.payout, line.result
        elif w:
            label, pays, result = "any other outcome", LOSS, "loses"
        else:
            continue
        rows.append(LineResult(label, w if finite else None, Fraction(w, total), pays, result))
    return tuple(rows)


def analysis_from_weights(bet: Bet, weights: Sequence[int], total: int, finite: bool) -> BetAnalysis:
    """A BetAnalysis from each line's weight (last: no line matched) over `total` (its `lines`
    built on first use, from a copy of `weights`)."""
    weights = tuple(weights)
    if len(weights) != len(bet.lines) + 1:
        raise ValueError(f"{bet.name}: {len(weights)} weights for {len(bet.lines)} lines and no line")
    # each row's weight and net win (None: push), as `_line_results` gives the rows
    paid: list[tuple[int, Fraction | None]] = [
        (w, line.payout) for line, w in zip(bet.lines, weights[:-1], strict=True)
    ]
    if weights[-1]:
        paid.append((weights[-1], LOSS))
    # The moments summed in integers over the payouts' common denominator `scale`, one
    # reduction each last (the same exact values as summing Fractions, far fewer gcds).
    settled = [(w, p) for w, p in paid if p is not None]
    scale = math.lcm(*(p.denominator for _, p in settled))
    scaled = [(w, p.numerator * (scale // p.denominator)) for w, p in settled]
    first = sum(w * n for w, n in scaled)  # total * scale * expectation
    second = sum(w * n * n for w, n in scaled)  # total * scale**2 * E[net**2]
    analysis = BetAnalysis.__new__(BetAnalysis)  # every field but `lines` (`BetAnalysis.__getattr__`)
    analysis.__dict__.update(
        bet=bet,
        expectation=Fraction(first, total * scale),
        push=Fraction(sum(w for w, p in paid if p is None), total),
        hit_frequency=Fraction(sum(w for w, n in scaled if n > 0), total),  # n has the sign of the payout
        variance=Fraction(second * total - first * first, (total * scale) ** 2),
    )
    analysis.__dict__[_WEIGHTS] = (weights, total, finite)
    return analysis
