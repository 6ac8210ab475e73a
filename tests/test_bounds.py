"""Bounded work, said before it starts: the paytable search refuses a search over its node
limit and a listing over its row limit in one line (the counts in it exact), a card-level plan
too large to refine is refused with its count of rows, and every input file is read up to a
stated size and no further."""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from analyzer import Shoe, analyze_bets
from analyzer.analyses.design import MAX_LISTED_ROWS, MAX_NODES, design, parse_window
from analyzer.analyses.paysearch import Band, BandSearch
from analyzer.cards.budget import MAX_REFINED_ROWS, PART_ROWS, part_cuts
from analyzer.cards.engine import plan_in_parts
from analyzer.core.bets import Bet, bet_from_mapping
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.parsing import MAX_TOML_BYTES
from analyzer.core.rules import STANDARD
from analyzer.counting.record import MAX_RECORD
from tests.clirun import one_line_error, run

Count = Callable[[int, list[int], Sequence[Band]], int]

# -- the paytable search ---------------------------------------------------------------------


Lines = list[tuple[dict[str, object], str]]  # (when, pays)


def _lines_that_happen(count: int, pays: str) -> Lines:
    """`count` lines (winner, a hand's total and cards) each of which happens on 8 decks."""
    conditions = [
        {"winner": winner, f"{hand}_total": total, f"{hand}_cards": cards}
        for winner in ("banker", "player", "tie")
        for hand in ["player" if winner == "tie" else winner]
        for total in range(10)
        for cards in (2, 3)
    ]
    probe = bet_from_mapping("probe", {"lines": [{"when": c, "pays": 1} for c in conditions]})
    [priced] = analyze_bets([probe], Shoe.decks(8))
    happen = [c for c, row in zip(conditions, priced.lines, strict=False) if row.combinations]
    return [(c, pays) for c in happen[:count]]


def _table(path: Path, name: str, lines: Lines) -> Path:
    rows = ",\n".join(
        "  { when = { "
        + ", ".join(f"{k} = {json.dumps(v)}" for k, v in when.items())
        + f" }}, pays = {json.dumps(pays)} }}"
        for when, pays in lines
    )
    path.write_text(f'title = "T"\n[bets.{name}]\nlines = [\n{rows}\n]\n', encoding="utf-8")
    return path


def test_a_search_over_the_node_limit_is_refused_before_it_starts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """28 lines paying 1..2: 2^28 candidates, under the candidate cap, ran past 10 minutes.
    The count visits at most 2^0 + ... + 2^26 nodes (all lines but the last two enumerated)."""
    path = _table(tmp_path / "many.toml", "many", _lines_that_happen(28, "1..2"))
    err = one_line_error(capsys, "design", "--table", str(path), "--edge=-117%..-116%")
    assert "268,435,456 candidate paytables" in err and f"{2**27 - 1:,} nodes" in err
    assert f"over the limit of {MAX_NODES:,}" in err and "raise --max-nodes" in err


