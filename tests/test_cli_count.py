"""CLI contract of `count`: procedure options, advantage-play figures, executors, bad input."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest
from clirun import one_line_error, run

SAMPLE_RECORD = str(
    Path(__file__).resolve().parent.parent / "analyzer" / "counting" / "data" / "sample-shoe.txt"
)

BASE = [
    "count",
    "--system",
    "dragon7-jacobson,panda8-jacobson",
    "--shoes",
    "30",
    "--seed",
    "3",
    "--cut-card",
    "14",
]


def test_count_json_has_the_advantage_play_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *BASE, "--format", "json", "--bankroll", "250", "--coups-per-hour", "60")
    assert code == 0
    data = json.loads(out)
    assert "cut card 14" in data["procedure"] and "(the default" not in data["procedure"]
    d7 = data["systems"][0]
    for key in ("sd_per_shoe", "sd_per_coup_bet", "n0", "risk_of_ruin", "win_per_hour", "bets_per_hour"):
        assert isinstance(d7[key], float), key
    mean = d7["win_per_shoe"]["expected"]["mean"]
    assert d7["risk_of_ruin"] == pytest.approx(math.exp(-2 * mean * 250 / d7["sd_per_shoe"] ** 2), rel=1e-4)
    assert d7["win_per_hour"] == pytest.approx(mean * 60 / d7["coups_per_shoe"], rel=1e-4)
    assert d7["tags"][:10] == [0, 0, 0, -1, -1, -1, -1, 2, 2, 0] and d7["rule"] == "true count (exact) >= 4"


def test_a_system_that_never_bets_has_no_win(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """No bets, no figure: the wins (per shoe, per 100 coups, per hour) read "none (no bets)",
    not "+0.000 ± 0.000" or "+0.000"; the perfect-information win, which does not depend on
    the count, keeps its figure; and a system that never bets is never ruined."""
    system = tmp_path / "never.toml"
    system.write_text(
        '[systems.never]\ntags = [0,0,0,0,0,0,0,0,0,0,0,0,0]\nbet = "dragon7"\nthreshold = 100\n'
    )
    code, out, err = run(capsys, "count", "--system", str(system), "--shoes", "20", "--format", "markdown")
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.startswith("| never")]
    wins, advantage = rows[:2]  # the wins (perfect information last), the advantage-play figures
    assert "± 0.000" not in out and wins.count("none (no bets)") == 2 and "±" in wins.split("|")[-2]
    cells = [cell.strip() for cell in advantage.split("|")]
    assert cells.count("none (no bets)") == 3 and "0.00%" in cells  # the risk of ruin
    # The spreadsheets hold no figure either: empty cells (a win and its SE), or the text.
    code, out, err = run(capsys, "count", "--system", str(system), "--shoes", "20", "--format", "csv")
    assert code == 0, err
    tables = [list(csv.reader(part.strip().splitlines())) for part in out.split("\n\n")]
    wins, advantage, cvdata = ({h: c for h, c in zip(t[-2], t[-1], strict=True)} for t in tables[:3])
    assert [wins[k] for k in ("EV win/shoe", "EV win/shoe (se)", "realized win/shoe")] == ["", "", ""]
    assert float(wins["perfect info/shoe"]) > 0
    assert [advantage[k] for k in ("win/shoe", "win/shoe (se)", "win/100 coups")] == ["", "", ""]
    assert advantage["win/hour"] == cvdata["win/100 coups"] == "none (no bets)"


def test_count_procedure_options(capsys: pytest.CaptureFixture[str]) -> None:
    def triggers(*extra: str) -> list[int]:
        code, out, err = run(capsys, *BASE, "--format", "json", *extra)
        assert code == 0, err
        return [s["triggers"] for s in json.loads(out)["systems"]]

    plain = triggers()
    assert triggers("--extra-coup") >= plain
    assert triggers("--strict") <= plain
    assert triggers("--true-count", "half-deck") != plain or triggers("--true-count", "deck") != plain
    assert triggers("--no-burn") != plain and triggers("--burn-seen", "all") != plain


def test_count_table_states_the_default_cut_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "--system", "dragon7-jacobson", "--shoes", "5")
    assert code == 0
    prose = " ".join(out.split())  # terminal prose is wrapped at 120 columns
    assert "cut card 7 cards from the end (the default; published studies" in prose
    assert "Risk of ruin for a bankroll of 100 units: exp(-2 * mu * B / sigma^2)" in prose
    argv = ["count", "--system", "dragon7-jacobson", "--shoes", "5", "--format", "markdown"]
    code, out, _ = run(capsys, *argv)
    assert "+0 +0 +0 -1 -1 -1 -1 +2 +2 +0" in out and "true count (exact) >= 4" in out  # unwrapped cells


@pytest.mark.parametrize(
    ("argv", "bad"),
    [
        (["--counts", "1,1,1,1,1,1,0,0,0,0,0,0,0", "--cut-card", "0"], "no coup can be dealt"),
        (["--executor", "mpi"], "mpi"),
        (["--bankroll", "-5"], "-5"),
        (["--coups-per-hour", "lots"], "lots"),
        (["--true-count", "quarter"], "quarter"),
        (["--burn-seen", "some"], "some"),
    ],
)
def test_bad_count_input(capsys: pytest.CaptureFixture[str], argv: list[str], bad: str) -> None:
    code, out, err = run(capsys, "count", "--shoes", "3", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and bad in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["count", "--shoes", "1", "--no-burn", "--burn-seen", "all"], "--burn-seen all: with --no-burn"),
        (["count", "--shoes", "1", "--no-burn", "--burn-seen", "none"], "--burn-seen none: with --no-burn"),
        (["count", "--shoes", "1", "--sort-positions", "2"], "--sort-positions '2': it says where --sort"),
        (["track", SAMPLE_RECORD, "--sort-positions", "2"], "--sort-positions '2': it says where --sort"),
        (["count", "--shoes", "1", "--connect-timeout", "1"], "--connect-timeout '1': it bounds"),
        (
            ["count", "--shoes", "1", "--executor", "dask", "--connect-timeout", "1"],
            "give it with --executor tcp",
        ),
    ],
    ids=[
        "no-burn-seen-all",
        "no-burn-seen-none",
        "count-positions",
        "track-positions",
        "local-timeout",
        "dask",
    ],
)
def test_an_option_that_would_be_ignored_is_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    """An option another option makes meaningless (what the burned cards show when none is
    burned; where the sorter reads without --sort; a scheduler's timeout with no scheduler)
    is refused, not silently ignored."""
    assert words in one_line_error(capsys, *argv)
