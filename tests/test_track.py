"""`baccarat track`: recorded shoes replayed coup by coup. The next-coup expectations equal
`edges` (analyze_bets) on the shoe less the cards seen, on hypothesis-shuffled shoes, by the
fast rank-level and card-level evaluators; the coups are the project's dealer's; the record
format, its errors, Kelly sizing, the summary, JSON keys and live entry from stdin."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.analyses import pricing
from analyzer.analyses.pricing import analyze_bets
from analyzer.cards.batch import CardEvaluator
from analyzer.cli import run
from analyzer.core.bets import Bet
from analyzer.core.catalogue import BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import STANDARD
from analyzer.core.shoe import Shoe
from analyzer.core.suits import card_name
from analyzer.counting.dealer import shuffled_deck
from analyzer.counting.record import (
    SAMPLE,
    SAMPLE_DEAL,
    RecordCard,
    parse_record,
    read_record,
    sample_path,
    sample_record,
)
from analyzer.counting.replay import Replay, Sizing, Valuer, deal_record, replay
from analyzer.counting.simulation import Procedure, deal_cards
from analyzer.counting.systems import SYSTEMS
from analyzer.ranks.fast import FastEvaluator
from tests.clirun import one_line_error

ROOT = Path(__file__).resolve().parent.parent
RANK_LEVEL = ("banker", "player", "tie", "dragon7", "player-pair")
CARD_LEVEL = ("perfect-pairs-v1", "lucky-nines", "tie-max-high")


def _bets(names: tuple[str, ...]) -> list[Bet]:
    return [BETS[name] for name in names]


# -- the record ----------------------------------------------------------------------------


def test_record_forms_deal_the_same_coups() -> None:
    """Spaces, commas, line breaks, comments, ranks only, T and 1: the same coups."""
    suited = "burn: 3H 2C 5D 9S\n5C 6H JD 10C 5C  # coup 1\n6H,AS,5S,6S,KD\n"
    ranks = "burn: 3 2 5 9\n# ranks only\n5 6 J T 5 6 1 5 6 K\n"
    a, b = (deal_record(parse_record(text), Shoe.decks(8), STANDARD) for text in (suited, ranks))
    assert [o for _, o, _ in a.coups] == [o for _, o, _ in b.coups] and len(a.coups) == 2
    assert a.positions[-1].counts == b.positions[-1].counts and a.positions[-1].types is not None
    assert b.positions[-1].types is None and sum(a.positions[-1].seen) == 14


def test_cut_undo_burn_and_an_incomplete_coup() -> None:
    text = "burn: 3H 2C 5D 9S\n5C 6H JD 10C 5S\n6D AS\ncut\n5H 6S 9D undo KD\n4H 4C 9H\n"
    result = replay(parse_record(text), Shoe.decks(1), Valuer(_bets(("banker",))))
    assert [c.cut for c in result.coups] == [False, True]
    assert result.coups[1].player == ("6D", "5H", "KD") and result.coups[1].banker == ("AS", "6S")
    assert result.summary.incomplete == ("4H", "4C", "9H")
    assert result.start.cards_left == 48 and result.coups[-1].after.cards_left == 38


ERRORS = {
    "unknown card": ("5C 6H XX", "line 1, card 3: unknown card 'XX'"),
    "no card left": ("AS 2S\n3S AS", "line 2, card 2: 'AS' cannot come out: the shoe has no AS left"),
    "ranks with suit bets": (
        "5C 6H\n9 KD",
        "line 2, card 1: '9' has no suit, and perfect-pairs-v1 read suits",
    ),
    "burn inside a coup": ("5C 6H\nburn: 9D", "line 2, card 1: a burn: line inside a coup"),
    "two cuts": (
        "cut 5C\ncut",
        "line 2, item 1: a second cut mark (the cut card came out at line 1, item 1)",
    ),
    "undo nothing": ("undo 5C", "line 1, item 1: undo with nothing before it"),
    "cut on a burn line": ("burn: 5C cut", "line 1, item 2: 'cut' on a burn: line"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_bad_records_name_line_and_position(name: str) -> None:
    text, message = ERRORS[name]
    valuer = Valuer(_bets(("banker", "perfect-pairs-v1")))
    with pytest.raises(AnalyzerError) as error:
        replay(parse_record(text), Shoe.decks(1), valuer)
    assert str(error.value).startswith(message)


# -- the coups are the dealer's, the sample is the dealer's ---------------------------------


def test_the_sample_is_the_dealers_shoe_and_the_tracker_deals_its_coups() -> None:
    assert Path(sample_path()).read_text(encoding="utf-8") == sample_record()
    entries = read_record(sample_path())
    dealt = deal_record(entries, Shoe.decks(8), STANDARD)
    decks, seed, index, cut_card = SAMPLE_DEAL
    deck = shuffled_deck(Shoe.decks(decks).types or (), seed, np.array([index]))[0] % 13
    recorded = [card.rank for card in entries if isinstance(card, RecordCard)]
    assert deck.tolist()[: len(recorded)] == recorded
    reference = deal_cards(deck.tolist(), Procedure(shoe=Shoe.decks(decks), cut_card=cut_card), STANDARD)
    assert [outcome for _, outcome, _ in dealt.coups] == list(reference.outcomes)
    assert [list(p.counts) for p in dealt.positions[:-1]] == reference.left.tolist()
    assert not dealt.incomplete and [cut for *_, cut in dealt.coups].count(True) == 1
    assert dealt.coups[-1][2]  # the cut card came out during the last coup


# -- exact: the next-coup expectations are `edges` on the cards left ------------------------


@st.composite
def shuffled_shoes(draw: st.DrawFn) -> tuple[str, list[int]]:
    """A 1- or 2-deck suited shoe shuffled by hypothesis, recorded (burn, cards, maybe cut)
    up to a random depth, and the positions to check."""
    decks = draw(st.sampled_from([1, 2]))
    deck = draw(st.permutations([t for t in range(52) for _ in range(decks)]))
    depth = draw(st.integers(10, len(deck) - 6))
    burn = draw(st.integers(0, 3))
    names = [card_name(t) for t in deck[:depth]]
    ranks_only = draw(st.booleans())
    if ranks_only:
        names = [name[:-1] for name in names]
    text = (f"burn: {' '.join(names[:burn])}\n" if burn else "") + " ".join(names[burn:]) + "\n"
    return text, [decks, int(ranks_only)]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoe=shuffled_shoes(), data=st.data())
def test_next_coup_values_are_edges_on_the_cards_left(
    shoe: tuple[str, list[int]], data: st.DataObject
) -> None:
    text, (decks, ranks_only) = shoe
    names = RANK_LEVEL + (("tie-max-high",) if ranks_only else CARD_LEVEL)
    bets = _bets(names)
    valuer = Valuer(bets)
    result = replay(parse_record(text), Shoe.decks(decks), valuer)
    dealt = deal_record(parse_record(text), Shoe.decks(decks), STANDARD)
    positions = [p for p in dealt.positions if p.size >= 6]
    chosen = data.draw(st.lists(st.sampled_from(positions), min_size=1, max_size=2, unique=True))
    values = [result.start, *(c.after for c in result.coups)]
    for position in chosen:
        i = dealt.positions.index(position)
        shoe_left = position.shoe()
        assert (shoe_left.types is None) == bool(ranks_only and sum(position.seen))
        priced = analyze_bets(bets, shoe_left)
        assert values[i].expectations == {a.bet.name: a.expectation for a in priced}
        for bet, analysis in zip(bets, priced, strict=True):
            assert valuer.moments(position, bet) == (analysis.expectation, analysis.variance)


def test_rank_bets_take_the_fast_evaluator_and_card_bets_the_card_evaluator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One batch call of each evaluator for the whole record, never the one-shoe pricing path."""
    calls: dict[str, list[int]] = {"rank": [], "card": []}
    fast, card = FastEvaluator.expectations, CardEvaluator.expectations

    def rank_spy(self: FastEvaluator, counts: np.ndarray, *args: object) -> tuple[np.ndarray, np.ndarray]:
        calls["rank"].append(len(counts))
        assert all(not bet.card_level for bet in self.bets)
        return fast(self, counts)

    def card_spy(self: CardEvaluator, counts: np.ndarray, *args: object) -> tuple[np.ndarray, np.ndarray]:
        calls["card"].append(len(counts))
        assert all(bet.card_level for bet in self.bets)
        return card(self, counts)

    def refuse(*args: object) -> None:
        raise AssertionError("the one-shoe pricing path was taken")

    monkeypatch.setattr(FastEvaluator, "expectations", rank_spy)
    monkeypatch.setattr(CardEvaluator, "expectations", card_spy)
    monkeypatch.setattr(pricing, "analyze", refuse)
    valuer = Valuer(_bets(RANK_LEVEL + CARD_LEVEL))
    assert [b.name for b in valuer.ranked] == list(RANK_LEVEL) and [b.name for b in valuer.carded] == list(
        CARD_LEVEL
    )
    result = replay(read_record(sample_path()), Shoe.decks(8), valuer)
    assert calls == {"rank": [len(result.coups) + 1], "card": [len(result.coups) + 1]}