def test_max_nodes_is_the_limit_to_the_node(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _table(tmp_path / "few.toml", "few", _lines_that_happen(12, "1..2"))
    argv = ["design", "--table", str(path), "--edge=10%..60%", "--limit", "2"]
    nodes = 2**11 - 1  # ten levels of two values enumerated above the last two
    assert f"may visit {nodes:,} nodes, over the limit of {nodes - 1:,}" in one_line_error(
        capsys, *argv, "--max-nodes", str(nodes - 1)
    )
    code, out, err = run(capsys, *argv, "--max-nodes", str(nodes))
    assert code == 0 and "paytables in the window" in out, err
    assert "--max-nodes 0: use a whole number, 1 or more" in one_line_error(capsys, *argv, "--max-nodes", "0")


@pytest.mark.parametrize("seed", range(4))
def test_the_node_bound_is_the_work_and_the_bar_adds_up_to_it(seed: int) -> None:
    """With bands that cut nothing off, a count visits exactly `nodes()` nodes; with any
    bands at most that many, and the progress told adds up to `nodes()` either way."""
    rng = random.Random(seed)
    for _ in range(40):
        n, shoes = rng.randint(1, 5), rng.randint(1, 2)
        weights = [[rng.randint(1, 20) for _ in range(shoes)] for _ in range(n)]
        boxes = [(a, a + rng.randint(0, 5)) for a in (rng.randint(0, 4) for _ in range(n))]
        search = BandSearch(weights, boxes, [])
        visits = 0
        inner = search._count

        def counted(level: int, partial: list[int], bands: Sequence[Band], inner: Count = inner) -> int:
            nonlocal visits
            visits += 1  # every call is a node: the level before last counts the last two
            return inner(level, partial, bands)

        search._count = counted  # type: ignore[method-assign]
        everything = [(-(10**9), 10**9)] * shoes
        some = [(lo, lo + rng.randint(0, 100)) for lo in (rng.randint(0, 150) for _ in range(shoes))]
        for bands, exact in ((everything, True), (some, False)):
            told: list[int] = []
            visits = 0
            search.count(bands, told.append)
            assert sum(told) == search.nodes()
            assert visits == search.nodes() if exact else visits <= search.nodes()
        sizes = [b - a + 1 for a, b in search.boxes]  # in the search's order
        assert search.nodes() == sum(math.prod(sizes[:k]) for k in range(max(1, n - 1)))


def _three(tmp_path: Path) -> Path:
    lines: Lines = [
        ({"winner": "banker", "banker_cards": 3, "banker_total": 7}, "?"),
        ({"winner": "player", "player_cards": 3, "player_total": 7}, "?"),
        ({"winner": "tie", "player_total": 7}, "?"),
    ]
    return _table(tmp_path / "three.toml", "three", lines)


def test_a_listing_over_the_row_limit_is_refused_once_counted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """27,288 paytables in -40%..40%, 4 rows each (three lines and no line, one shoe): a
    --limit that lists them all would hold 109,152 rows; listing was every paytable held."""
    path = _three(tmp_path)
    argv = ["design", "--table", str(path), "--edge=-40%..40%"]
    err = one_line_error(capsys, *argv, "--limit", "1000000000000")
    assert "listing the 27,288 paytables found takes 109,152 rows (4 each" in err
    assert f"over the limit of {MAX_LISTED_ROWS:,}: give --limit 25,000 or less" in err
    assert "listing 25,001 of the 27,288" in one_line_error(capsys, *argv, "--limit", "25001")
    code, out, _ = run(capsys, *argv, "--limit", "2")
    assert code == 0 and "27,288 paytables in the window; the 2 closest" in out


def test_the_listing_keeps_the_closest_whatever_the_band_holds() -> None:
    """The paytables listed are the closest of all found (a band around the middle may hold
    more than --limit: the rest are let go as they come)."""
    lines = [
        {"when": {"winner": "tie", "natural": True}, "pays": "1..40"},
        {"when": {"winner": "tie", "natural": False}, "pays": "1..40"},
    ]
    bet = bet_from_mapping("two", {"lines": lines})
    low, high = parse_window("-20%..30%")
    every = design(bet, [Shoe.decks(8)], low, high, limit=1600)
    for limit in (1, 7, 50):
        found = design(bet, [Shoe.decks(8)], low, high, limit=limit)
        assert found.count == every.count
        assert [s.pays for s in found.solutions] == [s.pays for s in every.solutions[:limit]]


# -- card-level plans ------------------------------------------------------------------------


def _suits(positions: str, name: str = "suits") -> Bet:
    when = {f"{p}_suit": "hearts" for p in positions.split(",")}
    return bet_from_mapping(name, {"lines": [{"when": when, "pays": 1000}]})


def test_a_plan_too_large_to_refine_is_refused_with_its_rows(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Six hearts: every coup row refined into up to 4^6 suit classes took 11 GB and ended in
    a MemoryError; the rows are counted first, 1,253,376,000 of them."""
    when = ", ".join(f'{p}_suit = "hearts"' for p in ("p1", "b1", "p2", "b2", "p3", "b3"))
    path = tmp_path / "hearts.toml"
    path.write_text(f"[bets.hearts]\nlines = [{{ when = {{ {when} }}, pays = 1000 }}]\n", encoding="utf-8")
    err = one_line_error(capsys, "edges", "--table", str(path))
    assert "bet 'hearts': pricing it refines 1,253,376,000 coup rows by suit" in err
    assert f"over the limit of {MAX_REFINED_ROWS:,}" in err


@pytest.mark.parametrize(
    ("bet", "rows"),
    [(_suits("p1,b1"), 13**4 * 4**2), (_suits("p3"), None), (_suits("b2"), 13**4 * 4)],
    ids=["p1-b1", "p3", "b2"],
)
def test_refined_rows_are_counted_before_they_are_made(
    bet: Bet, rows: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count the limit reads is the rows the parts hold; parts hold at most PART_ROWS
    rows (here made small, so that the plans are cut) and give the same weights."""
    import analyzer.cards.budget as budget

    counted: list[int] = []
    check = budget.check_refined

    def counting(bet: Bet, counts: np.ndarray, colour: np.ndarray) -> None:
        counted.append(int(counts.sum()))
        check(bet, counts, colour)

    monkeypatch.setattr(budget, "check_refined", counting)
    _, parts = plan_in_parts(bet, STANDARD, {})
    whole = [len(part.ranks) for part in parts]
    monkeypatch.setattr(budget, "PART_ROWS", 5000)
    _, cut = plan_in_parts(bet, STANDARD, {})
    small = [len(part.ranks) for part in cut]
    assert counted[0] == counted[1] == sum(whole) == sum(small) == (rows or sum(whole))
    assert max(small) <= 5000 < max(whole)


def test_parts_are_cut_at_the_rows_and_the_parents() -> None:
    rng = np.random.default_rng(1)
    counts = rng.choice([1, 4, 16, 64, 256, 4096], size=5000)
    for parents, rows in ((50, 10_000), (10**6, 4096), (7, PART_ROWS)):
        cuts = part_cuts(counts, parents, rows)
        assert cuts[0] == 0 and cuts[-1] == len(counts) and all(a < b for a, b in itertools.pairwise(cuts))
        for a, b in itertools.pairwise(cuts):
            assert b - a <= parents and (counts[a:b].sum() <= rows or b - a == 1)
            assert b == len(counts) or b - a == parents or counts[a : b + 1].sum() > rows


# -- input files -----------------------------------------------------------------------------

FILE_KINDS = {
    "table": (["edges", "--table"], "table"),
    "rules": (["odds", "--rules"], "rules"),
    "systems": (["count", "--shoes", "1", "--system"], "counting system"),
}


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_a_toml_file_over_the_limit_is_refused_unread(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    argv, what = FILE_KINDS[kind]
    path = tmp_path / "big.toml"
    path.write_text("# " + "x" * MAX_TOML_BYTES + "\ntie_pays = 9\n", encoding="utf-8")
    size = path.stat().st_size
    err = one_line_error(capsys, *argv, str(path))
    # The path as messages quote it: cut past QUOTE_LIMIT characters (a temporary folder's
    # path is longer under a pytest-xdist worker, or another user's TMPDIR).
    limit = f"over the limit of {MAX_TOML_BYTES:,} bytes"
    assert f"{what} file {quoted(str(path))} is {size:,} bytes, {limit}" in err


def test_a_table_at_the_limit_is_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    body = 'title = "T"\r\ntie_pays = 9\r\n'  # CRLF read as text mode reads it
    path = tmp_path / "full.toml"
    path.write_bytes(b"#" * (MAX_TOML_BYTES - len(body) - 1) + b"\n" + body.encode())
    assert path.stat().st_size == MAX_TOML_BYTES
    code, out, err = run(capsys, "edges", "--table", str(path))
    assert code == 0 and "Tie (9:1)" in out, err


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_an_endless_file_is_read_no_further_than_the_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    argv, what = FILE_KINDS[kind]
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    err = one_line_error(capsys, *argv, str(link))
    assert f"{what} file {quoted(str(link))} is larger than the limit of {MAX_TOML_BYTES:,} bytes" in err


def test_a_pipe_is_read_no_further_than_the_limit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)

    def feed() -> None:
        try:
            with fifo.open("wb") as out:
                for _ in range(3 * MAX_TOML_BYTES // 4096):
                    out.write(b"#" * 4095 + b"\n")
        except BrokenPipeError:  # the reader stopped at the limit
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    err = one_line_error(capsys, "edges", "--table", str(fifo))
    writer.join(10)
    assert f"is larger than the limit of {MAX_TOML_BYTES:,} bytes" in err and not writer.is_alive()


def test_a_record_over_the_limit_is_refused_unread(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "record.txt"
    with path.open("wb") as out:
        out.write(b"9H 9D 9S 9C\n")
        out.truncate(MAX_RECORD + 1)
    err = one_line_error(capsys, "track", str(path))
    limit = f"over the limit of {MAX_RECORD:,} bytes"
    assert f"record file {quoted(str(path))} is {MAX_RECORD + 1:,} bytes, {limit}" in err


def test_the_library_says_the_same() -> None:
    from analyzer.core.parsing import read_text

    with pytest.raises(AnalyzerError, match="larger than the limit of 10 bytes"):
        read_text("/dev/zero", "table", 10)
