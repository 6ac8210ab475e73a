"""The `baccarat` command: the README's contract.

Bad input exits with code 2 and exactly one line on stderr, never a traceback. JSON
output carries exact values as "p/q" strings.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import assert_one_line_error, run

from analyzer.analyses.odds import odds, player_table
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD
from analyzer.core.shoe import Shoe

ROOT = Path(__file__).resolve().parents[1]
DECK = ",".join(["4"] * 13)


BAD_ARGS = {
    "decks 0": ["odds", "--decks", "0"],
    "decks -1": ["odds", "--decks", "-1"],
    "decks 1.5": ["odds", "--decks", "1.5"],
    "decks abc": ["odds", "--decks", "abc"],
    "decks without value": ["odds", "--decks"],
    "counts 12 entries": ["odds", "--counts", ",".join(["4"] * 12)],
    "counts 14 entries": ["odds", "--counts", ",".join(["4"] * 14)],
    "counts negative": ["odds", "--counts", ",".join(["4"] * 12 + ["-1"])],
    "counts non-integer": ["odds", "--counts", ",".join(["4"] * 12 + ["1.5"])],
    "counts word": ["odds", "--counts", ",".join(["x"] * 13)],
    "counts 5 cards": ["odds", "--counts", "1,1,1,1,1,0,0,0,0,0,0,0,0"],
    "counts empty": ["odds", "--counts", ""],
    "remove unknown rank": ["odds", "--remove", "5,Z"],
    "remove missing card": ["odds", "--counts", "1,1,1,1,1,1,1,0,0,0,0,0,0", "--remove", "K"],
    "remove too many": ["odds", "--decks", "1", "--remove", "5,5,5,5,5"],
    "remove below 6 cards": ["odds", "--counts", "1,1,1,1,1,1,0,0,0,0,0,0,0", "--remove", "A"],
    "remove no ranks": ["odds", "--remove", ","],
    "remove from infinite": ["odds", "--decks", "inf", "--remove", "5"],
    "rules unknown": ["odds", "--rules", "macao"],
    "format unknown": ["odds", "--format", "yaml"],
    "format dot for odds": ["odds", "--format", "dot"],
    "format unknown for rules": ["rules", "--format", "svg"],
    "unknown command": ["shuffle"],
    "unknown option": ["odds", "--bogus"],
    "decks and counts": ["odds", "--decks", "8", "--counts", DECK],
    "punto-table decks 0": ["punto-table", "--decks", "0"],
    "rules decks and counts": ["rules", "--decks", "1", "--counts", DECK],
}


@pytest.mark.parametrize("argv", list(BAD_ARGS.values()), ids=list(BAD_ARGS))
def test_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert_one_line_error(*run(capsys, *argv))


# file name, contents, what the error line must name
RULE_FILES = {
    "invalid TOML": ("broken.toml", "natural = [8\n", "not valid TOML"),
    "unknown key": ("extra.toml", "natural = 8\ncolour = 'red'\n", "'colour'"),
    "bad value": ("bad.toml", "punto_draws = [0, 1, 12]\n", "punto_draws: 12"),
    "bad natural": ("natural.toml", "natural = 'eight'\n", "natural 'eight'"),
    "bad banco row": ("row.toml", "[banco_draws]\n4 = [2, 3, 'x']\n", "banco_draws.4: 'x'"),
    "bad base": ("base.toml", "base = 'chemin-de-fer'\n", "'chemin-de-fer'"),
}


@pytest.mark.parametrize(("name", "text", "fragment"), list(RULE_FILES.values()), ids=list(RULE_FILES))
def test_bad_rule_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, text: str, fragment: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "odds", "--rules", str(path))
    assert_one_line_error(code, out, err)
    assert fragment in err


def test_missing_rule_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "odds", "--rules", str(tmp_path / "absent.toml"))
    assert_one_line_error(code, out, err)
    assert "not found" in err


@pytest.mark.parametrize("argv", [["odds", "--decks", "0"], ["frobnicate"]])
def test_bad_input_in_a_real_process(argv: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "analyzer", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("baccarat: error: ")


def test_real_process_json() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "analyzer", "odds", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout)["counts"]["banker"] == 2_292_252_566_437_888


# -- JSON contract ---------------------------------------------------------------------


def test_odds_json_finite(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", "--format", "json")  # default: 8 decks
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["banker"] == "8954111587648/19524993263685"
    assert {Fraction(data[k]) for k in ("banker", "player", "tie")} == {
        odds(Shoe.decks(8)).banker,
        odds(Shoe.decks(8)).player,
        odds(Shoe.decks(8)).tie,
    }
    assert data["counts"] == {
        "banker": 2_292_252_566_437_888,
        "player": 2_230_518_282_592_256,
        "tie": 475_627_426_473_216,
    }
    assert all(type(v) is int for v in data["counts"].values())
    assert data["total"] == 4_998_398_275_503_360
    assert data["rules"] == "standard"
    assert Fraction(data["banker"]) + Fraction(data["player"]) + Fraction(data["tie"]) == 1
    for key in ("banker", "player", "tie"):
        assert isinstance(data[key], str) and "/" in data[key]


def test_odds_json_infinite(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--decks", "inf", "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert "counts" not in data and "total" not in data
    assert data["banker"] == "2212744/4826809"
    assert data["player"] == "2153464/4826809"
    assert data["tie"] == "460601/4826809"


def test_odds_json_counts_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "odds", "--counts", "1,1,1,1,1,1,0,0,0,0,0,0,0", "--format", "json")
    data = json.loads(out)
    assert data["total"] == 720 and sum(data["counts"].values()) == 720
    _, out, _ = run(capsys, "odds", "--decks", "6", "--rules", "seed004", "--format", "json")
    data = json.loads(out)
    assert data["rules"] == "banco-4-draws-on-0-1"  # "seed004" is its old name, still accepted
    assert Fraction(data["banker"]) == odds(Shoe.decks(6), BANCO_4_DRAWS_ON_0_1).banker


def test_remove_is_shoe_remove(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "odds", "--decks", "1", "--remove", "5,5,K,a", "--format", "json")
    data = json.loads(out)
    expected = odds(Shoe.decks(1).remove(["5", "5", "K", "A"]))
    assert Fraction(data["banker"]) == expected.banker
    assert Fraction(data["player"]) == expected.player
    assert data["counts"] == {str(w): c for w, c in expected.counts.items()}
    assert data["total"] == 48 * 47 * 46 * 45 * 44 * 43
    assert Fraction(data["banker"]) != odds(Shoe.decks(1)).banker


def test_punto_table_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "punto-table", "--format", "json")
    assert code == 0
    rows = json.loads(out)["rows"]
    assert len(rows) == 11
    assert [r["punto_total"] for r in rows] == [0, 1, 2, 3, 4, 5, 5, 6, 7, 8, 9]
    assert {r["punto_action"] for r in rows} == {"draw", "stand"}
    assert [r["punto_action"] for r in rows[5:7]] == ["draw", "stand"]
    for row, exact in zip(rows, player_table(Shoe.decks(8)), strict=True):
        assert set(row) == {"punto_total", "punto_action", "punto", "banco", "egalite"}
        assert (Fraction(row["punto"]), Fraction(row["banco"]), Fraction(row["egalite"])) == (
            exact.player,
            exact.banker,
            exact.tie,
        )
        assert all(isinstance(row[k], str) for k in ("punto", "banco", "egalite"))
    assert rows[-1]["banco"] == "0"


def test_punto_table_json_infinite(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "punto-table", "--decks", "inf", "--format", "json")
    rows = json.loads(out)["rows"]
    assert rows[0]["punto"] == "7944/28561"  # 0.2781, the Russian gambling dictionary's Table 2


def test_table_and_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds")
    assert code == 0
    assert "2,292,252,566,437,888" in out and "4,998,398,275,503,360" in out
    assert "0.4585974226" in out  # 10 decimals, rounded from the exact value
    _, out, _ = run(capsys, "odds", "--format", "markdown", "--decks", "inf")
    assert out.startswith("## Outcome probabilities: infinite deck")
    assert "combinations" not in out
    _, out, _ = run(capsys, "punto-table", "--decks", "inf")
    first = next(line for line in out.splitlines() if line.startswith("0 (draw)"))
    assert first.split() == [
        "0",
        "(draw)",
        "0.278142",
        "0.654599",
        "0.067260",
        "7944/28561",
        "18696/28561",
        "1921/28561",
    ]


def test_rules_formats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--format", "dot")
    assert code == 0
    assert out.startswith('digraph "standard" {') and out.rstrip().endswith("}")
    assert "->" in out
    _, out, _ = run(capsys, "rules", "--format", "json", "--rules", "seed004")
    data = json.loads(out)
    assert {key: data[key] for key in BANCO_4_DRAWS_ON_0_1.to_mapping()} == BANCO_4_DRAWS_ON_0_1.to_mapping()
    _, out, _ = run(capsys, "rules")
    assert "Punto draws on: 0, 1, 2, 3, 4, 5." in out
    four = next(line for line in out.splitlines() if line.split()[:1] == ["4"])
    assert four.split() == ["4", "S", "S", "D", "D", "D", "D", "D", "D", "S", "S"]
    assert STANDARD.banker_draws[4] == frozenset(range(2, 8))


def test_rules_from_toml(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "variant.toml"
    path.write_text('name = "variant"\n[banco_draws]\n4 = [0, 1, 2, 3, 4, 5, 6, 7]\n', encoding="utf-8")
    _, out, _ = run(capsys, "odds", "--rules", str(path), "--format", "json")
    data = json.loads(out)
    assert data["rules"] == "variant"
    assert Fraction(data["banker"]) == odds(Shoe.decks(8), BANCO_4_DRAWS_ON_0_1).banker


def test_empty_decks_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line_error(*run(capsys, "odds", "--decks", ""))


def test_punto_table_with_an_impossible_total(capsys: pytest.CaptureFixture[str]) -> None:
    """Six 5s: Punto's two cards always total 0, so the other rows are left out."""
    code, out, err = run(capsys, "punto-table", "--counts", "0,0,0,0,6,0,0,0,0,0,0,0,0", "--format", "json")
    assert code == 0 and err == ""
    rows = json.loads(out)["rows"]
    assert [(r["punto_total"], r["punto_action"]) for r in rows] == [(0, "draw")]
    assert rows[0]["egalite"] == "1"  # 5+5 against 5+5, both draw a 5: 0 against 0
