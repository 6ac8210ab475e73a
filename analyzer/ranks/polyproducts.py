"""Exact products of one group of coefficient blocks with a batch of parts, in float64.

A `Group` is the blocks (analyzer.ranks.polyeval) sharing their contracted side: a float64
matrix of integer coefficients, rows (outputs x columns), against the parts of one degree
and a unit part. Its products matrix @ v, for nonnegative integer parts v (exact float64,
or uint64 residues modulo 2**64), come out exact modulo 2**64 in one of three ways:

- the magic column (`fits`, `contract`): when a bound on the sums' terms is below 2**50, a
  column of 1.5 * 2**52 times the unit part makes every float64 sum's bits, read as int64,
  the sum plus MAGIC_BITS;
- limbs (`contract`, `pinned`): the parts cut into limbs of `limb_bits` bits, each product
  of a limb exact (integers below 2**52);
- one low limb (`pinned`): given float64 estimates of the products within 2**(b-3), one
  exact low limb L gives each product as L + 2**b * rint((estimate - L) / 2**b).
"""

from __future__ import annotations

import numpy as np

from analyzer.ranks.polyparts import Workspace

__all__ = ["MAGIC", "MAGIC_BITS", "SAFE_MAGIC", "Group"]

_PIN_ROOM = 2.0**-3  # a product pinned by one limb of b bits: its estimate within 2**(b-3)
SAFE_MAGIC = 2.0**50  # a float sum of nonnegative terms computed below this is below 2**51
MAGIC = 1.5 * 2.0**52
MAGIC_BITS = np.array([MAGIC]).view(np.uint64)[0]


