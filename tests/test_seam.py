"""The front door (issue 27): every command is a library function of typed arguments returning
a typed result that holds the shoe, rules and shown cards it used; the presentation layer
turns a result into data, adds one envelope and serialises it once; the CLI parses, calls the
library and writes what it renders, reading each input file once."""

from __future__ import annotations

import ast
import json
import re
import shutil
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import one_line_error, run

import analyzer.core.parsing as parsing
from analyzer.analyses import known as known_cards
from analyzer.analyses import results as analyses_results
from analyzer.analyses.design import parse_window
from analyzer.analyses.known import KnownResult
from analyzer.analyses.results import edges_result, odds_result
from analyzer.analyses.shown import parse_shown
from analyzer.cli.arguments import flag
from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.rules import get_rules
from analyzer.core.shoe import Shoe, parse_cards
from analyzer.counting import results as counting_results
from analyzer.counting import sorting, tracking
from analyzer.counting.replay import Sizing
from analyzer.games import SolveResult, solve_result
from analyzer.present.listing import ListResult
from analyzer.present.outputs import OUTPUTS, envelope, render, to_data
from analyzer.ranks import diskcache

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
        ["par-sheet", "--table", "{table}", "--shoes", "2", "--cover", "banker:1", "--format", "json"],
    ],
)
def test_each_input_file_is_read_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str]
) -> None:
    """The --table file is read once (it was read again for the JSON's rules, and twice by track)."""
    table, design = _table_file(tmp_path), tmp_path / "sevens.toml"
    shutil.copy(ROOT / "analyzer" / "examples" / "sevens.toml", design)
    reads: list[str] = []
    read_text = parsing.read_text

    def counted(path: str, what: str, limit: int = parsing.MAX_TOML_BYTES) -> str:
        reads.append(path)
        return read_text(path, what, limit)

    monkeypatch.setattr(parsing, "read_text", counted)
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
        for module in (analyses_results, counting_results, tracking, known_cards, sorting)
        for name, value in vars(module).items()
        if isinstance(value, type) and name.endswith("Result") and value.__module__ == module.__name__
    }
    kinds |= {SolveResult, ListResult, KnownResult, diskcache.CacheStatus}
    assert {f"{kind.__module__}.{kind.__qualname__}" for kind in kinds} == set(OUTPUTS)  # keyed by name


def test_the_cache_status_renders_as_the_cache_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`baccarat cache` writes what the library's cache status renders, nothing built in the CLI."""
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path))
    diskcache.write_cache_file("plans", "1" * 24, b"x" * 10)
    size = diskcache.cache_path("plans", "1" * 24).stat().st_size
    status = diskcache.cache_status()
    assert (status.info.files, status.info.bytes, status.removed) == (1, size, None)
    assert render(status, "json") == run(capsys, "cache", "--format", "json")[1]
    assert render(status, "table") == run(capsys, "cache")[1]
    assert f"Files: 1 ({size:,} bytes)" in render(status, "table")
    cleared = diskcache.cache_status(clear=True)
    assert cleared.removed == diskcache.CacheFiles(tmp_path, 1, size) and cleared.info.files == 0
    assert to_data(cleared)["removed"] == {"files": 1, "bytes": size}


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


# -- library words, CLI flags ------------------------------------------------------------

#: The layers below the presentation layer: no string of theirs (but a docstring) names a flag.
LIBRARY = ("core", "ranks", "cards", "analyses", "games", "counting")
FLAG = re.compile(r"--[a-z]")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _strings(node: ast.AST, skip: frozenset[int] | set[int] = frozenset()) -> list[ast.Constant]:
    return [
        n
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
    ]


