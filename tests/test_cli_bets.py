"""CLI contract of `edges`, `compare` and `report`."""

from __future__ import annotations

import json
import re
import stat
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import run

from analyzer.core.catalogue import BETS
from analyzer.core.shoe import Shoe


def test_edges_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "edges", "--format", "json")
    assert code == 0
    bets = json.loads(out)["bets"]
    assert {"player", "banker", "banker-4pct", "tie", "tie-9to1", "super6-banker", "ez-banker", "dragon7",
            "panda8", "player-pair", "banker-pair"} <= set(bets)  # fmt: skip
    assert Fraction(bets["player-pair"]["house_edge"]) == Fraction(43, 415)
    assert Fraction(bets["banker"]["house_edge"]) > 0
    assert Fraction(bets["banker"]["house_edge_resolved"]) > Fraction(bets["banker"]["house_edge"])
    lines = bets["tie"]["lines"]
    assert sum(line["combinations"] for line in lines) == 4_998_398_275_503_360


def test_edges_options(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "edges", "--table", "super6", "--commission", "5.8727%", "--format", "json")
    bets = json.loads(out)["bets"]
    assert list(bets) == ["player", "super6-banker", "tie", "banker-5.8727pct"]
    _, out, _ = run(capsys, "edges", "--bets", "banker", "--decks", "inf", "--format", "json")
    banker = json.loads(out)["bets"]["banker"]
    assert banker["lines"][0]["combinations"] is None
    _, out, _ = run(
        capsys, "edges", "--bets", "banker", "--rules", "seed004", "--format", "markdown", "--details"
    )
    assert "| Banker wins " in out and "banco-4-draws-on-0-1" in out