# -- summary and sizing ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample() -> Replay:
    valuer = Valuer(_bets(("banker", "player", "dragon7", "panda8", "perfect-pairs-v1")))
    systems = [SYSTEMS["dragon7-jacobson"], SYSTEMS["panda8-jacobson"]]
    return replay(
        read_record(sample_path()), Shoe.decks(8), valuer, systems, Sizing(Fraction(500), max_bet=20)
    )


def test_the_summary_adds_up_the_coups(sample: Replay) -> None:
    result = sample
    befores = [result.start, *(c.after for c in result.coups[:-1])]
    coups = result.coups
    for name, tally in result.summary.bets.items():
        picked = [(b, c) for b, c in zip(befores, coups, strict=True) if b.expectations[name] > 0]
        assert tally.coups == len(picked)
        assert tally.expectation == sum((b.expectations[name] for b, _ in picked), Fraction(0))
        assert tally.won == sum((c.results[name] for _, c in picked), Fraction(0))
    for system in result.systems:
        picked = [(b, c) for b, c in zip(befores, coups, strict=True) if b.counts[system.name].fires]
        tally = result.summary.systems[system.name]
        assert tally.coups == len(picked) > 0
        assert tally.expectation == sum((b.expectations[system.bet] for b, _ in picked), Fraction(0))
    perfect = result.summary.perfect
    assert perfect.coups == sum(t.coups for t in result.summary.bets.values())
    assert result.summary.coups == len(coups) == 83