def test_library_messages_name_no_flags() -> None:
    """The library speaks library words: no string below the presentation layer (docstrings
    aside) and no AnalyzerError raised in analyzer/present names a CLI flag ("--decks")."""
    found = []
    for layer in LIBRARY:
        for path in sorted((ROOT / "analyzer" / layer).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found += [
                f"{path.name}:{n.lineno}" for n in _strings(tree, _docstrings(tree)) if FLAG.search(n.value)
            ]
    for path in sorted((ROOT / "analyzer" / "present").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None and "AnalyzerError" in ast.dump(node.exc):
                found += [f"{path.name}:{n.lineno}" for n in _strings(node.exc) if FLAG.search(n.value)]
    assert found == []


@pytest.mark.parametrize(
    ("call", "argument", "message"),
    [
        (
            lambda: Shoe.infinite().remove(["5"]),
            "remove",
            "cannot remove cards from the infinite deck: use Shoe.decks(N) or Shoe.from_counts",
        ),
        (
            lambda: parse_cards("1,2"),
            "cards",
            "cards has 2 entries: give 52 integers, spades A..K then hearts, diamonds, clubs",
        ),
        (
            lambda: parse_shown("p1=9,p1=8"),
            "shown",
            "shown: position p1 is shown twice; show each position once",
        ),
        (
            lambda: Sizing(Fraction(100), Fraction(2)),
            "kelly",
            "Kelly fraction (Sizing.kelly) 2: use a fraction above 0, at most 1",
        ),
        (
            lambda: parse_window("4%"),
            "window",
            "window '4%': an empty window; give LOW..HIGH, e.g. 4.5%..5.5% or 0.045..0.055",
        ),
        (
            lambda: solve_result("banque", Shoe.decks(101)),
            None,
            "shoe of 5,252 cards: banque is solved exactly on at most 5,200 cards (100 decks); "
            "use Shoe.infinite() for the limit of larger shoes",
        ),
    ],
)
def test_a_notebook_reads_the_library_words(
    call: Callable[[], object], argument: str | None, message: str
) -> None:
    with pytest.raises(AnalyzerError) as error:
        call()
    assert (str(error.value), error.value.argument) == (message, argument)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["odds", "--decks", "inf", "--remove", "5"],
            "cannot remove cards from the infinite deck: use --decks N or --counts",
        ),
        (
            ["odds", "--cards", "1,2"],
            "--cards has 2 entries: give 52 integers, spades A..K then hearts, diamonds, clubs",
        ),
        (["odds", "--shown", "p1=9,p1=8"], "--shown: position p1 is shown twice; show each position once"),
        (
            ["track", SAMPLE, "--bankroll", "100", "--kelly", "2"],
            "Kelly fraction (--kelly) 2: use a fraction above 0, at most 1",
        ),
        (["solve", "banque", "--decks", "101"], "(100 decks); use --decks inf for the limit of larger shoes"),
        (["count", "--executor", "tcp://x"], "--executor 'tcp://x': use tcp://HOST:PORT"),
    ],
)
def test_the_cli_words_the_flags(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    """The same errors from the command line name its flags, as they always did."""
    assert message in one_line_error(capsys, *argv)


def test_a_value_cannot_pass_for_a_mention() -> None:
    """A bad value is quoted (its repr escapes control characters), so no value forges a mention."""
    forged = f"{chr(14)}decks{chr(31)}{chr(31)}{chr(15)}"
    error = AnalyzerError(f"{mention('bets')} {quoted(forged)}: unknown bet")
    assert error.worded(flag) == "--bets '\\x0edecks\\x1f\\x1f\\x0f': unknown bet"
    assert str(error) == "bets '\\x0edecks\\x1f\\x1f\\x0f': unknown bet" and error.argument == "bets"


def test_a_game_is_named_once(capsys: pytest.CaptureFixture[str]) -> None:
    """The solve help and `list games` read the game registry: a game's name, title and
    source are written once, in its GAMES entry."""
    from analyzer.cli import build_parser, main
    from analyzer.games import GAMES

    names = list(GAMES)
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    help_text = capsys.readouterr().out + build_parser().format_help()
    assert f"{', '.join(names[:-1])} or {names[-1]}" in " ".join(help_text.split())
    assert f"({', '.join(names)})" in " ".join(help_text.split())
    _, out, _ = run(capsys, "list", "games", "--format", "json")
    listed = json.loads(out)["games"]
    assert listed == {game.name: {"title": game.title, "source": game.source} for game in GAMES.values()}