def test_edges_details_without_stray_blank_lines_or_wrapped_headers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`edges --details`: the terminal summary fits on one line per bet and one header line
    (the titles head the bets' sections, with their names); a bet without a source gets no
    empty paragraph, in the terminal table and in Markdown."""
    code, out, err = run(capsys, "edges", "--details", "--bets", "banker,dragon7")
    assert code == 0, err
    summary = out.split("\n\n")[1].splitlines()
    header = ["bet", "house edge", "per resolved bet", "hit frequency", "std dev", "house edge (exact)"]
    assert summary[0].split() == " ".join(header).split(" ")
    assert [line.split()[0] for line in summary[2:]] == ["banker", "dragon7"]
    assert "\nBanker (5% commission, 19 to 20) (banker)\n\nSource: Wikipedia" in out
    path = tmp_path / "t.toml"
    path.write_text('[bets.tie8]\nlines = [{ when = { winner = "tie" }, pays = 8 }]\n', encoding="utf-8")
    for fmt, heading in (("table", "tie8 (tie8)"), ("markdown", "### tie8 (`tie8`)")):
        argv = ["edges", "--details", "--table", str(path), "--bets", "tie8", "--format", fmt]
        code, out, err = run(capsys, *argv)
        assert code == 0, err
        assert f"\n{heading}\n\n" in out and "\n\n\n" not in out, fmt


def test_compare_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "--tables", "super6", "--shoes", "8,inf", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["shoes"] == ["8 decks", "infinite deck"]
    assert Fraction(data["commissions"]["super6-banker"]["commission"]) > Fraction(1, 20)
    assert data["tableau"]["variant"] == "banco-4-draws-on-0-1"


def test_report_writes_every_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import analyzer.present.reports as report
    from analyzer.present.reports import counting, effects, par_sheets

    small = ((counting, "_COUNT_SHOES"), (counting, "_CHOICE_SHOES"), (effects, "_EOR_SHOES"),
             (par_sheets, "RANK_SHOES"), (par_sheets, "CARD_SHOES"))  # fmt: skip
    for module, name in small:  # a small run: this checks the wiring
        monkeypatch.setattr(module, name, 4)
    monkeypatch.setattr(report, "games_report", lambda: dict.fromkeys(report.GAME_REPORTS, "# game\n"))
    monkeypatch.setattr(report, "start_games_report", lambda executor: report.games_report)
    monkeypatch.setattr(par_sheets, "BETS", {name: BETS[name] for name in ("dragon7", "lucky-nines")})
    code, out, _ = run(capsys, "report", "--out", str(tmp_path))
    assert code == 0
    assert "2,292,252,566,437,888" in out
    assert {p.name for p in tmp_path.iterdir()} == {
        "README.md", "odds.md", "punto-table.md", "house-edges.md", "compare.md", "tableau.md",
        "effects-of-removal.md", "counting.md", "counting-ev-by-count.png", "closed-forms.md",
        "house-edge-by-decks.png", "effects-of-removal.png", "par-sheets",
        "tracked-shoe.md", "known-cards.md",
    } | set(report.GAME_REPORTS)  # fmt: skip
    assert len(list((tmp_path / "par-sheets").iterdir())) == 2 * 2 + 2  # two bets' sheets, two indexes


def _stub_reports(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every report's builder replaced by a quick stand-in (the CLI's wiring is what is tested);
    the names of the files `baccarat report` then writes, in order."""
    import analyzer.present.reports as report

    def text(title: str) -> str:  # marked as `baccarat report` marks its files, so rewritten in place
        return f"# {title}\n\nGenerated by `baccarat report` from the code\n"

    for name in report.REPORTS:
        monkeypatch.setitem(report.REPORTS, name, lambda name=name: text(name))
    monkeypatch.setattr(report, "games_report", lambda: {name: text(name) for name in report.GAME_REPORTS})
    monkeypatch.setattr(report, "start_games_report", lambda executor: report.games_report)
    monkeypatch.setattr(report, "_run_together", lambda executor: None)
    monkeypatch.setattr(report, "counting_runs", lambda executor: None)
    monkeypatch.setattr(report, "counting_report", lambda runs: text("Counting"))
    monkeypatch.setattr(report, "counting_plot", lambda runs, path: path.write_bytes(b"png"))
    sheets = {"par-sheets/README.md": text("Sheets"), "par-sheets/tie.md": text("Tie")}
    monkeypatch.setattr(report, "par_sheet_reports", lambda executor: sheets)
    for name in report.PLOTS:
        monkeypatch.setitem(report.PLOTS, name, lambda path: path.write_bytes(b"png"))
    return [*report.REPORTS, "counting.md", *report.GAME_REPORTS, "par-sheets/ (2 files)", "README.md",
            "counting-ev-by-count.png", *report.PLOTS]  # fmt: skip


def test_report_progress_is_one_line_per_file_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _stub_reports(monkeypatch)
    code, out, err = run(capsys, "report", "--out", str(tmp_path / "r"), "--progress")
    assert code == 0, err
    assert "baccarat report:" not in out and "Reports" in out  # the output is as without --progress
    lines = err.splitlines()
    assert len(lines) == len(files) == 19 and err.endswith("\n")
    for number, (line, name) in enumerate(zip(lines, files, strict=True), 1):
        assert re.fullmatch(rf"baccarat report: {re.escape(name)} \({number}/19, \d+\.\d s\)", line), line
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == sorted(
        {name.split("/")[0] for name in files if " " not in name} | {"par-sheets"}
    )


def test_report_without_progress_is_silent_off_a_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stub_reports(monkeypatch)
    code, out, err = run(capsys, "report", "--out", str(tmp_path / "r"))
    assert (code, err) == (0, "")
    with_progress = run(capsys, "report", "--out", str(tmp_path / "r"), "--progress")
    assert with_progress[:2] == (0, out)  # the same output either way
    assert run(capsys, "report", "--out", str(tmp_path / "r"))[2] == ""  # and off again after


@pytest.mark.parametrize(
    ("argv", "bad"),
    [
        (["edges", "--bets", "banker,bogus"], "bogus"),
        (["edges", "--table", "vegas"], "vegas"),
        (["edges", "--table", "missing.toml"], "missing.toml"),
        (["edges", "--commission", "abc"], "abc"),
        (["compare", "--shoes", "8,0"], "0"),
        (["compare", "--tables", "nope"], "nope"),
        (["compare", "--variant", "nope"], "nope"),
        (["report", "--format", "json"], "json"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], bad: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and bad in err and "Traceback" not in err


def test_eor_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eor", "--bets", "banker,tie", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert list(data["bets"]["banker"]) == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert data["identity"] == {"banker": "0", "tie": "0"}
    assert Fraction(data["bets"]["tie"]["6"]) < 0 < Fraction(data["bets"]["tie"]["8"])
    # each level's best count, then (after an unbalanced best) the level's best balanced one
    counts = data["best_counts"]["banker"]
    assert [(c["level"], c["balanced"]) for c in counts] == [
        (1, False),
        (1, True),
        (2, False),
        (2, True),
        (3, False),
        (3, True),
    ]
    level1 = counts[1]
    assert level1["tags"]["4"] == 1 and level1["tags"]["6"] == -1 and sum(level1["tags"].values()) == 0
    assert counts[0]["betting_correlation"] > level1["betting_correlation"]
    _, out, _ = run(capsys, "eor", "--bets", "player-pair", "--format", "json")
    assert json.loads(out)["best_counts"] == {}  # every rank's removal acts alike: no count


def test_eor_leaves_out_ranks_the_shoe_lacks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "eor", "--counts", "4,4,4,4,4,4,4,4,4,4,4,4,0", "--bets", "tie", "--format", "json"
    )
    assert code == 0 and "K" not in json.loads(out)["bets"]["tie"]


def test_count_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["count", "--system", "dragon7-jacobson", "--shoes", "20", "--seed", "3", "--cut-card", "14"]
    code, out, _ = run(capsys, *argv, "--format", "json")
    assert code == 0
    [system] = json.loads(out)["systems"]
    assert system["system"] == "dragon7-jacobson" and system["bet"] == "dragon7" and system["shoes"] == 20
    assert Fraction(system["perfect"]) >= Fraction(system["expectation_triggered"])
    _, again, _ = run(capsys, *argv, "--format", "json", "--workers", "2")
    assert again == out
    _, other_bet, _ = run(capsys, *argv, "--bet", "panda8", "--format", "json")
    assert json.loads(other_bet)["systems"][0]["bet"] == "panda8"


@pytest.mark.parametrize(
    ("argv", "bad"),
    [
        (["count", "--system", "hilo"], "hilo"),
        (["count", "--shoes", "ten"], "ten"),
        (["count", "--shoes", "0"], "0"),
        (["count", "--cut-card", "999"], "999"),
        (["count", "--workers", "0"], "0"),
        (["count", "--decks", "inf"], "finite"),
        (["count", "--bet", "nope"], "nope"),
        (["eor", "--decks", "inf"], "finite"),
        (["eor", "--bets", "nope"], "nope"),
    ],
)
def test_bad_count_and_eor_input(capsys: pytest.CaptureFixture[str], argv: list[str], bad: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and bad in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "bad"),
    [
        (["report", "--out", ""], "--out ''"),
        (["report", "--out", str(Path(__file__).resolve().parent.parent)], "project root"),
        (["edges", "--commission", "1/0%"], "1/0%"),
        (["eor", "--counts", "0,0,0,0,0,0,0,0,0,0,0,0,6"], "at least 7 cards"),
        (["compare", "--counts", "0,0,0,0,0,0,0,0,0,0,0,0,6", "--shoes", "1"], "Banker cannot win"),
        (["count", "--shoes", "100000000000000000000"], "at most"),
        (["odds", "--decks", "100000000"], "100000000"),
        (["odds", "--counts", "-1,4,4,4,4,4,4,4,4,4,4,4,4"], "--option=VALUE"),
    ],
)
def test_reviewed_bad_inputs(capsys: pytest.CaptureFixture[str], argv: list[str], bad: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and bad in err and "Traceback" not in err


def test_report_refuses_a_file_as_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "file.md"
    target.write_text("x", encoding="utf-8")
    code, _, err = run(capsys, "report", "--out", str(target / "sub"))
    assert code == 2 and err.count("\n") == 1 and "cannot be written" in err


def test_count_on_large_and_tiny_shoes(capsys: pytest.CaptureFixture[str]) -> None:
    """16 decks takes the exact integer path; a shoe the burn empties deals no coup: an error."""
    code, out, _ = run(
        capsys, "count", "--decks", "16", "--shoes", "1", "--system", "banker-eor", "--format", "json"
    )
    assert code == 0 and json.loads(out)["systems"][0]["coups"] > 100
    argv = [
        "count",
        "--shoes",
        "2",
        "--counts",
        "0,0,0,0,0,0,0,0,0,0,0,0,6",
        "--cut-card",
        "0",
        "--format",
        "json",
    ]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "no coup can be dealt" in err


def test_two_bets_with_one_name_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    bet = '[bets.banker-4pct]\nlines = [{ when = { winner = "banker" }, pays = 2 }]'
    path.write_text(bet, encoding="utf-8")
    code, _, err = run(capsys, "edges", "--table", str(path), "--commission", "4%")
    assert code == 2 and "--commission adds a bet named 'banker-4pct'" in err
    code, _, err = run(capsys, "edges", "--bets", "banker-4pct,banker", "--commission", "4%")
    assert code == 2 and "--commission adds a bet named 'banker-4pct'" in err and "table file" not in err


# -- card level: --cards, suited --remove, --shown, card-level bets -------------

FULL_CARDS = ",".join(["1"] * 52)

CARD_BAD_INPUTS = {
    "unknown suit": (["odds", "--remove", "KX"], "unknown suit 'X'"),
    "53 counts": (["odds", "--cards", ",".join(["1"] * 53)], "53 entries"),
    "cards and counts": (["odds", "--cards", FULL_CARDS, "--counts", ",".join(["4"] * 13)], "given together"),
    "cards word": (["odds", "--cards", ",".join(["x"] * 52)], "count 'x' for card AS"),
    "cards negative": (["odds", "--cards", ",".join(["1"] * 51 + ["-1"])], "card KC"),
    "shown card not held": (["odds", "--decks", "1", "--shown", "p1=KH,b1=KH"], "holds 1 KH and 2 are shown"),
    "shown twice": (["odds", "--shown", "p1=9,p1=K"], "shown twice"),
    "shown suit on rank shoe": (["odds", "--counts", ",".join(["4"] * 13), "--shown", "p1=KH"], "not known"),
    "suit bet on rank shoe": (
        ["edges", "--counts", ",".join(["4"] * 13), "--bets", "perfect-pairs-v1"],
        "suits are not known",
    ),
    "suited remove not held": (["odds", "--decks", "1", "--remove", "KH,KH"], "no KH left"),
    "suit bet on a rank removal": (  # it said "give the shoe with --decks or --cards", given --decks
        ["edges", "--decks", "8", "--remove", "5", "--bets", "perfect-pairs-v1"],
        "(8 decks less 5): give the shoe with --decks or --cards, removing cards with their suits "
        "(--remove 5H, not 5)",
    ),
}


@pytest.mark.parametrize("case", list(CARD_BAD_INPUTS))
def test_card_bad_inputs(capsys: pytest.CaptureFixture[str], case: str) -> None:
    argv, message = CARD_BAD_INPUTS[case]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_default_bets_left_out_for_suits_are_named_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """The card-level bets that read suits are left out of `edges` on a shoe less an unsuited
    card, said on standard error (they were dropped silently); stdout is the bets priced."""
    code, out, err = run(capsys, "edges", "--decks", "8", "--remove", "5", "--format", "json")
    assert code == 0
    suited = [
        "perfect-pairs-v1",
        "perfect-pairs-v2",
        "lucky-nines",
        "perfect-9-bonus",
        "super-tie",
        "super-tie-20",
    ]
    priced = json.loads(out)["bets"]
    assert len(priced) == 21 and not set(suited) & set(priced) and json.loads(out)["left_out"] == suited
    assert err == (
        "baccarat: note: 6 bets left out: they read suits, which the shoe (8 decks less 5) does not give: "
        f"{', '.join(suited)}; to price them, give the shoe with --decks or --cards, removing cards with "
        "their suits (--remove 5H, not 5)\n"
    )
    code, out, err = run(capsys, "edges", "--decks", "8", "--remove", "5H", "--format", "json")
    assert (code, err, len(json.loads(out)["bets"])) == (0, "", 27)


def test_cards_option_is_a_suited_shoe(capsys: pytest.CaptureFixture[str]) -> None:
    bets = ("--bets", "perfect-pairs-v1,banker", "--format", "json")
    code, out, _ = run(capsys, "edges", "--cards", FULL_CARDS, *bets)
    assert code == 0
    code, deck, _ = run(capsys, "edges", "--decks", "1", *bets)
    assert json.loads(out)["bets"] == json.loads(deck)["bets"]


def test_suited_remove(capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.cards.batch import analyze_cards
    from analyzer.core.catalogue import CARD_BETS

    argv = ("edges", "--decks", "1", "--remove", "KH,9s", "--bets", "perfect-pairs-v1", "--format", "json")
    code, out, _ = run(capsys, *argv)
    expected = analyze_cards(CARD_BETS["perfect-pairs-v1"], Shoe.decks(1).remove(["KH", "9S"]))
    assert code == 0 and json.loads(out)["bets"]["perfect-pairs-v1"]["house_edge"] == str(expected.house_edge)


def test_shown_json(capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.analyses.shown import parse_shown, shown_odds

    code, out, _ = run(capsys, "odds", "--shown", "p1=9,b1=KH", "--format", "json")
    data = json.loads(out)
    expected = shown_odds(Shoe.decks(8), parse_shown("p1=9,b1=KH"))
    assert code == 0 and data["shown"] == {"p1": "9", "b1": "KH"}
    assert data["banker"] == str(expected.banker) and data["total"] == expected.total
    code, out, _ = run(capsys, "edges", "--shown", "p1=9", "--bets", "tie", "--format", "json")
    assert code == 0 and json.loads(out)["shown"] == {"p1": "9"} and "tie" in json.loads(out)["bets"]


def test_bets_selects_a_tables_own_bet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        '[bets.red-player]\nlines = [{ when = { player_colour = "red" }, pays = 3 }]\n'
        '[bets.other]\nlines = [{ when = { winner = "player" }, pays = 1 }]\n',
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "edges", "--table", str(path), "--bets", "red-player,tie", "--format", "json")
    assert code == 0 and list(json.loads(out)["bets"]) == ["red-player", "tie"]


def test_the_plots_report_writes_are_the_ones_its_folder_check_knows() -> None:
    import analyzer.present.reports as report
    from analyzer.present.folders import PLOT_FILES

    assert {*report.PLOTS, report._COUNTING_PLOT} == set(PLOT_FILES)


def test_the_reports_report_writes_are_the_ones_its_folder_check_knows() -> None:
    import analyzer.present.reports as report
    from analyzer.present.folders import REPORT_FILES, report_files

    assert {*report.REPORTS, "counting.md", *report.GAME_REPORTS, "README.md"} == set(REPORT_FILES)
    assert "par-sheets/dragon7.html" in report_files() and "par-sheets/index.html" in report_files()
    assert "dragon7.md" not in report_files()  # a sheet only under par-sheets/


def test_report_refuses_files_that_only_look_generated(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A file is the report's by its name (and preamble), never by a look-alike content."""
    html = run(capsys, "par-sheet", "--bets", "tie", "--shoes", "20", "--format", "html")[1]
    markdown = run(capsys, "par-sheet", "--bets", "tie", "--shoes", "20")[1]
    assert "Generated from the code" in markdown and "baccarat par-sheet" in html
    out = tmp_path / "r"
    (out / "par-sheets").mkdir(parents=True)
    (out / "par-sheets" / "mine.md").write_text(markdown, encoding="utf-8")
    code, _, err = run(capsys, "report", "--out", str(out))
    assert code == 2 and err.count("\n") == 1 and "'par-sheets/mine.md'" in err
    (out / "par-sheets" / "mine.md").unlink()
    (out / "mine.md").write_text(markdown, encoding="utf-8")  # the look-alike the old check took
    code, _, err = run(capsys, "report", "--out", str(out))
    assert code == 2 and err.count("\n") == 1 and "'mine.md'" in err and "did not write" in err
    (out / "mine.html").write_text(html, encoding="utf-8")
    code, _, err = run(capsys, "report", "--out", str(out))
    assert code == 2 and err.count("\n") == 1 and "'mine.html'" in err and "did not write" in err
    assert (out / "mine.md").read_text(encoding="utf-8") == markdown
    assert (out / "mine.html").read_text(encoding="utf-8") == html


def test_report_refuses_a_file_that_appears_while_it_computes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import analyzer.present.reports as report

    _stub_reports(monkeypatch)
    out = tmp_path / "r"
    assert run(capsys, "report", "--out", str(out))[0] == 0
    (out / "speed.md").write_text("# Speed\n", encoding="utf-8")  # KEPT: carried over
    before = {path.name: path.read_bytes() for path in out.iterdir() if path.is_file()}

    def notes(runs: object) -> str:  # the user writes into the folder while the reports build
        (out / "notes.txt").write_text("data\n", encoding="utf-8")
        return "# Counting\n\nGenerated by `baccarat report` from the code\n"

    monkeypatch.setattr(report, "counting_report", notes)
    code, _, err = run(capsys, "report", "--out", str(out))
    assert code == 2 and err.count("\n") == 1 and "discarded" in err
    assert err.startswith(f"baccarat: error: --out '{out}' gained 'notes.txt' while")
    assert (out / "notes.txt").read_text(encoding="utf-8") == "data\n"
    (out / "notes.txt").unlink()
    assert {path.name: path.read_bytes() for path in out.iterdir() if path.is_file()} == before  # untouched
    assert sorted(path.name for path in tmp_path.iterdir()) == ["r"]  # the new files discarded


def test_report_keeps_a_file_that_appears_as_the_folder_is_swapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from analyzer.core.errors import AnalyzerError
    from analyzer.present import folders

    out = tmp_path / "r"
    out.mkdir()
    (out / "odds.md").write_text("# Old\n\nGenerated by `baccarat report` from the code\n", encoding="utf-8")
    (out / "speed.md").write_text("# Speed\n", encoding="utf-8")
    stray = folders._stray

    def late(folder: Path, files: frozenset[str], prefix: str = "") -> str | None:
        found = stray(folder, files, prefix)  # the last check passes; then a file appears
        (out / "late.txt").write_text("data\n", encoding="utf-8")
        return found

    def write(staging: Path) -> list[str]:
        (staging / "odds.md").write_text("# New\n", encoding="utf-8")
        return ["odds.md"]

    monkeypatch.setattr(folders, "_stray", late)
    with pytest.raises(AnalyzerError, match=r"'late\.txt'") as raised:
        folders.write_all_or_none(out, write, kept=folders.KEPT)
    assert sorted(path.name for path in out.iterdir()) == ["odds.md", "speed.md"]
    assert (out / "odds.md").read_text(encoding="utf-8") == "# New\n"
    (old,) = [path for path in tmp_path.iterdir() if path.name != "r"]
    assert f"'{old.name}'" in str(raised.value)
    assert sorted(path.name for path in old.iterdir()) == ["late.txt"]  # only ours deleted


def test_report_keeps_the_modes_of_the_folder_and_files_it_replaces(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A private report folder stays private: the new folder, its subfolder and its files take
    the permission bits of those they replace (they took the umask's: 0755 and 0644)."""
    _stub_reports(monkeypatch)
    out = tmp_path / "r"
    assert run(capsys, "report", "--out", str(out))[0] == 0
    out.chmod(0o700)
    (out / "par-sheets").chmod(0o750)
    (out / "odds.md").chmod(0o600)
    assert run(capsys, "report", "--out", str(out))[0] == 0
    modes = [stat.S_IMODE(path.stat().st_mode) for path in (out, out / "par-sheets", out / "odds.md")]
    assert modes == [0o700, 0o750, 0o600]