def test_kelly_stakes_and_the_bankroll_path(sample: Replay) -> None:
    result = sample
    path = result.summary.bankroll
    befores = [result.start, *(c.after for c in result.coups)]
    assert path[0] == 500 and len(path) == len(result.coups) + 1
    staked = 0
    for i, coup in enumerate(result.coups):
        stakes = befores[i].stakes
        assert set(stakes) <= set(befores[i].positive)
        assert all(1 <= units <= 20 for units in stakes.values())
        assert path[i + 1] == path[i] + sum(units * coup.results[name] for name, units in stakes.items())
        staked += len(stakes)
    assert staked > 5
    sizing = Sizing(Fraction(1000), Fraction(1, 2), min_bet=2, max_bet=30)
    assert sizing.stake(Fraction(1000), Fraction(1, 10), Fraction(10), Fraction(1000)) == 5  # 0.5*1000*0.1/10
    assert (
        sizing.stake(Fraction(1000), Fraction(1, 1000), Fraction(10), Fraction(1000)) == 2
    )  # up to the minimum
    assert (
        sizing.stake(Fraction(1000), Fraction(1, 2), Fraction(1), Fraction(1000)) == 30
    )  # down to the maximum
    assert (
        sizing.stake(Fraction(1000), Fraction(1, 2), Fraction(1), Fraction(3, 2)) == 0
    )  # below the minimum left


# -- the command -------------------------------------------------------------------------------


def test_json_keys_are_the_contracts(tmp_path: Path) -> None:
    path = tmp_path / "shoe.txt"
    path.write_text("burn: 3 2 5 9\n5 6 J T 5\n6 1 5 6 K\n4 4\n", encoding="utf-8")
    out = json.loads(
        run(["track", str(path), "--system", "dragon7-jacobson", "--bankroll", "100", "--format", "json"])
    )
    assert {"coups", "summary", "version", "shoe", "shoe_spec", "rules"} <= set(out)
    coup = out["coups"][0]
    assert list(coup)[:11] == [
        "index", "player", "banker", "totals", "winner", "cards_left", "next", "counts", "bet_sizes", "cut",
        "bankroll",
    ]  # fmt: skip
    assert coup["player"] == ["5", "J", "5"] and coup["totals"] == {"player": 0, "banker": 6}
    assert set(coup["next"]["banker"]) == {"expectation", "positive"}
    assert Fraction(coup["next"]["banker"]["expectation"]) < 0
    assert set(coup["counts"]["dragon7-jacobson"]) == {"running", "true", "fires"}
    ranks_only = {name for name in BETS if not BETS[name].needs_suits}
    assert set(coup["next"]) == ranks_only  # the record's cards allow no suit-reading bet
    assert out["summary"]["coups"] == 2 and out["summary"]["incomplete"] == ["4", "4"]
    assert out["shoe"] == "8 decks" and out["record"] == str(path)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["track", "nosuch.txt"], "record file 'nosuch.txt' not found"),
        (["track", "{sample}", "--decks", "inf"], "track needs a finite shoe"),
        (
            ["track", "{sample}", "--kelly", "0.5"],
            "--kelly size bets on a bankroll: give --bankroll UNITS too",
        ),
        (["track", "{sample}", "--bankroll", "0"], "--bankroll '0': use a positive number"),
        (
            ["track", "{sample}", "--bankroll", "9", "--kelly", "2"],
            "Kelly fraction (--kelly) 2: use a fraction above 0",
        ),
        (["track", "{sample}", "--bets", "nosuch"], "unknown bet 'nosuch'"),
        (
            ["track", "{sample}", "--bankroll", "10", "--min-bet", "20"],
            "minimum bet (--min-bet) 20 is above the bankroll (--bankroll) of 10 units: no bet could be "
            "placed; give a bankroll of at least 20 units or a smaller minimum",
        ),
        (
            ["track", "{sample}", "--bankroll", "1/2"],
            "minimum bet (--min-bet) 1 is above the bankroll (--bankroll) of 1/2 units",
        ),
        (["track", ""], "track '': give a record file, or - to read the record from standard input"),
        (
            ["track", "{sample}", "--decks", "1"],
            "line 5, card 11: '8H' cannot come out: the shoe has no 8H left",
        ),
    ],
)
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    err = one_line_error(capsys, *[word.replace("{sample}", sample_path()) for word in argv])
    assert message in err


