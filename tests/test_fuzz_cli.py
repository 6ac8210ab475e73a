"""The CLI fuzzed: hypothesis builds argument lists from the grammar of every command (valid
and wrong names, numbers at and beyond every bound, odd Unicode, empty and repeated items,
files of random TOML), runs each in process with a time limit, and checks the contract:
exit 0 or 2, exactly one `baccarat: error:` line on stderr on exit 2, never a traceback.

`.ci/run` runs a bounded number of examples; `python scripts/fuzz_cli.py --examples N` a
longer profile (FUZZ_EXAMPLES sets the number here).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from analyzer.cli import main

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "120"))
SECONDS = 30  # per command: generous for a loaded machine; the slowest built-in runs take ~3 s

# -- the grammar's leaves ------------------------------------------------------------------

ODD = ["", " ", ",", ",,", "\n", "\t", "é", "Égalité", "٣", "８", "\u200b", "\x00", "-", "--", "=", "☃", "𝟖"]
NUMBERS = ["0", "1", "2", "6", "8", "-1", "1.5", "1e3", "inf", "-inf", "nan", "1000000", "1000001", "9" * 40]
DECKS = ["1", "2", "6", "8", "inf", *NUMBERS]
RANKS = ["A", "2", "5", "9", "10", "J", "K", "Z", "0", "11"]
CARDS = ["KH", "9S", "10D", "AC", "KX", "H", "K\nH", "9s"]
BETS = [
    "banker",
    "player",
    "tie",
    "dragon7",
    "panda8",
    "player-pair",
    "big",
    "super-tie",
    "perfect-pairs-v1",
    "tie-max-high",
    "lucky-nines",
    "nosuchbet",
]
TABLES = ["commission", "super6", "ez-baccarat", "uk", "nosuch"]
RULES = ["standard", "banco-4-draws-on-0-1", "seed004", "macao"]
SYSTEMS = ["dragon7-jacobson", "panda8-jacobson", "banker-eor", "natural9-thorp", "nosuch"]
GAMES = ["chemin-de-fer", "punto-5", "macao", "nosuch"]
FORMATS = ["table", "markdown", "json", "dot", "yaml"]
POSITIONS = ["p1", "b1", "p2", "b2", "p3", "b3", "x9"]

leaf = st.sampled_from


def listed(items: st.SearchStrategy[str], most: int = 4) -> st.SearchStrategy[str]:
    """Comma-separated items, sometimes with empty items, repeats or odd separators."""
    return st.one_of(
        st.lists(items, min_size=1, max_size=most).map(",".join),
        st.lists(st.one_of(items, leaf(ODD)), min_size=0, max_size=most).map(",".join),
    )


counts13 = st.one_of(
    st.lists(st.integers(0, 8).map(str), min_size=13, max_size=13).map(",".join),
    st.lists(leaf(NUMBERS), min_size=11, max_size=14).map(",".join),
)
counts52 = st.lists(st.integers(0, 2).map(str), min_size=52, max_size=52).map(",".join)
shown = listed(st.tuples(leaf(POSITIONS), st.one_of(leaf(RANKS), leaf(CARDS))).map("=".join), 3)

TOML_VALUES = st.recursive(
    st.one_of(st.integers(-10, 10), st.booleans(), st.text(max_size=5), st.floats(allow_nan=False)),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text("abcxyz_", max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml_value, value)) + "]"
    assert isinstance(value, dict)
    return "{" + ", ".join(f'"{k}" = {_toml_value(v)}' for k, v in value.items()) + "}"


KEYS = [
    "title",
    "rules",
    "offer",
    "tie_pays",
    "banker_commission",
    "natural",
    "punto_draws",
    "base",
    "bets",
    "systems",
    "tags",
    "threshold",
    "bet",
    "lines",
    "x",
]
toml_texts = st.one_of(
    st.dictionaries(leaf(KEYS), TOML_VALUES, max_size=4).map(
        lambda d: "".join(f"{k} = {_toml_value(v)}\n" for k, v in d.items())
    ),
    st.just("x = " + "[" * 2000 + "]" * 2000 + "\n"),
    st.text(max_size=40),
    st.just('[bets.huge]\nlines = [{ when = { winner = "tie" }, pays = 1e300 }]\n'),
    st.just(
        '[systems.dragon7-jacobson]\ntags = [0,0,0,-1,-1,-1,-1,2,2,0,0,0,0]\nthreshold = 4\nbet = "dragon7"\n'
    ),
)


@st.composite
def toml_file(draw: st.DrawFn) -> str:
    """A marker replaced by the path of a file written with random TOML."""
    return "FILE:" + draw(toml_texts)


RECORD_WORDS = [*CARDS, *RANKS, "cut", "undo", "burn:", "#", ",", "\n", "\n", "\n", "KH", "KH"]


@st.composite
def record_file(draw: st.DrawFn) -> str:
    """A marker replaced by the path of a file holding a random recorded shoe."""
    words = draw(st.lists(leaf(RECORD_WORDS), max_size=40))
    return "FILE:" + " ".join(words)


# -- the commands --------------------------------------------------------------------------

SHOE = {
    "--decks": leaf(DECKS),
    "--counts": counts13,
    "--cards": counts52,
    "--remove": listed(st.one_of(leaf(RANKS), leaf(CARDS))),
    "--rules": st.one_of(leaf(RULES), toml_file(), leaf(ODD)),
    "--format": leaf(FORMATS),
}
COMMANDS: dict[str, dict[str, st.SearchStrategy[str]]] = {
    "odds": {**SHOE, "--shown": shown},
    "punto-table": SHOE,
    "rules": SHOE,
    "edges": {
        **SHOE,
        "--shown": shown,
        "--bets": listed(leaf(BETS)),
        "--table": st.one_of(leaf(TABLES), toml_file()),
        "--commission": leaf(["4%", "0.04", "5 %", "100%", "-1%", "abc", "1/20"]),
    },
    "known": {
        "--decks": leaf(["1", "2", "8", "inf", "0", "x"]),
        "--positions": listed(leaf(["1", "2", "3", "5", "6", "0", "7", "x"]), 3),
        "--sort": listed(leaf([*RANKS, "6", "7", "8"]), 3),
        "--bets": listed(leaf(BETS), 3),
        "--rules": leaf(RULES),
        "--format": leaf(FORMATS),
    },
    "compare": {
        "--tables": listed(leaf(TABLES), 2),
        "--shoes": listed(leaf(["1", "8", "inf", "0", "x"]), 2),
        "--variant": leaf(RULES),
        "--format": leaf(FORMATS),
    },
    "eor": {**SHOE, "--bets": listed(leaf(BETS), 2), "--table": st.one_of(leaf(TABLES), toml_file())},
    "count": {
        "--decks": leaf(["1", "2", "6", "8", "0", "inf", "x"]),
        "--system": st.one_of(listed(leaf(SYSTEMS), 2), toml_file()),
        "--bet": leaf(BETS),
        "--shoes": leaf(["1", "2", "3", "0", "-1", "x", "٣"]),
        "--seed": leaf(["1", "2", "-1", "x", "9" * 30]),
        "--cut-card": leaf(["7", "14", "0", "-1", "500", "x"]),
        "--burn-seen": leaf(["none", "first", "all", "some"]),
        "--true-count": leaf(["exact", "deck", "x"]),
        "--bankroll": leaf(["100", "0", "-5", "inf", "nan", "x"]),
        "--coups-per-hour": leaf(["80", "0", "x"]),
        "--format": leaf(FORMATS),
    },
    "solve": {
        "GAME": leaf(GAMES),
        "--commission": leaf(["5%", "0%", "11%", "x"]),
        "--format": leaf(FORMATS),
        "--decks": leaf(["1", "2", "3", "0", "x"]),
        "--remove": listed(leaf(RANKS), 2),
    },
    "closed-form": {
        "--bets": listed(leaf(["banker", "tie", "player-pair", "super-tie", "x"]), 2),
        "--rules": leaf(RULES),
        "--format": leaf(FORMATS),
        "--decks": leaf(["8"]),
    },
    "design": {
        "--table": st.one_of(leaf(["analyzer/examples/sevens.toml", "uk"]), toml_file()),
        "--bet": leaf(["sevens", "tie", "x", ""]),
        "--edge": leaf(["4.5%..5.5%", "4%..", "..", "5%..4%", "1/2..3/4", "0..0", "x..y", "-100%..100%"]),
        "--decks": leaf(["8", "6,8", "1,inf", "0", "8,8", ""]),
        "--max-pay": leaf(["1000", "1", "0", "-1", "x", "9" * 30]),
        "--limit": leaf(["20", "0", "-1", "x"]),
        "--max-nodes": leaf(["1000000", "1", "0", "x"]),
        "--format": leaf(FORMATS),
    },
    "track": {
        "RECORD": st.one_of(record_file(), leaf(["nosuch.txt", "-x", ""])),
        "--decks": leaf(["1", "2", "8", "inf", "0", "x"]),
        "--bets": listed(leaf(BETS)),
        "--system": listed(leaf(SYSTEMS), 2),
        "--bankroll": leaf(["100", "0", "-5", "1/3", "inf", "x"]),
        "--kelly": leaf(["0.5", "0", "1", "2", "x"]),
        "--min-bet": leaf(["1", "0", "5", "1.5", "x"]),
        "--max-bet": leaf(["10", "0", "x"]),
        "--format": leaf(FORMATS),
    },
    "list": {
        "WHAT": leaf(["bets", "tables", "rules", "systems", "games", "x", ""]),
        "--format": leaf(FORMATS),
    },
}
FLAGS = {
    "known": ["--best-sort", "--ranks"],
    "edges": ["--details"],
    "count": ["--extra-coup", "--no-burn", "--strict"],
    "design": ["--monotone"],
}


@st.composite
def argv(draw: st.DrawFn) -> list[str]:
    """One command line: a command, some of its options (sometimes one twice), flags."""
    command = draw(leaf(list(COMMANDS)))
    options = COMMANDS[command]
    chosen = draw(st.lists(leaf(list(options)), max_size=4, unique=True))
    words = [command]
    for name in chosen:
        value = draw(options[name])
        words += [value] if name.isupper() else [name, value]
        if not name.isupper() and draw(st.integers(0, 9)) == 0:  # an option given twice
            words += [name, draw(options[name])]
    words += draw(st.lists(leaf(FLAGS.get(command, ["--bogus"])), max_size=2, unique=True))
    return words


# -- the check ------------------------------------------------------------------------------


class _Slow(BaseException):
    pass


@contextmanager
def _limit(seconds: int) -> Iterator[None]:
    def alarm(signum: int, frame: FrameType | None) -> None:
        raise _Slow

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _files(words: list[str], folder: Path) -> list[str]:
    out = []
    for i, word in enumerate(words):
        if word.startswith("FILE:"):
            path = folder / f"fuzz{i}.toml"
            path.write_text(word[len("FILE:") :], encoding="utf-8", errors="surrogatepass")
            word = str(path)
        out.append(word)
    return out


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)
@given(words=argv())
def test_every_command_line_exits_0_or_2_with_one_line(
    words: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _files(words, tmp_path)
    capsys.readouterr()
    try:
        with _limit(SECONDS):
            code = main(line)
    except _Slow:
        pytest.fail(f"baccarat {line!r} ran past {SECONDS} s")
    out, err = capsys.readouterr()
    assert "Traceback" not in err, (line, err)
    assert code in (0, 2), (line, code, err)
    event(f"{line[0]} exit {code}")
    if code == 2:
        assert out == "", line
        assert err.startswith("baccarat: error: ") and err.endswith("\n") and err.count("\n") == 1, (
            line,
            err,
        )