class Group:
    """Blocks sharing their contracted side: the parts `inputs` (a slice of one side's
    table, all of one degree, followed by a unit part) against the other side's parts
    `outputs`, each with the tail degree `tail_degree`; `dense` is (outputs, cols,
    inputs) int64."""

    def __init__(
        self, inputs: slice, outputs: np.ndarray, tail_degree: np.ndarray, dense: np.ndarray
    ) -> None:
        self.inputs, self.outputs, self.tail_degree = inputs, outputs, tail_degree
        self.degree = 0  # of the contracted parts
        self.columns = dense.shape[1]
        layout = dense.reshape(-1, dense.shape[2])
        self.matrix = np.ascontiguousarray(layout, dtype=np.float64)
        # The magic column times the unit part adds 1.5 * 2**52 to every sum below 2**51 in
        # magnitude: the float64 sum's bits, read as int64, are then MAGIC_BITS + the sum.
        self.magic_matrix = np.hstack([self.matrix, np.full((len(layout), 1), MAGIC)])
        self.abs_matrix = np.abs(self.matrix)  # for bounds
        row_sum = int(np.abs(layout).sum(axis=1).max(initial=1))
        # Limb width: a row of the matrix times a limb sums below 2**52.
        self.limb_bits = 52 - row_sum.bit_length()
        if self.limb_bits < 8:
            raise ValueError("coefficients too large for exact float64 limbs")
        self._work = Workspace()

    def fits(self, largest: np.ndarray) -> bool:
        """Whether one float64 product through the magic column is exact for inputs whose
        rows are at most `largest` (the contracted side's bound on each part)."""
        return float((self.abs_matrix @ largest[self.inputs]).max(initial=0)) < SAFE_MAGIC

    def contract(self, values: np.ndarray, factor: np.ndarray, magic: bool, top: int) -> np.ndarray:
        """(cols, W) uint64: the group's sum modulo 2**64. `values`: the inputs' rows and a
        unit part, float64 exact or uint64 modulo 2**64, below 2**`top`; `magic`: one
        product through the magic column is exact (see `fits`), else limbs; `factor`:
        (outputs, W) uint64, each output's other-side part times its tail."""
        work = self._work
        rows, width = self.matrix.shape[0], values.shape[1]
        offset = None
        if magic:
            product = work.get("product", (rows, width), np.float64)
            np.matmul(self.magic_matrix, values, out=product)  # + the unit part
            total = product.view(np.uint64)  # MAGIC_BITS + each sum, modulo 2**64
            offset = factor.sum(axis=0) * MAGIC_BITS
        else:
            total = self._limbs(values[:-1], top)
        result = np.einsum("rw,rcw->cw", factor, total.reshape(len(self.outputs), self.columns, width))
        if offset is not None:
            result -= offset
        return np.asarray(result)

    def pinned(self, values: np.ndarray, estimate: np.ndarray, error: float, out: np.ndarray) -> None:
        """`out` (uint64) = matrix @ v modulo 2**64 for nonnegative integer inputs v given by
        `values` (their residues in uint64, or exact float64) and by `estimate`, float64
        values within `error` of the true products. With b' = `limb_bits` (floats) or one
        less (residues), one limb gives L = matrix @ r exactly for r = v - 2**b' * h (h
        integers, |L| < 2**51), so the product is L + 2**b' * K for the integer K nearest
        to (estimate - L) / 2**b' when `error` < 2**(b-3), b = `limb_bits` (the rounding of
        the difference adds at most 2**(b'-10)). Else every limb of the residues."""
        if error < _PIN_ROOM * 2.0**self.limb_bits:
            self._low_limb(values, estimate, out)
        else:
            np.copyto(out, self._limbs(values, 64))

    def _low_limb(self, values: np.ndarray, estimate: np.ndarray, out: np.ndarray) -> None:
        """`pinned` with one limb, in fewer passes, for an `error` below 2**(b-3): the limb
        is v mod 2**(b-1) (uint64 residues), or v minus v rounded to a multiple of 2**b
        (exact floats: by adding and subtracting 1.5 * 2**(52+b); at most 2**(b-1) in
        magnitude), so that L stays below 2**51 in magnitude; integers below 2**51 are read
        from float64 bits through the magic constant instead of by conversion."""
        work, bits = self._work, self.limb_bits
        limb = work.get("limb", values.shape, np.float64)
        if values.dtype == np.float64:  # exact integers below 2**53
            round_off = 1.5 * 2.0 ** (52 + bits)
            np.add(values, round_off, out=limb)
            np.subtract(limb, round_off, out=limb)  # v rounded to a multiple of 2**b
            np.subtract(values, limb, out=limb)
        else:
            bits -= 1
            low = work.get("rest", values.shape)
            np.bitwise_and(values, np.uint64((1 << bits) - 1), out=low)
            np.copyto(limb, low.view(np.int64), casting="unsafe")
        product = work.get("product", estimate.shape, np.float64)
        np.matmul(self.matrix, limb, out=product)  # L, exact: below 2**51 in magnitude
        turns = work.get("turns", estimate.shape, np.float64)
        np.subtract(estimate, product, out=turns)
        np.multiply(turns, 2.0**-bits, out=turns)
        np.add(turns, MAGIC, out=turns)  # rounded to the integer (P - L) / 2**b, + MAGIC
        np.add(product, MAGIC, out=product)
        np.left_shift(turns.view(np.uint64), np.uint64(bits), out=out)
        out += product.view(np.uint64)
        out -= (MAGIC_BITS << np.uint64(bits)) + MAGIC_BITS

    def _limbs(self, values: np.ndarray, top: int) -> np.ndarray:
        """matrix @ values modulo 2**64 (uint64), exact: `values` (exact float64 or uint64,
        below 2**top) is cut into limbs of `limb_bits` bits, each product summing integers
        below 2**52."""
        work = self._work
        bits, width = self.limb_bits, values.shape[1]
        shape = (self.matrix.shape[0], width)
        product = work.get("product", shape, np.float64)
        part, total = work.get("part", shape), work.get("total", shape)
        limb = work.get("limb", values.shape, np.float64)
        buffers = (
            work.get("rest", values.shape, values.dtype.type),
            work.get("high", values.shape, values.dtype.type),
        )
        rest = values
        mask = np.uint64((1 << bits) - 1)
        for index, shift in enumerate(range(0, max(top, 1), bits)):
            if values.dtype == np.float64:  # exact: powers of two and integers below 2**53
                high = buffers[index % 2]
                np.multiply(rest, 2.0**-bits, out=high)
                np.floor(high, out=high)
                np.multiply(high, -(2.0**bits), out=limb)
                np.add(limb, rest, out=limb)
                rest = high
            else:
                shifted = buffers[0]
                if shift:
                    np.right_shift(values, np.uint64(shift), out=shifted)
                    np.bitwise_and(shifted, mask, out=shifted)
                else:
                    np.bitwise_and(values, mask, out=shifted)
                np.copyto(limb, shifted.view(np.int64), casting="unsafe")  # below 2**63
            np.matmul(self.matrix, limb, out=product)
            np.copyto(part.view(np.int64), product, casting="unsafe")  # exact integers
            if shift == 0:
                total, part = part, total
            else:
                np.left_shift(part, np.uint64(shift), out=part)
                total += part
        return total
