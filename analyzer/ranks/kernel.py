"""A fused, compiled valuation kernel: each bet's exact integer numerators for a batch of
compositions in one pass, with no intermediate arrays (numba, the optional ``fast`` extra).

`FusedForm` takes the same integer combinations of the coup-class monomials as
`analyzer.ranks.polyeval.MonomialForm` (coefficients (monomials, cols) on the basis (B, 10)
with pair kinds (B,)), and the payoff lattice's `relation` (bets, cols) and `anchor`
(bets,) of `analyzer.ranks.fast.FastEvaluator`, and computes

    numerators[w, bet] = sum_col relation[bet, col] * E[w, col] + (N_w)_6 * anchor[bet],
    E[w, col] = sum_m C[m, col] * FA[a_m](w) * FB[b_m](w) * T[e_m + d_m](w)

for lanes of `LANES` compositions at a time: the factor table and tails (as
`analyzer.ranks.polyparts.factor_tables`), every a-part and b-part, then the monomials
grouped by their outer part and tail (a-parts for some blocks, b-parts for others: the
larger side of each block of degrees is summed inside), one multiply-add per nonzero
coefficient and lane, all in uint64 arithmetic.

Exactness. Every operation is a ring operation modulo 2**64 (uint64 wraps, by definition, in
numba as in C), so each numerator comes out exact modulo 2**64; `evaluate` is called only
when every numerator is known to lie within +-2**63 (the caller's `bound`: the shoe's (N)_6
sequences times the largest payoff), so the int64 reading of the residue is the numerator
itself. Shoes of up to 458 cards take `analyzer.ranks.kernel_pinned` first: the same terms
as a float64 estimate with a proved error bound and a residue modulo 2**16 (or 2**32),
pinned into the numerator (on `analyzer.ranks.fast.kernel_pays`'s host, Dragon 7 on 8-deck
shoes: 0.6 of the uint64 kernel's time; the 8 bets of the benchmark's batch: 0.55); the
compositions it cannot pin take the uint64 kernel. Beyond it `evaluate_beyond` takes the
numerators' residues modulo a few primes below 2**41, in float64 with exact products by
fused multiply-adds (`analyzer.ranks.kernel_wide`, where the bounds are proved), joined into
the exact values: two primes to about 100 decks, three to about 12,000, four to the largest
shoe (`analyzer.core.shoe.MAX_DECKS`), one pass over the terms a prime (8 bets: 0.40 of the
8-deck rate at 10**4 decks, 0.57 at 20 to 100, 0.29 at 10**6, `reports/speed.md`); a layout
outside that kernel's bounds (a coefficient past 8,000) takes `evaluate_wide`, primes below 2**25
(`analyzer.ranks.kernel_modular`: eight reach past the largest shoe), and the caller's numpy
paths are for past them. On this AVX2 host without AVX-512 the float64 kernel is the faster
beyond int64 (fused multiply-adds against emulated 64-bit multiplies and a second kernel for
residues), the uint64 kernel within it (one multiply-add a term against one a term and
prime: 1.4 to 2 times as fast on 8-deck shoes, all 19 rank-level bets to Dragon 7 alone).

Availability. `available()` is False without numba, or when ``BACCARAT_KERNEL=numpy`` is
set in the environment (the tests run both ways); the kernel compiles on first use and is
cached on disk by numba (``cache=True``). Loading it costs about 0.4 s (numba's import
included), so a batch or study takes it once it is loaded or when it is long enough to
repay that (`worth`, `LOAD_WORTH`), and then within int64 only where it is expected faster
than the numpy paths (`analyzer.ranks.fast.kernel_pays`, whose figures are one host's: they
choose the speed, never the values); ``BACCARAT_KERNEL=always`` takes it for any.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from analyzer.core.signals import ENDING
from analyzer.ranks.kernel_modular import LANES, MODULI, ModularTerms, modular, moduli_for
from analyzer.ranks.kernel_modular import ORDERS as _ORDERS
from analyzer.ranks.kernel_modular import ZERO_ROWS as _ZERO_ROWS
from analyzer.ranks.kernel_pinned import CARDS, PinnedTerms, pinned
from analyzer.ranks.kernel_wide import CARDS as WIDE_CARDS
from analyzer.ranks.kernel_wide import WideTerms, install, wide
from analyzer.ranks.kernel_wide import moduli_for as wide_moduli_for
from analyzer.ranks.polyparts import TEN_RANKS as _TEN_RANKS
from analyzer.ranks.polyparts import VALUE_RANKS as _VALUE_RANK

__all__ = [
    "LANES",
    "LOAD_WORTH",
    "MODULI",
    "FusedForm",
    "always",
    "available",
    "compiled_pass",
    "import_numba",
    "ready",
    "warm",
    "worth",
]

_LANES = LANES  # the compiler's constant (a global: fixed inner trip counts)
_INT_LIMIT = 2**63
_compiled: dict[str, Any] = {}  # the compiled kernels, once built
_loaded: set[str] = set()  # the kernels called once in this process
_found: dict[str, bool] = {}  # whether numba is installed, looked up once
#: Compositions that repay loading the kernel (about 0.4 s) at about 2.5 µs saved each.
LOAD_WORTH = 200_000


def available() -> bool:
    """Whether the compiled kernel can run: numba importable, not switched off by
    ``BACCARAT_KERNEL=numpy``."""
    if os.environ.get("BACCARAT_KERNEL", "").strip().lower() == "numpy":
        return False
    if "numba" in sys.modules:
        return sys.modules["numba"] is not None
    if "numba" not in _found:  # found once, not imported (numba's import costs about 0.2 s)
        try:
            _found["numba"] = importlib.util.find_spec("numba") is not None
        except (ImportError, ValueError):
            _found["numba"] = False
    return _found["numba"]


def ready() -> bool:
    """Whether the kernel is available and loaded in this process (compiled, or read from
    numba's cache: about 0.4 s, numba's import included, the first time)."""
    return "numerators" in _loaded and available()


def always() -> bool:
    """Whether ``BACCARAT_KERNEL=always`` asks for the kernels on any batch and study,
    however short (the tests' way to run every study through them)."""
    return os.environ.get("BACCARAT_KERNEL", "").strip().lower() == "always"


def worth(compositions: int) -> bool:
    """Whether `compositions` should take the kernel: available, and loaded already or
    enough of them (`LOAD_WORTH`) to repay loading it (any, with `always`)."""
    if not available():
        return False
    return "numerators" in _loaded or ((compositions >= LOAD_WORTH or always()) and _importable())


def _importable() -> bool:
    """Whether numba imports (found is not enough: a broken install then counts as none)."""
    try:
        import_numba()
    except ImportError:
        _found["numba"] = False
        sys.modules.pop("numba", None)
        return False
    return True


def warm() -> None:
    """Compile the kernel, or load it from numba's cache, now if it is available (before a
    long study, and before forking workers, which then have it): one call on an empty
    layout, with the argument types of every call."""
    if not available() or "numerators" in _loaded or not _importable():
        return
    none, one = np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64)
    rows = np.array([[0, 0, 0, 0, 0, 1]], dtype=np.int64)
    _kernel()(
        np.full((1, 13), 4, dtype=np.int64), _VALUE_RANK, _TEN_RANKS, rows, rows, one, none, none, none,
        one, none, none, np.zeros(0, dtype=np.uint64), np.zeros((1, 1), dtype=np.uint64),
        np.zeros(1, dtype=np.uint64), np.zeros((1, 1), dtype=np.uint64),
    )  # fmt: skip
    floats, start, square = np.zeros(0), np.zeros(1, dtype=np.int64), np.zeros((1, 1))
    for residue in (np.uint16, np.uint32):  # the residues' two widths (`PinnedTerms`)
        _kernel("pinned")(
            np.full((1, 13), 4, dtype=np.int64), _VALUE_RANK, _TEN_RANKS, start, none, none, start,
            none, none, np.zeros(0, dtype=np.uint64), none, none, none, none, floats,
            np.zeros(0, dtype=residue), square, np.zeros((1, 1), dtype=residue), np.zeros(1),
            np.zeros(1, dtype=residue), floats, np.zeros((0, 2), dtype=np.int64), 0.0,
            np.zeros((1, 1), dtype=np.uint64), square, np.zeros(1),
        )  # fmt: skip
    _loaded.add("numerators")


