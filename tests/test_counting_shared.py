"""Studies run together once and given to each caller as if run alone (analyzer.counting.shared)."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest

from analyzer import STANDARD, Shoe
from analyzer.core.catalogue import RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.counting import shared
from analyzer.counting.simulation import Procedure, _dealt_to, deal_chunk, evaluate_systems
from analyzer.counting.systems import SYSTEMS
from analyzer.ranks.fast import FastEvaluator, card_totals

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


@pytest.mark.parametrize(
    ("decks", "near", "far", "suited"), [(8, 14, 16, False), (1, 7, 30, True), (2, 0, 98, False)]
)
def test_a_farther_cut_card_deals_a_prefix_of_each_shoe(
    decks: int, near: int, far: int, suited: bool
) -> None:
    """The coups of shoes dealt with the cut card `near` the end that `_dealt_to` keeps for
    the cut card `far` from it are the batch that cut card deals (every field, suits included)."""
    shoe = Shoe.decks(decks)
    batch = deal_chunk(Procedure(shoe=shoe, cut_card=near), STANDARD, 5, range(40), suited=suited)
    expected = deal_chunk(Procedure(shoe=shoe, cut_card=far), STANDARD, 5, range(40), suited=suited)
    rows = np.arange(len(batch.shoe))
    found, kept, _, left = _dealt_to(far, (batch, rows, rows, card_totals(batch.left)))
    assert len(found.shoe) < len(batch.shoe)
    for name, value in vars(expected).items():
        assert np.array_equal(getattr(found, name), value), name
    assert np.array_equal(batch.left[kept], expected.left) and np.array_equal(
        left, card_totals(expected.left)
    )


def test_systems_at_farther_cut_cards_get_what_they_get_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Systems judged at their own cut cards in one study of the nearest get exactly their
    results alone (each run with its cut card), and are kept for such a call."""
    far = Procedure(shoe=Shoe.decks(8), cut_card=40)
    systems = [*FIRST, *FIRST]
    cuts = [14, 14, 40, 40]
    alone = [
        *evaluate_systems(FIRST, _bets(FIRST), PROCEDURE, shoes=30, seed=3, chunk=10),
        *evaluate_systems(FIRST, _bets(FIRST), far, shoes=30, seed=3, chunk=10),
    ]
    assert [asdict(r) for r in alone[:2]] != [asdict(r) for r in alone[2:]]
    together = evaluate_systems(
        systems, _bets(systems), PROCEDURE, shoes=30, seed=3, chunk=10, cut_cards=cuts
    )
    assert [asdict(r) for r in together] == [asdict(r) for r in alone]
    with shared.shared_studies():
        with shared.keeping():
            evaluate_systems(systems, _bets(systems), PROCEDURE, shoes=30, seed=3, chunk=10, cut_cards=cuts)
        monkeypatch.setattr("analyzer.counting.simulation.deal_chunk", lambda *a, **k: pytest.fail("dealt"))
        kept = evaluate_systems(FIRST, _bets(FIRST), far, shoes=30, seed=3, chunk=10)
        assert [asdict(r) for r in kept] == [asdict(r) for r in alone[2:]]
    with pytest.raises(AnalyzerError, match="cut card 7: use one at least the procedure's"):
        evaluate_systems(FIRST, _bets(FIRST), PROCEDURE, shoes=3, cut_cards=[14, 7])
    with pytest.raises(AnalyzerError, match="cut cards: give one per system"):
        evaluate_systems(FIRST, _bets(FIRST), PROCEDURE, shoes=3, cut_cards=[14])


def test_studies_of_the_same_bets_in_any_order_share_their_evaluator(monkeypatch: pytest.MonkeyPatch) -> None:
    """The evaluator of a study's rank-level bets is asked for by the bets' names, whatever
    their order in the call: one evaluator for both; each result the same in either order."""
    asked = []
    cached = FastEvaluator.cached
    monkeypatch.setattr(
        FastEvaluator, "cached", lambda bets, rules: asked.append(bets) or cached(bets, rules)
    )
    both = FIRST + SECOND
    forward = evaluate_systems(both, _bets(both), PROCEDURE, shoes=4, seed=3)
    backward = evaluate_systems(both[::-1], _bets(both[::-1]), PROCEDURE, shoes=4, seed=3)
    assert asked[0] == asked[1] == tuple(sorted(set(_bets(both)), key=lambda bet: bet.name))
    assert [asdict(r) for r in forward] == [asdict(r) for r in backward[::-1]]


def test_the_reports_studies_run_together_are_those_each_later_call_asks_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`baccarat report` runs the counting report's studies (cut cards 14 and 16) and the par
    sheets' first study as one (`_run_together`): the later calls must ask for exactly the
    results it keeps (the same keys: systems, bets, procedure, rules, seed, shoes, chunk,
    exact sums), or each would deal its 2,000 shoes again and nothing would say so. Recorded
    without dealing: every `shared.kept` answered with placeholders."""
    from collections import Counter

    from analyzer.counting import par
    from analyzer.present import reports
    from analyzer.present.reports import counting as counting_report
    from analyzer.present.reports.par_sheets import sheet_studies

    asked: list[list[object]] = []

    def recorded(keys: list[object]) -> list[None]:
        asked.append(list(keys))
        return [None] * len(keys)

    class FirstStudy(Exception):
        """Raised after the par sheets' first study asked for its results."""

    def first_only(*args: object, **kwargs: object) -> None:
        evaluate_systems(*args, **kwargs)  # type: ignore[arg-type]
        raise FirstStudy

    monkeypatch.setattr(shared, "kept", recorded)
    monkeypatch.setattr(counting_report, "banker_player_choice", lambda *args, **kwargs: None)
    monkeypatch.setattr(par, "evaluate_systems", first_only)
    reports._run_together(None)
    counting_report.counting_runs(executor=object())  # type: ignore[arg-type]
    ranked, shoe, shoes = sheet_studies()[0]
    with pytest.raises(FirstStudy):
        par.par_sheets(ranked, shoe, shoes=shoes)
    together, *later = asked
    assert len(later) == 3 and len(set(together)) == len(together) > 90
    assert Counter(together) == Counter(key for keys in later for key in keys)
