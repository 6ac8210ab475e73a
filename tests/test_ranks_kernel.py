"""The compiled valuation kernel (analyzer.ranks.kernel) is exact: every numerator equals the
exact integer path and the numpy paths, on shoes up to its int64 bound, in any batch; beyond
it the modular kernel is, up to its own bound, past which the evaluator takes the numpy
paths. Kernel tests skip without numba."""

from __future__ import annotations

import os
import subprocess
import sys
from math import perm, prod
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sympy import isprime

from analyzer.core.catalogue import RANK_BETS
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD, Rules
from analyzer.core.shoe import MAX_DECKS, Shoe
from analyzer.ranks import hybrid, kernel, kernel_modular
from analyzer.ranks.compiler import basis_values
from analyzer.ranks.enumeration import compile_rules
from analyzer.ranks.fast import FastEvaluator, kernel_pays

MAIN_BETS = ("player", "banker", "tie", "tie-9to1", "super6-banker", "ez-banker", "dragon7", "panda8")
MAIN = [RANK_BETS[n] for n in MAIN_BETS]
SETS = {"main": MAIN, "all": list(RANK_BETS.values()), "dragon7": [RANK_BETS["dragon7"]]}
_EVALUATORS: dict[tuple[str, str], FastEvaluator] = {}
DECKS = st.sampled_from([1, 2, 8, 20, 100, 1000, 10**4, 18_000, 10**6])  # 6 cards to 10**6 decks


@pytest.fixture(autouse=True)
def kernel_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """These are the kernel's tests: on even when the suite runs with BACCARAT_KERNEL=numpy,
    loaded, and ``always`` (an evaluator takes it then for any batch and layout, even where
    the numpy paths are expected faster: `analyzer.ranks.fast.kernel_pays`)."""
    monkeypatch.setenv("BACCARAT_KERNEL", "always")
    kernel.warm()


def evaluator(which: str, rules: Rules = STANDARD) -> FastEvaluator:
    key = (which, rules.name)
    if key not in _EVALUATORS:
        _EVALUATORS[key] = FastEvaluator(SETS[which], rules)
    return _EVALUATORS[key]


def exact_numerators(ev: FastEvaluator, counts: list[int]) -> list[int]:
    """The slow exact path: each monomial's value as a Python int, times the folded payoffs."""
    values, _ = basis_values(compile_rules(ev.rules), Shoe.from_counts(counts))
    folded = ev.matrix.astype(object) @ ev.payoffs.astype(object)
    return list(values.astype(object)[ev._keep] @ folded)