def _kernel(name: str = "numerators") -> Any:
    """A compiled kernel, built on first call: "numerators" (modulo 2**64), "modular"
    (modulo primes below 2**25, `analyzer.ranks.kernel_modular`), "wide" (below 2**41,
    `kernel_wide`) or "pinned" (`kernel_pinned`)."""
    function: Any = {"numerators": _numerators, "modular": modular, "pinned": pinned, "wide": wide}[name]
    if name == "wide":
        install()  # its fused multiply-adds: LLVM's, written out (no fastmath: nothing else fused)
        return compiled_pass(name, function)
    # The other float64 kernels may fuse multiply-adds: their proofs count either way.
    return compiled_pass(name, function, False if name == "numerators" else {"contract"})


def compiled_pass(name: str, function: Any, fastmath: bool | set[str] = False) -> Any:
    """`function` compiled once per process under `name` (numba njit, cached on disk, no
    GIL, no bounds checks; `fastmath` numba's flags), its calls wrapped by `compiled`."""
    if name not in _compiled:
        numba = import_numba()
        _compiled[name] = compiled(
            numba.njit(cache=True, nogil=True, boundscheck=False, fastmath=fastmath)(function)
        )
    return _compiled[name]


def import_numba() -> Any:
    """numba, with the array implementations its compiler loads (`numba.np.arraymath`)
    imported without scipy.linalg when nothing in this process has loaded scipy.linalg yet.

    That module probes for a BLAS at import by importing scipy.linalg (about 0.2 s of CPU)
    and records the answer (`_HAVE_BLAS`); these kernels use no BLAS. Found missing, it only
    makes numba's jitted np.correlate and np.convolve use numba's own loop in this process
    (the same values): np.dot and numba's linalg look scipy up when they are first
    compiled, as always. The block is this import's alone: it holds on this thread only (an
    import finder that answers for no other thread), scipy.linalg imports normally afterwards,
    and nothing changes once scipy.linalg is loaded."""
    import numba

    if "numba.np.arraymath" not in sys.modules and "scipy.linalg" not in sys.modules:
        blocked = _Blocked("scipy.linalg")
        sys.meta_path.insert(0, blocked)
        try:
            import numba.np.arraymath
        finally:
            sys.meta_path.remove(blocked)
    return numba


