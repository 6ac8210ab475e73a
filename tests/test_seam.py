"""The front door (issue 27): every command is a library function of typed arguments returning
a typed result that holds the shoe, rules and shown cards it used; the presentation layer
turns a result into data, adds one envelope and serialises it once; the CLI parses, calls the
library and writes what it renders, reading each input file once."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest
from clirun import run

import analyzer.core.errors as errors
from analyzer.analyses import results as analyses_results
from analyzer.analyses.results import edges_result, odds_result
from analyzer.analyses.shown import parse_shown
from analyzer.core.rules import get_rules
from analyzer.core.shoe import Shoe
from analyzer.counting import results as counting_results
from analyzer.counting import tracking
from analyzer.games import SolveResult, solve_result
from analyzer.present.listing import ListResult
from analyzer.present.outputs import OUTPUTS, envelope, render, to_data

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = "analyzer/counting/data/sample-shoe.txt"


def test_the_cli_never_reparses_json() -> None:
    """No `json.loads` in analyzer/cli: the JSON is built as data and serialised once."""
    calls = []
    for path in sorted((ROOT / "analyzer" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = node.func if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == "loads":
                calls.append(f"{path.name}:{node.lineno}")
    assert calls == []


def _table_file(tmp_path: Path) -> Path:
    path = tmp_path / "house.toml"
    path.write_text('rules = "banco-4-draws-on-0-1"\noffer = ["tie", "dragon7"]\n', encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["edges", "--table", "{table}", "--format", "json"],
        ["edges", "--table", "{table}"],
        ["eor", "--table", "{table}", "--decks", "1", "--format", "json"],
        ["track", SAMPLE, "--table", "{table}", "--format", "json"],
        ["design", "--table", "{design}", "--edge", "4%..6%", "--format", "json"],
    ],
)
def test_each_input_file_is_read_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str]
) -> None:
    """The --table file is read once (it was read again for the JSON's rules, and twice by track)."""
    table, design = _table_file(tmp_path), tmp_path / "sevens.toml"
    shutil.copy(ROOT / "examples" / "sevens.toml", design)
    reads: list[str] = []
    read_text = errors.read_text

    def counted(path: str, what: str, limit: int = errors.MAX_TOML_BYTES) -> str:
        reads.append(path)
        return read_text(path, what, limit)

    monkeypatch.setattr(errors, "read_text", counted)
    argv = [arg.format(table=table, design=design) for arg in argv]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert reads.count(argv[argv.index("--table") + 1]) == 1
    if "json" in argv:
        assert json.loads(out)["rules"] == ("standard" if "design" in argv else "banco-4-draws-on-0-1")


def test_every_result_type_has_one_output() -> None:
    """One registry by type: every command's result type, and nothing else."""
    kinds = {
        value
        for module in (analyses_results, counting_results, tracking)
        for name, value in vars(module).items()
        if isinstance(value, type) and name.endswith("Result") and value.__module__ == module.__name__
    }
    assert kinds | {SolveResult, ListResult} == set(OUTPUTS)


def test_results_carry_their_shoe_rules_and_shown_cards(capsys: pytest.CaptureFixture[str]) -> None:
    """A library result renders as the CLI prints it: the same data, the same envelope."""
    shown = parse_shown("p1=9")
    result = edges_result(Shoe.decks(2), get_rules("banco-4-draws-on-0-1"), ["tie", "banker"], shown=shown)
    assert (result.shoe, result.rules.name, result.shown) == (Shoe.decks(2), "banco-4-draws-on-0-1", shown)
    argv = ["edges", "--decks", "2", "--rules", "banco-4-draws-on-0-1", "--bets", "tie,banker"]
    argv += ["--shown", "p1=9"]
    _, out, _ = run(capsys, *argv, "--format", "json")
    assert render(result, "json") == out
    data = json.loads(out)
    assert list(data) == list(dict.fromkeys([*to_data(result), *envelope(result)]))
    assert data["shown"] == {"p1": "9"} and data["shoe"] == "2 decks"
    _, text, _ = run(capsys, *argv)
    assert render(result, "table") == text and "2 decks, shown p1=9" in text


def test_a_game_keeps_the_shoe_it_was_solved_on(capsys: pytest.CaptureFixture[str]) -> None:
    """`solve macao --remove K,K`: the game's own 2 decks less two kings, said in the JSON."""
    result = solve_result("macao", remove=["K", "K"])
    assert result.shoe.size == 102 and result.game.title == "Macao and Victoria"
    _, out, _ = run(capsys, "solve", "macao", "--remove", "K,K", "--format", "json")
    assert render(result, "json", ["K", "K"]) == out
    spec = {"decks": 2, "removed": ["K", "K"], "cards": 102, "label": "2 decks less K,K"}
    assert json.loads(out)["shoe_spec"] == spec


def test_list_json_carries_only_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.present.listing import list_result

    result = list_result("games")
    assert envelope(result) == {"version": envelope(odds_result(Shoe.decks(1)))["version"]}
    _, out, _ = run(capsys, "list", "games", "--format", "json")
    assert render(result, "json") == out and list(json.loads(out)) == ["games", "version"]
