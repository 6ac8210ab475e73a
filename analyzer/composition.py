"""Composition-dependent analysis: exact values of bets for many depleted shoes at once,
and effects of removal.

`FastEvaluator` compiles a set of bets against the coup classes into *atoms* (groups of
outcomes every bet settles alike) and evaluates a batch of compositions as a matrix
product. Exactness: for shoes of up to `FLOAT_EXACT_CARDS` cards every monomial value
is an integer below 2**53, so it is exact in float64; each is split into two 26-bit limbs,
and the limb products with the small integer atom matrix stay below 2**53, so BLAS sums
them exactly. Larger shoes take the int64 / Python-int path of the enumerator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, perm
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from analyzer.bets import Bet
from analyzer.cards import RANK_POINTS, RANKS
from analyzer.enumerate import CARDS_PER_COUP, basis_values, compile_rules
from analyzer.errors import AnalyzerError
from analyzer.rules import STANDARD, Rules
from analyzer.shoe import Shoe

__all__ = [
    "FLOAT_EXACT_CARDS",
    "EffectsOfRemoval",
    "EstimateQuality",
    "FastEvaluator",
    "effects_of_removal",
    "estimate_quality",
    "linear_estimates",
]

_LIMB = 26
_EXACT = 2**53
#: Largest shoe whose 6-card sequence count N(N-1)...(N-5) is below 2**53.
FLOAT_EXACT_CARDS = max(n for n in range(6, 1000) if perm(n, CARDS_PER_COUP) < _EXACT)
_A, _B = (0, 1, 2, 3, 4), (5, 6, 7, 8, 9)  # the basis is split in two value groups
_RANK_VALUE = np.zeros((13, 10), dtype=np.int64)
_RANK_VALUE[np.arange(13), RANK_POINTS] = 1


class FastEvaluator:
    """Exact expectations of `bets` for batches of finite compositions (per-rank counts).

    `atom_weights(counts)` gives each atom's weight in 6-card sequences; `expectations`
    gives each bet's expectation as exact integer numerators over `denominators`.
    """

    def __init__(self, bets: Sequence[Bet], rules: Rules = STANDARD) -> None:
        self.bets = tuple(bets)
        self.rules = rules
        classes = compile_rules(rules)
        signatures = [tuple(bet.line_index(o) for bet in self.bets) for o in classes.outcomes]
        atoms = sorted(set(signatures))
        atom_index = {sig: i for i, sig in enumerate(atoms)}
        outcome_atom = np.array([atom_index[sig] for sig in signatures], dtype=np.int64)
        matrix = np.zeros((len(classes.basis), len(atoms)), dtype=np.int64)
        np.add.at(matrix, (classes.entry_basis, outcome_atom[classes.entry_outcome]), classes.entry_coef)
        keep = np.flatnonzero(np.any(matrix != 0, axis=1))
        self.atoms = tuple(atoms)
        if np.abs(matrix).sum(axis=0).max() * 2.0 ** (_LIMB + 1) >= _EXACT:
            raise ValueError("atom coefficients too large for exact float64 limbs")
        self.matrix = matrix[keep]
        self._matrix_t = np.ascontiguousarray(self.matrix.T.astype(np.float64))
        basis, zero_kind, cards = (
            classes.basis[keep],
            classes.basis_zero_kind[keep],
            classes.basis_cards[keep],
        )
        self._keep = keep
        self._classes = classes
        self._work: tuple[np.ndarray, np.ndarray] | None = None
        # Distinct parts of the monomials over each value group, and each monomial's parts.
        a_parts = np.column_stack([zero_kind, basis[:, list(_A)]])
        self._a, self._ia = np.unique(a_parts, axis=0, return_inverse=True)
        b_parts = np.column_stack([basis[:, list(_B)], cards])  # with k, for the tail factor
        self._b, self._ib = np.unique(b_parts, axis=0, return_inverse=True)
        self._ia, self._ib = self._ia.ravel(), self._ib.ravel()
        # Payoffs per atom, as integers over one denominator per bet.
        pays = [[_net(bet, sig[i]) for i, bet in enumerate(self.bets)] for sig in atoms]
        self.denominators = tuple(lcm(*(p[i].denominator for p in pays)) for i in range(len(self.bets)))
        self.payoffs = np.array(
            [[int(p[i] * d) for i, d in enumerate(self.denominators)] for p in pays], dtype=np.int64
        )

    # -- exact atom weights -------------------------------------------------------------

    def atom_weights(self, counts: np.ndarray) -> np.ndarray:
        """(B, atoms) exact weights, in ordered 6-card sequences, of (B, 13) rank counts."""
        counts = np.asarray(counts, dtype=np.int64).reshape(-1, 13)
        sizes = counts.sum(axis=1)
        if counts.min(initial=0) < 0 or sizes.min(initial=CARDS_PER_COUP) < CARDS_PER_COUP:
            raise AnalyzerError("every composition needs counts >= 0 and at least 6 cards")
        if sizes.max() > FLOAT_EXACT_CARDS:
            return np.vstack([self._exact_row(row) for row in counts])
        return self._float_rows(counts, sizes)

    def _exact_row(self, row: np.ndarray) -> np.ndarray:
        values, _ = basis_values(self._classes, Shoe.from_counts([int(c) for c in row]))
        return values[self._keep] @ self.matrix.astype(values.dtype)

    def _float_rows(self, counts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        c = (counts @ _RANK_VALUE).T.astype(np.float64)  # (10, B) cards of each value
        width = c.shape[1]
        ff = np.ones((10, CARDS_PER_COUP + 1, width))  # ff[v, j] = (c_v)_j
        for j in range(1, CARDS_PER_COUP + 1):
            ff[:, j] = ff[:, j - 1] * (c - (j - 1))
        tens = counts[:, [i for i, points in enumerate(RANK_POINTS) if points == 0]]
        pairs = tens * (tens - 1)
        s2 = pairs.sum(axis=1)
        q = s2 * s2 - (pairs * pairs).sum(axis=1) + (pairs * (tens - 2) * (tens - 3)).sum(axis=1)
        zero = np.zeros((3, CARDS_PER_COUP + 1, width))  # ten-valued factor by pair kind
        zero[0] = ff[0]
        for kind, (scale, used) in enumerate(((s2, 2), (q, 4)), start=1):
            run = scale.astype(np.float64)
            for j in range(used, CARDS_PER_COUP + 1):
                zero[kind, j] = run
                run = run * (c[0] - j)
        # Value-group parts, laid out (part, composition) so gathers copy whole rows.
        fa = zero[self._a[:, 0], self._a[:, 1]]
        for col, v in enumerate(_A[1:], start=2):
            fa *= ff[v, self._a[:, col]]
        n = sizes.astype(np.float64)
        tails = np.ones((CARDS_PER_COUP + 1, width))  # tails[k] = (N-k)_(6-k)
        for k in range(CARDS_PER_COUP - 1, -1, -1):
            tails[k] = tails[k + 1] * (n - k)
        fb = tails[self._b[:, -1]]
        for col, v in enumerate(_B):
            fb *= ff[v, self._b[:, col]]
        # Work buffers are reused across batches: fresh multi-megabyte arrays each batch can
        # cost page faults on every call once the heap is fragmented.
        limbs, gathered = self._buffers(width)  # high and low 26-bit limbs of each monomial
        np.take(fa, self._ia, axis=0, out=gathered)
        np.take(fb, self._ib, axis=0, out=limbs[1])
        limbs[1] *= gathered
        np.multiply(limbs[1], 2.0**-_LIMB, out=limbs[0])  # exact: scaling by a power of two
        np.floor(limbs[0], out=limbs[0])
        np.multiply(limbs[0], 2.0**_LIMB, out=gathered)
        limbs[1] -= gathered
        high, low = (self._matrix_t @ limbs).astype(np.int64)
        return ((high << _LIMB) + low).T

    def _buffers(self, width: int) -> tuple[np.ndarray, np.ndarray]:
        if self._work is None or self._work[1].shape[1] != width:
            self._work = (np.empty((2, len(self._ia), width)), np.empty((len(self._ia), width)))
        return self._work

    # -- expectations ------------------------------------------------------------------

    def expectations(self, counts: np.ndarray, batch: int = 64) -> tuple[np.ndarray, np.ndarray]:
        """Exact expectations of every bet: (numerators (B, bets), totals (B,)).

        The expectation of bet i on row b is numerators[b, i] / (denominators[i] * totals[b]).
        Numerators are int64 when they fit, else Python ints (object arrays).
        """
        counts = np.asarray(counts, dtype=np.int64).reshape(-1, 13)
        with threadpool_limits(1, "blas"):  # these skinny products only lose from more threads
            parts = [self.atom_weights(counts[i : i + batch]) for i in range(0, len(counts), batch)]
        weights = np.vstack(parts) if parts else np.zeros((0, len(self.atoms)), dtype=np.int64)
        totals = np.array([perm(int(n), CARDS_PER_COUP) for n in counts.sum(axis=1)], dtype=object)
        if weights.dtype == object or np.abs(self.payoffs).max() * float(totals.max(initial=1)) >= 2**62:
            return weights.astype(object) @ self.payoffs.astype(object), totals
        return weights @ self.payoffs, totals.astype(np.int64)

    def expectation_fractions(self, counts: Sequence[int]) -> dict[str, Fraction]:
        """Exact expectation of every bet for one composition, by bet name."""
        numerators, totals = self.expectations(np.array([counts]))
        return {
            bet.name: Fraction(int(numerators[0, i]), d * int(totals[0]))
            for i, (bet, d) in enumerate(zip(self.bets, self.denominators, strict=True))
        }


def _net(bet: Bet, line: int) -> Fraction:
    """Net win per unit of `bet` settled on `line` (-1: no line matched)."""
    if line < 0:
        return Fraction(-1)
    pays = bet.lines[line].pays
    return Fraction(0) if pays is None else pays


@dataclass(frozen=True)
class EffectsOfRemoval:
    """Exact change in each bet's expectation per unit bet from removing one card of each
    rank from `shoe`, by bet name then rank; `base` holds the shoe's own expectations."""

    shoe: Shoe
    rules: Rules
    base: dict[str, Fraction]
    effects: dict[str, dict[str, Fraction]]

    # -- notebook use --------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"EffectsOfRemoval({self.shoe}, {self.rules.name} rules: {', '.join(self.effects)})"

    def _repr_markdown_(self) -> str:
        from analyzer.format import render_eor

        return render_eor(self, "markdown")

    def to_frame(self) -> Any:
        """A pandas DataFrame: one row per rank removed, one column per bet, exact Fractions."""
        from analyzer.notebook import frame

        ranks = list(next(iter(self.effects.values()))) if self.effects else []
        rows = [(rank, *(effects[rank] for effects in self.effects.values())) for rank in ranks]
        return frame(rows, ["rank", *self.effects], index="rank")


