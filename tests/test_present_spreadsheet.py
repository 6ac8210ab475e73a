"""Spreadsheets: `--format csv` and `--format xlsx` give numbers as numbers and the exact value
"p/q" beside each, read back with the csv module and openpyxl and compared with the exact
values the library computes; user strings stay data (no formula); `to_frame(exact=False)`."""

from __future__ import annotations

import csv
import io
import json
import math
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from clirun import one_line_error, run

from analyzer import Shoe, get_bet
from analyzer.analyses.odds import odds
from analyzer.analyses.results import edges_result
from analyzer.counting.cover import parse_cover
from analyzer.counting.par import ParSheet, par_sheets
from analyzer.counting.results import count_result, eor_result
from analyzer.present import outputs
from analyzer.present.counting import estimate
from analyzer.present.document import Estimate, Heading, Paragraph, Table
from analyzer.present.par_documents import par_files, render_par_sheets
from analyzer.present.spreadsheet import sheets, write_csv, write_xlsx

openpyxl = pytest.importorskip("openpyxl")

DATE = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def _csv_tables(text: str) -> list[list[list[str]]]:
    """The tables of a CSV of several (each under its title row, a blank row between)."""
    tables: list[list[list[str]]] = [[]]
    for row in csv.reader(io.StringIO(text)):
        if not row:
            tables.append([])
        else:
            tables[-1].append(row)
    return tables


def test_edges_csv_numbers_and_exact_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "edges", "--bets", "banker,tie,dragon7", "--format", "csv")
    assert code == 0 and err == ""
    rows = list(csv.DictReader(io.StringIO(out)))
    analyses = edges_result(Shoe.decks(8), None, ["banker", "tie", "dragon7"]).analyses
    expected = {a.bet.name: a for a in analyses}
    assert [row["bet"] for row in rows] == ["banker", "tie", "dragon7"]
    for row in rows:
        a = expected[row["bet"]]
        assert Fraction(row["house edge (p/q)"]) == a.house_edge  # exact
        assert float(row["house edge"]) == float(a.house_edge)  # a number, not "1.0579%"
        assert Fraction(row["hit frequency (p/q)"]) == a.hit_frequency
        assert float(row["std dev"]) == a.std_dev
    assert Fraction(rows[0]["house edge (p/q)"]) == Fraction(114753351728, 10847218479825)  # 1.0579%


def test_odds_csv_counts_are_integers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0
    assert rows[0]["result"] == "banker" and rows[0]["combinations"] == "2292252566437888"
    assert rows[-1]["combinations"] == "4998398275503360"  # the published 8-deck total
    assert Fraction(rows[2]["probability (p/q)"]) == odds(Shoe.decks(8)).tie


