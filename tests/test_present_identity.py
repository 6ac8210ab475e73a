"""A par sheet a lab can file: its identification block (software, date, SHA-256 of the table
file, the bet and the rules, the shoe and procedure) in every format, the date from
SOURCE_DATE_EPOCH, the hashes checked against hashlib on the files and definitions themselves;
a sentence where every effect of removal is 0; the sheets as CSV and XLSX."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from datetime import UTC, datetime
from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest
from clirun import one_line_error, run

from analyzer.core.catalogue import BETS
from analyzer.core.shoe import Shoe
from analyzer.counting.par import par_sheets
from analyzer.present.identity import Provenance, canonical_json, document_date, identify
from analyzer.present.par_documents import par_files, render_par_sheets

HERE = Path(__file__).resolve().parent
EPOCH = "1767323045"  # 2026-01-02 03:04:05 UTC


@pytest.fixture(scope="module")
def sheets() -> list:  # type: ignore[type-arg]
    return par_sheets([BETS["dragon7"], BETS["perfect-pairs-v1"]], Shoe.decks(8), shoes=20)


def test_source_date_epoch() -> None:
    assert document_date({"SOURCE_DATE_EPOCH": EPOCH}) == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    now = document_date({})
    assert abs((datetime.now(UTC) - now).total_seconds()) < 60
    for bad in ("-1", "1.5", "soon", "١٢"):
        with pytest.raises(Exception, match="SOURCE_DATE_EPOCH"):
            document_date({"SOURCE_DATE_EPOCH": bad})


def test_identification_of_a_builtin(sheets: list) -> None:  # type: ignore[type-arg]
    dragon, pairs = sheets
    ident = identify(dragon, Provenance(datetime(2026, 1, 2, tzinfo=UTC)))
    catalogue = resources.files("analyzer.core").joinpath("catalogue.toml").read_bytes()
    assert ident.date == "2026-01-02"
    assert ident.table_file == "built-in: analyzer/core/catalogue.toml"
    assert ident.table_sha256 == hashlib.sha256(catalogue).hexdigest()
    rules = json.dumps(dragon.rules.to_mapping(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert ident.rules_sha256 == hashlib.sha256(rules.encode()).hexdigest()
    assert "cut card 14 cards from the end" in ident.procedure and "20 shoes of 8 decks" in ident.procedure
    assert ident.shoe == "8 decks (416 cards)"
    card = resources.files("analyzer.core").joinpath("card_catalogue.toml").read_bytes()
    assert identify(pairs).table_sha256 == hashlib.sha256(card).hexdigest()  # a card-level bet's file
    assert identify(pairs).bet_sha256 != ident.bet_sha256
    assert canonical_json({"b": 1, "a": [Fraction(1, 3)]}) == '{"a":["1/3"],"b":1}'


def test_every_format_carries_the_block(sheets: list) -> None:  # type: ignore[type-arg]
    source = Provenance(datetime(2026, 1, 2, tzinfo=UTC))
    markdown = render_par_sheets(sheets, "markdown", source)
    assert markdown.count("## Identification") == 2
    assert len(re.findall(r"^\| date +\| 2026-01-02 +\|$", markdown, re.MULTILINE)) == 2
    assert markdown.count("Procedure of the counting study: 20 shoes of 8 decks, each shuffled") == 2
    page = render_par_sheets(sheets, "html", source)
    assert page.count("<h2>Identification</h2>") == 2
    assert '"page " counter(page) " of " counter(pages)' in page  # numbered in print
    data = json.loads(render_par_sheets(sheets, "json", source))["bets"]
    for name, sheet in data.items():
        block = sheet["identification"]
        assert block["date"] == "2026-01-02" and block["software"] == "baccarat-analyzer"
        assert len(block["table_sha256"]) == len(block["bet_sha256"]) == len(block["rules_sha256"]) == 64
        assert block["rules"] == "standard", name


def test_a_table_files_hash(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    table = HERE / "golden" / "table.toml"
    code, out, _ = run(capsys, "par-sheet", "--table", str(table), "--bets", "lucky-tie", "--shoes", "3",
                       "--format", "json")  # fmt: skip
    assert code == 0
    block = json.loads(out)["bets"]["lucky-tie"]["identification"]
    assert block["table_file"] == str(table) and block["date"] == "2026-01-02"
    assert block["table_sha256"] == hashlib.sha256(table.read_bytes()).hexdigest()


def test_zero_effects_are_one_sentence(sheets: list) -> None:  # type: ignore[type-arg]
    dragon, pairs = (render_par_sheets([s], "markdown") for s in sheets)
    assert "exactly 0 for every card type (52 of them)" in pairs
    assert "| card type |" not in pairs  # no table of 52 zeros
    assert re.search(r"^\| rank +\| +effect \|", dragon, re.MULTILINE)  # a table of non-zero effects


def test_sheets_as_csv_and_xlsx(sheets: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    openpyxl = pytest.importorskip("openpyxl")
    source = Provenance(datetime(2026, 1, 2, tzinfo=UTC))
    files = par_files(sheets[:1], "xlsx", source=source)
    assert sorted(files) == ["dragon7.xlsx", "index.html"]
    data = files["dragon7.xlsx"]
    assert isinstance(data, bytes)
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert book.sheetnames[0] == "Identification"
    effects = book["6. Effects of removal"]
    rows = list(effects.iter_rows(values_only=True))
    assert rows[0] == ("rank", "effect", "effect (p/q)", "exact")
    for rank, number, text, _ in rows[1:]:
        assert Fraction(text) == sheets[0].effects[rank] and isinstance(number, int | float)
    text = par_files(sheets[:1], "csv", source=source)["dragon7.csv"]
    assert isinstance(text, str)
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[:2] == [["Par sheet: Dragon 7 (40:1) (dragon7)"], ["Identification"]]
    assert ["date", "2026-01-02"] in lines


def test_binary_sheets_need_a_folder(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ("xlsx", "pdf"):
        err = one_line_error(capsys, "par-sheet", "--bets", "tie", "--shoes", "2", "--format", fmt)
        assert "--out DIR" in err
