"""`baccarat design`: payouts to find in the bet language, every paytable in a house-edge
window found exactly (checked against pricing every assignment one by one), the written
table read back by `edges`, and each bad input one line."""

from __future__ import annotations

import itertools
import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer import Shoe, analyze_bets, get_bet, get_table
from analyzer.analyses.design import Design, OutOfReach, design, parse_window
from analyzer.analyses.paysearch import Band, BandSearch, floor_sum
from analyzer.core.analysis import BetAnalysis
from analyzer.core.bets import Bet, Unknown, bet_from_mapping
from analyzer.core.errors import AnalyzerError, quoted
from tests.clirun import one_line_error, run

TIE_DRAFT = """title = "Draft"
offer = ["player"]
[bets.my-tie]
title = "My tie"
lines = [{ when = { winner = "tie" }, pays = "?" }]
"""

#: Rank-level: three lines to find beside a fixed line and a push.
RANK_LINES = [
    {"when": {"winner": "banker", "banker_cards": 3, "banker_total": 7}, "pays": "10..19"},
    {"when": {"winner": "player", "player_cards": 3, "player_total": 8}, "pays": "5..9"},
    {"when": {"winner": "tie", "natural": True}, "pays": 5},
    {"when": {"winner": "tie"}, "pays": "1..4"},
    {"when": {"winner": "banker", "banker_total": 6}, "pays": "push"},
]
#: Card-level: perfect pairs (the lines of a built-in, so full decks price them fast).
CARD_LINES = [
    {"when": {"player_perfect_pair": True, "banker_perfect_pair": True}, "pays": "200..219"},
    {"when": {"player_perfect_pair": True}, "pays": "20..29"},
    {"when": {"banker_perfect_pair": True}, "pays": "20..29"},
]


def _bet(lines: list[dict[str, object]]) -> Bet:
    return bet_from_mapping("draft", {"title": "Draft", "lines": lines})


def _brute(
    bet: Bet, shoes: list[Shoe], low: Fraction, high: Fraction, monotone: bool
) -> list[tuple[int, ...]]:
    """Every assignment priced one by one (`analyze_bets` of the bet with those payouts),
    ordered as design lists them: by distance to the midpoint, then payouts."""
    unknowns = [line.pays for line in bet.lines if isinstance(line.pays, Unknown)]
    ranges = [range(u.low, (u.high or 0) + 1) for u in unknowns]
    mid, found = (low + high) / 2, []
    for pays in itertools.product(*ranges):
        priced = bet.with_pays(dict(zip(bet.unknowns, pays, strict=True)))
        analyses = [analyze_bets([priced], shoe)[0] for shoe in shoes]
        if not all(low <= a.house_edge <= high for a in analyses):
            continue
        if monotone and not _monotone(analyses, bet.unknowns):
            continue
        found.append((max(abs(a.house_edge - mid) for a in analyses), pays))
    return [pays for _, pays in sorted(found)]


def _monotone(analyses: list[BetAnalysis], unknowns: tuple[int, ...]) -> bool:
    """Whether no winning line pays less than a commoner one, for pairs with a line to find."""
    n = len(analyses[0].bet.lines)
    pays = [row.pays for row in analyses[0].lines[:n]]
    for i, j in itertools.permutations(range(n), 2):
        winning = all(p is not None and p > 0 for p in (pays[i], pays[j]))
        if not (i in unknowns or j in unknowns) or not winning:
            continue
        chances = [(a.lines[i].probability, a.lines[j].probability) for a in analyses]
        rarer = all(pi <= pj for pi, pj in chances) and any(pi < pj for pi, pj in chances)
        if rarer and pays[i] < pays[j]:  # type: ignore[operator]
            return False
    return True


def test_tie_at_nine_is_the_one_answer_in_the_window() -> None:
    tie = get_bet("tie")
    draft = Bet("my-tie", "My tie", (tie.lines[0].__class__(tie.lines[0].when, Unknown()),))
    found = design(draft, [Shoe.decks(8)], *parse_window("4.8%..4.9%"))
    uk = analyze_bets([get_table("uk").bets[-1]], Shoe.decks(8))[0]
    assert found.count == 1 and [s.pays for s in found.solutions] == [(9,)]
    assert found.solutions[0].analyses[0].house_edge == uk.house_edge == Fraction(63053127805, 1301666217579)


