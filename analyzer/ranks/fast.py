"""Composition-dependent analysis: exact values of bets for many depleted shoes at once,
and effects of removal.

`FastEvaluator` compiles a set of bets against the coup classes into *atoms* (groups of
outcomes every bet settles alike) and folds the payouts in: each bet's expectation is an
integer combination of the monomials, so a batch of compositions is evaluated by
`analyzer.ranks.polyeval.MonomialForm` (float64 products on exact integer limbs, then int64
arithmetic modulo 2**64, exact because every result is known to fit). Results beyond int64
are pinned by their residues modulo 2**64 and float64 estimates with rigorous error
bounds, and beyond about 1,100 decks by residues modulo a few small odd moduli too (mixed
radix), up to the 10**6-deck limit. The exact Python-integer path of the enumerator,
row by row, remains for payouts too large for the batch forms or the moduli, and for
batches whose bounds (taken over the batch) exceed what the moduli pin, such as shoes
lopsided in different values.

With numba (the ``fast`` extra) loaded, compiled kernels take batches beyond int64
(`analyzer.ranks.kernel_wide`) and, within it, those where they are expected faster than
the numpy paths (`kernel_pays`: layouts of few terms, as a counting study's bets); the numpy
paths then build their parts and contract their products in compiled passes
(`analyzer.ranks.hybrid`). Every path gives the same numerators.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, perm, prod
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped,unused-ignore]

from analyzer.core.bets import Bet
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.outcome import CARDS_PER_COUP
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import MAX_DECKS, Shoe
from analyzer.ranks import hybrid
from analyzer.ranks.compiler import basis_values
from analyzer.ranks.coupstore import stored_classes
from analyzer.ranks.enumeration import compile_rules
from analyzer.ranks.kernel import LOAD_WORTH, FusedForm, always, worth
from analyzer.ranks.kernel_pinned import LANES as PINNED_LANES
from analyzer.ranks.lines import line_indexes
from analyzer.ranks.polyeval import MODULI, MonomialForm

__all__ = [
    "FLOAT_EXACT_CARDS",
    "FastEvaluator",
    "PinnedForm",
    "card_totals",
    "expectations_by_bet",
    "payoff_lattice",
    "sequence_totals",
]

_EXACT = 2**53
#: Largest shoe whose 6-card sequence count N(N-1)...(N-5) is below 2**53 (the limit of
#: an earlier float path; kept as a reference size).
FLOAT_EXACT_CARDS = max(n for n in range(6, 1000) if perm(n, CARDS_PER_COUP) < _EXACT)
_INT64 = 2**63
_MAX_CARDS = 52 * MAX_DECKS  # the largest shoe
_PINNED = 2.0**61  # a residue modulo 2**64 pinned by an estimate within this of its value
_BUILT = threading.local()  # `FastEvaluator.cached`
_FEW_OBJECT_PRODUCTS = 64  # atoms x bets: Python-int products per composition (rough break-even)
_BATCH = 384  # compositions per call of the numpy paths (`FastEvaluator.expectations`)


_CONTROLLER: list[ThreadpoolController] = []  # `one_blas_thread`


def one_blas_thread() -> Any:
    """A context in which BLAS runs on one thread: threadpoolctl's limit on a controller
    that found the process's BLAS once (``threadpool_limits`` looks for them at every call,
    reading the process's memory map: 0.3-1.3 ms, more with numba's libraries loaded,
    against 15 µs on `kernel_pays`'s host)."""
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")


