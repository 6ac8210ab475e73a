"""Hostile inputs, second round: each bad input is one short error line naming what is wrong,
parsing does not depend on the output format, and output survives any encoding and size."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.core.errors import quoted
from tests.clirun import one_line_error, run

ROOT = Path(__file__).resolve().parent.parent
DEEP = "x = " + "[" * 5000 + "]" * 5000 + "\n"
COUNTS = ",".join(["4"] * 13)


# -- 1. deeply nested TOML -------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [["odds", "--rules"], ["edges", "--table"], ["count", "--shoes", "1", "--system"]],
    ids=["rules", "table", "systems"],
)
def test_deeply_nested_toml_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(DEEP, encoding="utf-8")
    err = one_line_error(capsys, *argv, str(path))
    assert quoted(str(path)) in err and "nested too deeply" in err


# -- 6. one rule for lists, whatever the output format -------------------------------------


@pytest.mark.parametrize("fmt", ["table", "markdown", "json"])
def test_empty_remove_item_is_refused_in_every_format(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    err = one_line_error(capsys, "odds", "--remove", "5,,5", "--format", fmt)
    assert "--remove '5,,5'" in err and "none empty" in err


EMPTY_ITEMS = {
    "remove trailing": ["odds", "--remove", "5,"],
    "shown trailing": ["odds", "--shown", "p1=9,"],
    "shown empty item": ["odds", "--shown", "p1=9,,b1=K"],
    "bets trailing": ["edges", "--bets", "banker,"],
    "tables trailing": ["compare", "--tables", "uk,"],
    "shoes trailing": ["compare", "--shoes", "6,8,"],
    "system trailing": ["count", "--system", "banker-eor,"],
    "counts trailing": ["odds", "--counts", COUNTS + ","],
    "counts empty item": ["odds", "--counts", "4,,4,4,4,4,4,4,4,4,4,4,4,4"],
    "cards trailing": ["odds", "--cards", ",".join(["1"] * 52) + ","],
}


@pytest.mark.parametrize("argv", list(EMPTY_ITEMS.values()), ids=list(EMPTY_ITEMS))
def test_every_list_option_refuses_an_empty_item(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert "none empty" in one_line_error(capsys, *argv)


def test_a_repeated_card_means_two_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--decks", "1", "--remove", "5,5", "--format", "json")
    assert code == 0 and json.loads(out)["shoe_spec"]["removed"] == ["5", "5"]


# -- 8. any stdout encoding ---------------------------------------------------------------


def test_output_survives_an_ascii_stdout() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    proc = subprocess.run(
        [sys.executable, "-m", "analyzer", "punto-table", "--decks", "inf"],
        capture_output=True, env=env, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stderr and proc.stderr == b""
    assert b"?galit?" in proc.stdout  # the header, its accents replaced


# -- 9. messages that say what is wrong, quoting values briefly ----------------------------


def test_a_card_shown_twice_says_how_many_the_shoe_holds(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_error(capsys, "odds", "--decks", "1", "--shown", "p1=KH,b1=KH")
    assert "holds 1 KH and 2 are shown" in err


def test_a_bet_offered_twice_is_named_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "twice.toml"
    path.write_text('offer = ["player", "player"]\n', encoding="utf-8")
    err = one_line_error(capsys, "edges", "--table", str(path))
    assert "offer names 'player' twice" in err and "two different" not in err


def test_a_huge_count_is_too_large_not_a_non_integer(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_error(capsys, "odds", "--counts", ",".join(["4"] * 12 + ["9" * 5000]))
    assert "too large" in err and "52,000,000" in err and "not an integer" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "--decks", "9" * 120_000],
        ["odds", "--decks", "x" * 120_000],
        ["odds", "--remove", "Z" * 120_000],
        ["odds", "--shown", "p1=" + "Z" * 120_000],
        ["edges", "--bets", "b" * 120_000],
        ["count", "--shoes", "x" * 120_000],
        ["odds", "--format", "x" * 120_000],
        ["odds", "--" + "x" * 120_000],
        ["odds", "--rules", "x" * 120_000 + ".toml"],
    ],
    ids=["decks digits", "decks", "remove", "shown", "bets", "shoes", "format", "option", "rules file"],
)
def test_a_long_value_is_quoted_briefly(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    err = one_line_error(capsys, *argv)
    assert len(err) < 1000, err[:1000]  # the value cut to about 80 characters, what is allowed in full
    assert max(err.count(c * 100) for c in "9xZb") == 0
    assert ",0" in err and " characters)" in err  # its length stated


# -- 10. silently accepted or ambiguous ------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "--remove", "5", "--remove", "6"],
        ["odds", "--decks", "6", "--decks=8"],
        ["edges", "--details", "--details"],
        ["count", "--seed", "1", "--seed", "2"],
    ],
    ids=["remove", "decks", "flag", "count seed"],
)
def test_a_repeated_option_is_refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert "is given twice" in one_line_error(capsys, *argv)


def test_a_suited_card_cannot_leave_a_shoe_of_unknown_suits(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_error(capsys, "odds", "--counts", COUNTS, "--remove", "KH")
    assert "cannot remove KH" in err and "not known" in err


@pytest.mark.parametrize("card", ["K\nH", "K H", "K\tH", "K\x00H"])
def test_a_card_with_a_space_or_control_character_is_refused(
    capsys: pytest.CaptureFixture[str], card: str
) -> None:
    assert "space or a control character" in one_line_error(capsys, "odds", "--remove", card)
    assert "space or a control character" in one_line_error(capsys, "odds", "--shown", f"p1={card}")


@pytest.mark.parametrize("rules", ["", "  "])
def test_empty_rules_are_refused(capsys: pytest.CaptureFixture[str], rules: str) -> None:
    assert "--rules" in one_line_error(capsys, "odds", f"--rules={rules}")


DIGITS = {
    "decks full-width": ["odds", "--decks", "\uff18"],
    "decks arabic-indic": ["odds", "--decks", "\u0668"],
    "decks underscore": ["odds", "--decks", "1_0"],
    "counts full-width": ["odds", "--counts", ",".join(["\uff14"] * 13)],
    "cards arabic-indic": ["odds", "--cards", ",".join(["\u0661"] * 52)],
    "shoes full-width": ["count", "--shoes", "\uff11\uff10"],
    "seed arabic-indic": ["count", "--seed", "\u0661"],
    "bankroll full-width": ["count", "--bankroll", "\uff11\uff10\uff10"],
    "commission full-width": ["edges", "--commission", "\uff15%"],
    "compare shoes": ["compare", "--shoes", "\uff18"],
}


@pytest.mark.parametrize("argv", list(DIGITS.values()), ids=list(DIGITS))
def test_only_ascii_digits_are_numbers(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    one_line_error(capsys, *argv)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ('[bets.x]\nlines = [{ when = { winner = "tie" }, pays = "\uff18" }]\n', "payout ratio"),
        ('banker_commission = "\uff15%"\n', "commission"),
    ],
)
def test_file_numbers_given_as_text_are_ascii(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, body: str, fragment: str
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(body, encoding="utf-8")
    err = one_line_error(capsys, "edges", "--table", str(path))
    assert str(path) in err and fragment in err


def test_a_systems_file_cannot_reuse_a_built_in_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        '[systems.dragon7-jacobson]\nbet = "dragon7"\ntags = [0,0,0,0,0,1,1,1,1,-1]\nthreshold = 4\n',
        encoding="utf-8",
    )
    err = one_line_error(capsys, "count", "--system", f"dragon7-jacobson,{path}", "--shoes", "1")
    assert quoted(str(path)) in err and "dragon7-jacobson" in err and "built-in" in err
    threshold = tmp_path / "threshold.toml"
    system = '[systems.t]\nbet = "tie"\ntags = [1,1,1,1,1,1,1,1,1,-4]\nthreshold = "\uff14"\n'
    threshold.write_text(system, encoding="utf-8")
    assert "threshold" in one_line_error(capsys, "count", "--system", str(threshold), "--shoes", "1")


SAMPLE_SHOE = str(ROOT / "analyzer" / "counting" / "data" / "sample-shoe.txt")
NUMBER_OPTIONS = {
    "material": (["par-sheet", "--bets", "tie", "--material"], "--material"),
    "track bankroll": (["track", SAMPLE_SHOE, "--bankroll"], "--bankroll"),
    "kelly": (["track", SAMPLE_SHOE, "--bankroll", "100", "--kelly"], "--kelly"),
    "count bankroll": (["count", "--shoes", "1", "--bankroll"], "--bankroll"),
    "commission": (["edges", "--commission"], "--commission"),
    "coups per hour": (["count", "--shoes", "1", "--coups-per-hour"], "--coups-per-hour"),
}


@pytest.mark.parametrize("number", ["1/0", "0/0", "3/000", "1.5/2", ".5/2", "1e5/3"])
@pytest.mark.parametrize(("argv", "option"), list(NUMBER_OPTIONS.values()), ids=list(NUMBER_OPTIONS))
def test_a_zero_or_decimal_denominator_is_not_a_number(
    capsys: pytest.CaptureFixture[str], argv: list[str], option: str, number: str
) -> None:
    err = one_line_error(capsys, *argv, number)
    assert option in err and f"'{number}'" in err


# -- 11. huge values stay short in tables, exact in JSON ------------------------------------


def test_a_huge_payout_prints_short_in_tables_and_exact_in_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "huge.toml"
    bet = '[bets.big]\nlines = [{ when = { winner = "banker" }, pays = 1e300 }]\n'
    path.write_text(bet, encoding="utf-8")
    for fmt in ("table", "markdown"):
        code, out, _ = run(capsys, "edges", "--table", str(path), "--details", "--format", fmt)
        assert code == 0 and "-4.5860e+301%" in out
        if fmt == "table":
            assert max(len(line) for line in out.split("\n")) <= 120
    code, out, _ = run(capsys, "edges", "--table", str(path), "--format", "json")
    edge = json.loads(out)["bets"]["big"]["house_edge"]
    assert code == 0 and "/" in edge and len(edge) > 300


def _table_of(path: Path, bet: str, *lines: str) -> str:
    """A table file at `path` of one bet `bet` of these `lines` (inline TOML tables): its path."""
    path.write_text(f"[bets.{bet}]\nlines = [{', '.join(lines)}]\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("extra", [[], ["--sort", "6,7,8,9"], ["--best-sort"]], ids=["cards", "sort", "best"])
def test_known_prices_a_payout_past_int64(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str]
) -> None:
    # A tie paying 2**63 - 1 beside a 19/20 line: its scaled net passed int64 (OverflowError).
    tie, banker = (
        '{ when = { winner = "tie" }, pays = 9223372036854775807 }',
        '{ when = { winner = "banker" }, pays = "19/20" }',
    )
    path = _table_of(tmp_path / "big.toml", "big", tie, banker)
    code, out, err = run(capsys, "known", "--table", path, "--bets", "big", *extra, "--format", "json")
    assert (code, err) == (0, "")
    # The bet is always made (every state's best), so the edge per coup is its expectation.
    assert json.loads(out)["value"]["edge_per_coup"] == "1241759710511283224249851116907/1414854584325"


def test_edges_prices_a_card_level_bet_paying_past_int64(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # It said "...counting take smaller payouts (edges prices any payout)", exit 2; eor
    # prices it too (one shoe at a time), count refuses it.
    tie, pair = (
        '{ when = { winner = "tie" }, pays = 10000000000000000000 }',
        "{ when = { player_perfect_pair = true }, pays = 25 }",
    )
    path = _table_of(tmp_path / "hc.toml", "hc", tie, pair)
    code, out, err = run(capsys, "edges", "--table", path, "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out)["bets"]["hc"]["house_edge"] == "-18579196346609999990135275226368/19524993263685"
    code, out, err = run(capsys, "eor", "--table", path, "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out)["expectation"]["hc"] == "18579196346609999990135275226368/19524993263685"
    err = one_line_error(capsys, "count", "--table", path, "--bet", "hc", "--shoes", "2")
    assert (
        "'hc'" in err
        and "counting takes smaller payouts (edges and effects of removal price any payout)" in err
    )


def test_a_byte_order_mark_at_the_start_of_a_file_is_read_past(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Notepad writes UTF-8 with a BOM: a record read it as a card '\ufeff', a TOML file as
    # "Invalid statement (at line 1, column 1)". Now the same output as without it.
    golden = Path(__file__).resolve().parent / "golden"
    system = tmp_path / "system.toml"
    system.write_text('[systems.t]\nbet = "tie"\ntags = [1,1,1,1,1,1,1,1,1,-4]\nthreshold = 4\n', "utf-8")
    for original, argv in (
        (golden / "table.toml", ["edges", "--table", "{path}", "--bets", "lucky-tie", "--decks", "2"]),
        (Path(SAMPLE_SHOE), ["track", "{path}", "--bets", "banker"]),
        (system, ["count", "--system", "{path}", "--shoes", "3", "--format", "json"]),
    ):
        plain, marked = tmp_path / "a" / original.name, tmp_path / "b" / original.name  # paths as long
        for path, start in ((plain, b""), (marked, b"\xef\xbb\xbf")):
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(start + original.read_bytes())
        without = run(capsys, *[str(plain) if word == "{path}" else word for word in argv])
        found = run(capsys, *[str(marked) if word == "{path}" else word for word in argv])
        assert without[0] == 0 and found == (0, without[1].replace(str(plain), str(marked)), "")


# -- control characters and text-direction overrides in a file's text -------------------------

TIE = 'lines = [{when = {winner = "tie"}, pays = 8}]\n'
SYSTEM = 'bet = "tie"\ntags = [1,1,1,1,1,1,1,1,1,-4]\nthreshold = 4\n'
#: Each case: the command and option reading the file, its text, the field named, the character.
HIDDEN_TEXTS = {
    "bet title": ("edges", "--table", f'[bets.b]\ntitle = "Tie\\u202e1:8"\n{TIE}', "bets.b.title", "U+202E"),
    "bet source": ("edges", "--table", f'[bets.b]\nsource = "x\\u0000y"\n{TIE}', "bets.b.source", "U+0000"),
    "line label": (
        "edges",
        "--table",
        '[bets.b]\nlines = [{when = {winner = "tie"}, pays = 8, label = "a\\u0008b"}]\n',
        "bets.b.lines[0].label",
        "U+0008",
    ),
    "table title": ("edges", "--table", 'title = "T\\u001b[31m"\noffer = ["tie"]\n', ": title", "U+001B"),
    "system title": (
        "count",
        "--system",
        f'[systems.s]\ntitle = "S\\u2066"\n{SYSTEM}',
        "systems.s.title",
        "U+2066",
    ),
    "system name": ("count", "--system", f'[systems."s\\u009b"]\n{SYSTEM}', "a system name", "U+009B"),
    "rules description": ("odds", "--rules", 'description = "r\\u0085"\n', ": description", "U+0085"),
}


@pytest.mark.parametrize("case", list(HIDDEN_TEXTS))
def test_a_control_character_or_direction_override_in_a_files_text_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    """A NUL, an escape, a backspace, a C1 control or a bidirectional override in a title, a
    source, a label, a system's name or a description would reach every report as written (a
    raw NUL in the HTML, a line that reads backwards): refused, naming the field and the
    character."""
    command, option, text, field, character = HIDDEN_TEXTS[case]
    path = tmp_path / "file.toml"
    path.write_text(text, encoding="utf-8")
    extra = ["--shoes", "1"] if command == "count" else []
    err = one_line_error(capsys, command, option, str(path), *extra)
    assert (
        f"{field} " in err and f"holds {character}, a control character or a text-direction override" in err
    )


def test_a_file_name_with_a_control_character_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A file's name reaches the outputs too (a par sheet's table file): one with an escape is
    refused before it is read."""
    path = tmp_path / "ev\x1b[31mil.toml"
    path.write_text('offer = ["tie"]\n', encoding="utf-8")
    err = one_line_error(capsys, "edges", "--table", str(path))
    assert "table file" in err and "holds U+001B" in err and "rename the file" in err


def test_a_suited_bet_on_the_infinite_deck_asks_for_a_finite_shoe(capsys: pytest.CaptureFixture[str]) -> None:
    """`known` prices suited bets on finite shoes: on the infinite deck it asks for one, not
    for the --decks already given (the message said "give the shoe with --decks or --cards")."""
    err = one_line_error(capsys, "known", "--decks", "inf", "--bets", "perfect-pairs-v1")
    assert "give a finite shoe, --decks N or --cards" in err and "--remove 5H" not in err
