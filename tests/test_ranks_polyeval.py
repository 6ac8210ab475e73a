"""The batch evaluator is exact: every row equals the exact integer path, on shoes of every
size (hypothesis), in any batch size."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.bets import FIELDS
from analyzer.core.catalogue import RANK_BETS
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, RULES, STANDARD
from analyzer.core.shoe import Shoe
from analyzer.ranks import fast as composition_module
from analyzer.ranks import polyeval, polyproducts
from analyzer.ranks.compiler import basis_values
from analyzer.ranks.coupstore import stored_classes
from analyzer.ranks.enumeration import compile_rules
from analyzer.ranks.fast import FastEvaluator, PinnedForm
from analyzer.ranks.lines import column, line_indexes

MAIN_BETS = ("player", "banker", "tie", "tie-9to1", "super6-banker", "ez-banker", "dragon7", "panda8")
MAIN = [RANK_BETS[n] for n in MAIN_BETS]
EVALUATORS = {"main": FastEvaluator(MAIN), "all": FastEvaluator(list(RANK_BETS.values()))}


@pytest.fixture(autouse=True)
def numpy_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """These are the numpy paths' tests: the compiled kernel (tests/test_ranks_kernel.py) off."""
    monkeypatch.setenv("BACCARAT_KERNEL", "numpy")


FOLDED = {
    name: (e.matrix.astype(object), e.matrix.astype(object) @ e.payoffs.astype(object))
    for name, e in EVALUATORS.items()
}


def exact_values(evaluator: FastEvaluator, counts: list[int]) -> np.ndarray:
    """The slow exact path: each monomial's value as a Python int (analyzer.ranks.enumeration)."""
    values, _ = basis_values(compile_rules(evaluator.rules), Shoe.from_counts(counts))
    return values.astype(object)[evaluator._keep]


def check_rows(which: str, counts: np.ndarray, batch: int) -> None:
    evaluator = EVALUATORS[which]
    matrix, folded = FOLDED[which]
    numerators, _ = evaluator.expectations(counts, batch=batch)
    weights = evaluator.atom_weights(counts) if which == "main" else None
    for row, shoe in enumerate(counts.tolist()):
        values = exact_values(evaluator, shoe)
        assert [int(x) for x in numerators[row]] == list(values @ folded)
        if weights is not None:
            assert [int(x) for x in weights[row]] == list(values @ matrix)


