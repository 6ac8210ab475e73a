"""Cover bets: the main bet staked with each side bet is valued exactly, against a slow path
(every coup of a few shoes priced on its own), and shown as side bet, cover and net."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from analyzer.analyses.pricing import analyze_bets
from analyzer.core.catalogue import BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import STANDARD
from analyzer.core.shoe import Shoe
from analyzer.counting.cover import Cover, parse_cover
from analyzer.counting.simulation import Procedure, deal_shoe, evaluate_systems
from analyzer.counting.systems import SYSTEMS, CountSystem
from tests.clirun import one_line_error, run

EVERY_COUP = CountSystem("every", "every coup", "dragon7", (0,) * 13, Fraction(-1))


@pytest.mark.parametrize(
    ("system", "decks", "shoes"), [(EVERY_COUP, 1, 3), (SYSTEMS["dragon7-jacobson"], 2, 4)]
)
def test_the_cover_is_valued_exactly(system: CountSystem, decks: int, shoes: int) -> None:
    """The cover's exact total is two units of Banker's exact expectation on every coup the
    system bets, each coup priced on its own from the cards left (`analyze_bets`)."""
    procedure = Procedure(shoe=Shoe.decks(decks), cut_card=7)
    cover = Cover(BETS["banker"], Fraction(2))
    [covered, plain] = evaluate_systems(
        [system, system], [BETS["dragon7"]] * 2, procedure, shoes=shoes, seed=5, covers=[cover, None]
    )
    total = Fraction(0)
    for index in range(shoes):
        record = deal_shoe(procedure, STANDARD, 5, index)
        for left, seen in zip(record.left.tolist(), record.seen.tolist(), strict=True):
            if system.bets(seen, sum(left)):
                [banker] = analyze_bets([BETS["banker"]], Shoe.from_counts(left))
                total += 2 * banker.expectation
    assert covered.triggers > 0 and covered.cover_expectation == total and covered.cover == cover
    assert plain.cover is None and plain.cover_expectation is None
    # the side bet alone is the same with or without the cover; net = side + cover per shoe
    assert covered.per_shoe("expected") == plain.per_shoe("expected")
    side, staked, net = (covered.per_shoe(k)[0] for k in ("expected", "cover", "net"))
    assert net == pytest.approx(side + staked, abs=1e-12)
    assert staked == pytest.approx(float(total) / shoes, abs=1e-12)


def test_parse_cover() -> None:
    assert parse_cover("banker") == Cover(BETS["banker"], Fraction(1))
    assert parse_cover("player:1/2").units == Fraction(1, 2) and parse_cover("tie:3").text == "3 units on tie"
    for spec, message in [
        ("banker:0", "units '0' is not allowed"),
        ("banker:x", "units 'x' is not allowed"),
        ("banker:", "units '' is not allowed"),  # was accepted as 1 unit
        ("perfect-pairs-v1", "reads individual cards"),
        ("nope", "unknown bet 'nope'"),
        ("", "give BET or BET:UNITS"),
    ]:
        with pytest.raises(AnalyzerError, match=message) as error:
            parse_cover(spec)
        assert error.value.argument == "cover" and "\n" not in str(error.value)


def test_count_and_par_sheet_show_side_bet_cover_and_net(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "count", "--system", "dragon7-jacobson", "--decks", "2", "--shoes", "20",
                         "--cover", "banker:1", "--format", "json")  # fmt: skip
    assert code == 0, err
    [system] = json.loads(out)["systems"]
    cover = system["cover"]
    assert cover["bet"] == "banker" and cover["units"] == "1"
    assert cover["side_per_shoe"] == system["win_per_shoe"]["expected"]
    assert cover["net_per_shoe"]["mean"] == pytest.approx(
        cover["side_per_shoe"]["mean"] + cover["cover_per_shoe"]["mean"], abs=2e-6
    )
    code, out, err = run(capsys, "count", "--system", "dragon7-jacobson", "--decks", "2", "--shoes", "20",
                         "--cover", "banker:1")  # fmt: skip
    assert code == 0 and "Cover bets" in out and "1 unit on banker" in out
    code, out, err = run(capsys, "par-sheet", "--bets", "dragon7", "--shoes", "20", "--cover", "banker")
    assert code == 0, err
    assert "Cover bet: 1 unit on banker on every coup the count bets" in out
    code, out, err = run(capsys, "par-sheet", "--bets", "dragon7", "--shoes", "20", "--cover", "banker",
                         "--format", "json")  # fmt: skip
    study = json.loads(out)["bets"]["dragon7"]["countability"]["study"]
    assert study["cover"]["bet"] == "banker" and study["cover"]["side_per_shoe"] == study["win_per_shoe"]


def test_bad_cover_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("count", "--system", "dragon7-jacobson", "--shoes", "5", "--cover", "banker:-1")
    assert one_line_error(capsys, *argv).strip() == (
        "baccarat: error: --cover 'banker:-1': units '-1' is not allowed; use a number above 0 and at "
        "most 1000"
    )
