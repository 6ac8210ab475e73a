"""Edge sorting through a shoe: each coup of the sample record valued as `known_cards` values
its composition and the class of its first card, the sums of the summary, a simulated shoe,
and the options the sort refuses."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.analyses.known import known_cards, parse_sort
from analyzer.cli import run
from analyzer.core.catalogue import get_bet
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import STANDARD
from analyzer.core.shoe import Shoe
from analyzer.counting.record import read_record, sample_path
from analyzer.counting.replay import Valuer, deal_record
from analyzer.counting.simulation import Procedure
from analyzer.counting.sorting import sort_study, sorted_record

MAIN = [get_bet("player"), get_bet("banker")]
SORT = parse_sort("6,7,8,9")


def test_the_sample_record_coup_by_coup() -> None:
    entries = read_record(sample_path())
    replay = sorted_record(entries, Shoe.decks(8), STANDARD, MAIN, (1,), SORT)
    dealt = deal_record(entries, Shoe.decks(8), STANDARD)
    results = Valuer(MAIN).results([(cards, outcome) for cards, outcome, _ in dealt.coups])
    assert len(replay.coups) == len(dealt.coups) == 83
    for coup in replay.coups[::10]:
        composition = dealt.positions[coup.index - 1]
        cards = dealt.coups[coup.index - 1][0]
        known = "sorted" if cards[0].rank in SORT.ranks else "other"
        assert coup.known == (known,) and coup.cards_left == composition.size
        state = next(
            s
            for s in known_cards(Shoe.from_counts(composition.counts), (1,), MAIN, sort=SORT).states
            if s.known == ((1, known),)
        )
        assert coup.best == state.best
        assert coup.expectation == max(state.expectations)
        assert coup.won == results[coup.index - 1][coup.best]
    assert replay.expected == sum((c.expectation for c in replay.coups), Fraction(0)) > 4
    assert replay.won == sum((c.won for c in replay.coups), Fraction(0))


def test_a_simulated_shoe() -> None:
    """A short shoe of 2 decks (cut card 60 from the end): every coup of the first card sort."""
    procedure = Procedure(shoe=Shoe.decks(2), cut_card=60)
    study = sort_study(procedure, STANDARD, MAIN, (1,), SORT, shoes=2, seed=3)
    assert len(study.shoes) == 2 and all(s.coups for s in study.shoes)
    assert study.expected_per_shoe == (study.shoes[0].expected + study.shoes[1].expected) / 2
    assert all(c.expectation > 0 for s in study.shoes for c in s.coups if c.best is not None)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["track", sample_path(), "--sort", "6,7,8,9", "--system", "dragon7-jacobson"], "without --system"),
        (["track", "-", "--sort", "6,7,8,9"], "live entry"),
        (["count", "--sort", "6,7,8,9", "--strict"], "without --strict"),
        (["track", sample_path(), "--sort", "6,7,8,9", "--sort-positions", "7"], "'7'"),
        (["count", "--sort", "0,1,2,3,4,5,6,7,8,9"], "holds every card"),
        (["count", "--sort", "6,7,8,9,9"], "9 is given twice"),
    ],
)
def test_what_the_sort_refuses(argv: list[str], words: str) -> None:
    with pytest.raises(AnalyzerError, match=words):
        run(argv)


def test_the_track_json() -> None:
    import json

    data = json.loads(run(["track", sample_path(), "--sort", "6,7,8,9", "--format", "json"]))
    assert (
        data["summary"]["coups"] == 83 and data["positions"] == [1] and data["sort"] == ["6", "7", "8", "9"]
    )
    first = {"coup": 1, "cards_left": 405, "known": {"1": "other"}, "best": "banker"}
    assert data["coups"][0] == {**first, "expectation": "270346544574091/5900015381395200", "won": "19/20"}