def test_count_csv_splits_estimates(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["count", "--system", "dragon7-jacobson", "--shoes", "20", "--seed", "3"]
    code, out, _ = run(capsys, *argv, "--format", "csv")
    assert code == 0
    data = json.loads(_json(capsys, *argv))
    first, advantage, *_ = _csv_tables(out)  # then the CVData figures and the results by count
    header, values = first[1], dict(zip(first[1], first[2], strict=True))
    assert "EV win/shoe (se)" in header
    win = data["systems"][0]["win_per_shoe"]["expected"]
    assert round(float(values["EV win/shoe"]), 6) == win["mean"]
    assert round(float(values["EV win/shoe (se)"]), 6) == win["se"]
    assert advantage[0] == ["Advantage-play figures"]
    assert dict(zip(advantage[1], advantage[2], strict=True))["tags"].startswith("'+0")  # text, no formula


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, _ = run(capsys, *argv, "--format", "json")
    assert code == 0
    return out


def test_eor_xlsx_one_sheet_per_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "eor.xlsx"
    code, out, _ = run(capsys, "eor", "--bets", "tie,perfect-pairs-v1", "--decks", "1", "--format", "xlsx",
                       "--out", str(path))  # fmt: skip
    assert code == 0 and str(path) in out
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == [  # 31 characters at most, ":" left out (Excel's limits)
        "Effects of removal 1 deck, stan", "Effects of removal per rank",
        "Effects of removal per card typ", "Best linear counts",
    ]  # fmt: skip
    effects = eor_result(Shoe.decks(1), None, ["tie", "perfect-pairs-v1"]).effects.effects["tie"]
    ws = book["Effects of removal per rank"]
    header = [cell.value for cell in ws[1]]
    assert header == ["rank", "tie", "tie (p/q)"]
    for row in ws.iter_rows(min_row=2, values_only=True):
        rank, number, text = row
        if rank in effects:
            # openpyxl writes 16 significant digits (Excel keeps 15): the p/q cell is the exact value
            assert isinstance(number, float) and math.isclose(number, effects[rank], rel_tol=1e-15)
            assert Fraction(text) == effects[rank]
    last = [cell.value for cell in ws[ws.max_row]]
    assert last == ["sum n x effect", 0, "0"]  # the identity, exactly 0


def test_edges_xlsx_cells_and_formats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "edges.xlsx"
    argv = ["edges", "--bets", "banker,dragon7", "--details", "--format", "xlsx", "--out", str(path)]
    code, _, _ = run(capsys, *argv)
    assert code == 0
    book = openpyxl.load_workbook(path)
    assert len(book.sheetnames) == 3  # the summary and one paytable per bet
    ws = book.worksheets[0]
    header = [cell.value for cell in ws[1]]
    edge = ws.cell(row=3, column=header.index("house edge") + 1)
    assert edge.data_type == "n" and edge.number_format == "0.0000%"
    dragon = get_bet("dragon7")
    analysis = next(a for a in edges_result(Shoe.decks(8), None, ["dragon7"]).analyses if a.bet == dragon)
    assert Fraction(ws.cell(row=3, column=header.index("house edge (p/q)") + 1).value) == analysis.house_edge
    paytable = book.worksheets[2]
    rows = list(paytable.iter_rows(values_only=True))
    assert rows[0][:3] == ("event", "combinations", "probability")
    assert rows[1][1] == analysis.lines[0].combinations and isinstance(rows[1][1], int)
    assert Fraction(rows[1][3]) == analysis.lines[0].probability


def test_xlsx_is_byte_identical_for_one_date() -> None:
    result = edges_result(Shoe.decks(6), None, ["tie"])
    blocks = outputs.blocks(result)
    first = write_xlsx(blocks, DATE)
    time.sleep(1.1)  # openpyxl dates its "modified" property by the clock, to the second
    assert write_xlsx(blocks, DATE) == first
    assert write_xlsx(blocks, DATE) != write_xlsx(blocks, DATE.replace(year=2027))


def test_user_strings_stay_data(tmp_path: Path) -> None:
    """A title that a spreadsheet would run as a formula is text in CSV (a leading
    apostrophe) and a string cell in XLSX; control characters are escaped, not refused."""
    hostile = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "tab\x01bell"]
    table = Table.of([[h, "1"] for h in hostile], ["title", "n"], [[h, 1] for h in hostile])
    blocks = [Heading("Hostile"), table]
    cells = [row[0] for row in csv.reader(io.StringIO(write_csv(blocks)))][1:]
    assert cells == ["'" + h for h in hostile[:4]] + ["tab\x01bell"]
    book = openpyxl.load_workbook(io.BytesIO(write_xlsx(blocks, DATE)))
    ws = book.active
    column = [ws.cell(row=i, column=1) for i in range(2, 7)]
    assert all(cell.data_type == "s" for cell in column)
    assert [cell.value for cell in column] == [*hostile[:4], "tab\\x01bell"]


