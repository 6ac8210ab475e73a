"""The command's contract for outsiders: --version, help, `list`, the JSON
metadata every command carries, names a reader can look up, and one rule for bad input."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from clirun import one_line_error, run

from analyzer.analyses.pricing import analyze
from analyzer.cli import COMMANDS, EXAMPLES, build_parser, example, main
from analyzer.core.catalogue import BETS, RANK_BETS, TABLES
from analyzer.core.rules import RULES
from analyzer.core.shoe import Shoe
from analyzer.counting.systems import SYSTEMS
from analyzer.games import GAMES
from analyzer.present.text import WIDTH, table
from analyzer.ranks.enumeration import distribution
from analyzer.version import __version__

ROOT = Path(__file__).resolve().parents[1]
SEVENS = ROOT / "analyzer" / "examples" / "sevens.toml"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


# -- version, help, list -----------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main([flag])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"baccarat {__version__}\n"


def test_bare_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    assert out.startswith("usage: baccarat") and "list" in out and "closed-form" in out


@pytest.mark.parametrize("command", [*COMMANDS, "list"])
def test_every_help_shows_an_example_and_where_names_are(command: str) -> None:
    sub = build_parser()._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    text = sub.format_help()
    assert f"Example: {example(command)}" in text
    assert "seed 00" not in text and "seed004" not in text
    if any(option in text for option in ("--bets", "--table", "--rules", "--system", "game")):
        assert "baccarat list" in text


def _help(command: str) -> str:
    return build_parser()._subparsers._group_actions[0].choices[command].format_help()  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        ("design", ["--counts", "--cards", "--remove"]),
        ("closed-form", ["--decks", "--counts", "--cards", "--remove"]),
        ("report", ["--decks", "--counts", "--cards", "--remove", "--rules"]),
    ],
)
def test_no_help_offers_an_option_its_command_refuses(
    capsys: pytest.CaptureFixture[str], command: str, refused: list[str]
) -> None:
    text = _help(command)
    for option in refused:
        assert option not in text, option
        words = {"design": ["--table", "t.toml", "--edge", "1%..2%"]}.get(command, [])
        err = one_line_error(capsys, command, *words, option, "1")
        assert err.startswith(f"baccarat: error: {command} does not take {option}: "), err


@pytest.mark.parametrize("command", ["count", "eor", "par-sheet", "track"])
def test_a_command_that_needs_a_finite_shoe_offers_no_infinite_deck(command: str) -> None:
    decks = next(line for line in _help(command).splitlines() if line.strip().startswith("--decks"))
    assert decks.split(None, 2)[2] == "number of decks (default 8)"
    assert "inf" not in _help(command).replace("info", "")


@pytest.mark.parametrize("command", list(EXAMPLES))
def test_every_example_runs_from_anywhere(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, command: str
) -> None:
    # As after `pip install`: run from a directory that is not a checkout (the examples named
    # examples/sevens.toml and analyzer/counting/data/..., relative to a checkout).
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(example(command))[1:]
    if argv[0] in ("report",):
        pytest.skip("report writes files; tested in test_cli_bets")
    if argv[0] == "count":
        argv[argv.index("200")] = "4"
    if argv[0] == "par-sheet":
        argv[argv.index("2000")] = "20"
    code, out, err = run(capsys, *argv)
    assert code == 0 and out and err == "", err


KNOWN = {"bets": BETS, "tables": TABLES, "rules": RULES, "systems": SYSTEMS, "games": GAMES}


@pytest.mark.parametrize("kind", list(KNOWN))
def test_list_in_every_format(capsys: pytest.CaptureFixture[str], kind: str) -> None:
    code, out, _ = run(capsys, "list", kind, "--format", "json")
    assert code == 0
    data = json.loads(out)[kind]
    assert list(data) == list(KNOWN[kind])
    for name, entry in data.items():
        assert entry["title"] and entry["source"], name
        assert "seed 00" not in entry["title"] + entry["source"], name
    for fmt in ("table", "markdown"):
        code, out, _ = run(capsys, "list", kind, "--format", fmt)
        assert code == 0 and all(name in out for name in KNOWN[kind])
        assert max(map(len, out.splitlines())) <= WIDTH or fmt == "markdown"


def test_list_refuses_unknown_kinds_and_formats(capsys: pytest.CaptureFixture[str]) -> None:
    assert "'dealers'" in one_line_error(capsys, "list", "dealers")
    assert "'yaml'" in one_line_error(capsys, "list", "bets", "--format", "yaml")


def test_old_rules_name_is_an_alias(capsys: pytest.CaptureFixture[str]) -> None:
    _, new, _ = run(capsys, "odds", "--rules", "banco-4-draws-on-0-1", "--format", "json")
    _, old, _ = run(capsys, "odds", "--rules", "seed004", "--format", "json")
    assert new == old and json.loads(new)["rules"] == "banco-4-draws-on-0-1"
    _, out, _ = run(capsys, "list", "rules", "--format", "json")
    listed = json.loads(out)["rules"]
    assert list(listed) == ["standard", "banco-4-draws-on-0-1"] and "seed004" not in out  # not listed


# -- JSON metadata -----------------------------------------------------------------------

COMMAND_JSON = {
    "odds": (["odds"], ["banker", "player", "tie", "counts", "total"]),
    "punto-table": (["punto-table", "--decks", "inf"], ["rows"]),
    "rules": (["rules"], ["name", "natural", "punto_draws", "banco_draws"]),
    "edges": (["edges", "--bets", "tie"], ["bets"]),
    "compare": (["compare", "--tables", "commission", "--shoes", "1"], ["shoes", "edges", "tableau"]),
    "eor": (["eor", "--bets", "tie", "--decks", "1"], ["bets", "identity", "best_counts"]),
    "count": (["count", "--system", "dragon7-jacobson", "--shoes", "2"], ["procedure", "systems"]),
    "solve": (["solve", "punto-5", "--decks", "inf"], ["game", "draw", "stand", "better", "house_edges"]),
    "closed-form": (["closed-form", "--bets", "player-pair"], ["bets"]),
    "design": (
        ["design", "--table", str(SEVENS), "--bet", "sevens", "--edge", "4%..6%"],
        ["bet", "window", "decks", "count", "solutions"],
    ),
    "par-sheet": (["par-sheet", "--bets", "player-pair", "--shoes", "5"], ["bets"]),
    "track": (["track", "analyzer/counting/data/sample-shoe.txt", "--bets", "tie"], ["coups", "summary"]),
    "known": (["known", "--positions", "1", "--sort", "6,7,8,9"], ["positions", "value", "states"]),
}


@pytest.mark.parametrize("command", list(COMMAND_JSON))
def test_every_json_carries_version_shoe_and_rules(capsys: pytest.CaptureFixture[str], command: str) -> None:
    argv, kept = COMMAND_JSON[command]
    code, out, _ = run(capsys, *argv, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["version"] == __version__
    assert isinstance(data["shoe"], str) and data["shoe"]  # the display text, as before
    spec = data["shoe_spec"]
    assert isinstance(spec, dict) and ("decks" in spec or "counts" in spec)
    assert isinstance(data["rules"], str) and data["rules"]
    assert all(key in data for key in kept)


def test_every_command_is_covered() -> None:
    assert set(COMMAND_JSON) == set(COMMANDS) - {"report"}  # report writes Markdown only


@pytest.mark.parametrize(
    ("argv", "shoe"),
    [
        ([], {"decks": 8, "cards": 416, "label": "8 decks"}),
        (["--decks", "inf"], {"decks": "inf", "label": "infinite deck"}),
        (["--decks", "6", "--remove", "5,K"], {"decks": 6, "removed": ["5", "K"], "cards": 310}),
        (["--counts", "4,4,4,4,4,4,4,4,4,4,4,4,0"], {"counts": [4] * 12 + [0], "cards": 48}),
    ],
)
def test_shoe_is_structured(capsys: pytest.CaptureFixture[str], argv: list[str], shoe: dict) -> None:
    _, out, _ = run(capsys, "odds", *argv, "--format", "json")
    data = json.loads(out)
    assert {key: data["shoe_spec"][key] for key in shoe} == shoe
    assert data["shoe"] == data["shoe_spec"]["label"]


def test_table_rules_and_game_shoes_are_the_ones_used(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "t.toml"
    path.write_text('rules = "seed004"\noffer = ["tie"]\n', encoding="utf-8")
    _, out, _ = run(capsys, "edges", "--table", str(path), "--format", "json")
    assert json.loads(out)["rules"] == "banco-4-draws-on-0-1"
    _, out, _ = run(capsys, "solve", "macao", "--format", "json")
    assert json.loads(out)["shoe_spec"]["decks"] == 2


# -- closed forms ------------------------------------------------------------------------


def test_closed_form_json_is_sympy_and_exact(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "closed-form", "--bets", "tie,banker", "--format", "json")
    bets = json.loads(out)["bets"]
    d = sp.Symbol("d")
    for name in ("tie", "banker"):
        edge = sp.sympify(bets[name]["house_edge"])
        value = edge.subs(d, 6)
        assert (
            Fraction(int(value.p), int(value.q))
            == analyze(RANK_BETS[name], distribution(Shoe.decks(6))).house_edge
        )
        assert sp.limit(edge, d, sp.oo) == sp.Rational(bets[name]["house_edge_infinite_deck"])
    _, out, _ = run(capsys, "closed-form", "--bets", "tie", "--format", "markdown")
    assert "$$" in out and "\\frac" in out


@pytest.mark.parametrize("option", [["--decks", "6"], ["--counts", ",".join(["4"] * 13)], ["--remove", "5"]])
def test_closed_form_refuses_shoe_options(capsys: pytest.CaptureFixture[str], option: list[str]) -> None:
    assert "number of decks d" in one_line_error(capsys, "closed-form", *option)


# -- one rule for name lists: an empty value or item is an error, and so is a name twice ---

LIST_ERRORS = {
    "edges bets twice": (["edges", "--bets", "banker,banker"], "'banker' is given twice"),
    "eor bets twice": (["eor", "--bets", "tie,tie"], "'tie' is given twice"),
    "compare tables twice": (["compare", "--tables", "uk,uk"], "'uk' is given twice"),
    "compare shoes twice": (["compare", "--shoes", "8,8"], "'8' is given twice"),
    "count systems twice": (["count", "--system", "banker-eor,banker-eor"], "given twice"),
    "closed-form bets twice": (["closed-form", "--bets", "tie,tie"], "given twice"),
    "edges bets empty": (["edges", "--bets", ""], "--bets ''"),
    "edges bets commas": (["edges", "--bets", ",,"], "--bets ',,'"),
    "edges bets empty item": (["edges", "--bets", "banker,,tie"], "none empty"),
    "eor bets empty": (["eor", "--bets", ""], "--bets ''"),
    "compare tables empty": (["compare", "--tables", ""], "--tables ''"),
    "compare tables commas": (["compare", "--tables", ",,"], "--tables ',,'"),
    "compare shoes empty": (["compare", "--shoes", ""], "--shoes ''"),
    "count bet empty": (["count", "--bet", ""], "--bet ''"),
    "count system empty": (["count", "--system", ""], "--system ''"),
    "edges table empty": (["edges", "--table", ""], "--table ''"),
    "compare shoes names its option": (["compare", "--shoes", "abc"], "--shoes"),
}


@pytest.mark.parametrize(("argv", "fragment"), list(LIST_ERRORS.values()), ids=list(LIST_ERRORS))
def test_one_rule_for_name_lists(capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    assert fragment in one_line_error(capsys, *argv)


# -- other bad input ---------------------------------------------------------------------


def test_a_value_with_a_newline_stays_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert "8\\nX" in one_line_error(capsys, "odds", "--decks", "8\nX", "--counts", "1")
    assert "--bo\\ngus" in one_line_error(capsys, "odds", "--bo\ngus")


def test_closed_stdout_is_one_line_not_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "analyzer", "odds"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env=ENV, cwd=ROOT, timeout=60, pass_fds=(), close_fds=True,
    )  # fmt: skip
    assert proc.returncode == 0  # a working stdout: the baseline
    proc = subprocess.run(
        ["/bin/sh", "-c", f"{sys.executable} -m analyzer odds >&-"],
        capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "standard output is closed" in proc.stderr


def test_huge_payout_is_exact_not_a_crash(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    path.write_text('[bets.huge]\nlines = [{ when = { winner = "tie" }, pays = 1e300 }]\n', encoding="utf-8")
    code, out, err = run(capsys, "edges", "--table", str(path), "--format", "json")
    assert code == 0 and err == ""
    bet = json.loads(out)["bets"]["huge"]
    p_tie = analyze(RANK_BETS["tie"], distribution(Shoe.decks(8))).hit_frequency
    assert Fraction(bet["house_edge"]) == 1 - p_tie * (10**300 + 1)
    assert 1e299 < float(bet["std_dev"]) < 1e300


def test_tiny_commission_is_not_labelled_zero(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "edges", "--bets", "tie", "--commission", "1e-400%", "--format", "json")
    bets = json.loads(out)["bets"]
    assert bets["banker-1E-400pct"]["title"] == "Banker (1E-400% commission)"


def test_systems_file_errors_name_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad_bet = tmp_path / "bet.toml"
    bad_bet.write_text(
        '[systems.x]\nbet = "nope"\ntags = [1,1,1,1,1,1,1,1,1,1]\nthreshold = 1\n', encoding="utf-8"
    )
    err = one_line_error(capsys, "count", "--system", str(bad_bet), "--shoes", "1")
    assert str(bad_bet) in err and "'nope'" in err
    bad_rank = tmp_path / "rank.toml"
    bad_rank.write_text('[systems.x]\nbet = "tie"\ntags = {Z = 1}\nthreshold = 1\n', encoding="utf-8")
    err = one_line_error(capsys, "count", "--system", str(bad_rank), "--shoes", "1")
    assert str(bad_rank) in err and "'Z'" in err


@pytest.mark.parametrize("option", [["--decks", "6"], ["--rules", "seed004"], ["--remove", "5"]])
def test_report_refuses_options_it_would_ignore(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: list[str]
) -> None:
    err = one_line_error(capsys, "report", "--out", str(tmp_path / "r"), *option)
    assert f"report does not take {option[0]}" in err
    assert not (tmp_path / "r").exists()


def test_report_refuses_folders_it_did_not_write(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# My project\n", encoding="utf-8")
    assert "'README.md'" in one_line_error(capsys, "report", "--out", str(tmp_path))
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == "# My project\n"
    for place in ("/", str(Path.home())):
        assert "root or home" in one_line_error(capsys, "report", "--out", place)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_report_checks_writability_before_computing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        start = time.monotonic()
        assert "cannot be written" in one_line_error(capsys, "report", "--out", str(locked / "reports"))
        assert time.monotonic() - start < 5
    finally:
        locked.chmod(0o700)


def test_report_writes_all_files_or_none(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import analyzer.present.reports as report
    from analyzer.present.reports import counting, effects

    out = tmp_path / "reports"
    out.mkdir()
    (out / "odds.md").write_text("# Old\n\nGenerated by `baccarat report` from the code\n", encoding="utf-8")
    small = ((counting, "_COUNT_SHOES"), (counting, "_CHOICE_SHOES"), (effects, "_EOR_SHOES"))
    for module, name in small:
        monkeypatch.setattr(module, name, 4)
    monkeypatch.setattr(report, "games_report", lambda: dict.fromkeys(report.GAME_REPORTS, "# game\n"))
    monkeypatch.setattr(report, "start_games_report", lambda executor: report.games_report)
    monkeypatch.setattr(report, "par_sheet_reports", lambda executor: {"par-sheets/README.md": "# Sheets\n"})

    def interrupted(path: Path) -> None:
        raise KeyboardInterrupt

    monkeypatch.setitem(report.PLOTS, "effects-of-removal.png", interrupted)  # the last file written
    code, out_text, err = run(capsys, "report", "--out", str(out))
    assert code == 130 and out_text == "" and err == "baccarat: interrupted\n"
    assert [p.name for p in out.iterdir()] == ["odds.md"]  # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]  # no staging left behind


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "--shoes", "1000000", "--system", "dragon7-jacobson"],
        ["count", "--shoes", "1000000", "--workers", "2"],
    ],
    ids=["count", "count with workers"],
)
def test_ctrl_c_is_one_line_and_exit_130(argv: list[str]) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "analyzer", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=ENV, cwd=ROOT, start_new_session=True,
    )  # fmt: skip
    time.sleep(4)  # started and working
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole process group
    out, err = proc.communicate(timeout=30)  # never a hang
    assert (proc.returncode, out, err) == (130, "", "baccarat: interrupted\n"), err[-3000:]


# -- readable output ---------------------------------------------------------------------


def test_markdown_escapes_pipes_and_right_aligns_numbers() -> None:
    text = table([["a | b", "1.5%"], ["c", "-2/3"]], ["title", "edge"], "markdown")
    assert "a \\| b" in text
    assert text.splitlines()[1].endswith("---:|")


def test_terminal_tables_fit(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["edges"], ["eor"], ["compare"], ["punto-table"], ["list", "rules"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0 and max(map(len, out.splitlines())) <= WIDTH, argv