def effects_of_removal(bets: Sequence[Bet], shoe: Shoe, rules: Rules = STANDARD) -> EffectsOfRemoval:
    """Effects of removal of every rank on every bet, exact.

    Identity: over a full shoe the effects weighted by the rank counts sum to zero,
    sum_r n_r * EoR_r = 0, because removing a random card leaves the expectation unchanged.
    """
    if shoe.counts is None or shoe.size <= CARDS_PER_COUP:
        raise AnalyzerError(f"effects of removal need a finite shoe of at least 7 cards, not {shoe}")
    evaluator = FastEvaluator(bets, rules)
    base = np.array(shoe.counts)
    rows = [base] + [base - np.eye(13, dtype=np.int64)[i] for i in range(13) if shoe.counts[i] > 0]
    present = [RANKS[i] for i in range(13) if shoe.counts[i] > 0]
    numerators, totals = evaluator.expectations(np.array(rows))
    ev = [
        {
            bet.name: Fraction(int(numerators[r, i]), d * int(totals[r]))
            for i, (bet, d) in enumerate(zip(evaluator.bets, evaluator.denominators, strict=True))
        }
        for r in range(len(rows))
    ]
    effects = {
        bet.name: {str(rank): ev[j + 1][bet.name] - ev[0][bet.name] for j, rank in enumerate(present)}
        for bet in bets
    }
    return EffectsOfRemoval(shoe=shoe, rules=rules, base=ev[0], effects=effects)