def composition(decks: int) -> st.SearchStrategy[list[int]]:
    """Any composition of a `decks`-deck shoe with at least 6 cards left."""
    return st.lists(st.integers(0, 4 * decks), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


def numpy_numerators(ev: FastEvaluator, counts: np.ndarray, monkeypatch: pytest.MonkeyPatch) -> np.ndarray:
    with monkeypatch.context() as patch:
        patch.setenv("BACCARAT_KERNEL", "numpy")
        return ev.expectations(counts)[0]


@settings(max_examples=30, deadline=None)
@given(
    rows=st.lists(st.sampled_from([1, 2, 6, 8, 14]).flatmap(composition), min_size=1, max_size=9),
    which=st.sampled_from(list(SETS)),
    other_rules=st.booleans(),
)
def test_kernel_rows_equal_the_exact_path_and_the_numpy_paths(
    rows: list[list[int]], which: str, other_rules: bool
) -> None:
    pytest.importorskip("numba")
    ev = evaluator(which, BANCO_4_DRAWS_ON_0_1 if other_rules else STANDARD)
    counts = np.array(rows, dtype=np.int64)
    form = ev._fused()
    assert form is not None
    largest = perm(int(counts.sum(axis=1).max()), 6) * ev._largest_payoff
    got = form.evaluate(counts, largest)
    assert got is not None and got.dtype == np.int64
    for row, shoe in enumerate(rows):
        assert [int(x) for x in got[row]] == exact_numerators(ev, shoe)
    with pytest.MonkeyPatch.context() as patch:
        assert (numpy_numerators(ev, counts, patch) == got).all()


@pytest.mark.parametrize("width", [1, 255, 256, 257, 600])
def test_any_batch_width_gives_the_same_rows(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches shorter than the kernel's lanes, or not a multiple of them (the last
    composition repeated in the spare lanes), give the numpy paths' rows."""
    pytest.importorskip("numba")
    rng = np.random.default_rng(width)
    sizes = rng.integers(6, 417, width)
    counts = np.array([rng.multivariate_hypergeometric([32] * 13, int(n)) for n in sizes])
    ev = evaluator("all")
    numerators, _ = ev.expectations(counts)
    assert numerators.dtype == np.int64
    assert (numerators == numpy_numerators(ev, counts, monkeypatch)).all()
    assert (ev.expectations(counts[::-1], batch=7)[0] == numerators[::-1]).all()


def test_the_kernel_runs_only_within_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the int64 bound ((N)_6 sequences times the largest payoff) the kernel declines
    and the evaluator's numpy paths give the exact (object) numerators."""
    pytest.importorskip("numba")
    ev = evaluator("main")
    form = ev._fused()
    assert form is not None
    assert form.evaluate(np.array([[32] * 13]), 2**63) is None
    calls: list[int] = []
    original = form.evaluate
    monkeypatch.setattr(
        form, "evaluate", lambda rows, bound, cards=None: calls.append(bound) or original(rows, bound, cards)
    )
    fits = max(n for n in range(6, 2000) if perm(n, 6) * ev._largest_payoff < 2**63)
    small = np.array([[fits // 13 + (i < fits % 13) for i in range(13)]])  # fits cards
    big = small + np.eye(13, dtype=np.int64)[0]  # one card more: beyond the bound
    for counts in (small, big):
        numerators, _ = ev.expectations(counts)
        assert [int(x) for x in numerators[0]] == exact_numerators(ev, counts[0].tolist())
    assert calls and all(bound < 2**63 for bound in calls[:1])
    assert ev.expectations(big)[0].dtype == object


def fresh_process(script: str, switch: str) -> str:
    """What `script` prints, run by this interpreter in a fresh process with
    ``BACCARAT_KERNEL=switch``."""
    env = {**os.environ, "BACCARAT_KERNEL": switch}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    return done.stdout


def counted(method: Any, name: str, calls: list[str]) -> Any:
    """`method`, recording `name` in `calls` at each call."""

    def call(*args: Any) -> Any:
        calls.append(name)
        return method(*args)

    return call


def test_a_batch_within_int64_takes_the_path_expected_faster(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``always``, the int64 kernel takes layouts of few terms (Dragon 7 alone;
    player, banker, tie) and the numpy paths those of many columns (all rank-level bets, the
    main bets) and short batches of the main bets (a batch shorter than the kernel's lanes pays for them all);
    beyond int64 the prime kernels take any (`FusedForm.evaluate_beyond`); a batch for the
    numpy paths asks for no kernel layout (numba need not load). The numerators are the same either way."""
    pytest.importorskip("numba")
    monkeypatch.delenv("BACCARAT_KERNEL")
    assert kernel_pays(6000, 2116, 1) and not kernel_pays(6000, 54981, 13)
    assert kernel_pays(6000, 8857, 2) and not kernel_pays(6000, 25542, 5) and kernel_pays(384, 2116, 1)
    assert not kernel_pays(20, 25542, 5) and kernel_pays(20, 2116, 1)
    rng = np.random.default_rng(5)
    counts = np.array([rng.multivariate_hypergeometric([32] * 13, int(n)) for n in rng.integers(6, 417, 300)])
    for which, takes in (("dragon7", True), ("all", False)):
        ev = evaluator(which)
        form = ev._fused()
        assert form is not None and form.terms == ev.terms  # the count the choice is made on
        calls: list[str] = []
        with monkeypatch.context() as patch:
            for name in ("evaluate", "evaluate_beyond"):
                patch.setattr(form, name, counted(getattr(form, name), name, calls))
            patch.setattr(ev, "_fused", counted(ev._fused, "layout", calls))
            numerators, _ = ev.expectations(counts)
            assert calls == (["layout", "evaluate"] if takes else [])  # the numpy paths load nothing
            ev.expectations(np.array([[4000] * 13]))
            assert calls[-1:] == ["evaluate_beyond"]
        assert (numerators == numpy_numerators(ev, counts, monkeypatch)).all()


def test_the_compiled_passes_of_the_numpy_paths_give_their_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the kernels loaded, the numpy paths build their parts and contract their
    products in compiled passes (`analyzer.ranks.hybrid`): the same results to the bit as
    without them, on depleted 1- to 8-deck shoes and a 6-card one, for every bet set; the
    lattice values, and the numerators combined from them in the same pass (`combine`),
    equal to the combination in Python integers."""
    pytest.importorskip("numba")
    rng = np.random.default_rng(7)
    decks = rng.integers(1, 9, 200)
    counts = np.array(
        [rng.multivariate_hypergeometric([4 * int(d)] * 13, int(rng.integers(6, 52 * d + 1))) for d in decks]
    )
    counts[0] = [0, 0, 0, 6] + [0] * 9
    calls: list[str] = []
    monkeypatch.setattr(hybrid, "parts", counted(hybrid.parts, "parts", calls))
    monkeypatch.setattr(hybrid, "combine", counted(hybrid.combine, "combine", calls))
    sequences = np.array([perm(int(n), 6) for n in counts.sum(axis=1)], dtype=object)
    for which in SETS:
        ev = evaluator(which)
        form, combine = ev._bet_form, (ev._relation, ev._anchor)
        assert form is not None
        bound = perm(416, 6) * ev._largest_payoff
        got, numerators = form.evaluate(counts, bound), form.evaluate(counts, bound, combine=combine)
        assert got is not None and numerators is not None and calls == ["parts", "parts"] * 2 + ["combine"]
        calls.clear()
        with monkeypatch.context() as patch:
            patch.setenv("BACCARAT_KERNEL", "numpy")
            expected, expected_numerators = (form.evaluate(counts, bound, combine=c) for c in (None, combine))
        assert not calls and expected is not None and (got == expected).all()
        assert expected_numerators is not None and (numerators == expected_numerators).all()
        relation, anchor = (array.astype(object) for array in combine)
        exact = got.astype(object) @ relation.T + sequences[:, None] * anchor
        assert numerators.dtype == np.int64 and numerators.tolist() == exact.tolist()
    with pytest.raises(ValueError, match="five"):
        hybrid.parts(np.ones((5, 1)), np.zeros((1, 4), dtype=np.int64), np.empty((1, 1)))
    one, ones = np.zeros(1, dtype=np.int64), np.ones((1, 1, 1), dtype=np.uint64)
    square = np.zeros((1, 1), dtype=np.int64)
    with pytest.raises(ValueError, match="rows of its parts"):  # a part beyond the parts
        hybrid.contract((np.ones((1, 1)),) * 2, 0, (one + 1, one), ones[0], ones[0], (one, one), ones[0])
    with pytest.raises(ValueError, match="places"):  # a column beyond the total's
        hybrid.contract((np.ones((1, 1)),) * 2, 0, (one, one), ones[0], ones[0], (one, one + 1), ones[0])
    with pytest.raises(ValueError, match="matching shapes"):  # a total of two compositions
        wide = np.zeros((1, 2), dtype=np.uint64)
        hybrid.contract((np.ones((1, 1)),) * 2, 0, (one, one), ones[0], ones[0], (one, one), wide)
    with pytest.raises(ValueError, match="matching shapes"):  # an anchor for two outputs
        hybrid.combine(ones[0], ones[0], (square, np.zeros(2, dtype=np.int64)), square)


def test_the_compiled_tables_are_the_numpy_tables() -> None:
    """`hybrid.tables` gives `factor_tables`' uint64 table read as float64, its tails and each
    row's largest entry, to the bit: on 6-card to 8-deck shoes, on counts whose entries wrap
    modulo 2**64, and with the sizes of larger shoes."""
    pytest.importorskip("numba")
    from analyzer.ranks.polyparts import ORDERS, ZERO_ROWS, Workspace, factor_tables

    rng = np.random.default_rng(11)
    six = [[0, 0, 0, 6] + [0] * 9]  # six 4s
    counts = np.vstack([rng.integers(0, 33, (50, 13)), rng.integers(0, 10**6, (50, 13)), six])
    for sizes, six_tails in (
        (None, [720, 120, 24, 6, 2, 1, 1]),
        (counts.sum(axis=1) + 1, [5040, 720, 120, 24, 6, 2, 1]),
    ):
        table, tails = factor_tables(counts, Workspace(), np.uint64, sizes)
        got, got_tails = np.empty(table.shape), np.empty(tails.shape, dtype=np.uint64)
        top = hybrid.tables(counts, sizes, got, got_tails)
        assert table.max() >= 2**63 and got.tobytes() == table.astype(np.float64).tobytes()
        assert (got_tails == tails).all() and (top == table.max(axis=1).astype(np.float64)).all()
        fours = got[ZERO_ROWS + 4 * ORDERS :][:ORDERS, -1]
        assert fours.tolist() == [1, 6, 30, 120, 360, 720, 720] and got_tails[:, -1].tolist() == six_tails
    with pytest.raises(ValueError, match="tails of W"):  # the compiled pass checks no bounds
        hybrid.tables(counts, None, got, got_tails[:1])


def test_the_switch_and_a_missing_numba_leave_the_numpy_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """``BACCARAT_KERNEL=numpy``, or numba not installed: no kernel, the same numerators."""
    ev = evaluator("main")
    counts = np.array([[32] * 13, [5, 31, 2, 17, 0, 9, 32, 12, 3, 30, 28, 1, 16]])
    expected = [exact_numerators(ev, row) for row in counts.tolist()]
    monkeypatch.setenv("BACCARAT_KERNEL", "numpy")
    assert not kernel.available() and ev._fused() is None
    assert ev.expectations(counts)[0].tolist() == expected
    monkeypatch.delenv("BACCARAT_KERNEL")
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba raises ImportError
    assert not kernel.available() and ev._fused() is None
    assert ev.expectations(counts)[0].tolist() == expected


def test_a_pickled_evaluator_leaves_the_kernel_layout_behind() -> None:
    import pickle

    ev = evaluator("main")
    ev._fused()
    copy = pickle.loads(pickle.dumps(ev))
    assert copy._fused_form is None
    counts = np.array([[32] * 13])
    assert (copy.expectations(counts)[0] == ev.expectations(counts)[0]).all()


@settings(max_examples=30, deadline=None)
@given(
    rows=st.lists(DECKS.flatmap(composition), min_size=1, max_size=4),
    which=st.sampled_from(list(SETS)),
)
@example(rows=[[0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0]], which="all")  # a 6-card shoe: one prime
@example(rows=[[0] * 12 + [4 * 10**6], [4 * 10**6] * 13], which="dragon7")  # empty ranks, 7 primes
@example(rows=[[1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0], [4] * 13], which="main")
def test_the_modular_kernel_equals_the_exact_path_with_any_number_of_primes(
    rows: list[list[int]], which: str
) -> None:
    """`evaluate_wide` on any shoe, from 6 cards (one prime) through those beyond int64
    (three and more) to 10**6 decks (seven), empty ranks included, gives the exact path's
    numerators, in one batch or alone."""
    pytest.importorskip("numba")
    ev = evaluator(which)
    counts = np.array(rows, dtype=np.int64)
    form = ev._fused()
    assert form is not None
    bound = perm(int(counts.sum(axis=1).max()), 6) * ev._largest_payoff
    got = form.evaluate_wide(counts, bound)
    assert got is not None and got.dtype == object
    for row, shoe in enumerate(rows):
        assert [int(x) for x in got[row]] == exact_numerators(ev, shoe)
        alone = form.evaluate_wide(counts[row : row + 1], perm(sum(shoe), 6) * ev._largest_payoff)
        assert alone is not None and (alone[0] == got[row]).all()


def test_the_moduli_pin_each_bound_and_keep_every_value_exact() -> None:
    """The fewest moduli whose product is at least 4 * bound (None past all eight), and
    the exactness bounds of the module's proof: distinct primes below 2**25, residues within
    p/2 + 1 below 2**24 (exact in float32), a chunk of a layout's terms within 2**52."""
    assert kernel_modular.moduli_for(0) == kernel_modular.moduli_for(1) == 1
    for bound in (2**20, 2**63 - 1, 2**100, 2**124, 2**160):
        used = kernel_modular.moduli_for(bound)
        assert used is not None
        assert prod(kernel.MODULI[:used]) >= 4 * bound > prod(kernel.MODULI[: used - 1])
    assert kernel_modular.moduli_for(2**63 - 1) == 3
    assert kernel_modular.moduli_for(prod(kernel.MODULI) // 4 + 1) is None
    assert all(p < 2**25 and isprime(p) for p in kernel.MODULI) and len(set(kernel.MODULI)) == len(
        kernel.MODULI
    )
    residue = max(kernel.MODULI) // 2 + 1
    assert residue < 2**24 and float(np.float32(residue)) == residue


def test_a_chunk_of_terms_and_its_carry_stay_within_2_to_the_52() -> None:
    """The exactness bound of a run's chunk (the module's proof): a chunk of a layout's
    terms, with the residue it carries from the chunk before, within 2**52."""
    pytest.importorskip("numba")  # the layouts are built where the kernel runs
    residue = max(kernel.MODULI) // 2 + 1
    for which in SETS:
        form = evaluator(which)._fused()
        assert form is not None
        terms = kernel_modular.ModularTerms(
            *(a.view(np.int64) for a in (form._entry_coef, form._relation, form._anchor))
        )
        assert terms.chunk * int(np.abs(terms.coef).max()) * residue + residue <= 2**52  # + the carry
        assert terms.chunk >= 2**16  # rank-level coefficients are small: runs are never cut
    huge = kernel_modular.ModularTerms(np.array([2**62, -(2**61) - 5]), np.ones((1, 1)), np.ones(1))
    assert huge.chunk >= 16 and huge.chunk * int(np.abs(huge.coef).max()) * residue + residue <= 2**52


@pytest.mark.parametrize("chunk", [1, 3, 4, 5, 16])
def test_runs_cut_into_chunks_give_the_same_numerators(chunk: int) -> None:
    """Runs of more terms than a chunk (coefficients too large for one reduction a run; no
    rank-level bet's are) are reduced chunk by chunk, each chunk carrying the last one's
    residue: forced on shoes of 1,000 and 10**6 decks, the exact path's numerators."""
    pytest.importorskip("numba")
    ev = evaluator("main")
    form = ev._fused()
    assert form is not None
    counts = np.array([[4000] * 12 + [3993], [4 * 10**6 - 1] + [4 * 10**6] * 12], dtype=np.int64)
    bound = perm(int(counts.sum(axis=1).max()), 6) * ev._largest_payoff
    form.evaluate_wide(counts[:1], bound)  # the constants' residues built
    assert form._modular is not None and int(np.diff(form._run_start).max()) > chunk
    form._modular.chunk = chunk
    try:
        got = form.evaluate_wide(counts, bound)
    finally:
        form._modular = None  # rebuilt with its own chunk on next use
    assert got is not None
    for row, shoe in enumerate(counts.tolist()):
        assert [int(x) for x in got[row]] == exact_numerators(ev, shoe)


@pytest.mark.parametrize("which", ["main", "all"])
def test_the_modular_kernel_reaches_the_largest_shoe(which: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The largest shoe (MAX_DECKS, 10**6 decks) takes seven primes and is exact (the
    numpy paths gave it before); past the primes' bound the kernel declines; from the int64
    bound (three primes) on, the evaluator's numerators are the numpy paths' and exact."""
    pytest.importorskip("numba")
    ev = evaluator(which)
    form = ev._fused()
    assert form is not None
    payoff = ev._largest_payoff
    huge = np.array([[4 * MAX_DECKS] * 13, [4 * MAX_DECKS - 7] + [4 * MAX_DECKS] * 12])
    assert kernel_modular.moduli_for(perm(52 * MAX_DECKS, 6) * payoff) == 7
    assert form.evaluate_wide(huge, prod(kernel.MODULI) // 4 + 1) is None
    numerators, totals = ev.expectations(huge)
    assert numerators.dtype == object and totals.dtype == object
    assert (numerators == numpy_numerators(ev, huge, monkeypatch)).all()
    assert [int(x) for x in numerators[1]] == exact_numerators(ev, huge[1].tolist())
    fits = max(n for n in range(6, 2000) if perm(n, 6) * payoff < 2**63)
    for cards in (fits + 1, 52 * 30, 52 * 300, 52 * 3000):  # three primes, then more
        counts = np.array([[cards // 13 + (i < cards % 13) for i in range(13)], [4] * 13])
        numerators, totals = ev.expectations(counts)
        assert numerators.dtype == object and totals.dtype == object
        assert (numerators == numpy_numerators(ev, counts, monkeypatch)).all()
        assert [int(x) for x in numerators[0]] == exact_numerators(ev, counts[0].tolist())


def test_a_signal_while_a_kernel_compiles_is_taken_after_the_compile() -> None:
    """Ctrl-C inside numba's compiler was lost in an LLVM callback and left a RuntimeError
    (exit 1 with a traceback, seen once in CI): until a kernel holds a compiled signature its
    calls defer the ending signals, and the interrupt comes as KeyboardInterrupt after it."""
    import signal
    import time
    from typing import ClassVar

    finished: list[int] = []

    class Compiling:  # a numba dispatcher's first call, interrupted midway
        signatures: ClassVar[list[object]] = []

        def __call__(self, value: int) -> int:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # the rest of the compile
            finished.append(value)
            return value

    with pytest.raises(KeyboardInterrupt):
        kernel.compiled(Compiling())(7)
    assert finished == [7]
    Compiling.signatures = ["(int64,)"]  # compiled: calls go straight through, nothing deferred
    with pytest.raises(KeyboardInterrupt):
        kernel.compiled(Compiling())(8)
    assert finished == [7]


def test_the_kernel_loads_without_scipy_linalg_which_imports_afterwards() -> None:
    """`kernel.import_numba` keeps numba's BLAS probe from importing scipy.linalg (about 0.2 s)
    in a fresh process (only this thread refused it), and scipy.linalg then imports and works; the
    kernel's expectation is the exact one."""
    pytest.importorskip("numba")
    pytest.importorskip("scipy")
    from fractions import Fraction

    from analyzer.analyses.pricing import analyze_bets

    script = (
        "import sys, numpy as np\n"
        "from analyzer.ranks import kernel\n"
        "from analyzer.core.catalogue import RANK_BETS\n"
        "from analyzer.ranks.fast import FastEvaluator\n"
        "kernel.warm()\n"
        "print(kernel.ready(), 'scipy.linalg' in sys.modules)\n"
        "print(FastEvaluator([RANK_BETS['dragon7']]).expectation_fractions([32] * 13)['dragon7'])\n"
        "import scipy.linalg\n"
        "print(float(scipy.linalg.det(np.eye(2) * 2)))\n"
    )
    out = fresh_process(script, "always")
    ready, expectation, det = out.splitlines()
    assert ready == "True False"
    [exact] = analyze_bets([RANK_BETS["dragon7"]], Shoe.decks(8))
    assert Fraction(expectation) == -exact.house_edge
    assert det == "4.0"


def test_a_module_is_held_back_on_the_loading_thread_only() -> None:
    """The finder `import_numba` installs while numba loads (for scipy.linalg; here for a
    standard-library module, so the test runs without scipy) makes the module missing on its
    own thread; another thread importing it then gets it (sys.modules is not touched)."""
    script = (
        "import sys, threading, importlib\n"
        "from analyzer.ranks.kernel import _Blocked\n"
        "assert 'wave' not in sys.modules\n"
        "blocked = _Blocked('wave')\n"
        "sys.meta_path.insert(0, blocked)\n"
        "try:\n"
        "    importlib.import_module('wave')\n"
        "    print('imported')\n"
        "except ModuleNotFoundError:\n"
        "    print('held')\n"
        "found = []\n"
        "other = threading.Thread(target=lambda: found.append(importlib.import_module('wave')))\n"
        "other.start(); other.join()\n"
        "print(bool(found) and found[0].__name__)\n"
    )
    out = fresh_process(script, "numpy")
    assert out.split() == ["held", "wave"]


def test_warm_compiles_every_signature_the_kernels_are_called_with() -> None:
    """After `kernel.warm()` and each evaluator's `ready()` in a fresh process, valuing shoes
    compiles nothing more, neither a signature nor a function: on the kernels (Dragon 7:
    uint16 residues; all 19 rank-level bets: uint32) and on the path each batch takes (all
    19 bets: the numpy paths with their compiled passes), so a worker forked after it has
    them all, and no compile runs with Ctrl-C not held."""
    pytest.importorskip("numba")
    script = (
        "import os\n"
        "import numpy as np\n"
        "from analyzer.ranks import kernel\n"
        "from analyzer.core.catalogue import RANK_BETS\n"
        "from analyzer.ranks.fast import FastEvaluator\n"
        "evaluators = [FastEvaluator([RANK_BETS['dragon7']]), FastEvaluator(list(RANK_BETS.values()))]\n"
        "kernel.warm()\n"
        "for evaluator in evaluators:\n"
        "    evaluator.ready()\n"
        "def signatures():\n"
        "    return {k: len(f.dispatcher.signatures) for k, f in kernel._compiled.items()}\n"
        "before = signatures()\n"
        "for evaluator in evaluators:\n"
        "    evaluator.expectation_fractions([32] * 13)\n"
        "os.environ.pop('BACCARAT_KERNEL')\n"
        "for evaluator in evaluators:\n"
        "    evaluator.expectations(np.full((500, 13), 32))\n"
        "print(sorted(before), signatures() == before)\n"
    )
    out = fresh_process(script, "always")
    assert out.strip() == "['combine', 'contract', 'numerators', 'parts', 'pinned', 'tables'] True"