def test_values_shape_and_companions() -> None:
    with pytest.raises(ValueError):
        Table.of([["a", "b"]], ["x", "y"], [[1]])
    big = 2**60 + 1
    table = Table.of(
        [["w", "0.5 ± 0.1", "n/a", str(big)]],
        ["name", "win", "edge", "ways"],
        [["w", Estimate(0.5, 0.1), None, big]],
    )
    (sheet,) = sheets([Paragraph("no table title"), table])
    assert sheet.title == "table"
    assert sheet.headers == ("name", "win", "win (se)", "edge", "ways", "ways (p/q)")
    assert sheet.rows == (("w", 0.5, 0.1, "n/a", big, str(big)),)


def test_binary_format_needs_out(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_error(capsys, "edges", "--bets", "tie", "--format", "xlsx")
    assert "--out FILE.xlsx" in err
    err = one_line_error(capsys, "odds", "--format", "xlsx")
    assert "xlsx" in err


def test_to_frame_floats() -> None:
    pytest.importorskip("pandas")
    exact = odds(Shoe.decks(8)).to_frame()
    floats = odds(Shoe.decks(8)).to_frame(exact=False)
    assert isinstance(exact.loc["tie", "probability"], Fraction)
    assert floats["probability"].dtype == "float64"
    assert floats.loc["tie", "probability"] == float(exact.loc["tie", "probability"])
    result = eor_result(Shoe.decks(1), None, ["tie"]).effects
    effects = result.to_frame(exact=False)
    assert effects["tie"].dtype == "float64"
    assert effects.loc["8", "tie"] == float(result.effects["tie"]["8"])


def test_hostile_sheets_stay_data(tmp_path: Path) -> None:
    """The hostile table file's sheets (tests/hostile_names.py) as CSV and XLSX: every text
    read back as it was given, none a formula; worksheet titles within Excel's rules."""
    from hostile_names import TITLE, hostile_sheets

    from analyzer.present.par_documents import par_files

    sheets_ = hostile_sheets(tmp_path)
    files = par_files(sheets_, "xlsx")
    for name, data in files.items():
        if not name.endswith(".xlsx"):
            continue
        assert isinstance(data, bytes)
        book = openpyxl.load_workbook(io.BytesIO(data))
        assert all(len(title) <= 31 and not set(title) & set("[]:*?/\\") for title in book.sheetnames)
        cells = [cell for ws in book for row in ws.iter_rows() for cell in row if cell.value is not None]
        assert all(cell.data_type in ("s", "n", "b") for cell in cells)  # no formula
    text = next(data for name, data in par_files(sheets_, "csv").items() if name.endswith(".csv"))
    assert isinstance(text, str)
    values = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    assert any(TITLE in value for value in values)  # the Markdown escapes undone: the text as given


def test_untyped_cells_are_read_as_numbers() -> None:
    """A table without typed values (a renderer that gives only text): its exact "p/q" is
    read exactly (and kept beside), its integers, decimals and percentages as numbers, and
    other text as text."""
    table = Table.of(
        [["a", "1/3", "1,234", "0.25", "12.5%", "8:1"], ["b", "-2/7", "12", "+0.0012", "+20.00%", "n/a"]],
        ["name", "exact", "ways", "p", "edge", "pays"],
    )
    (sheet,) = sheets([table])
    assert sheet.headers == ("name", "exact", "exact (p/q)", "ways", "p", "edge", "pays")
    assert sheet.rows == (
        ("a", 1 / 3, "1/3", 1234, 0.25, 0.125, "8:1"),
        ("b", -2 / 7, "-2/7", 12, 0.0012, 0.2, "n/a"),
    )
    assert sheet.formats[0][5] == "0.0000%" and sheet.formats[0][3] == "#,##0"


def test_known_and_track_csv(capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.counting.record import sample_path

    code, out, _ = run(capsys, "known", "--positions", "1", "--format", "csv")
    assert code == 0
    first = _csv_tables(out)[0]
    assert first[1] == ["value", "decimal", "exact", "exact (p/q)"]
    row = next(row for row in first[2:] if row[0] == "edge per coup")
    edge = Fraction(json.loads(_json(capsys, "known", "--positions", "1"))["value"]["edge_per_coup"])
    assert Fraction(row[3]) == edge and float(row[2]) == float(edge)  # read exactly from the text

    code, out, _ = run(capsys, "track", str(sample_path()), "--bets", "dragon7", "--format", "csv")
    assert code == 0
    coups = _csv_tables(out)[0]
    assert coups[1][:4] == ["coup", "player", "banker", "winner"] and coups[3][0] == "1"


def test_a_result_without_tables_refuses_spreadsheets(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_error(capsys, "count", "--sort", "6,7,8,9", "--shoes", "2", "--format", "csv")
    assert "no tables" in err and "table, markdown or json" in err


def test_solve_csv(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "punto-5", "--format", "csv")
    assert code == 0
    rows = _csv_tables(out)[0]
    header, draw = rows[1], rows[2]
    assert header[:2] == ["Punto on 5", "Punto"] and draw[0] == "draw"
    data = json.loads(_json(capsys, "solve", "punto-5"))["draw"]
    given_5, per_coup = (i for i, name in enumerate(header) if name == "exact (p/q)")
    assert Fraction(draw[given_5]) == Fraction(data["punto_expectation_given_5"])
    assert Fraction(draw[per_coup]) == Fraction(data["punto_contribution_per_coup"])
    assert float(draw[1]) == round(float(Fraction(data["punto"])), 6)  # the decimal shown, as a number


def test_a_count_with_split_tens_keeps_every_tag() -> None:
    """A best count whose ten-valued ranks differ keeps all 13 tags in its typed cell (A..K),
    one whose tens agree the ten of A..9 and ten, as the text tables show them."""
    from analyzer.counting.systems import DerivedCount
    from analyzer.present.effects_tables import removal_effects_blocks

    result = eor_result(Shoe.decks(8), bets=["tie"])
    split = DerivedCount("tie", 1, (0,) * 9 + (1, 0, -1, 0), 0.5, 1.0, tens="split")
    tied = DerivedCount("tie", 1, (1,) * 9 + (-1,) * 4, 0.5, 1.0)
    table = removal_effects_blocks(result.effects, [split, tied])[-1]
    assert isinstance(table, Table) and table.values is not None
    assert table.values[0][2] == "+0 +0 +0 +0 +0 +0 +0 +0 +0 +1 +0 -1 +0"
    assert table.values[1][2] == "+1 +1 +1 +1 +1 +1 +1 +1 +1 -1"


# -- simulated figures as numbers: count's cover bets, a par sheet's study and its cover --------


def _titled(text: str) -> dict[str, tuple[list[str], list[list[str]]]]:
    """The tables of a CSV of several by title: (header, rows); a level-1 title row (a par
    sheet's) before the first table is left out."""
    found = {}
    for table in _csv_tables(text):
        while len(table[1]) == 1:  # a title row above the table's own
            table = table[1:]
        found[table[0][0]] = (table[1], table[2:])
    return found


def _cells(header: Sequence[str], row: Sequence[Any]) -> dict[str, Any]:
    return dict(zip(header, row, strict=True))


def _number(text: str) -> float | None:
    """A CSV cell as a number; "" (an empty cell) as None."""
    return None if text == "" else float(text)


def test_count_cover_csv_and_xlsx_split_estimates(tmp_path: Path) -> None:
    """count's "Cover bets" table: the side bet alone, the cover and the net per shoe as a mean
    and its standard error (not "+0.432 ± 0.272" as text), the cover's share a number; the
    text formats keep their "±"."""
    result = count_result(Shoe.decks(8), systems=["dragon7-jacobson"], shoes=20, seed=3, cover="banker:1")
    [evaluation] = result.evaluations
    side, cover, net = (evaluation.per_shoe(k) for k in ("expected", "cover", "net"))
    assert evaluation.triggers > 0 and cover[0] < 0
    header, [row] = _titled(outputs.render(result, "csv"))["Cover bets"]
    assert header == [
        "system", "bet", "cover", "side bet alone/shoe", "side bet alone/shoe (se)", "cover/shoe",
        "cover/shoe (se)", "net/shoe", "net/shoe (se)", "cover share",
    ]  # fmt: skip
    cells = _cells(header, row)
    assert cells["cover"] == "1 unit on banker"
    for name, (mean, se) in (("side bet alone/shoe", side), ("cover/shoe", cover), ("net/shoe", net)):
        assert float(cells[name]) == mean and float(cells[f"{name} (se)"]) == se  # repr: the float itself
    assert float(cells["cover share"]) == -cover[0] / side[0]
    assert f"{side[0]:+.3f} ± {side[1]:.3f}" in outputs.render(result, "markdown")  # the text as it was

    book = openpyxl.load_workbook(io.BytesIO(outputs.render_file(result, "xlsx", DATE)))
    ws = book["Cover bets"]
    header = [cell.value for cell in ws[1]]
    cells = _cells(header, list(ws[2]))
    for name, (mean, se) in (("side bet alone/shoe", side), ("cover/shoe", cover), ("net/shoe", net)):
        assert cells[name].data_type == "n" and math.isclose(cells[name].value, mean, rel_tol=1e-15)
        assert math.isclose(cells[f"{name} (se)"].value, se, rel_tol=1e-15)
    assert cells["cover share"].number_format == "0.0000%"


@pytest.fixture(scope="module")
def covered_sheets() -> dict[str, ParSheet]:
    """dragon7's sheet (a count that bets) and tie's on 2 shoes (no count bets), with a cover."""
    cover = parse_cover("banker")
    dragon = par_sheets([get_bet("dragon7")], Shoe.decks(8), shoes=20, seed=1, cover=cover)
    tie = par_sheets([get_bet("tie")], Shoe.decks(8), shoes=2, seed=1, cover=cover)
    return {sheet.bet.name: sheet for sheet in (*dragon, *tie)}


def test_par_sheet_csv_study_figures_are_numbers(covered_sheets: dict[str, ParSheet]) -> None:
    """The study's figures and every count played: each a mean and its standard error in
    numeric columns, equal to the study's own floats; the cover bet's figures in a table."""
    sheet = covered_sheets["dragon7"]
    study, figures = sheet.study, sheet.study.figures
    assert study.chosen_win is not None and study.chosen_on is not None and study.evaluation.triggers > 0
    tables = _titled(str(par_files([sheet], "csv")["dragon7.csv"]))
    header, rows = tables["7. Countability (2)"]
    assert header == ["figure", "mean ± standard error", "mean ± standard error (se)"]
    found = {row[0]: (_number(row[1]), _number(row[2])) for row in rows}
    assert found == {
        "win per shoe (units)": study.win_per_shoe,
        f"win per shoe on the {study.choosing:,} shoes it was chosen on (biased)": study.chosen_win,
        "win per 100 coups dealt (units)": (figures.win_per_100_coups, figures.win_per_100_coups_se),
        "bets per shoe": (round(figures.bets_per_shoe, 2), None),  # as shown: not an estimate
        "coups per shoe": (round(figures.coups_per_shoe, 2), None),
        "N0 (coups bet)": (float(f"{figures.n0:.0f}"), None),
        "perfect-information bound per shoe (units)": study.perfect,
    }
    header, rows = tables["7. Countability (3)"]
    assert header[4:6] == ["win per shoe (units)", "win per shoe (units) (se)"]
    played = {study.chosen_on.per_shoe("expected")} | {o.evaluation.per_shoe("expected") for o in sheet.tried}
    assert {(float(row[4]), float(row[5])) for row in rows} == played
    assert [row[-1] for row in rows].count("yes") == 1
    text = str(par_files([sheet], "csv")["dragon7.csv"])
    assert "±" not in text.replace("mean ± standard error", "")  # no estimate written as text

    header, [row] = tables["7. Countability: cover bet"]
    cells = _cells(header, row)
    evaluation = study.evaluation
    for name, key in (("side bet alone/shoe", "expected"), ("cover/shoe", "cover"), ("net/shoe", "net")):
        mean, se = evaluation.per_shoe(key)
        assert (float(cells[name]), float(cells[f"{name} (se)"])) == (mean, se)
    assert cells["cover"] == "1 unit on banker" and float(cells["cover/shoe"]) < 0
    assert float(cells["net/shoe"]) == evaluation.per_shoe("net")[0]
    markdown = render_par_sheets([sheet], "markdown")
    assert "7. Countability: cover bet" not in markdown  # the documents say it in their sentence
    assert "Cover bet: 1 unit on banker on every coup the count bets" in markdown


def test_par_sheet_xlsx_study_figures_and_cover(covered_sheets: dict[str, ParSheet]) -> None:
    sheet = covered_sheets["dragon7"]
    book = openpyxl.load_workbook(io.BytesIO(par_files([sheet], "xlsx")["dragon7.xlsx"]))
    assert {"7. Countability (2)", "7. Countability (3)", "7. Countability cover bet"} <= set(book.sheetnames)
    ws = book["7. Countability (2)"]
    win = next(row for row in ws.iter_rows(min_row=2) if row[0].value == "win per shoe (units)")
    assert win[1].data_type == win[2].data_type == "n"
    assert math.isclose(win[1].value, sheet.study.win_per_shoe[0], rel_tol=1e-15)
    assert math.isclose(win[2].value, sheet.study.win_per_shoe[1], rel_tol=1e-15)
    ws = book["7. Countability cover bet"]
    cells = _cells([cell.value for cell in ws[1]], list(ws[2]))
    net, se = sheet.study.evaluation.per_shoe("net")
    assert cells["net/shoe"].data_type == "n" and math.isclose(cells["net/shoe"].value, net, rel_tol=1e-15)
    assert math.isclose(cells["net/shoe (se)"].value, se, rel_tol=1e-15)


def test_a_figure_from_no_data_is_an_empty_cell(covered_sheets: dict[str, ParSheet]) -> None:
    """No count bets on tie in 2 shoes: its wins, the cover and the net are empty cells (the
    documents say "none (no bets)"), not 0; a figure that never varied has no standard error."""
    sheet = covered_sheets["tie"]
    assert sheet.study.system is not None and sheet.study.evaluation.triggers == 0
    markdown = render_par_sheets([sheet], "markdown").splitlines()
    assert "none (no bets)" in next(line for line in markdown if line.startswith("| win per shoe (units)"))
    tables = _titled(str(par_files([sheet], "csv")["tie.csv"]))
    found = {row[0]: row[1:] for row in tables["7. Countability (2)"][1]}
    assert found["win per shoe (units)"] == ["", ""] and found["win per 100 coups dealt (units)"] == ["", ""]
    mean, se = sheet.study.perfect
    assert se == 0 and found["perfect-information bound per shoe (units)"] == [repr(mean), ""]
    assert all(row[4:6] == ["", ""] for row in tables["7. Countability (3)"][1])
    [row] = tables["7. Countability: cover bet"][1]
    assert row[3:] == [""] * 6 + ["n/a"]
    book = openpyxl.load_workbook(io.BytesIO(par_files([sheet], "xlsx")["tie.xlsx"]))
    cover = book["7. Countability cover bet"]
    assert [cell.value for cell in cover[2]][3:] == [None] * 6 + ["n/a"]


def test_estimates_without_figures() -> None:
    assert estimate(0.5, 0.1, 20, 3) == Estimate(0.5, 0.1)
    assert estimate(0.5, 0.1, 20, 0) == Estimate(None, None)  # no bets: no figure
    assert estimate(0.5, 0.1, 1, 3) == Estimate(0.5, None)  # one shoe: no standard error
    assert estimate(0.0, 0.0, 20) == Estimate(0.0, None)  # never varied
    table = Table.of([["w", "none"]], ["name", "win"], [["w", Estimate(None, None)]])
    (sheet,) = sheets([table])
    assert sheet.headers == ("name", "win", "win (se)") and sheet.rows == (("w", None, None),)
