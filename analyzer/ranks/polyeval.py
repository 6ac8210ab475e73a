"""Exact batch evaluation of integer combinations of the coup-class monomials.

Given an integer matrix C (monomials x columns), `MonomialForm.evaluate` computes, for
a batch of compositions, E[w, col] = sum_m C[m, col] * value_m(w) exactly, where
value_m is the monomial's product of falling factorials (see analyzer.ranks.enumeration).

Layout. A monomial's value is FA[a] * FB[b] * T(e + d), an a-part of degree e, a b-part of
degree d and the tail (analyzer.ranks.polyparts). For each pair of degrees (e, d) the
coefficients form a dense block between the a-parts of degree e and the b-parts of degree
d; it is contracted over its larger side with a float64 matrix product, then the smaller
side's factor and the tail are applied in int64:

    over the a-parts:  E[col] += sum_b FB[b] * T(e + d) * (sum_a R[b, col, a] * FA[a])
    over the b-parts:  E[col] += sum_a FA[a] * T(e + d) * (sum_b R[a, col, b] * FB[b])

Blocks sharing their contracted side (all a-parts of one degree e, or all b-parts of
one degree d) are stacked into one product (a *group*, analyzer.ranks.polyproducts): a few
well-shaped products per batch, and only about min(a-parts, b-parts) integer outputs per
block and column, each group's inputs computed just before its product. When every group's
product is exact through the magic column (8-deck shoes), the products share one array and
one integer contraction applies every output's factor at once.

Exactness. Each group's product is exact modulo 2**64 (magic column or limbs); the rest is
int64 arithmetic modulo 2**64 (numpy integer arithmetic wraps); when the true results are
known a priori to lie within +-2**63 (the caller's `bound`), the int64 values are the
results themselves. Larger counts (above FLOAT_COUNTS of a value) take one pass, `_wide`,
that also gives float64 estimates of the results with rigorous bounds on their errors
(`evaluate_wide`): bounds on every part and every intermediate value ("ceilings", from the
batch's largest counts) tell which parts are exact floats, and each group's product goes
through the magic column, one low limb pinned by its float product, or every limb of the
uint64 residues. The estimates pin results beyond 2**63 by their residues when within
2**61; farther off, `evaluate_modular` gives the results modulo small odd moduli too, exact
in float64 (see analyzer.ranks.fast).
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from analyzer.ranks import hybrid
from analyzer.ranks.polyparts import (
    FLOAT_COUNTS,
    ORDERS,
    SIX,
    ZERO_ROWS,
    Side,
    Workspace,
    factor_tables,
    tail_factors,
    value_counts,
)
from analyzer.ranks.polyproducts import MAGIC, MAGIC_BITS, SAFE_MAGIC, Group

__all__ = ["FLOAT_COUNTS", "MODULI", "Combine", "MonomialForm"]

_INT_LIMIT = 2**63
_EXACT = 2.0**53  # float64 integers are exact below this
_ROUNDED = 1 + 2.0**-40  # a float bound raised past the rounding of its own computation
_STEPS = 256  # rounding steps of the factor tables and products, with room to spare
#: Odd moduli, pairwise coprime, below 128 (`evaluate_modular`): their product is below 2**63.
MODULI = (127, 113, 109, 107, 103, 101, 97, 89, 83)
_MODULI_PER_PASS = 2  # moduli side by side in one pass: work arrays of 2 W columns
#: (relation (outputs, cols), anchor (outputs,)) int64: outputs relation @ E + (N)_6 * anchor.
Combine = tuple[np.ndarray, np.ndarray]


class MonomialForm:
    """The integer combinations `coefficients` (B, cols) of the monomials `basis` (B, 10)
    with pair kinds `zero_kind` (B,), laid out for batch evaluation."""

    def __init__(self, basis: np.ndarray, zero_kind: np.ndarray, coefficients: np.ndarray) -> None:
        coefficients = np.asarray(coefficients, dtype=np.int64)
        self.columns = coefficients.shape[1]
        # Each factor's row of the flat factor table (pair kinds, then values 0-9), and the
        # cards it stands for.
        a_keys = np.column_stack(
            [zero_kind * ORDERS + basis[:, 0]] + [ZERO_ROWS + v * ORDERS + basis[:, v] for v in range(1, 5)]
        )
        b_keys = np.column_stack([ZERO_ROWS + v * ORDERS + basis[:, v] for v in range(5, 10)])
        ones = ZERO_ROWS + np.arange(10) * ORDERS  # rows (v, 0): value 1
        self._fa = Side("fa", a_keys, basis[:, :5], 2, np.concatenate([[0], ones[1:5]]))
        self._fb = Side("fb", b_keys, basis[:, 5:], 2, ones[5:])
        a_index, a_degree = self._fa.index, self._fa.degree
        b_index, b_degree = self._fb.index, self._fb.degree
        self._work, self._approx_work, self._modular_work = Workspace(), Workspace(), Workspace()
        self._safe_max: np.ndarray | None = None  # factor-table maxima all groups take whole
        # Each (e, d) block goes to the group of its larger side.
        e, d = a_degree[a_index], b_degree[b_index]
        over_a = np.zeros(len(basis), dtype=bool)
        for pair in set(zip(e.tolist(), d.tolist(), strict=True)):
            here = (e == pair[0]) & (d == pair[1])
            over_a[here] = len(np.unique(b_index[here])) <= len(np.unique(a_index[here]))
        self.groups: list[tuple[bool, Group]] = []
        for side_a, part_index, part_degree, out_index, out_degree in (
            (True, a_index, a_degree, b_index, b_degree),
            (False, b_index, b_degree, a_index, a_degree),
        ):
            chosen = over_a if side_a else ~over_a
            for degree in np.unique(part_degree[part_index[chosen]]).tolist():
                here = np.flatnonzero(chosen & (part_degree[part_index] == degree))
                span = (self._fa if side_a else self._fb).spans[degree]  # then a unit part
                outputs, out_row = np.unique(out_index[here], return_inverse=True)
                dense = np.zeros((len(outputs), self.columns, span.stop - span.start), dtype=np.int64)
                cells = (out_row.ravel(), part_index[here] - span.start)
                for col in range(self.columns):
                    np.add.at(dense[:, col, :], cells, coefficients[here, col])
                group = Group(span, outputs, out_degree[outputs] + degree, dense)
                group.degree = degree
                self.groups.append((side_a, group))
        # Every group's outputs in one array, the groups over the a-parts first.
        sizes = [len(group.outputs) for _, group in self.groups]
        stops = np.cumsum(sizes).tolist()
        self._group_rows = list(zip([0, *stops[:-1]], stops, strict=True))
        none = [np.zeros(0, dtype=np.int64)]
        self._outputs = np.concatenate([group.outputs for _, group in self.groups] or none)
        self._output_tails = np.concatenate([group.tail_degree for _, group in self.groups] or none)
        split = sum(size for (side_a, _), size in zip(self.groups, sizes, strict=True) if side_a)
        self._over_a, self._over_b = (0, split), (split, len(self._outputs))
        hot = 1 + max(
            (span.stop - span.start for side in (self._fa, self._fb) for span in side.spans.values()),
            default=0,
        )
        self._fa.hot_rows = self._fb.hot_rows = hot
        # the largest row sum of |coefficients| of any group (`evaluate_modular`)
        self._row_sum = max(
            (float(group.abs_matrix.sum(axis=1).max(initial=0)) for _, group in self.groups), default=0.0
        )
        self._gather = (self._outputs, self._output_tails)  # each output's part and tail (`hybrid.contract`)
        # `_fused_sum`'s products: each group's rows (output, column) with a nonzero
        # coefficient, and their places (18% of all 19 rank-level bets' multiply-adds are
        # rows of zeros).
        self._fused: list[tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]] = []
        for (_, group), (first, _) in zip(self.groups, self._group_rows, strict=True):
            kept = np.flatnonzero(group.matrix.any(axis=1))
            places = (first + kept // self.columns, kept % self.columns)
            self._fused.append((np.ascontiguousarray(group.magic_matrix[kept]), places))
        self._largest_group = max((len(matrix) for matrix, _ in self._fused), default=0)
        self._early = (  # the degrees of the parts the factors read: a-parts, b-parts
            set(self._fa.degree[self._outputs[split:]].tolist()),
            set(self._fb.degree[self._outputs[:split]].tolist()),
        )

    def evaluate(
        self, counts: np.ndarray, bound: int, sizes: np.ndarray | None = None, combine: Combine | None = None
    ) -> np.ndarray | None:
        """(W, cols) int64 results for (W, 13) rank counts, exact when every true result is
        within +-`bound` < 2**63; None when it is not. With `sizes`, the tails are those of
        shoes of that many cards (the coups of a larger shoe that use only these cards).
        With `combine` = (relation (outputs, cols), anchor (outputs,)) int64, the results
        are (W, outputs) E @ relation.T + (N)_6 * anchor instead, N the shoes' sizes (each
        within +-`bound`: computed modulo 2**64, like E)."""
        if bound >= _INT_LIMIT:
            return None
        if int(value_counts(counts).max(initial=0)) > FLOAT_COUNTS:  # tables beyond 2**53
            values = self._wide(counts, sizes)[0]
            if combine is None:
                return values
            tails = tail_factors(counts, self._work, np.uint64, "tails-only", sizes)
            return _combined(values, combine, tails)
        return self._wrapped(counts, sizes, combine)

    def evaluate_wide(
        self, counts: np.ndarray, sizes: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For results of any size: (W, cols) the results modulo 2**64 (int64, wrapping),
        (W, cols) float64 approximations of them, and (cols,) bounds on the approximations'
        absolute errors. A result is pinned by its residue once its bound is below 2**61
        (room for the rounding of the estimate minus the residue, up to about 2**60 for
        results near 2**63); `sizes` as in `evaluate`."""
        return self._wide(counts, sizes)

    def _wrapped(self, counts: np.ndarray, sizes: np.ndarray | None, combine: Combine | None) -> np.ndarray:
        """(W, cols) int64: the results modulo 2**64, for counts up to FLOAT_COUNTS of each
        value (larger ones take `_wide`): every factor product is below 2**53, so the
        tables are exact in float64 and each group takes the magic column or limbs;
        (W, outputs) with `combine` (`evaluate`)."""
        width = len(counts)
        work = self._work
        exact, tails, flat_max = self._tables(counts, sizes, work)  # each row bounded by flat_max
        magic, tops = [False] * len(self.groups), [64] * len(self.groups)
        if self._safe_max is not None and (flat_max <= self._safe_max).all():
            magic = [True] * len(self.groups)  # the bounds only grow with flat_max
        else:
            largest = [np.prod(flat_max[side.factor_rows], axis=1) for side in (self._fa, self._fb)]
            for i, (side_a, group) in enumerate(self.groups):
                bound = largest[0 if side_a else 1]
                magic[i] = group.fits(bound)
                tops[i] = int(bound[group.inputs].max(initial=1)).bit_length()
            self._safe_max = flat_max if all(magic) else self._safe_max
        whole = all(magic) and hybrid.ready()  # every part in one compiled pass
        if whole:
            fa, fb = (
                hybrid.parts(exact, side.factor_rows, work.get(name, (side.rows, width), np.float64))
                for side, name in ((self._fa, "fa-all"), (self._fb, "fb-all"))
            )
        else:  # the parts the factors need first; each group's own inputs just before its product
            fa, fb = (
                self._fa.evaluate(exact, work, self._early[0]),
                self._fb.evaluate(exact, work, self._early[1]),
            )
        if whole:  # the factors, the contraction and the combination in one compiled pass
            return self._fused_sum(fa, fb, tails, work, combine)
        factors = self._factors(fa, fb, tails, work, np.uint64)
        if all(magic):
            return _combined(self._magic_sum(fa, fb, factors, work), combine, tails)
        result = np.zeros((self.columns, width), dtype=np.uint64)
        for i, ((side_a, group), (first, stop)) in enumerate(zip(self.groups, self._group_rows, strict=True)):
            values = self._inputs(side_a, group, fa, fb, work)
            result += group.contract(values, factors[first:stop], magic[i], tops[i])
        return _combined(np.ascontiguousarray(result.T).view(np.int64), combine, tails)

    def _tables(
        self, counts: np.ndarray, sizes: np.ndarray | None, work: Workspace
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`factor_tables` of `counts` in uint64 (modulo 2**64), the table read as float64
        (exact below 2**53), the tails, and each table row's largest entry (float64); in one
        compiled pass when the kernels are loaded (`hybrid.tables`)."""
        exact = work.get("table-float", (ZERO_ROWS + 10 * ORDERS, len(counts)), np.float64)
        if hybrid.ready():
            tails = work.get("tails", (ORDERS, len(counts)))
            return exact, tails, hybrid.tables(counts, sizes, exact, tails)
        table, tails = factor_tables(counts, work, np.uint64, sizes)
        np.copyto(exact, table, casting="unsafe")
        return exact, tails, table.max(axis=1).astype(np.float64)

    def _inputs(
        self, side_a: bool, group: Group, fa: np.ndarray, fb: np.ndarray, work: Workspace, whole: bool = False
    ) -> np.ndarray:
        """The group's contracted parts then a unit part, (inputs + 1, W); `whole`: `fa` and
        `fb` hold every part."""
        side, early, parts = (self._fa, self._early[0], fa) if side_a else (self._fb, self._early[1], fb)
        if whole or group.degree in early:
            return parts[group.inputs.start : group.inputs.stop + 1]  # then its unit part
        return side.hot(work, group.degree)

    def _magic_sum(self, fa: np.ndarray, fb: np.ndarray, factors: np.ndarray, work: Workspace) -> np.ndarray:
        """(W, cols) int64 results modulo 2**64 when every group's product is exact through
        the magic column (see `Group.fits`): every group's product into one array (each
        row's bits read as uint64 are MAGIC_BITS + its exact sum, modulo 2**64), then one
        integer contraction with every output's factor (`factors`, from `_factors`) and one
        correction for the magic constants, instead of one of each per group."""
        width = fa.shape[1]
        products = work.get("products", (len(self._outputs) * self.columns, width), np.float64)
        for (side_a, group), (first, stop) in zip(self.groups, self._group_rows, strict=True):
            rows = slice(first * self.columns, stop * self.columns)
            np.matmul(group.magic_matrix, self._inputs(side_a, group, fa, fb, work), out=products[rows])
        total = products.view(np.uint64).reshape(len(self._outputs), self.columns, width)
        result = np.einsum("rw,rcw->wc", factors, total)
        result -= (factors.sum(axis=0) * MAGIC_BITS)[:, None]
        return np.ascontiguousarray(result).view(np.int64)

    def _fused_sum(
        self, fa: np.ndarray, fb: np.ndarray, tails: np.ndarray, work: Workspace, combine: Combine | None
    ) -> np.ndarray:
        """`_magic_sum` (or, with `combine`, its combination) with every part in `fa` and
        `fb`: each group's products (its rows of nonzero coefficients) contracted with their
        outputs' factors just after them, in a compiled pass that gathers them
        (`hybrid.contract`), then combined when asked (`hybrid.combine`)."""
        width = fa.shape[1]
        total = work.get("total", (self.columns, width))
        total[:] = 0
        products = work.get("group-products", (self._largest_group, width), np.float64)
        split = self._over_b[0]  # the outputs whose factors are b-parts
        for (side_a, group), (matrix, places) in zip(self.groups, self._fused, strict=True):
            product = products[: len(matrix)]
            np.matmul(matrix, self._inputs(side_a, group, fa, fb, work, True), out=product)
            hybrid.contract((fa, fb), split, self._gather, tails, product.view(np.uint64), places, total)
        if combine is None:  # the sums themselves, (W, cols)
            return total.T.copy().view(np.int64)  # a copy: `total` is the workspace's
        return hybrid.combine(total, tails, combine, np.empty((width, len(combine[1])), dtype=np.int64))

    def _factors(self, fa: np.ndarray, fb: np.ndarray, tails: np.ndarray, work: Workspace,
                 dtype: type) -> np.ndarray:  # fmt: skip
        """(outputs, W) every group's outputs' factors, their parts times their tails (uint64
        modulo 2**64, from exact float64 or uint64 tables; or float64), gathered at once;
        group i's are rows `_group_rows[i]`."""
        width = fa.shape[1]
        factors = work.get("factors", (len(self._outputs), width), dtype)
        for part, (first, stop) in ((fb, self._over_a), (fa, self._over_b)):  # the other side's parts
            rows = self._outputs[first:stop]
            if part.dtype == dtype:
                np.take(part, rows, axis=0, out=factors[first:stop], mode="clip")
            else:  # exact float64 integers
                taken = np.take(
                    part,
                    rows,
                    axis=0,
                    out=work.get(f"taken-{first}", (stop - first, width), part.dtype.type),
                    mode="clip",
                )
                np.copyto(factors[first:stop].view(np.int64), taken, casting="unsafe")
        tail = np.take(
            tails, self._output_tails, axis=0, out=work.get("tail", factors.shape, dtype), mode="clip"
        )
        np.multiply(factors, tail, out=factors)
        return factors

    def _ceilings(self, float_table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(a-parts,) and (b-parts,) float64 bounds, valid for every row of `counts`, on each
        part's true value and on every intermediate value computed on the way to it (table
        entries and partial products): a factor table row (v, j) is at most c_v**j for the
        batch's largest count c_v of value v (at least 1; read from `float_table`), a pair-kind
        row at most 2 * c_0**j (q and its intermediates are at most 2 * c_0**4). A part below
        2**53 is exact in the float64 tables; elsewhere its rounding error is a few units of
        2**-53 of this bound."""
        counts = float_table[ZERO_ROWS + 1 :: ORDERS]  # rows (v, 1): the counts, exact
        top = np.maximum(counts.max(axis=1), 1.0)
        power = top[:, None] ** np.arange(ORDERS)  # (10, J)
        rows = np.empty(ZERO_ROWS + 10 * ORDERS)
        rows[:ZERO_ROWS] = np.concatenate([power[0], power[0], 2 * power[0]])
        rows[ZERO_ROWS:] = power.ravel()
        return (
            np.prod(rows[self._fa.factor_rows], axis=1) * _ROUNDED,
            np.prod(rows[self._fb.factor_rows], axis=1) * _ROUNDED,
        )

    def _wide(
        self, counts: np.ndarray, sizes: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`evaluate_wide` in one pass over the groups. Each group's product is computed in
        float64 from the float64 tables (rounded where beyond 2**53) and, modulo 2**64, in
        the first of three ways its bounds allow (on the ceilings, `_ceilings`):

        - exact through the magic column when |matrix| @ ceilings stays below 2**50: its
          inputs are exact floats and its sums exact, the product is its own residue;
        - the float product P~ and one exact low limb, `Group.pinned`, when P~'s error,
          at most (256 + inputs) * 2**-52 * (|matrix| @ ceilings) per row (the roundings
          of the parts and of the sum), is below 2**(b-3); the low limb is taken from the
          float inputs where exact, else from their residues (uint64 tables, computed
          only then);
        - else every limb of the residues (top 64), as `_wrapped` does.

        The estimates are the float products contracted with float factors; their error
        bound is that of one float64 pass (every operation rounds with relative error at
        most 2**-53, `_STEPS` + the operations on the longest path of them, each relative
        to the same sums of ceilings)."""
        width = len(counts)
        work, float_work = self._work, self._approx_work
        float_table, float_tails = factor_tables(counts, float_work, np.float64, sizes)
        ceilings = self._ceilings(float_table)
        float_fa = self._fa.evaluate(float_table, float_work, self._early[0])
        float_fb = self._fb.evaluate(float_table, float_work, self._early[1])
        modulo: dict[str, np.ndarray] = {}  # the uint64 tables and parts, computed when needed
        filled: set[str] = set()  # the sides whose early degrees are filled in `modulo`

        def residues(side: Side, early: bool) -> np.ndarray:
            """The parts of `side` modulo 2**64, its early degrees filled if `early` (the
            others come from `hot`)."""
            if "table" not in modulo:
                modulo["table"], modulo["tails"] = factor_tables(counts, work, np.uint64, sizes)
            if side.name not in modulo or (early and side.name not in filled):
                degrees = self._early[0 if side is self._fa else 1] if early else ()
                modulo[side.name] = side.evaluate(modulo["table"], work, degrees)
                filled.update([side.name] if early else [])
            return modulo[side.name]

        exact = [ceiling < _EXACT for ceiling in ceilings]  # each a-part, b-part: an exact float
        fa = float_fa if exact[0][self._outputs[self._over_b[0] :]].all() else residues(self._fa, True)
        fb = float_fb if exact[1][self._outputs[: self._over_b[0]]].all() else residues(self._fb, True)
        if "tails" not in modulo:
            modulo["tails"] = tail_factors(counts, work, np.uint64, "tails-only", sizes)
        factors = self._factors(fa, fb, modulo["tails"], work, np.uint64)
        float_factors = self._factors(float_fa, float_fb, float_tails, float_work, np.float64)
        tail_max = float_tails.max(axis=1) * _ROUNDED
        rows = len(self._outputs) * self.columns
        products = float_work.get("products", (rows, width), np.float64)  # every group's, stacked
        residue = work.get("residues", (rows, width))  # the same modulo 2**64
        absolute = np.zeros(self.columns)
        steps = _STEPS
        for (side_a, group), (first, last) in zip(self.groups, self._group_rows, strict=True):
            which, side = (0, self._fa) if side_a else (1, self._fb)
            start, stop = group.inputs.start, group.inputs.stop
            values = self._inputs(side_a, group, float_fa, float_fb, float_work)
            in_max, out_max = ceilings[which], ceilings[1 - which]
            inner = group.abs_matrix @ in_max[start:stop]  # (rows,) bounds on |P| and its terms
            product = products[first * self.columns : last * self.columns]
            modular = residue[first * self.columns : last * self.columns]
            if float(inner.max(initial=0)) < SAFE_MAGIC:  # exact inputs, exact sums
                np.matmul(group.magic_matrix, values, out=product)
                np.subtract(product.view(np.uint64), MAGIC_BITS, out=modular)  # the exact sums
                product -= MAGIC
            else:
                np.matmul(group.matrix, values[:-1], out=product)
                if not exact[which][start:stop].all():  # the residues of the inputs
                    parts = residues(side, False)
                    if group.degree in self._early[which] and side.name in filled:
                        values = parts[start : stop + 1]
                    else:
                        values = side.hot(work, group.degree)
                error = float(inner.max(initial=0)) * ((_STEPS + stop - start) * 2.0**-52) * _ROUNDED
                group.pinned(values[:-1], product, error, modular)
            factor_max = out_max[group.outputs] * tail_max[group.tail_degree]
            absolute += (inner.reshape(len(group.outputs), group.columns) * factor_max[:, None]).sum(axis=0)
            steps += (stop - start) + len(group.outputs)
        shape = (len(self._outputs), self.columns, width)
        result = np.einsum("rw,rcw->wc", factors, residue.reshape(shape))
        estimate = np.einsum("rw,rcw->wc", float_factors, products.reshape(shape))
        wrapped = np.ascontiguousarray(result).view(np.int64)
        return wrapped, estimate, absolute * (steps * 2.0**-52)

    def evaluate_modular(
        self, counts: np.ndarray, moduli: Collection[int], sizes: np.ndarray | None = None
    ) -> np.ndarray | None:
        """(len(moduli), W, cols) int64: the results modulo each of `moduli` (odd, below
        128), for (W, 13) rank counts of any size; None when the coefficients are too large.

        One float64 pass with every modulus side by side (W columns each): the factor tables
        of the counts modulo m are exact integers below m (a falling factorial, q or a tail
        modulo m only needs the counts modulo m; int64 products of at most 6 of them below
        2**63, then reduced), so every part, a product of at most 5 of them, is below
        127**5 < 2**35, and every group's product below 2**53 while the row sums of
        |coefficients| stay below 2**53 / 126**5 (about 2**18). Products and factors are
        then brought below 2**8 in magnitude (x - m * floor(x / m), the floor off by at
        most one), so the final contraction sums integers below 2**53 too."""
        if self._row_sum * 126.0**5 >= _EXACT or not moduli:
            return None
        chosen = list(moduli)
        step = _MODULI_PER_PASS
        return np.concatenate(
            [self._modular(counts, chosen[i : i + step], sizes) for i in range(0, len(chosen), step)]
        )

    def _modular(self, counts: np.ndarray, moduli: list[int], sizes: np.ndarray | None) -> np.ndarray:
        """`evaluate_modular` for a few moduli side by side (work arrays of W columns each)."""
        work, width, k = self._modular_work, len(counts), len(moduli)
        modulus = np.repeat(np.asarray(list(moduli), dtype=np.int64), width)  # (k * W,)
        table, _ = factor_tables(np.tile(counts, (k, 1)) % modulus[:, None], work, np.int64)
        float_table = work.get("float-table", table.shape, np.float64)
        np.copyto(float_table, table % modulus, casting="unsafe")
        whole = counts.sum(axis=1) if sizes is None else sizes
        size, tail = np.tile(whole, k) % modulus, np.ones(k * width, dtype=np.int64)
        float_tails = work.get("float-tails", (ORDERS, k * width), np.float64)
        float_tails[SIX] = 1
        for j in range(SIX - 1, -1, -1):  # reduced at every step (the table's tails may not be)
            tail = tail * (size - j) % modulus
            float_tails[j] = tail
        fa, fb = self._fa.evaluate(float_table, work), self._fb.evaluate(float_table, work)
        factors = self._factors(fa, fb, float_tails, work, np.float64)
        products = work.get("products", (len(self._outputs) * self.columns, k * width), np.float64)
        for (side_a, group), (first, last) in zip(self.groups, self._group_rows, strict=True):
            parts = fa if side_a else fb
            rows = slice(first * self.columns, last * self.columns)
            np.matmul(group.matrix, parts[group.inputs], out=products[rows])
        scale, inverse = modulus.astype(np.float64), 1.0 / modulus
        for values in (factors, products):  # x - m * floor(x / m): below 2**8 in magnitude
            quotient = work.get(f"quotient-{values.shape[0]}", values.shape, np.float64)
            np.multiply(values, inverse, out=quotient)
            np.floor(quotient, out=quotient)
            np.multiply(quotient, scale, out=quotient)
            values -= quotient
        shape = (len(self._outputs), self.columns, k * width)
        result = np.einsum("rw,rcw->cw", factors, products.reshape(shape)).astype(np.int64) % modulus
        return np.ascontiguousarray(result.reshape(self.columns, k, width).transpose(1, 2, 0))


def _combined(values: np.ndarray, combine: Combine | None, tails: np.ndarray) -> np.ndarray:
    """(W, cols) int64 `values` E, or with `combine` (W, outputs) E @ relation.T + (N)_6 *
    anchor, modulo 2**64 (int64 arithmetic wraps); (N)_6 the first row of `tails` (uint64)."""
    if combine is None:
        return values
    relation, anchor = combine
    return np.asarray(values @ relation.T + tails[0].view(np.int64)[:, None] * anchor)