class _Blocked(importlib.abc.MetaPathFinder):
    """An import finder that makes `name` missing for the thread that made it, and finds
    nothing (the other finders answer) for any other thread."""

    def __init__(self, name: str) -> None:
        self.name, self.thread = name, threading.get_ident()

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> None:
        if fullname == self.name and threading.get_ident() == self.thread:
            raise ModuleNotFoundError(f"{fullname} held back while numba loads", name=fullname)
        return None


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP held back while the block runs (in the main thread), each
    taken as it would have been when the block ends. An interrupt inside numba's compiler
    is lost in a callback of its LLVM binding and surfaces as a RuntimeError ("no compiled
    object yet") with a traceback; held, it comes after the compile, as KeyboardInterrupt.
    A signal this process ignores stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    taken = [number for number in ENDING if signal.getsignal(number) not in (signal.SIG_IGN, None)]
    previous = {number: signal.signal(number, lambda number, frame: held.append(number)) for number in taken}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if held:
            signal.raise_signal(held[0])  # its own handler now: KeyboardInterrupt for Ctrl-C


def compiled(dispatcher: Any) -> Callable[..., Any]:
    """A numba function whose calls, until it holds a compiled signature (the first call
    compiles it or reads numba's cache: up to seconds), run with the ending signals deferred
    (`_signals_deferred`); later calls go straight to it (so `warm` compiles every signature
    the calls use). The numba dispatcher is its attribute `dispatcher`. Whether it holds one
    is read until it does, then remembered (reading `signatures` costs about 11 µs a call)."""
    held: list[bool] = []

    def call(*args: Any) -> Any:
        if held:
            return dispatcher(*args)
        if dispatcher.signatures:
            held.append(True)
            return dispatcher(*args)
        with _signals_deferred():
            return dispatcher(*args)

    call.dispatcher = dispatcher  # type: ignore[attr-defined]
    return call


class FusedForm:
    """The numerators `relation @ E + (N)_6 * anchor` of the integer combinations
    `coefficients` (B, cols) of the monomials `basis` (B, 10) with pair kinds
    `zero_kind` (B,), laid out for the compiled kernel."""

    def __init__(
        self,
        basis: np.ndarray,
        zero_kind: np.ndarray,
        coefficients: np.ndarray,
        relation: np.ndarray,
        anchor: np.ndarray,
    ) -> None:
        basis = np.asarray(basis, dtype=np.int64)
        coefficients = np.asarray(coefficients, dtype=np.int64)
        self.columns = coefficients.shape[1]
        self.outputs = len(anchor)
        a_keys = np.column_stack(
            [np.asarray(zero_kind, dtype=np.int64) * _ORDERS + basis[:, 0]]
            + [_ZERO_ROWS + v * _ORDERS + basis[:, v] for v in range(1, 5)]
        )
        b_keys = np.column_stack([_ZERO_ROWS + v * _ORDERS + basis[:, v] for v in range(5, 10)])
        self._a_rows, a_index = np.unique(a_keys, axis=0, return_inverse=True)
        self._b_rows, b_index = np.unique(b_keys, axis=0, return_inverse=True)
        a_index, b_index = a_index.ravel(), b_index.ravel()
        e, d = basis[:, :5].sum(axis=1), basis[:, 5:].sum(axis=1)
        tail = e + d
        # Each block of degrees (e, d) is summed over its larger side inside, its smaller
        # side (with the tail) outside: one outer multiply per output instead of per term.
        inner_a = np.zeros(len(basis), dtype=bool)
        for pair in set(zip(e.tolist(), d.tolist(), strict=True)):
            here = (e == pair[0]) & (d == pair[1])
            inner_a[here] = len(np.unique(a_index[here])) >= len(np.unique(b_index[here]))
        # Groups: (outer side: 0 b-part outside / 1 a-part outside, outer part, tail).
        outer_side = np.where(inner_a, 0, 1)
        outer = np.where(inner_a, b_index, a_index)
        inner = np.where(inner_a, a_index, b_index)
        keys = np.column_stack([outer_side, outer, tail])
        group_keys, group_of = np.unique(keys, axis=0, return_inverse=True)
        group_of = group_of.ravel()
        # Entries: one per nonzero coefficient (monomial, column), by group, column, inner
        # part; a run is a group's entries on one column.
        rows, cols = np.nonzero(coefficients)
        order = np.lexsort((inner[rows], cols, group_of[rows]))
        rows, cols = rows[order], cols[order]
        # Only the parts some entry or group reads, renumbered.
        inside_a = outer_side[rows] == 0
        outside_a = group_keys[:, 0] == 1
        used_a = np.unique(np.concatenate([inner[rows][inside_a], group_keys[outside_a, 1]]))
        used_b = np.unique(np.concatenate([inner[rows][~inside_a], group_keys[~outside_a, 1]]))
        new_a = np.zeros(len(self._a_rows), dtype=np.int64)
        new_b = np.zeros(len(self._b_rows), dtype=np.int64)
        new_a[used_a], new_b[used_b] = np.arange(len(used_a)), np.arange(len(used_b))
        self._a_rows, self._b_rows = self._a_rows[used_a], self._b_rows[used_b]
        self._entry_part = np.zeros(len(rows), dtype=np.int64)
        self._entry_part[inside_a] = new_a[inner[rows][inside_a]]
        self._entry_part[~inside_a] = new_b[inner[rows][~inside_a]]
        run_keys = group_of[rows] * self.columns + cols
        firsts = np.flatnonzero(np.diff(run_keys, prepend=-1))
        self._run_start = np.append(firsts, len(rows)).astype(np.int64)
        self._run_col = np.ascontiguousarray(cols[firsts], dtype=np.int64)
        self._entry_coef = np.ascontiguousarray(coefficients[rows, cols]).view(np.uint64)
        self._entry_col, self._entry_monomial = cols, rows
        self._entry_degree = np.column_stack([basis[rows, 0], basis[rows, 1:].sum(axis=1)])
        starts = np.searchsorted(group_of[rows][firsts], np.arange(len(group_keys) + 1))
        self._group_start = np.ascontiguousarray(starts, dtype=np.int64)
        self._group_side = np.ascontiguousarray(group_keys[:, 0], dtype=np.int64)
        self._group_part = np.zeros(len(group_keys), dtype=np.int64)
        self._group_part[outside_a] = new_a[group_keys[outside_a, 1]]
        self._group_part[~outside_a] = new_b[group_keys[~outside_a, 1]]
        self._group_tail = np.ascontiguousarray(group_keys[:, 2], dtype=np.int64)
        self._relation = np.ascontiguousarray(np.asarray(relation, dtype=np.int64)).view(np.uint64)
        self._anchor = np.ascontiguousarray(np.asarray(anchor, dtype=np.int64)).view(np.uint64)
        self._a_rows, self._b_rows = _unit_rows_last(self._a_rows), _unit_rows_last(self._b_rows)
        #: Multiply-adds per composition and lane: one per nonzero coefficient.
        self.terms = len(rows)
        self._modular: ModularTerms | None = None  # the residues of the constants, on first use
        self._wide: WideTerms | None = None  # the same for `kernel_wide`, on first use
        self._pinned: PinnedTerms | None = None  # the pinned kernel's constants, on first use

    def evaluate(self, counts: np.ndarray, bound: int, cards: int | None = None) -> np.ndarray | None:
        """(W, outputs) int64 numerators of (W, 13) int64 rank counts, exact when every
        one is within +-`bound` < 2**63; None (the caller's other paths) when it is not.
        The compositions are pinned (`pinned`), those it cannot pin (past
        `analyzer.ranks.kernel_pinned.CARDS` cards, or its error bound) computed modulo
        2**64; all of them when `cards`, the largest shoe's cards, is past `CARDS`."""
        if bound >= _INT_LIMIT:
            return None
        counts = np.ascontiguousarray(counts, dtype=np.int64)
        if cards is not None and cards > CARDS:
            return self._wrapped(counts)
        out, _, error = self.pinned(counts)
        missed = np.flatnonzero(~(error <= self._pinned_terms().limit))
        if len(missed):
            out[missed] = self._wrapped(counts[missed])
        return out

    def pinned(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pinned kernel (`analyzer.ranks.kernel_pinned`) on (W, 13) contiguous int64
        counts: (W, outputs) int64 numerators (exact modulo 2**64 where `error` is within
        the terms' `limit`), their (W, outputs) float64 estimates and (W,) the bound on
        the estimates' errors (inf past `CARDS` cards)."""
        out = np.empty((len(counts), self.outputs), dtype=np.uint64)
        estimates = np.empty((len(counts), self.outputs), dtype=np.float64)
        error = np.empty(len(counts), dtype=np.float64)
        _kernel("pinned")(
            counts, _VALUE_RANK, _TEN_RANKS, self._group_start, self._group_side, self._group_tail,
            self._run_start, self._run_col, *self._pinned_terms().arrays(), out, estimates, error,
        )  # fmt: skip
        _loaded.add("numerators")
        return out.view(np.int64), estimates, error

    def _pinned_terms(self) -> PinnedTerms:
        """The pinned kernel's constants, built on first use."""
        if self._pinned is None:
            self._pinned = PinnedTerms(
                self._entry_coef.view(np.int64), self._entry_degree, self._entry_col,
                (self._run_start, self._run_col, self._entry_part),
                (self._group_start, self._group_side, self._group_part),
                self._relation.view(np.int64), self._anchor.view(np.int64), (self._a_rows, self._b_rows),
            )  # fmt: skip
        return self._pinned

    def _wrapped(self, counts: np.ndarray) -> np.ndarray:
        """(W, outputs) int64 numerators of (W, 13) contiguous int64 counts modulo 2**64."""
        out = np.empty((len(counts), self.outputs), dtype=np.uint64)
        _kernel()(
            counts,
            _VALUE_RANK,
            _TEN_RANKS,
            self._a_rows,
            self._b_rows,
            self._group_start,
            self._group_side,
            self._group_part,
            self._group_tail,
            self._run_start,
            self._run_col,
            self._entry_part,
            self._entry_coef,
            self._relation,
            self._anchor,
            out,
        )
        _loaded.add("numerators")
        return out.view(np.int64)

    def evaluate_beyond(self, counts: np.ndarray, bound: int) -> np.ndarray | None:
        """(W, outputs) exact numerators as Python ints (an object array) of (W, 13) int64
        rank counts whose numerators are within +-`bound`, from their residues modulo as
        many primes below 2**41 as pin them (`analyzer.ranks.kernel_wide`: three at 10**4
        decks, four at 10**6, against five and seven below 2**25); from `evaluate_wide`
        when that kernel declines the layout, the bound or the counts (a negative one, or a
        shoe of `analyzer.ranks.kernel_wide.CARDS` cards or more)."""
        used = wide_moduli_for(bound)
        if self._wide is None:
            groups = (self._group_side, self._group_part, self._group_tail)
            self._wide = WideTerms(*self._signed_terms(), (self._a_rows, self._b_rows, *groups))
        counts = np.ascontiguousarray(counts, dtype=np.int64)
        outside = counts.min(initial=0) < 0 or counts.max(initial=0) >= WIDE_CARDS  # 13 sum in int64
        outside = outside or counts.sum(axis=1).max(initial=0) >= WIDE_CARDS
        if used is None or not self._wide.usable or outside:
            return self.evaluate_wide(counts, bound)
        return self._by_primes("wide", counts, bound, self._wide.arrays, used)

    def evaluate_wide(self, counts: np.ndarray, bound: int) -> np.ndarray | None:
        """(W, outputs) exact numerators as Python ints (an object array) of (W, 13) int64
        rank counts whose numerators are within +-`bound`, from their residues modulo as
        many of `MODULI` as pin them (`analyzer.ranks.kernel_modular`); None past all of
        them (about 2**198, past the largest shoe's 2**161)."""
        used = moduli_for(bound)
        if used is None:
            return None
        if self._modular is None:
            self._modular = ModularTerms(*self._signed_terms())
        terms, groups = self._modular, (self._a_rows, self._b_rows, self._group_side, self._group_part)
        return self._by_primes(
            "modular",
            counts,
            bound,
            lambda limbs: (*groups, self._group_tail, *terms.arrays(limbs), terms.chunk),
            used,
        )

    def _signed_terms(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """The prime kernels' constants (`ModularTerms`, `WideTerms`): the coefficients,
        relation and anchor as int64, and the runs (group_start, run_start, run_col, entry_part)."""
        signed = (self._entry_coef.view(np.int64), self._relation.view(np.int64), self._anchor.view(np.int64))
        return (*signed, (self._group_start, self._run_start, self._run_col, self._entry_part))

    def _by_primes(
        self,
        name: str,
        counts: np.ndarray,
        bound: int,
        constants: Callable[[int], tuple[Any, ...]],
        used: int,
    ) -> np.ndarray:
        """The prime kernel `name` on `counts` with `used` primes and its `constants` (the
        arguments after the counts') for the limbs of +-`bound`: (W, outputs) Python ints."""
        limbs = bound.bit_length() // 64 + 1  # the two's complement of +-bound
        counts = np.ascontiguousarray(counts, dtype=np.int64)
        out = np.empty((limbs, len(counts), self.outputs), dtype=np.uint64)
        _kernel(name)(counts, _VALUE_RANK, _TEN_RANKS, *constants(limbs), used, out)
        return _joined(out)


def _joined(out: np.ndarray) -> np.ndarray:
    """(W, outputs) Python ints (an object array) of their (limbs, W, outputs) uint64 two's
    complement limbs, least significant first."""
    value = out[-1].view(np.int64).astype(object)  # the top limb is signed
    for limb in range(len(out) - 2, -1, -1):
        value = (value << 64) + out[limb].astype(object)
    return np.asarray(value)


def _unit_rows_last(rows: np.ndarray) -> np.ndarray:
    """(parts, 6): each part's 5 factor-table rows, those whose value is always 1 (order 0
    of a value, or of pair kind 0) last, then how many are not (at least 1: a part of
    units is its first unit row), so the kernels multiply only the others."""
    unit = ((rows >= _ZERO_ROWS) & ((rows - _ZERO_ROWS) % _ORDERS == 0)) | (rows == 0)
    order = np.argsort(unit, axis=1, kind="stable")
    laid = np.take_along_axis(rows, order, axis=1)
    count = np.maximum((~unit).sum(axis=1), 1)
    return np.ascontiguousarray(np.column_stack([laid, count]), dtype=np.int64)


def _numerators(
    counts: Any, value_rank: Any, ten_ranks: Any, a_rows: Any, b_rows: Any, group_start: Any,
    group_side: Any, group_part: Any, group_tail: Any, run_start: Any, run_col: Any, entry_part: Any,
    entry_coef: Any, relation: Any, anchor: Any, out: Any,
) -> None:  # fmt: skip
    """The kernel, in the subset of Python numba compiles (see `FusedForm`): `out` (W,
    outputs) uint64 numerators modulo 2**64 of `counts` (W, 13) int64, `_LANES` at a time."""
    one, zero = np.uint64(1), np.uint64(0)
    width, columns, outputs = counts.shape[0], relation.shape[1], relation.shape[0]
    c = np.zeros((13, _LANES), dtype=np.uint64)
    table = np.zeros((_ZERO_ROWS + 10 * _ORDERS, _LANES), dtype=np.uint64)
    tails = np.zeros((_ORDERS, _LANES), dtype=np.uint64)
    sums = np.zeros((4, _LANES), dtype=np.uint64)  # cards, then s2, the pairs' squares, the fours
    fa = np.zeros((a_rows.shape[0], _LANES), dtype=np.uint64)
    fb = np.zeros((b_rows.shape[0], _LANES), dtype=np.uint64)
    total = np.zeros((columns, _LANES), dtype=np.uint64)
    factor = np.zeros(_LANES, dtype=np.uint64)
    acc = np.zeros(_LANES, dtype=np.uint64)
    for start in range(0, width, _LANES):
        n = min(_LANES, width - start)
        for lane in range(_LANES):  # a short last batch repeats its last composition
            row = start + min(lane, n - 1)
            for rank in range(13):
                c[rank, lane] = np.uint64(counts[row, rank])
        sums[:, :] = zero
        for rank in range(13):
            for lane in range(_LANES):
                sums[0, lane] += c[rank, lane]
        # The factor table: falling factorials (c_v)_j of each value, then the pair kinds.
        for v in range(10):
            base = _ZERO_ROWS + v * _ORDERS
            for lane in range(_LANES):
                table[base, lane] = one
            if v == 0:
                for lane in range(_LANES):
                    tens = c[ten_ranks[0], lane] + c[ten_ranks[1], lane]
                    table[base + 1, lane] = tens + c[ten_ranks[2], lane] + c[ten_ranks[3], lane]
            else:
                for lane in range(_LANES):
                    table[base + 1, lane] = c[value_rank[v - 1], lane]
            for j in range(2, _ORDERS):  # a zero factor stays zero
                for lane in range(_LANES):
                    count = table[base + 1, lane]
                    table[base + j, lane] = table[base + j - 1, lane] * (count - np.uint64(j - 1))
        for i in range(4):
            rank = ten_ranks[i]
            for lane in range(_LANES):
                t = c[rank, lane]
                pair = t * (t - one)
                sums[1, lane] += pair
                sums[2, lane] += pair * pair
                sums[3, lane] += pair * (t - np.uint64(2)) * (t - np.uint64(3))
        for j in range(_ORDERS):
            for lane in range(_LANES):
                table[j, lane] = table[_ZERO_ROWS + j, lane]
                table[_ORDERS + j, lane] = zero
                table[2 * _ORDERS + j, lane] = zero
        for lane in range(_LANES):
            table[_ORDERS + 2, lane] = sums[1, lane]
            table[2 * _ORDERS + 4, lane] = sums[1, lane] * sums[1, lane] - sums[2, lane] + sums[3, lane]
        for row, used in ((_ORDERS, 2), (2 * _ORDERS, 4)):
            for j in range(used + 1, _ORDERS):
                for lane in range(_LANES):
                    tens = table[_ZERO_ROWS + 1, lane]
                    table[row + j, lane] = table[row + j - 1, lane] * (tens - np.uint64(j - 1))
        for lane in range(_LANES):  # the tails (N-k)_(6-k)
            tails[_ORDERS - 1, lane] = one
        for k in range(_ORDERS - 2, -1, -1):
            for lane in range(_LANES):
                tails[k, lane] = tails[k + 1, lane] * (sums[0, lane] - np.uint64(k))
        for rows, parts in ((a_rows, fa), (b_rows, fb)):  # the parts: products of their rows other than 1
            for p in range(rows.shape[0]):
                first = rows[p, 0]
                for lane in range(_LANES):
                    parts[p, lane] = table[first, lane]
                for f in range(1, rows[p, 5]):
                    row = rows[p, f]
                    for lane in range(_LANES):
                        parts[p, lane] *= table[row, lane]
        total[:, :] = zero
        for g in range(group_start.shape[0] - 1):  # the sums inside, then the outer factor
            inner, outer = (fa, fb) if group_side[g] == 0 else (fb, fa)
            part, tail = group_part[g], group_tail[g]
            for lane in range(_LANES):
                factor[lane] = outer[part, lane] * tails[tail, lane]
            for r in range(group_start[g], group_start[g + 1]):
                col = run_col[r]
                for lane in range(_LANES):
                    acc[lane] = zero
                for e in range(run_start[r], run_start[r + 1]):
                    coef, p = entry_coef[e], entry_part[e]
                    for lane in range(_LANES):
                        acc[lane] += coef * inner[p, lane]
                for lane in range(_LANES):
                    total[col, lane] += acc[lane] * factor[lane]
        for lane in range(n):
            for i in range(outputs):
                value = anchor[i] * tails[0, lane]
                for col in range(columns):
                    value += relation[i, col] * total[col, lane]
                out[start + lane, i] = value