def composition(decks: int) -> st.SearchStrategy[list[int]]:
    """Any composition of a `decks`-deck shoe with at least 6 cards left."""
    return st.lists(st.integers(0, 4 * decks), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


sizes = st.sampled_from([1, 2, 8, 9, 20, 30, 100, 10**4, 10**6])


@settings(max_examples=25, deadline=None)
@given(st.lists(sizes.flatmap(composition), min_size=1, max_size=6), st.sampled_from(list(EVALUATORS)),
       st.integers(1, 8))  # fmt: skip
def test_every_row_equals_the_exact_integer_path(rows: list[list[int]], which: str, batch: int) -> None:
    check_rows(which, np.array(rows, dtype=np.int64), batch)


@pytest.mark.parametrize(
    "counts",
    [
        [32] * 13,  # full 8 decks
        [0] * 9 + [3, 2, 1, 0],  # ten-valued only
        [0] * 9 + [6, 0, 0, 0],  # one ten-valued rank: both hands can pair
        [1] + [0] * 11 + [5],  # tiny and lopsided
        [36] * 13,  # above 458 cards
        [80] * 13,  # 20 decks
        [4000] * 13,  # 1,000 decks
        [4 * 10**6] * 13,  # the largest shoe
        [4 * 10**6] * 4 + [0] * 9,  # large counts of a few values
        [0] * 9 + [500, 0, 0, 0],  # 500 tens: factor tables modulo 2**64 (above 456 of a value)
        [20] * 9 + [120] * 4,  # 480 ten-valued cards among 660: the same, with every kind of monomial
        [2000] * 13,  # 500 decks: results beyond int64, pinned from residues and float estimates
        [1000] * 6 + [0] * 3 + [1000] * 4,  # the same, lopsided
    ],
)
@pytest.mark.parametrize("which", list(EVALUATORS))
def test_edge_compositions(counts: list[int], which: str) -> None:
    check_rows(which, np.array([counts], dtype=np.int64), 1)


def spy(method: Callable[..., Any], name: str, calls: list[str]) -> Callable[..., Any]:
    """`method`, noting `name` in `calls` on every call."""

    def noted(*args: Any) -> Any:
        calls.append(name)
        return method(*args)

    return noted


@pytest.mark.parametrize(
    ("path", "setting", "taken"),
    [
        # no magic column: every product cut into limbs (or, beyond exact float64 tables, pinned)
        ("float limbs", {"SAFE_MAGIC": 0.0}, "_limbs _low_limb"),
        # factor tables beyond exact float64 on every shoe: the one-pass wide evaluation
        ("wide tables", {"FLOAT_COUNTS": 0}, "_wide"),
        ("wide", {"_INT_LIMIT": 0}, "_wide"),  # all bets: residues pinned by float estimates
        # every product pinned by one low limb: of exact floats, then of uint64 residues
        ("pinned by one limb", {"_INT_LIMIT": 0, "SAFE_MAGIC": 0.0}, "_low_limb"),
        ("pinned residues", {"_INT_LIMIT": 0, "SAFE_MAGIC": 0.0, "_EXACT": 0.0}, "_low_limb"),
        # estimates never close enough: every limb of the residues
        ("every limb", {"_INT_LIMIT": 0, "SAFE_MAGIC": 0.0, "_EXACT": 0.0, "_PIN_ROOM": 0.0}, "_limbs"),
    ],
)
@settings(max_examples=10, deadline=None)
@given(rows=st.lists(sizes.flatmap(composition), min_size=1, max_size=4))
def test_every_evaluation_path_is_exact(
    path: str, setting: dict[str, float], taken: str, rows: list[list[int]]
) -> None:
    """The paths that large shoes take, forced on shoes of every size, give the same rows
    (and are taken)."""
    counts = np.array(rows, dtype=np.int64)
    calls: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        for name, value in setting.items():  # in every module that reads it
            owners = [module for module in (polyeval, polyproducts) if hasattr(module, name)]
            assert owners
            for module in owners:
                patch.setattr(module, name, value)
        for evaluator in EVALUATORS.values():  # no bounds remembered from other batches
            patch.setattr(evaluator._bet_form, "_safe_max", None)
            patch.setattr(evaluator._atom_form, "_safe_max", None)  # atom weights too
        for name in taken.split():
            owner = polyeval.MonomialForm if name == "_wide" else polyproducts.Group
            patch.setattr(owner, name, spy(getattr(owner, name), name, calls))
        check_rows("main", counts, 3)
        check_rows("all", counts, 2)
    assert calls


@pytest.mark.parametrize(("decks", "pinned", "every_limb"), [(100, True, False), (10**4, True, True)])
def test_big_shoes_take_one_pass_with_low_limbs(
    monkeypatch: pytest.MonkeyPatch, decks: int, pinned: bool, every_limb: bool
) -> None:
    """100-deck shoes: each group through the magic column or pinned by one low limb, none
    cut into every limb of its residues; far larger shoes need every limb for some."""
    calls: list[str] = []
    for name in ("_low_limb", "_limbs"):
        monkeypatch.setattr(polyproducts.Group, name, spy(getattr(polyproducts.Group, name), name, calls))
    evaluator = EVALUATORS["main"]
    assert evaluator._bet_form is not None
    counts = np.array([[4 * decks] * 13, [4 * decks - 1] * 6 + [4 * decks] * 7])
    wrapped, _, _ = evaluator._bet_form.evaluate_wide(counts)
    exact = np.vstack([exact_values(evaluator, row) for row in counts.tolist()]) @ FOLDED["main"][0]
    lattice = evaluator._lattice.astype(object)
    assert [int(x) % 2**64 for x in wrapped.ravel()] == [int(x) % 2**64 for x in (exact @ lattice).ravel()]
    assert ("_low_limb" in calls) == pinned and ("_limbs" in calls) == every_limb


def test_the_magic_column_path_is_taken_for_8_decks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path (one float64 product per group, read through the magic column) is the
    one 8-deck shoes take: no group is cut into limbs."""
    calls: list[int] = []
    original = polyproducts.Group._limbs

    def counted(group: polyproducts.Group, values: np.ndarray, top: int) -> np.ndarray:
        calls.append(top)
        return original(group, values, top)

    monkeypatch.setattr(polyproducts.Group, "_limbs", counted)
    form = EVALUATORS["all"]._bet_form
    assert form is not None
    form.evaluate(np.array([[32] * 13, [3, 31, 12, 30, 0, 5, 32, 17, 8, 32, 31, 2, 29]]), 2**62)
    assert calls == []
    form.evaluate(np.array([[80] * 13]), 2**62)  # 20 decks: some groups need limbs
    assert calls


def spied_magic_sum(patch: pytest.MonkeyPatch) -> list[int]:
    """The widths of the batches `MonomialForm._magic_sum` contracts from now on."""
    widths: list[int] = []
    original = polyeval.MonomialForm._magic_sum

    def counted(
        form: polyeval.MonomialForm, fa: np.ndarray, fb: np.ndarray, factors: np.ndarray, *rest: object
    ) -> np.ndarray:
        widths.append(fa.shape[1])
        return original(form, fa, fb, factors, *rest)  # type: ignore[arg-type]

    patch.setattr(polyeval.MonomialForm, "_magic_sum", counted)
    return widths


@settings(max_examples=15, deadline=None)
@given(st.lists(composition(8), min_size=1, max_size=6), st.sampled_from(list(EVALUATORS)),
       st.integers(1, 6), st.booleans())  # fmt: skip
def test_8_deck_shoes_take_the_single_contraction(
    rows: list[list[int]], which: str, batch: int, fresh: bool
) -> None:
    """When every group's product is exact through the magic column (any 8-deck shoe), the
    products share one array and one integer contraction (`_magic_sum`) gives every row,
    equal to the exact integer path (`fresh`: with the bounds checked afresh)."""
    counts = np.array(rows, dtype=np.int64)
    with pytest.MonkeyPatch.context() as patch:
        widths = spied_magic_sum(patch)
        if fresh:
            patch.setattr(EVALUATORS[which]._bet_form, "_safe_max", None)
        check_rows(which, counts, batch)
    assert sum(widths) == len(counts) * (2 if which == "main" else 1)  # "main": atom weights too


def test_20_deck_shoes_contract_group_by_group(monkeypatch: pytest.MonkeyPatch) -> None:
    """Some groups of a 20-deck shoe need limbs: the groups are contracted one by one."""
    widths = spied_magic_sum(monkeypatch)
    form = EVALUATORS["main"]._bet_form
    assert form is not None
    form.evaluate(np.array([[80] * 13]), 2**62)
    assert widths == []


def test_expectation_fractions_on_another_tableau() -> None:
    evaluator = FastEvaluator(MAIN, BANCO_4_DRAWS_ON_0_1)
    counts = [5, 31, 2, 17, 0, 9, 32, 12, 3, 30, 28, 1, 16]
    folded = evaluator.matrix.astype(object) @ evaluator.payoffs.astype(object)
    values = list(exact_values(evaluator, counts) @ folded)
    total = Shoe.from_counts(counts).size
    from math import perm

    expected = {
        bet.name: Fraction(v, d * perm(total, 6))
        for bet, v, d in zip(MAIN, values, evaluator.denominators, strict=True)
    }
    assert evaluator.expectation_fractions(counts) == expected


@pytest.mark.parametrize("rules", list(RULES.values()), ids=lambda r: r.name)
def test_line_indexes_equal_line_index(rules: object) -> None:
    stored = stored_classes(rules)  # type: ignore[arg-type]
    for bet in RANK_BETS.values():
        assert line_indexes(bet, stored) == [bet.line_index(o) for o in stored.outcomes]


@pytest.mark.parametrize("name", list(FIELDS))
def test_stored_columns_equal_the_field_readers(name: str) -> None:
    stored = stored_classes(STANDARD)
    assert column(stored, name) == [FIELDS[name][0](o) for o in stored.outcomes]


@pytest.mark.parametrize("which", list(EVALUATORS))
def test_shoes_up_to_500_decks_are_pinned_without_the_integer_path(which: str) -> None:
    """Beyond int64 the residues modulo 2**64 and the float estimates settle 500-deck
    shoes (their error bounds stay below 2**61); far larger shoes take residues modulo
    small moduli too."""
    evaluator = EVALUATORS[which]
    counts = np.array([[2000] * 13, [1999, 2000, 1500] + [2000] * 10])
    pinned = evaluator._wide_numerators(counts)
    assert pinned is not None and pinned.dtype == object
    exact = np.vstack([evaluator._exact_row(row) for row in counts]).astype(object)  # Python ints
    assert (pinned == exact @ evaluator.payoffs.astype(object)).all()
    huge = np.array([[4 * 10**6] * 13])  # 10**6 decks: residues modulo small moduli too
    exact = np.vstack([evaluator._exact_row(row) for row in huge]).astype(object)
    assert (evaluator._wide_numerators(huge) == exact @ evaluator.payoffs.astype(object)).all()


@pytest.mark.parametrize("which", list(EVALUATORS))
def test_shoes_up_to_1000_decks_are_pinned_too(which: str) -> None:
    """The pinning's rounding allowance is (lattice columns + 8) * 2**-52 of the sizes: it
    settles 1,000-deck shoes from residues modulo 2**64 alone (near 1,100 decks for these
    bets); 2,000-deck shoes need residues modulo small moduli too."""
    evaluator = EVALUATORS[which]
    counts = np.array([[4000] * 13, [3999, 4000, 3000] + [4000] * 10])
    pinned = evaluator._wide_numerators(counts)
    assert pinned is not None
    exact = np.vstack([evaluator._exact_row(row) for row in counts]).astype(object)
    assert (pinned == exact @ evaluator.payoffs.astype(object)).all()
    calls: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PinnedForm, "_chinese", spy(PinnedForm._chinese, "_chinese", calls))
        evaluator._wide_numerators(counts)
        assert calls == []
        evaluator._wide_numerators(np.array([[8000] * 13]))
        assert calls == ["_chinese"]


@settings(max_examples=15, deadline=None)
@given(rows=st.lists(sizes.flatmap(composition), min_size=1, max_size=4))
def test_residues_modulo_small_moduli_pin_every_row(rows: list[list[int]]) -> None:
    """The path of shoes beyond about 1,100 decks (residues modulo 2**64 and modulo a few
    odd moduli, pinned by the estimates), forced on shoes of every size: the same rows."""
    calls: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(polyeval, "_INT_LIMIT", 0)
        patch.setattr(composition_module, "_PINNED", 0.0)
        patch.setattr(
            polyeval.MonomialForm,
            "evaluate_modular",
            spy(polyeval.MonomialForm.evaluate_modular, "evaluate_modular", calls),
        )
        check_rows("main", np.array(rows, dtype=np.int64), 3)
        check_rows("all", np.array(rows, dtype=np.int64), 2)
    assert calls


@settings(max_examples=15, deadline=None)
@given(
    sizes.flatmap(composition),
    st.lists(st.sampled_from(polyeval.MODULI), min_size=1, max_size=3, unique=True),
)
def test_results_modulo_each_modulus(counts: list[int], moduli: list[int]) -> None:
    """`evaluate_modular` gives every folded result modulo each modulus, on shoes of every size."""
    evaluator = EVALUATORS["all"]
    assert evaluator._bet_form is not None
    residues = evaluator._bet_form.evaluate_modular(np.array([counts, counts[::-1]]), moduli)
    assert residues is not None
    folded = FOLDED["all"][0] @ evaluator._lattice.astype(object)
    for row, shoe in enumerate([counts, counts[::-1]]):
        exact = list(exact_values(evaluator, shoe) @ folded)
        for modulus, values in zip(moduli, residues, strict=True):
            assert values[row].tolist() == [int(x) % modulus for x in exact]


@pytest.mark.parametrize("decks", [2000, 10**6])
def test_the_largest_shoes_are_exact_without_the_integer_path(decks: int) -> None:
    """2,000 decks to the 10**6-deck limit: no batch falls back to Python integers."""
    evaluator = EVALUATORS["main"]
    counts = np.array([[4 * decks] * 13, [4 * decks - 7, 5, 4 * decks, 1] + [4 * decks] * 9])
    pinned = evaluator._wide_numerators(counts)
    assert pinned is not None
    exact = np.vstack([evaluator._exact_row(row) for row in counts]).astype(object)
    assert (pinned == exact @ evaluator.payoffs.astype(object)).all()


def test_a_used_evaluator_pickles_without_its_work_arrays() -> None:
    """Work arrays and the views into them stay behind: a pickled evaluator (as shipped to
    workers) gives the same rows and stays small."""
    import pickle

    counts = np.array([[32] * 13, [3, 31, 12, 30, 0, 5, 32, 17, 8, 32, 31, 2, 29], [40] * 13])
    evaluator = FastEvaluator(MAIN)
    fresh = len(pickle.dumps(evaluator))
    before, _ = evaluator.expectations(np.vstack([counts] * 200))
    copy = pickle.loads(pickle.dumps(evaluator))
    again, _ = copy.expectations(np.vstack([counts] * 200))
    assert (before == again).all()
    assert len(pickle.dumps(evaluator)) < fresh + 2**16