def _check(found: Design, expected: list[tuple[int, ...]], limit: int) -> None:
    assert found.count == len(expected)
    assert [s.pays for s in found.solutions] == expected[:limit]  # as many as asked, the closest first


@pytest.mark.parametrize(
    ("window", "decks", "monotone"),
    [("4%..9%", [8], False), ("-5%..5%", [6, 8], False), ("-30%..30%", [6, 8], True), ("0%..2%", [1], False)],
)
def test_rank_level_matches_pricing_every_assignment(window: str, decks: list[int], monotone: bool) -> None:
    lines = [*RANK_LINES[:2], {**RANK_LINES[2], "pays": 12}, *RANK_LINES[3:]] if monotone else RANK_LINES
    bet, shoes = _bet(lines), [Shoe.decks(d) for d in decks]
    low, high = parse_window(window)
    expected = _brute(bet, shoes, low, high, monotone)
    found = design(bet, shoes, low, high, monotone=monotone, limit=len(expected) + 5)
    _check(found, expected, len(expected) + 5)
    assert expected, "a window with no paytable checks little"
    few = design(bet, shoes, low, high, monotone=monotone, limit=3)
    _check(few, expected, 3)


@pytest.mark.parametrize(("shoes", "window"), [((6, 8), "20%..30%"), ((0,), "8%..14%")], ids=["6,8", "inf"])
def test_card_level_matches_pricing_every_assignment(shoes: tuple[int, ...], window: str) -> None:
    bet = _bet(CARD_LINES)
    priced = [Shoe.decks(d) if d else Shoe.infinite() for d in shoes]
    low, high = parse_window(window)
    expected = _brute(bet, priced, low, high, False)
    assert len(expected) > 20, len(expected)
    _check(design(bet, priced, low, high, limit=20), expected, 20)


def _inside(
    x: tuple[int, ...], weights: list[list[int]], at_least: list[tuple[int, int]], bands: list[Band]
) -> bool:
    sums = [sum(w[d] * v for w, v in zip(weights, x, strict=True)) for d in range(len(bands))]
    in_bands = all(lo <= total <= hi for total, (lo, hi) in zip(sums, bands, strict=True))
    return in_bands and all(x[i] >= x[j] for i, j in at_least)