def test_the_report_is_the_commands_markdown(report_texts: dict[str, str]) -> None:
    from analyzer.present.reports.track import TRACK_COMMAND

    words = TRACK_COMMAND.split()[1:]
    words[1] = sample_path()
    text = run(words).replace(sample_path(), f"analyzer/counting/data/{SAMPLE}")
    assert report_texts["tracked-shoe.md"].endswith(text)


# -- live entry --------------------------------------------------------------------------------


def _live(*options: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "analyzer", "track", "-", "--bets", "banker,dragon7", *options]
    return subprocess.Popen(
        argv,
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _until(proc: subprocess.Popen[str], marker: str) -> list[str]:
    assert proc.stdout is not None
    lines = []
    while True:
        line = proc.stdout.readline()
        assert line, f"output ended before {marker!r}: {lines}"
        lines.append(line)
        if marker in line:
            return lines


def test_live_entry_reports_each_coup_undo_and_bad_lines() -> None:
    proc = _live()
    assert proc.stdin is not None
    proc.stdin.write("burn: 3H 2C 5D 9S\n5C\n6H\nJD\n10C\n")
    proc.stdin.flush()
    proc.stdin.write("5C\n")  # the coup needs Player's third card: only now is it dealt
    proc.stdin.flush()
    shown = _until(proc, "dragon7 ")
    assert shown[0] == "Coup 1: player 5C JD 5C (0), banker 6H 10C (6): banker wins; 407 cards left\n"
    out, err = proc.communicate("6H AS 5S 6S KD\nundo\nXX\nQD\n", timeout=60)
    assert "Coup 2: player 6H 5S KD (1)" in out and "Coup 2 taken back." in out
    assert "Coup 2: player 6H 5S QD (1)" in out and "2 coups dealt." in out
    assert err.splitlines() == [
        "baccarat: error: line 9, card 1: unknown card 'XX': give a rank (A, 2-9, 10, J, Q, K), "
        "optionally with a suit S, H, D or C"
    ]
    assert proc.returncode == 0


def test_live_ctrl_c_ends_with_the_summary_so_far() -> None:
    proc = _live("--format", "json")
    assert proc.stdin is not None
    proc.stdin.write("5C 6H JD 10C 5C\n")
    proc.stdin.flush()
    line = json.loads(_until(proc, '"index"')[-1])
    assert line["index"] == 1 and line["winner"] == "banker"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    document = json.loads(out)
    assert document["summary"]["coups"] == 1 and document["version"] and document["record"] == "-"
    assert err == "baccarat: interrupted\n" and proc.returncode == 130


def test_live_refuses_an_undo_past_the_first_card_and_goes_on() -> None:
    """Before the first card, a line whose undo has nothing to take back is refused whole
    (not kept, which would break every later line)."""
    proc = _live()
    out, err = proc.communicate("cut\nundo undo\n5C 6H JD 10C 5C\n", timeout=60)
    assert err == "baccarat: error: line 2, item 2: undo with nothing before it to take back\n"
    assert "Coup 1: player 5C JD 5C (0), banker 6H 10C (6): banker wins" in out and "1 coups dealt." in out
    assert proc.returncode == 0