def kernel_pays(compositions: int, terms: int, columns: int) -> bool:
    """Whether the int64 compiled kernel (`analyzer.ranks.kernel_pinned`) is expected to
        value `compositions` faster than the numpy paths (with their compiled passes, `hybrid`:
        the kernel is loaded), for a layout of `terms` multiply-adds (`FusedForm.terms`) on
        `columns` lattice columns: their estimated CPU µs, fitted on 8-deck shoes on this AVX2
        host (2-core AMD EPYC, no AVX-512; OpenBLAS Haswell, one thread):

        - kernel: 100 a call and (0.27 + 0.000206 * terms) a lane, for whole blocks of its
          `LANES` lanes (a short batch pays for a whole block);
        - numpy: 400 a call of up to `_BATCH` compositions (Python, array set-up, BLAS calls)
          and (1.0 + 0.6 * columns) a composition (the BLAS products, the passes around them).

        Measured (µs a composition, 6,000 shoes, kernel / numpy paths): Dragon 7 alone (1
        column, 2,116 terms) 0.71 / 2.63; player, banker, tie (2, 8,857) 1.89 / 3.29; the 8 main
        bets (5, 25,542) 4.70 / 4.57; 9 bets (9, 31,612) 7.27 / 7.26; all 19 rank-level bets
        (13, 54,981) 11.6 / 9.87; at 20, 100 and 384 compositions the model picks the faster
        side of each, or one within 5%. Since then the numpy paths' compiled passes
        (`hybrid`: tables, the contraction on nonzero rows, the combination) made them
        faster (6,000 shoes: 1.8, 2.4, 3.6 and 7.2 µs for the first, second, third and
        last of those): the choices stand, but for player, banker and tie at 20
        compositions (16 µs / 13). Within int64 only (the numpy paths' float64 products
        are exact there); the results are the same either way, and on another host (AVX-512,
    another BLAS) only the speed of a choice changes."""
    blocks = -(-compositions // PINNED_LANES)
    kernel = 100.0 + blocks * PINNED_LANES * (0.27 + 0.000206 * terms)
    numpy = -(-compositions // _BATCH) * 400.0 + compositions * (1.0 + 0.6 * columns)
    return kernel < numpy


class FastEvaluator:
    """Exact expectations of `bets` for batches of finite compositions (per-rank counts).

    `atom_weights(counts)` gives each atom's weight in 6-card sequences; `expectations`
    gives each bet's expectation as exact integer numerators over `denominators`.
    """

    def __init__(self, bets: Sequence[Bet], rules: Rules = STANDARD) -> None:
        self.bets = tuple(bets)
        self.rules = rules
        classes = compile_rules(rules)  # its outcomes are the stored ones, in stored order
        stored = stored_classes(rules)
        signatures = list(zip(*(line_indexes(bet, stored) for bet in self.bets), strict=True))
        # Atoms in order of their lines, no line matched first (the column order the
        # evaluation paths' bounds were fitted to).
        no_lines = tuple(bet.no_line for bet in self.bets)
        atoms = sorted(
            set(signatures), key=lambda sig: [-1 if s == n else s for s, n in zip(sig, no_lines, strict=True)]
        )
        atom_index = {sig: i for i, sig in enumerate(atoms)}
        outcome_atom = np.array([atom_index[sig] for sig in signatures], dtype=np.int64)
        matrix = np.zeros((len(classes.basis), len(atoms)), dtype=np.int64)
        np.add.at(matrix, (classes.entry_basis, outcome_atom[classes.entry_outcome]), classes.entry_coef)
        keep = np.flatnonzero(np.any(matrix != 0, axis=1))
        self.atoms = tuple(atoms)
        self.matrix = matrix[keep]
        self._keep = keep
        self._classes = classes
        # Payoffs per atom, as integers over one denominator per bet.
        pays = [[bet.net(sig[i]) for i, bet in enumerate(self.bets)] for sig in atoms]
        self.denominators = tuple(lcm(*(p[i].denominator for p in pays)) for i in range(len(self.bets)))
        scaled = [[int(p[i] * d) for i, d in enumerate(self.denominators)] for p in pays]
        for i, bet in enumerate(self.bets):
            if max(abs(row[i]) for row in scaled) >= _INT64 or self.denominators[i] >= _INT64:
                raise AnalyzerError(
                    f"bet {quoted(bet.name)}: its payouts, over one denominator, exceed 2**63; effects of "
                    "removal and counting take smaller payouts (edges prices any payout)"
                )
        self.payoffs = np.array(scaled, dtype=np.int64)
        self._largest_payoff = int(np.abs(self.payoffs).max(initial=1))
        # The payouts folded into the coefficients, on as few columns as the bets need:
        # payoffs[:, i] = lattice @ relation[i] + anchor[i] (the all-ones column's weight
        # is the known total).
        self._lattice, self._relation, self._anchor = payoff_lattice(self.payoffs)
        #: Polynomial columns evaluated per composition for the expectations.
        self.columns = self._lattice.shape[1]
        self._atom_form_built: MonomialForm | None = None
        self._basis = basis, zero_kind = classes.basis[keep], classes.basis_zero_kind[keep]
        self._folded = folded = self.matrix @ self._lattice  # the kernel's layout takes them too
        #: Multiply-adds of the compiled kernel per composition (`FusedForm.terms`).
        self.terms = int(np.count_nonzero(folded))
        try:
            self._bet_form: MonomialForm | None = MonomialForm(basis, zero_kind, folded)
        except ValueError:  # payouts too large for exact float64 limbs: atom weights times payoffs
            self._bet_form = None
        self._fused_form: FusedForm | None = None  # built on first use (`_fused`)

    @classmethod
    def cached(cls, bets: tuple[Bet, ...], rules: Rules = STANDARD) -> FastEvaluator:
        """The evaluator of `bets` under `rules`, built once per thread (its work arrays are
        the thread's; a few recent ones kept: a study of a few thousand shoes spent a fifth
        of its time building it), `ready` for the kernels if they are loaded."""
        built: dict[tuple[tuple[Bet, ...], Rules], FastEvaluator] = _BUILT.__dict__.setdefault("built", {})
        if (bets, rules) not in built:
            if len(built) >= 4:
                built.clear()
            built[bets, rules] = cls(bets, rules)
        built[bets, rules].ready()
        return built[bets, rules]

    def __getstate__(self) -> dict[str, object]:
        """Pickled without the compiled kernel's layout (rebuilt where it is used)."""
        return {**self.__dict__, "_fused_form": None}

    def ready(self) -> None:
        """Build now what the first batch would (the compiled kernel's layout, when it is
        loaded, and the compiled passes of the numpy paths, `hybrid`): before forking
        workers, which then have them."""
        self._fused(0)
        hybrid.warm()

    def _fused(self, compositions: int = LOAD_WORTH) -> FusedForm | None:
        """The numerators' layout for the compiled kernel (analyzer.ranks.kernel), or None
        when the kernel is not available (no numba, or ``BACCARAT_KERNEL=numpy``), not
        worth loading for `compositions` (`kernel.worth`), or the payouts too large for
        the batch forms."""
        if not worth(compositions):  # read at every call: the switch may change
            return None
        if self._fused_form is None and self._bet_form is not None:
            self._fused_form = FusedForm(*self._basis, self._folded, self._relation, self._anchor)
        return self._fused_form

    @property
    def _atom_form(self) -> MonomialForm:
        """The atom weights' batch form, built on first use (expectations do not need it)."""
        if self._atom_form_built is None:
            self._atom_form_built = MonomialForm(*self._basis, self.matrix)
        return self._atom_form_built

    # -- exact atom weights -------------------------------------------------------------

    def atom_weights(self, counts: np.ndarray) -> np.ndarray:
        """(B, atoms) exact weights, in ordered 6-card sequences, of (B, 13) rank counts
        (int64, or Python ints for shoes too large for int64 weights)."""
        counts = _checked(counts)
        if not len(counts):
            return np.zeros((0, len(self.atoms)), dtype=np.int64)
        largest = perm(int(counts.sum(axis=1).max(initial=6)), CARDS_PER_COUP)
        weights = self._atom_form.evaluate(counts, largest)
        return weights if weights is not None else np.vstack([self._exact_row(row) for row in counts])

    def _exact_row(self, row: np.ndarray) -> np.ndarray:
        values, _ = basis_values(self._classes, Shoe.from_counts([int(c) for c in row]))
        return np.asarray(values[self._keep] @ self.matrix.astype(values.dtype))

    def _numerators(self, counts: np.ndarray) -> np.ndarray:
        """(B, bets) exact expectation numerators of one batch (int64 or Python ints) on the
        numpy paths (`expectations` has chosen them for the whole array)."""
        largest = perm(int(counts.sum(axis=1).max(initial=6)), CARDS_PER_COUP)
        # Lattice values are exact modulo 2**64, and so (int64 arithmetic wraps) are the
        # numerators combined from them, which are known to lie within +-2**63.
        form, bound, combine = self._bet_form, largest * self._largest_payoff, (self._relation, self._anchor)
        values = None if form is None else form.evaluate(counts, bound, combine=combine)
        if values is not None:
            return values
        # Beyond int64: int64 atom weights times the payoffs as Python ints while that costs
        # few operations per composition, else residues pinned by float estimates.
        if largest >= _INT64 or len(self.atoms) * len(self.bets) > _FEW_OBJECT_PRODUCTS:
            wide = self._wide_numerators(counts)
            if wide is not None:
                return wide
        weights = self.atom_weights(counts)
        if weights.dtype == object or largest * self._largest_payoff >= _INT64:
            return np.asarray(weights.astype(object) @ self.payoffs.astype(object))
        return np.asarray(weights @ self.payoffs)

    def _wide_numerators(self, counts: np.ndarray) -> np.ndarray | None:
        """(B, bets) exact numerators beyond int64 (Python ints), or None (`PinnedForm`)."""
        if self._bet_form is None:
            return None
        return PinnedForm(self._bet_form, self._relation, self._anchor).exact(counts)

    # -- expectations ------------------------------------------------------------------

    def _takes_kernel(self, compositions: int) -> bool:
        """Whether a batch within int64 takes the int64 kernel rather than the numpy paths:
        when it is expected faster (`kernel_pays`), or for any with ``BACCARAT_KERNEL=always``."""
        return always() or kernel_pays(compositions, self.terms, self.columns)

    def expectations(self, counts: np.ndarray, batch: int = _BATCH) -> tuple[np.ndarray, np.ndarray]:
        """Exact expectations of every bet: (numerators (B, bets), totals (B,)).

        The expectation of bet i on row b is numerators[b, i] / (denominators[i] * totals[b]).
        Numerators are int64 when they fit, else Python ints (object arrays); the same
        values whatever `batch` is. The default batch of 384 compositions (work-array rows
        of 3 KB) measured fastest on 8-deck shoes on `kernel_pays`'s host (CPU µs a
        composition, all 19 rank-level bets, with the compiled passes / without): 9.8 /
        11.2, against 11.8 / 12.3 at 768; 320 and 448 within 8%. With today's compiled
        passes 6.9-7.0, against 7.1-7.3 at 768 and 8.0-8.2 at 512; 320 and 448 within 3%.
        """
        counts, sizes = _checked_sizes(counts)
        largest = int(sizes.max(initial=0))
        bound = perm(largest, CARDS_PER_COUP) * self._largest_payoff
        wide = bound >= _INT64  # beyond int64: residues modulo primes
        # The compiled kernels (within int64 where they pay: decided before numba loads), one call.
        taken = len(counts) > 0 and (wide or self._takes_kernel(len(counts)))
        fused = self._fused(len(counts)) if taken else None
        if fused is not None:
            numerators = (
                fused.evaluate_beyond(counts, bound) if wide else fused.evaluate(counts, bound, largest)
            )
            if numerators is not None:
                totals = sequence_totals(sizes)
                return numerators, totals.astype(object) if numerators.dtype == object else totals
        with one_blas_thread():  # these small products only lose from more threads
            parts = [self._numerators(counts[i : i + batch]) for i in range(0, len(counts), batch)]
        totals = sequence_totals(sizes)
        if not parts:
            return np.zeros((0, len(self.bets)), dtype=np.int64), totals.astype(np.int64)
        if any(part.dtype == object for part in parts) or totals.dtype == object:
            return np.vstack([part.astype(object) for part in parts]), totals.astype(object)
        return np.vstack(parts), totals

    def expectation_fractions(self, counts: Sequence[int]) -> dict[str, Fraction]:
        """Exact expectation of every bet for one composition, by bet name."""
        return expectations_by_bet(self.bets, self.denominators, *self.expectations(np.array([counts])))[0]


def expectations_by_bet(
    bets: Sequence[Bet], denominators: Sequence[int], numerators: np.ndarray, totals: np.ndarray
) -> list[dict[str, Fraction]]:
    """An evaluator's `expectations` (numerators (W, bets), totals (W,)) as exact Fractions,
    numerator / (denominator * total), one dict by bet name per composition."""
    names = [bet.name for bet in bets]
    return [
        {name: Fraction(int(n), d * int(total)) for name, d, n in zip(names, denominators, row, strict=True)}
        for row, total in zip(numerators, totals, strict=True)
    ]


@dataclass(frozen=True, eq=False)
class PinnedForm:
    """Exact results `values @ relation.T + (N)_6 * anchor` of a `MonomialForm` beyond int64:
    `relation` (outputs, columns) and `anchor` (outputs,) integers (`FastEvaluator`'s
    payoff lattice; the identity and zeros for the form's own columns)."""

    form: MonomialForm
    relation: np.ndarray
    anchor: np.ndarray

    def exact(self, counts: np.ndarray, sizes: np.ndarray | None = None) -> np.ndarray | None:
        """(B, outputs) exact results of any size (Python ints), or None: each is pinned by
        its residue modulo 2**64 and a float64 approximation within 2**61 of it, or (farther
        off) by residues modulo a few odd moduli besides (`_chinese`). `sizes`: the shoes'
        sizes, for the tails and (N)_6, when the counts are only some of their cards."""
        wrapped, approximate, error = self.form.evaluate_wide(counts, sizes)
        sizes = counts.sum(axis=1) if sizes is None else sizes
        totals, totals_float = _sequences(sizes, np.uint64), _sequences(sizes, np.float64)
        relation, anchor = self.relation.T, self.anchor
        residue = wrapped @ relation + totals.view(np.int64)[:, None] * anchor  # modulo 2**64
        estimate = approximate @ relation + totals_float[:, None] * anchor
        size = np.abs(approximate) @ np.abs(relation) + totals_float[:, None] * np.abs(anchor)
        # Rounding of this combination: each entry sums r + 1 products (r lattice columns) of
        # float64 values and exact integers, and each total rounds 6 times: at most
        # (r + 8) * 2**-53 of `size` (to first order; twice that is room to spare).
        rounding = size * ((len(relation) + 8) * 2.0**-52)
        bound = error @ np.abs(relation) + rounding  # on |estimate - numerator|
        if not (bound < _PINNED).all():
            return self._chinese(counts, sizes, residue, estimate, float(bound.max()))
        turns = np.rint((estimate - residue.astype(np.float64)) * 2.0**-64).astype(np.int64)
        return np.asarray(residue.astype(object) + turns.astype(object) * (1 << 64))

    def _chinese(
        self, counts: np.ndarray, sizes: np.ndarray, residue: np.ndarray, estimate: np.ndarray, bound: float
    ) -> np.ndarray | None:
        """(B, bets) exact numerators from their residues modulo 2**64 (`residue`, int64) and
        modulo the fewest of `MODULI` whose product with 2**64, M, exceeds 4 * `bound`, the
        bound on |`estimate` - numerator|: the residues give the numerator modulo M (mixed
        radix: r0 + 2**64 * T, T below the moduli's product), the estimate the multiple
        of M to add. None when all the moduli are too few."""
        moduli: list[int] = []
        for modulus in MODULI:
            moduli.append(modulus)
            if 2.0**64 * prod(moduli) > 4 * bound:
                break
        lattice = self.form.evaluate_modular(counts, moduli, sizes)
        if lattice is None or not 2.0**64 * prod(moduli) > 4 * bound:
            return None
        low = residue.view(np.uint64)
        digits, weight = np.zeros(residue.shape, dtype=np.int64), 1  # T so far, and its modulus
        for modulus, values in zip(moduli, lattice, strict=True):
            totals = _sequences(sizes, np.int64, modulus)
            target = (
                values @ (self.relation.T % modulus) + totals[:, None] * (self.anchor % modulus)
            ) % modulus
            reached = (
                (low % np.uint64(modulus)).astype(np.int64) + (2**64 % modulus) * (digits % modulus)
            ) % modulus
            step = pow(2**64 * weight % modulus, -1, modulus)
            digits += (target - reached) * step % modulus * weight
            weight *= modulus
        whole = 2**64 * weight
        base = low.astype(np.float64) + 2.0**64 * digits.astype(np.float64)
        turns = np.rint((estimate - base) / float(whole))
        # |estimate - numerator| < M / 4 makes the multiple unique; while |turns| < 2**40 the
        # float rounding of base, of the difference and of the division stays below 2**-12
        # of M, so the nearest integer is that multiple.
        if not (np.abs(turns) < 2.0**40).all():
            return None
        value = (
            low.astype(object) + (digits.astype(object) << 64) + turns.astype(np.int64).astype(object) * whole
        )
        return np.asarray(value)


def payoff_lattice(payoffs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integer (atoms, r) `lattice`, (bets, r) `relation` and (bets,) `anchor` with
    payoffs[:, i] = lattice @ relation[i] + anchor[i] for every bet i, r as small as the
    payoffs allow: a basis of the integer combinations of the payoff columns and the
    all-ones column, less the all-ones column (by integer row reduction)."""
    atoms, bets = payoffs.shape
    anchor = [int(v) for v in payoffs[0]] if atoms else [0] * bets
    rows = [[int(payoffs[a, i]) - anchor[i] for a in range(atoms)] for i in range(bets)]
    inverse = [[int(i == k) for k in range(bets)] for i in range(bets)]  # original = inverse @ rows
    rank = 0
    for col in range(atoms):
        while rank < bets and any(rows[k][col] for k in range(rank, bets)):
            pivot = min((k for k in range(rank, bets) if rows[k][col]), key=lambda k: abs(rows[k][col]))
            rows[rank], rows[pivot] = rows[pivot], rows[rank]
            for line in inverse:
                line[rank], line[pivot] = line[pivot], line[rank]
            for k in range(rank + 1, bets):
                q = rows[k][col] // rows[rank][col]
                if q:
                    rows[k] = [x - q * y for x, y in zip(rows[k], rows[rank], strict=True)]
                    for line in inverse:
                        line[rank] += q * line[k]
            if not any(rows[k][col] for k in range(rank + 1, bets)):
                rank += 1
    lattice = np.array(rows[:rank], dtype=np.int64).reshape(rank, atoms).T
    relation = np.array([line[:rank] for line in inverse], dtype=np.int64).reshape(bets, rank)
    anchor_array = np.array(anchor, dtype=np.int64)
    if not (lattice @ relation.T + anchor_array == payoffs).all():
        raise ValueError("payoff lattice does not reproduce the payoffs")
    return lattice, relation, anchor_array


def sequence_totals(sizes: np.ndarray) -> np.ndarray:
    """N(N-1)...(N-5) of each shoe size: int64 where the largest fits, else Python ints (as
    the products of its halves N(N-1)(N-2) and (N-3)(N-4)(N-5), each exact in int64, while
    the largest's are: a third of the time of `perm` row by row)."""
    largest = int(sizes.max(initial=0))
    if len(sizes) and perm(largest, CARDS_PER_COUP) < _INT64:
        return _sequences(sizes, np.int64)
    if perm(largest, CARDS_PER_COUP // 2) < _INT64:
        sizes = np.asarray(sizes, dtype=np.int64)
        low, high = sizes * (sizes - 1) * (sizes - 2), (sizes - 3) * (sizes - 4) * (sizes - 5)
        return np.asarray(low.astype(object) * high.astype(object))
    return np.array([perm(n, CARDS_PER_COUP) for n in sizes.tolist()], dtype=object)


def _sequences(sizes: np.ndarray, dtype: type, modulus: int | None = None) -> np.ndarray:
    """N(N-1)...(N-5) of each shoe size N in `dtype`: int64 exact while it fits, uint64
    modulo 2**64, float64 rounded; with `modulus`, reduced modulo it at every step."""
    totals: np.ndarray = np.ones(len(sizes), dtype=dtype)
    for k in range(CARDS_PER_COUP):
        factor: np.ndarray = (sizes - k).astype(dtype)
        totals = totals * factor if modulus is None else totals * (factor % modulus) % modulus
    return totals


def card_totals(counts: np.ndarray) -> np.ndarray:
    """(B,) the cards of each of (B, 13) int64 rank counts: their row sums (by einsum, about
    3 times faster than numpy's sum over rows of 13)."""
    totals: np.ndarray = np.einsum("ij->i", counts)
    return totals


def _checked(counts: np.ndarray) -> np.ndarray:
    """(B, 13) int64 rank counts, each row a shoe of at least six cards."""
    return _checked_sizes(counts)[0]


def _checked_sizes(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(B, 13) int64 rank counts, each row a shoe of at least six cards and at most
    `analyzer.core.shoe.MAX_DECKS` decks' (so no row sum wraps), and (B,) their cards."""
    counts = np.asarray(counts, dtype=np.int64).reshape(-1, 13)
    if counts.max(initial=0) > _MAX_CARDS:  # before the sums, which would wrap past 2**63
        raise AnalyzerError(f"a count of {int(counts.max()):,} cards: use at most {_MAX_CARDS:,}")
    sizes = card_totals(counts)
    if counts.min(initial=0) < 0 or sizes.min(initial=CARDS_PER_COUP) < CARDS_PER_COUP:
        raise AnalyzerError("every composition needs counts >= 0 and at least 6 cards")
    if sizes.max(initial=0) > _MAX_CARDS:
        raise AnalyzerError(f"a composition of {int(sizes.max()):,} cards: use at most {_MAX_CARDS:,}")
    return counts, sizes