@pytest.mark.parametrize("seed", range(6))
def test_band_search_counts_and_lists_every_point(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        n, shoes = rng.randint(1, 4), rng.randint(1, 3)
        weights = [[rng.choice([0, rng.randint(1, 30), 30]) for _ in range(shoes)] for _ in range(n)]
        boxes = [(a, a + rng.randint(-1, 7)) for a in (rng.randint(0, 6) for _ in range(n))]
        at_least = [(i, j) for i in range(n) for j in range(n) if i != j and rng.random() < 0.2]
        bands = [(lo, lo + rng.randint(-5, 150)) for lo in (rng.randint(-10, 200) for _ in range(shoes))]
        candidates = itertools.product(*(range(a, b + 1) for a, b in boxes))
        brute = [x for x in candidates if _inside(x, weights, at_least, bands)]
        search = BandSearch(weights, boxes, at_least)
        assert search.count(bands) == len(brute)
        assert sorted(search.points(bands)) == brute


def test_floor_sum_matches_the_sum() -> None:
    for n, m, a, b in itertools.product(range(0, 7), range(1, 8), range(-9, 10, 2), range(-11, 12, 3)):
        assert floor_sum(n, m, a, b) == sum((a * i + b) // m for i in range(n))


def test_three_lines_of_a_thousand_payouts_are_counted() -> None:
    """10^9 candidates: counted without listing (the README's speed figure times this)."""
    lines = [
        {"when": {"winner": "tie", "natural": True, "player_total": 9}, "pays": "1..1000"},
        {"when": {"player_pair": True, "banker_pair": True}, "pays": "1..1000"},
        {"when": {"winner": "tie", "cards": 6, "player_total": 0}, "pays": "1..1000"},
    ]
    found = design(_bet(lines), [Shoe.decks(8)], *parse_window("4.5%..5.5%"), limit=3)
    assert found.count == 14826 and len(found.solutions) == 3
    for s in found.solutions:
        assert Fraction(9, 200) <= s.analyses[0].house_edge <= Fraction(11, 200)


# -- the command ------------------------------------------------------------------------------


@pytest.fixture
def draft(tmp_path: Path) -> Path:
    path = tmp_path / "draft.toml"
    path.write_text(TIE_DRAFT, encoding="utf-8")
    return path


def test_json_keys_and_the_written_table_read_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "side.toml"
    lines = "\n".join(
        f"  {{ when = {{ {when} }}, pays = {pays} }},"
        for when, pays in [
            ('winner = "banker", banker_cards = 3, banker_total = 7', '"?"'),
            ('winner = "tie"', '"push"'),
            ("player_pair = true", '"5..30"'),
        ]
    )
    path.write_text(f'title = "T"\n[bets.side]\nlines = [\n{lines}\n]\n', encoding="utf-8")
    out_file = tmp_path / "out.toml"
    argv = ["design", "--table", str(path), "--bet", "side", "--edge", "3%..6%", "--decks", "6,8"]
    write = ["--limit", "4", "--pick", "2", "--write", str(out_file)]
    code, out, err = run(capsys, *argv, *write, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert list(data)[:5] == ["bet", "window", "decks", "count", "solutions"]
    assert data["window"] == {"low": "3/100", "high": "3/50"} and data["decks"] == [6, 8]
    assert data["shoe_spec"]["decks"] == [6, 8] and data["rules"] == "standard"
    chosen = data["solutions"][1]
    assert set(chosen) == {"pays", "house_edge", "hit_frequency", "std_dev", "top_award_one_in"}
    assert chosen["pays"][1] == "push" and isinstance(chosen["pays"][0], int)
    for decks in ("6", "8"):
        code, out, err = run(capsys, "edges", "--table", str(out_file), "--decks", decks, "--format", "json")
        assert code == 0, err
        assert json.loads(out)["bets"]["side"]["house_edge"] == chosen["house_edge"][decks]


def test_table_output_names_the_answer(capsys: pytest.CaptureFixture[str], draft: Path) -> None:
    code, out, _ = run(capsys, "design", "--table", str(draft), "--bet", "my-tie", "--edge", "4.8%..4.9%")
    assert code == 0 and "1 paytable in the window" in out and "4.8440%" in out


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--edge", ""], "an empty window"),
        (["--edge", "4%.."], "an empty window"),
        (["--edge", "5%..4%"], "LOW is above HIGH"),
        (["--edge", "4%..6"], "--edge '4%..6': one end in % and the other not"),  # was 4%..600%
        (["--edge", "0.04..6%"], "--edge '0.04..6%': one end in % and the other not"),
        (["--edge", "abc..4%"], "not a house edge"),
        (["--edge", "50%..60%", "--max-pay", "3"], "bounds allow house edges from 61.9376% to 80.9688%"),
        (["--edge", "1%..2%", "--bet", "player"], "has no unknown payouts"),
        (["--edge", "1%..2%", "--max-pay", "0"], "--max-pay 0"),
        (["--edge", "1%..2%", "--limit", "-1"], "--limit -1"),
        (["--edge", "4.8%..4.9%", "--pick", "1"], "give --write FILE too"),
        (["--edge", "4.8%..4.9%", "--pick", "2", "--write", "x.toml"], "the listing holds 1 paytables"),
        (["--edge", "4.8%..4.9%", "--counts", ",".join(["4"] * 13)], "does not take --counts"),
        (["--edge", "4.8%..4.9%", "--decks", "8,8"], "'8' is given twice"),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], draft: Path, extra: list[str], words: str
) -> None:
    argv = ["design", "--table", str(draft), *(["--bet", "my-tie"] if "--bet" not in extra else [])]
    assert words in one_line_error(capsys, *argv, *extra)


def test_a_window_out_of_reach_names_the_edges_exact_and_the_cli_as_its_tables_do(
    capsys: pytest.CaptureFixture[str], draft: Path
) -> None:
    tie = next(bet for bet in get_table(str(draft)).bets if bet.name == "my-tie")
    low, high = parse_window("4.50005%..4.60005%")
    with pytest.raises(OutOfReach) as caught:
        design(tie, [Shoe.decks(8)], low, high, max_pay=2)
    error = caught.value
    # tie pays 2 or 1: the house edge is 1 - 3 P(tie) or 1 - 2 P(tie)
    p = analyze_bets([get_bet("tie")], Shoe.decks(8))[0].lines[0].probability
    assert (error.lowest, error.highest) == (1 - 3 * p, 1 - 2 * p)
    assert str(error).startswith(f"no payouts reach the window {low}..{high} on 8 decks")
    # the CLI rounds as the design table's heading does: 4.50005% half up is 4.5001%
    argv = ["design", "--table", str(draft), "--edge", "4.50005%..4.60005%", "--max-pay", "2"]
    err = one_line_error(capsys, *argv)
    assert "the window 4.5001%..4.6001% on 8 decks" in err and "from 71.4532% to 80.9688%" in err


def test_too_many_candidates_say_how_many_and_what_narrows_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "wide.toml"
    rows = ",".join(f'{{ when = {{ player_total = {t} }}, pays = "?" }}' for t in range(4))
    path.write_text(f"[bets.wide]\nlines = [{rows}]\n", encoding="utf-8")
    err = one_line_error(capsys, "design", "--table", str(path), "--bet", "wide", "--edge", "1%..2%")
    assert "1,000,000,000,000 candidate paytables" in err and "--max-pay" in err


def test_write_refuses_the_draft_itself(capsys: pytest.CaptureFixture[str], draft: Path) -> None:
    argv = ["design", "--table", str(draft), "--bet", "my-tie", "--edge", "4.8%..4.9%", "--write", str(draft)]
    named = quoted(str(draft))
    assert f"--write {named} is the --table file {named}: write another file" in one_line_error(capsys, *argv)
    assert draft.read_text(encoding="utf-8") == TIE_DRAFT


@pytest.mark.parametrize(
    "argv",
    [
        ["edges"],
        ["edges", "--bets", "my-tie"],
        ["eor", "--bets", "my-tie"],
        ["compare", "--shoes", "8", "--tables"],
        ["count", "--shoes", "2", "--bet", "my-tie", "--system", "dragon7-jacobson"],
    ],
)
def test_every_pricing_command_refuses_a_payout_to_find(
    capsys: pytest.CaptureFixture[str], draft: Path, argv: list[str]
) -> None:
    table = [str(draft)] if argv[-1] == "--tables" else ["--table", str(draft)]
    assert "find it with `baccarat design" in one_line_error(capsys, *argv, *table)


def test_the_library_refuses_a_payout_to_find_and_reads_ranges() -> None:
    bet = _bet(RANK_LINES)
    assert bet.lines[0].pays == Unknown(10, 19) and str(bet.lines[0].pays) == "10..19"
    with pytest.raises(AnalyzerError, match="a payout to find"):
        analyze_bets([bet], Shoe.decks(8))
    with pytest.raises(AnalyzerError, match="a payout to find"):
        _ = bet.nets
    for pays in ("5..2", "0..3", "1..x", "1...2", "1..99999999999999999999"):
        with pytest.raises(AnalyzerError, match="pays"):
            _bet([{"when": {"winner": "tie"}, "pays": pays}])


def test_the_docs_show_the_example_file() -> None:
    root = Path(__file__).resolve().parents[1]
    blocks = re.findall(r"```toml\n(.*?)```", (root / "docs" / "design.md").read_text(encoding="utf-8"), re.S)
    sevens = (root / "analyzer" / "examples" / "sevens.toml").read_text(encoding="utf-8")
    assert any(block in sevens for block in blocks)