@dataclass(frozen=True)
class EstimateQuality:
    """How well the linear estimate from full-shoe effects of removal predicts exact
    expectations over a set of depleted shoes (display values)."""

    bet: str
    compositions: int
    correlation: float
    worst_error: float
    rms_error: float


def linear_estimates(eor: EffectsOfRemoval, bet: str, counts: np.ndarray) -> np.ndarray:
    """Linear estimates of `bet`'s expectation for (B, 13) compositions (floats).

    EV(n) ~ EV0 - (N0 - 1) * sum_r (n_r / N - n0_r / N0) * EoR_r, the first-order expansion
    in the proportions of each rank, with EoR measured on the full shoe of N0 cards (exact for
    the removal of one card, by the identity sum_r n0_r EoR_r = 0).
    """
    base = np.array(eor.shoe.counts, dtype=np.float64)
    effects = np.array([float(eor.effects[bet].get(str(rank), 0)) for rank in RANKS])
    counts = np.asarray(counts, dtype=np.float64)
    shift = counts / counts.sum(axis=1, keepdims=True) - base / base.sum()
    return float(eor.base[bet]) - (base.sum() - 1) * (shift @ effects)


def estimate_quality(eor: EffectsOfRemoval, bets: Sequence[Bet], counts: np.ndarray) -> list[EstimateQuality]:
    """Correlation and worst error of the linear estimate against exact expectations."""
    evaluator = FastEvaluator(bets, eor.rules)
    numerators, totals = evaluator.expectations(counts)
    result = []
    for i, bet in enumerate(bets):
        exact = numerators[:, i].astype(np.float64) / (evaluator.denominators[i] * totals.astype(np.float64))
        error = linear_estimates(eor, bet.name, counts) - exact
        corr = float(np.corrcoef(exact, exact + error)[0, 1])
        result.append(
            EstimateQuality(
                bet.name, len(counts), corr, float(np.abs(error).max()), float(np.sqrt((error**2).mean()))
            )
        )
    return result
