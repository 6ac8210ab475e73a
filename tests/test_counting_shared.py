"""Studies run together once and given to each caller as if run alone (analyzer.counting.shared)."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from analyzer import Shoe
from analyzer.core.catalogue import RANK_BETS
from analyzer.counting import shared
from analyzer.counting.simulation import Procedure, evaluate_systems
from analyzer.counting.systems import SYSTEMS

PROCEDURE = Procedure(shoe=Shoe.decks(8), cut_card=14)
FIRST = [SYSTEMS["dragon7-jacobson"], SYSTEMS["banker-eor"]]
SECOND = [SYSTEMS["panda8-jacobson"], SYSTEMS["natural9-thorp"]]


def _bets(systems: list) -> list:
    return [RANK_BETS[s.bet] for s in systems]


def test_studies_run_together_give_each_its_results_as_if_run_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two callers' systems run once under `keeping`: each call then gets exactly what it
    gets alone (exact sums by count where asked, none where not), without dealing; a
    result is given once, a call not under `keeping` is not kept, and nothing is kept outside
    `shared_studies`."""
    alone = evaluate_systems(FIRST, _bets(FIRST), PROCEDURE, shoes=30, seed=3, chunk=10)
    light = evaluate_systems(SECOND, _bets(SECOND), PROCEDURE, shoes=30, seed=3, chunk=10, exact_bins=False)
    both = FIRST + SECOND
    with shared.shared_studies():
        with shared.keeping():
            evaluate_systems(
                both, _bets(both), PROCEDURE, shoes=30, seed=3, chunk=10, exact_bins=[True] * 2 + [False] * 2
            )
        dealt = []
        monkeypatch.setattr("analyzer.counting.simulation.deal_chunk", lambda *a, **k: dealt.append(a))
        first = evaluate_systems(FIRST, _bets(FIRST), PROCEDURE, shoes=30, seed=3, chunk=10)
        second = evaluate_systems(
            SECOND, _bets(SECOND), PROCEDURE, shoes=30, seed=3, chunk=10, exact_bins=False
        )
        assert not dealt
        assert [asdict(r) for r in first] == [asdict(r) for r in alone]
        assert [asdict(r) for r in second] == [asdict(r) for r in light]
        assert first[0].by_count_exact and not second[0].by_count_exact
        monkeypatch.undo()
        again = evaluate_systems(FIRST, _bets(FIRST), PROCEDURE, shoes=30, seed=3, chunk=10)  # run again
        assert [asdict(r) for r in again] == [asdict(r) for r in alone]
        other = evaluate_systems(FIRST, _bets(FIRST), PROCEDURE, shoes=30, seed=4, chunk=10)  # other shoes
        assert [asdict(r) for r in other] != [asdict(r) for r in alone]
        assert shared._kept == {}  # each given once, and nothing run outside `keeping` kept
    assert shared._kept is None


def test_a_kept_study_without_exact_sums_does_not_serve_one_that_asks_for_them() -> None:
    """A system kept without its exact sums by count is run again for a call that asks for them."""
    with shared.shared_studies():
        with shared.keeping():
            evaluate_systems(FIRST, _bets(FIRST), PROCEDURE, shoes=10, seed=3, exact_bins=False)
        [found, _] = evaluate_systems(FIRST, _bets(FIRST), PROCEDURE, shoes=10, seed=3)
        assert found.by_count_exact
