"""Par sheets: every figure agrees with the module that computes it, the verdict follows its
rule, the documents carry the figures, and bad input is one line."""

from __future__ import annotations

import json
import math
import os
import re
import threading
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.analyses.closed_form import evaluate, to_fraction
from analyzer.analyses.pricing import analyze_bets
from analyzer.core.catalogue import BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.shoe import Shoe
from analyzer.counting.par import (
    BEATABLE,
    CONFIDENCE_Z,
    HOLD_ROUNDS,
    INCONCLUSIVE,
    NOT_BEATABLE,
    ParSheet,
    par_sheets,
    verdict,
)
from analyzer.counting.systems import SYSTEMS, derived_system
from analyzer.present.par import verdict_reason, verdict_text
from analyzer.present.par_documents import par_files, render_par_sheets
from tests.clirun import one_line_error, run

GOLDEN = Path(__file__).resolve().parent / "golden"
NAMES = ["banker", "dragon7", "player-pair", "banker-natural-9", "lucky-nines"]


@pytest.fixture(scope="module")
def sheets() -> dict[str, ParSheet]:
    found = par_sheets([BETS[name] for name in NAMES], Shoe.decks(8), shoes=200, seed=3)
    return {sheet.bet.name: sheet for sheet in found}


# -- the verdict rule ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("win", "perfect", "kind"),
    [
        ((0.20, 0.04), (0.5, 0.05), BEATABLE),  # 0.20 - 0.12 > 0.05
        ((0.16, 0.04), (0.5, 0.05), INCONCLUSIVE),  # 0.16 - 0.12 is not above 0.05
        ((-0.10, 0.04), (0.5, 0.05), NOT_BEATABLE),  # -0.10 + 0.12 < 0.05
        ((0.00, 0.02), (0.5, 0.05), INCONCLUSIVE),  # 0.06 is not below 0.05
        ((0.00, 0.02), (0.01, 0.01), NOT_BEATABLE),  # the bound 0.01 + 0.03 < 0.05 settles it
        (None, (0.01, 0.01), NOT_BEATABLE),
        (None, (0.30, 0.01), INCONCLUSIVE),
    ],
)
def test_verdict_rule(win: tuple[float, float] | None, perfect: tuple[float, float], kind: str) -> None:
    assert verdict(win, perfect, Fraction(1, 20), 1000).kind == kind


def test_inconclusive_says_how_many_shoes_settle_it() -> None:
    found = verdict((0.10, 0.03), (0.5, 0.05), Fraction(1, 20), 1000)
    assert found.kind == INCONCLUSIVE and verdict_text(found) == "inconclusive at 1,000 shoes"
    # 3 SE at N shoes equals the gap 0.05: 0.09 * sqrt(1000 / N) = 0.05
    assert found.shoes_to_settle == math.ceil(1000 * (0.09 / 0.05) ** 2) == 3240
    assert "about 3,240 shoes would settle it" in verdict_reason(found)
    assert verdict(None, (0.3, 0.01), Fraction(1, 20), 1000).shoes_to_settle is None


def test_a_study_of_one_shoe_gives_no_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    # It said "not beatable by counting" from "+0.0000 ± 0.0000": a count that never bet, in
    # one shoe, which gives no standard error.
    code, out, err = run(capsys, "par-sheet", "--bets", "tie", "--shoes", "1")
    assert code == 0 and err == ""
    verdict_line = next(line for line in out.splitlines() if line.startswith("**Verdict"))
    assert verdict_line.startswith("**Verdict: inconclusive at 1 shoe.** ")
    assert (
        "no count of the 6 played has evidence in 1 shoe (each made no bets or won the same on every "
        "shoe): a study of 1 shoe has no standard error and decides nothing; run more shoes." in verdict_line
    )
    assert "± 0.0000" not in out
    assert "| win per shoe (units)                       | none (no bets)              |" in out


def test_no_figure_without_evidence_decides() -> None:
    """A win of zero standard error (bets, but the same win on every shoe) decides nothing,
    nor does a bound of zero standard error: inconclusive, with the reason."""
    flat = verdict((-0.5, 0.0), (0.01, 0.001), Fraction(1, 20), 500, bets=40)
    assert (flat.kind, flat.rule, flat.degenerate) == (NOT_BEATABLE, "bound", "no standard error")
    assert verdict_reason(flat).startswith("the count has no standard error in 500 shoes (its win per shoe")
    nothing = verdict((-0.5, 0.0), (0.0, 0.0), Fraction(1, 20), 500, bets=40)
    assert (nothing.kind, nothing.rule) == (INCONCLUSIVE, "degenerate")
    assert "bound, +0.0000 units per shoe on every shoe, has no standard error: it decides nothing" in (
        verdict_reason(nothing)
    )
    assert "± 0.0000" not in verdict_reason(nothing)
    bound_only = verdict(None, (0.0, 0.0), Fraction(1, 20), 500)
    assert (bound_only.kind, bound_only.rule) == (INCONCLUSIVE, "open")


def test_the_verdict_rests_on_the_count_that_won_most_with_evidence() -> None:
    """Of the counts played, the one of the highest win among those that bet (with a standard
    error) is judged, named; if none bets, inconclusive ("degenerate"), naming none."""
    from analyzer.counting.par import CountStudy, judge, judged_study
    from analyzer.counting.simulation import Procedure
    from analyzer.counting.summary import SystemEvaluation

    def study(level: int, triggers: int, win: tuple[float, float]) -> CountStudy:
        tags = (0,) * 7 + (level,) + (0,) * 4 + (-level,)
        system = SYSTEMS["dragon7-jacobson"].__class__("x", "x", "dragon7", tags, Fraction(2))
        evaluation = SystemEvaluation(system, BETS["dragon7"], shoes=100, triggers=triggers)
        evaluation.shoe_moments["expected"] = [win[0] * 100, win[1] ** 2 * 100 * 99 + win[0] ** 2 * 100]
        evaluation.shoe_moments["perfect"] = [30.0, 0.05**2 * 99 + 0.3**2 * 100]
        return CountStudy(system, Procedure(shoe=Shoe.decks(8)), 1, evaluation)

    silent, better, worse = study(1, 0, (0.0, 0.0)), study(2, 90, (0.4, 0.02)), study(3, 50, (0.1, 0.02))
    chosen, others = judged_study([silent, better, worse])
    assert chosen is better and others == (silent, worse)
    found = judge(chosen, Fraction(1, 20), others)
    assert (found.kind, found.rule, found.degenerate, found.first) == (BEATABLE, "count", "", "")
    assert found.count.startswith("the level-2 count (balanced; tags") and len(found.tried) == 2
    assert verdict_reason(found).startswith("the best of the 3 counts played, the level-2 count")
    # the best level-1 count (its DerivedCount) made no bets: the verdict says so
    from analyzer.counting.systems import DerivedCount

    level1 = DerivedCount("dragon7", 1, silent.system.tags if silent.system else (), 0.9, 3.0)
    silent = CountStudy(silent.system, silent.procedure, 1, silent.evaluation, level1)
    found = judge(better, Fraction(1, 20), [silent, worse])
    assert found.first == "no bets" and verdict_reason(found).startswith(
        "the best level-1 count made no bets in 100 shoes, so it decides nothing; the best of the 3 counts "
        "played, the level-2 count"
    )
    chosen, others = judged_study([silent, study(3, 0, (0.0, 0.0))])
    assert chosen is silent
    alone = judge(chosen, Fraction(1, 20), others)
    assert (alone.kind, alone.rule, alone.degenerate) == (INCONCLUSIVE, "degenerate", "no bets")
    assert verdict_reason(alone).startswith("no count of the 2 played has evidence in 100 shoes")


def test_a_count_below_the_threshold_says_when_the_bound_is_above_it() -> None:
    # -0.10 + 3 x 0.04 < 0.05: not beatable by the count; the bound 0.5 leaves room.
    room = verdict((-0.10, 0.04), (0.5, 0.05), Fraction(1, 20), 1000)
    assert (room.kind, room.rule) == (NOT_BEATABLE, "count")
    assert verdict_reason(room) == (
        "the count wins -0.1000 ± 0.0400 units per shoe: more than 3 standard errors below the threshold "
        "of 0.05 units per shoe (the perfect-information bound, +0.5000 ± 0.0500 units per shoe, is above "
        "the threshold: the verdict is that of the linear counts played, not of every way to choose the "
        "coups bet)"
    )
    tight = verdict((-0.10, 0.04), (0.04, 0.01), Fraction(1, 20), 1000)  # the bound is below: no remark
    assert verdict_reason(tight).endswith("below the threshold of 0.05 units per shoe")


def test_a_count_that_made_no_bets_decides_nothing() -> None:
    # Its win is 0 on every shoe, its standard error 0: the bound alone may decide.
    low = verdict((0.0, 0.0), (0.01, 0.001), Fraction(1, 20), 20_000, bets=0)
    assert (low.kind, low.rule) == (NOT_BEATABLE, "bound")
    assert verdict_reason(low) == (
        "the count made no bets in 20,000 shoes, and the perfect-information bound, +0.0100 ± 0.0010 units "
        "per shoe, which no count can pass, is more than 3 standard errors below the threshold of 0.05 units "
        "per shoe"
    )
    high = verdict((0.0, 0.0), (0.3, 0.01), Fraction(1, 20), 20_000, bets=0)
    assert (high.kind, high.rule, high.shoes_to_settle) == (INCONCLUSIVE, "degenerate", None)
    assert high.degenerate == "no bets"
    assert verdict_reason(high) == (
        "the count made no bets in 20,000 shoes, so no count's study decides, and the perfect-information "
        "bound, +0.3000 ± 0.0100 units per shoe, is above the threshold of 0.05 units per shoe: a count "
        "that bets more often may beat it; more shoes of this study cannot settle it"
    )
    one = verdict((-2.2571, 0.0), (0.3, 0.0), Fraction(1, 20), 1, bets=10)
    assert (one.kind, one.rule) == (INCONCLUSIVE, "unmeasured")
    assert verdict_reason(one) == (
        "the count wins -2.2571 units in 1 shoe: a study of 1 shoe has no standard error and decides "
        "nothing; run more shoes"
    )


# -- the figures agree with the modules that compute them -----------------------------------


def test_exact_table_and_volatility(sheets: dict[str, ParSheet]) -> None:
    [dragon] = analyze_bets([BETS["dragon7"]], Shoe.decks(8))
    sheet = sheets["dragon7"]
    assert sheet.analysis == dragon
    assert sheet.analysis.house_edge == Fraction(64613588827, 848912750595)  # README, edges
    sigma = math.sqrt(dragon.variance)
    assert sheet.volatility_index == {k: float(z) * sigma for k, z in CONFIDENCE_Z.items()}
    bands = {(b.rounds, b.confidence): b for b in sheet.hold_bands}
    assert len(bands) == len(HOLD_ROUNDS) * 2
    band = bands[(10**6, "95%")]
    assert band.low == float(dragon.house_edge) - 1.96 * sigma / 1000  # the same float arithmetic
    assert band.high == float(dragon.house_edge) + 1.96 * sigma / 1000


def test_top_award_and_sensitivity(sheets: dict[str, ParSheet]) -> None:
    top = sheets["lucky-nines"].top_award
    assert top is not None and top.pays == 1000 and top.probability == Fraction(899, 30748263)
    assert sheets["lucky-nines"].rare_awards == ()  # 1 in 34,203: not rare
    sheet = sheets["dragon7"]
    decks = dict(sheet.by_decks)
    assert list(decks) == [*map(str, range(1, 9)), "inf"]
    assert decks["8"] == sheet.analysis.house_edge
    form = sheet.closed_form
    assert form is not None and sheets["lucky-nines"].closed_form is None  # card-level: none
    assert all(evaluate(form.house_edge, d) == decks[str(d)] for d in (1, 6))
    assert to_fraction(form.house_edge_limit) == decks["inf"]
    [(name, edge)] = sheet.by_rules
    assert name == "banco-4-draws-on-0-1" and f"{float(edge):.4%}" == "0.4683%"  # README, compare
    assert edge == Fraction(18288832729, 3904998652737)  # edges --rules banco-4-draws-on-0-1


def test_effects_of_removal_sum_to_zero(sheets: dict[str, ParSheet]) -> None:
    ranked = sheets["dragon7"]
    assert ranked.per == "rank" and sum(32 * e for e in ranked.effects.values()) == 0
    carded = sheets["lucky-nines"]
    assert carded.per == "card type" and len(carded.effects) == 52
    assert sum(8 * e for e in carded.effects.values()) == 0


def test_derived_systems_are_the_built_in_ones() -> None:
    """The best balanced level-1 count of a sheet is the built-in *-eor system for Banker (same
    rule); the first count played is the unbalanced one of higher correlation (+1 on the 4s,
    -1 on 5 to 8), starting at minus its shoe's sum (a one-shoe study judges none above it)."""
    sheet = par_sheets([BETS["banker"]], Shoe.decks(8), shoes=1)[0]
    [balanced] = [c for c in sheet.best_counts if c.level == 1 and c.balanced]
    system = derived_system(balanced, Shoe.decks(8).counts or ())
    built_in = SYSTEMS["banker-eor"]
    assert (system.tags, system.threshold, system.initial) == (built_in.tags, built_in.threshold, 0)
    played = sheet.study.system
    assert played is not None and played.tags == (0, 0, 0, 1, -1, -1, -1, -1) + (0,) * 5
    assert played.initial == 96 and sheet.best_counts[0].correlation > balanced.correlation


def test_unbalanced_count_starts_at_minus_its_shoe_sum(sheets: dict[str, ParSheet]) -> None:
    """Natural 9: the level-1 count tags only the 9s (-1); it starts at +32 on 8 decks, so it
    counts the nines left, and bets at 5 nines per deck left (break-even 4.62)."""
    [level1, *_] = sheets["banker-natural-9"].best_counts
    system = derived_system(level1, Shoe.decks(8).counts or ())
    assert system.initial == 32 and system.threshold == 5 and not level1.balanced
    assert system.bets([0] * 13, 416) is False  # 4 nines per deck: no
    seen = [1] * 8 + [0] + [20] * 4  # 88 cards seen, no 9: 32 nines in 328 cards
    assert system.bets(seen, 328) is True  # 32 / (328 / 52) = 5.07 per deck


def test_pair_bets_have_no_linear_count(sheets: dict[str, ParSheet]) -> None:
    sheet = sheets["player-pair"]
    assert sheet.best_counts == () and sheet.study.system is None
    assert sheet.study.figures.bets_per_shoe == 0
    perfect, _ = sheet.study.perfect
    assert perfect > 0  # perfect information finds positive coups even so


def test_study_figures_and_verdict(sheets: dict[str, ParSheet]) -> None:
    sheet = sheets["dragon7"]
    mean, se = sheet.study.win_per_shoe
    perfect, _ = sheet.study.perfect
    assert 0 < mean < perfect and se > 0  # no count passes the bound
    assert sheet.verdict.kind == BEATABLE and sheet.study.shoes == 200
    assert sheets["banker"].verdict.kind == NOT_BEATABLE


# -- documents --------------------------------------------------------------------------------


def test_json_has_the_keys_of_the_contract(sheets: dict[str, ParSheet]) -> None:
    data = json.loads(render_par_sheets(list(sheets.values()), "json"))["bets"]
    dragon = data["dragon7"]
    for key in ("title", "lines", "house_edge", "house_edge_resolved", "hit_frequency", "std_dev",
                "volatility_index", "hold_bands", "top_award", "rare_awards", "decks", "closed_form",
                "effects_of_removal", "countability"):  # fmt: skip
        assert key in dragon, key
    assert dragon["house_edge"] == "64613588827/848912750595"
    assert set(dragon["volatility_index"]) == {"90%", "95%"}
    assert set(dragon["decks"]) == {*map(str, range(1, 9)), "inf"}
    assert dragon["top_award"]["one_in"] == "848912750595/19129247848"
    count = dragon["countability"]
    assert count["material"] == "1/20" and count["verdict"] == BEATABLE
    assert set(count["study"]) >= {"tags", "shoes", "decks", "cut_card", "seed", "win_per_shoe",
                                   "win_per_100_coups", "bets_per_shoe", "n0", "perfect"}  # fmt: skip
    assert count["study"]["cut_card"] == 14 and count["study"]["seed"] == 3
    assert "closed_form" not in data["lucky-nines"]


def test_documents_state_every_section(sheets: dict[str, ParSheet]) -> None:
    chosen = [sheets["dragon7"], sheets["lucky-nines"]]
    markdown = render_par_sheets(chosen, "markdown")
    for section in ("## 1. What is bet", "## 2. The exact table", "## 3. Volatility", "## 4. Top award",
                    "## 5. Sensitivity", "## 6. Effects of removal", "## 7. Countability",
                    "**Verdict: beatable.**"):  # fmt: skip
        assert markdown.count(section) == 2, section
    page = render_par_sheets(chosen, "html")
    assert page.count("<svg") == 4 and "@media print" in page and "<script" not in page
    for outside in ("<link", 'src="', 'href="http', "@import", "url(http"):
        assert outside not in page, outside  # nothing loaded from outside
    assert render_par_sheets(chosen, "html") == page  # deterministic SVG
    files = par_files(chosen, "html")
    assert set(files) == {"dragon7.html", "lucky-nines.html", "index.html"}


# -- the command -------------------------------------------------------------------------------


def test_a_bet_of_a_table_file(capsys: pytest.CaptureFixture[str]) -> None:
    table = str(GOLDEN / "table.toml")
    code, out, err = run(capsys, "par-sheet", "--table", table, "--bets", "lucky-tie", "--shoes", "20",
                         "--format", "json")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    sheet = data["bets"]["lucky-tie"]
    assert sheet["title"] == "Natural tie" and sheet["top_award"]["pays"] == "30"
    assert data["rules"] == "standard" and data["shoe"] == "8 decks"
    assert sheet["countability"]["study"]["shoes"] == 20


def test_lines_paying_the_same_are_one_award(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A bet paying 35:1 on a six-card coup all red and on one all black: its top award is one
    award, its probability the exact sum of the two lines' (read from the combinatorial table of
    `edges --details`: combinations over the table's total), and "1 in" that figure."""
    table = tmp_path / "colours.toml"
    template = '{{ when = {{ cards = 6, colour = "{0}" }}, pays = 35, label = "six cards, all {0}" }}'
    paying = ", ".join(template.format(colour) for colour in ("red", "black"))
    table.write_text(
        f'[bets.six-card-colour]\ntitle = "Six cards of one colour"\nlines = [{paying}]\n', encoding="utf-8"
    )
    code, out, err = run(capsys, "edges", "--table", str(table), "--details", "--format", "json")
    assert code == 0, err
    lines = json.loads(out)["bets"]["six-card-colour"]["lines"]
    total = sum(line["combinations"] for line in lines)
    assert total == 4998398275503360  # every ordered coup of 8 decks
    red, black = (Fraction(line["combinations"], total) for line in lines[:2])
    assert red == black > 0 and [line["pays"] for line in lines[:2]] == ["35", "35"]  # the colours' symmetry
    award = red + black

    code, out, err = run(capsys, "par-sheet", "--table", str(table), "--shoes", "10", "--format", "json")
    assert code == 0, err
    top = json.loads(out)["bets"]["six-card-colour"]["top_award"]
    assert top == {
        "event": "six cards, all red or six cards, all black",
        "pays": "35",
        "probability": str(award),
        "one_in": str(1 / award),
        "lines": ["six cards, all red", "six cards, all black"],
    }
    code, out, err = run(capsys, "par-sheet", "--table", str(table), "--shoes", "10")
    assert code == 0, err
    one_in = round(1 / award, 2)  # 104.63; each line alone would be 1 in 209.25
    paragraph = out[out.index("## 4. Top award") :].split("\n\n")[1]
    assert f"1 in {float(one_in):.2f} rounds" in paragraph and f"exactly {award})" in paragraph
    assert "(2 lines pay it; their probabilities summed)" in paragraph
    assert f"1 in {float(round(1 / red, 2)):.2f}" not in out


def test_rare_awards_are_flagged(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A 100:1 line that cannot happen (a tie won by 5 points) occurs less often than once in
    10^8 rounds: flagged, with no "1 in N"; the 8:1 tie is not."""
    table = tmp_path / "rare.toml"
    table.write_text('[bets.odd-tie]\ntitle = "Odd tie"\n'
                     'lines = [{ when = { winner = "tie", margin = 5 }, pays = 100 }, '
                     '{ when = { winner = "tie" }, pays = 8 }]\n', encoding="utf-8")  # fmt: skip
    code, out, err = run(capsys, "par-sheet", "--table", str(table), "--shoes", "10", "--format", "json")
    assert code == 0, err
    sheet = json.loads(out)["bets"]["odd-tie"]
    assert sheet["rare_awards"] == [{"event": "winner tie, margin 5", "pays": "100", "probability": "0",
                                     "one_in": None, "lines": ["winner tie, margin 5"]}]  # fmt: skip
    assert sheet["top_award"]["pays"] == "100"


def test_out_writes_every_file_or_none(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "sheets"
    code, _, err = run(capsys, "par-sheet", "--bets", "player-pair,tie", "--shoes", "10", "--out", str(out))
    assert code == 0, err
    names = [".baccarat-par-sheet.json", "README.md", "player-pair.md", "tie.md"]  # the manifest first
    assert sorted(p.name for p in out.iterdir()) == names
    assert "[tie](tie.md)" in (out / "README.md").read_text(encoding="utf-8")
    again = ["par-sheet", "--bets", "tie", "--shoes", "10", "--out", str(out), "--format", "json"]
    code, _, err = run(capsys, *again)
    assert code == 0, err  # its own files are replaced
    data = json.loads((out / "tie.json").read_text(encoding="utf-8"))
    assert data["version"] and data["bets"]["tie"]["countability"]["study"]["shoes"] == 10
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    err = one_line_error(capsys, "par-sheet", "--bets", "tie", "--shoes", "10", "--out", str(out))
    assert "notes.txt" in err and "did not write" in err


def test_out_refuses_a_manifest_that_is_not_a_regular_file(tmp_path: Path) -> None:
    """A FIFO in the manifest's place is refused, not read (reading it blocked for ever): the
    check runs in a thread that must end within 30 s."""
    from analyzer.present.folders import check_output_dir

    out = tmp_path / "sheets"
    out.mkdir()
    os.mkfifo(out / ".baccarat-par-sheet.json")
    errors: list[str] = []

    def check() -> None:
        try:
            check_output_dir(out, "--out", "par-sheet")
        except AnalyzerError as error:
            errors.append(str(error))

    thread = threading.Thread(target=check, daemon=True)
    thread.start()
    thread.join(30)
    assert not thread.is_alive() and errors and ".baccarat-par-sheet.json" in errors[0]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--bets", "tie", "--material", "-1"], "--material '-1'"),
        (["--bets", "tie", "--material", "lots"], "--material 'lots'"),
        (["--bets", "tie", "--shoes", "0"], "shoes 0"),
        (["--bets", "tie", "--decks", "inf"], "finite shoe"),
        (["--bets", "tie", "--cut-card", "500"], "cut card 500"),
        (["--bets", "nosuch"], "nosuch"),
        (["--bets", "tie", "--format", "table"], "--format 'table'"),
        (["--bets", "tie", "--out", ""], "--out ''"),
        (["--bets", "tie", "--out", "-"], "--out '-'"),
        ([], "give --bets"),
    ],
)
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    assert words in one_line_error(capsys, "par-sheet", *argv)


def test_an_emoji_in_a_title_draws_without_warnings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # matplotlib warned "Glyph 127808 (FOUR LEAF CLOVER) missing from font(s) DejaVu Sans" on
    # stderr, twice, though the SVG keeps its text as text for the browser to draw.
    import warnings

    table = tmp_path / "emoji.toml"
    table.write_text(
        '[bets.lucky]\ntitle = "Lucky \U0001f340 tie"\n'
        'lines = [{ when = { winner = "tie", natural = true }, pays = 30 }]\n',
        encoding="utf-8",
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code, out, err = run(capsys, "par-sheet", "--table", str(table), "--shoes", "20", "--format", "html")
    assert (code, err) == (0, "") and out.count("Lucky \U0001f340 tie") >= 3  # page, sheet and charts
    assert [str(w.message) for w in caught] == []


def test_a_chart_title_put_at_the_top_is_where_matplotlib_places_it(sheets: dict[str, ParSheet]) -> None:
    """A chart's title put at the top of the axes (`put_title`) gives the SVG matplotlib's own
    placement gives. Where that placement moves the title (a long one, over the y axis's
    offset text: effects of a billionth of these), the chart is drawn with it instead."""
    from analyzer.present import par_html
    from analyzer.present.plots import rc_context

    def drawn(sheet: ParSheet, placed: bool) -> str:
        with rc_context(par_html._RC):
            return par_html._svg(par_html._CHARTS["effects"](sheet, placed), "p-")

    sheet = sheets["dragon7"]
    assert par_html._chart("effects", sheet, "p-") == drawn(sheet, True) == drawn(sheet, False)
    tiny = replace(sheet, effects={rank: effect / 10**9 for rank, effect in sheet.effects.items()})
    long = replace(tiny, analysis=replace(tiny.analysis, bet=replace(tiny.bet, title="A long title " * 8)))
    assert drawn(long, True) != drawn(long, False) == par_html._chart("effects", long, "p-")


def test_a_chart_drawn_on_a_copy_of_its_template_is_the_chart_drawn_on_a_new_figure(
    sheets: dict[str, ParSheet], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each chart starts from a copy of a figure made once (`from_template`): the same SVG,
    to the byte, as drawn on a figure made for it, for both charts, the 52 cards' effects
    (a template of their own) and a second chart from the same template."""
    from analyzer.present import par_html

    sheet = sheets["dragon7"]
    cards = replace(sheet, effects={f"card {i}": Fraction(i - 26, 10**5) for i in range(52)})
    charts = [("volatility", sheet), ("effects", sheet), ("effects", cards), ("volatility", sheets["banker"])]
    copied = [par_html._chart(name, chart, "p-") for name, chart in charts * 2]
    monkeypatch.setattr(par_html, "from_template", lambda key, make: make())
    assert copied == [par_html._chart(name, chart, "p-") for name, chart in charts * 2]
    assert len(set(copied)) == len(charts)


# -- the count judged is chosen on other shoes (SELECTION) --------------------------------------


def test_the_judged_figure_comes_from_shoes_not_used_to_choose() -> None:
    """The counts play the first half of the shoes; the one that won most there with evidence
    is judged on the other half alone, the bound over every shoe: each figure is what a
    separate run of those shoes gives, exactly."""
    from analyzer.counting.par import judged_study
    from analyzer.counting.simulation import evaluate_systems

    sheet = par_sheets([BETS["dragon7"]], Shoe.decks(8), shoes=401, seed=5)[0]
    study, bet = sheet.study, BETS["dragon7"]
    assert (study.shoes, study.choosing, study.evaluation.shoes) == (401, 200, 201)
    assert study.system is not None and study.chosen_on is not None and len(sheet.tried) >= 2
    played = [study.system, *(t.system for t in sheet.tried if t.system is not None)]
    first = evaluate_systems(played, [bet] * len(played), study.procedure, shoes=200, seed=5)
    assert first[0].expectation_triggered == study.chosen_on.expectation_triggered
    for other, alone in zip(sheet.tried, first[1:], strict=True):
        assert other.evaluation.expectation_triggered == alone.expectation_triggered
        assert other.shoes == 200
    winner, _ = judged_study([replace(study, evaluation=study.chosen_on, chosen_on=None), *sheet.tried])
    assert winner.system == study.system  # the choice was made on the first 200 shoes
    [later] = evaluate_systems([study.system], [bet], study.procedure, shoes=201, seed=5, start=200)
    assert later.expectation_triggered == study.evaluation.expectation_triggered
    assert later.expectation_triggered != study.chosen_on.expectation_triggered  # other shoes
    [whole] = evaluate_systems([study.system], [bet], study.procedure, shoes=401, seed=5)
    assert study.chosen_on.perfect + study.evaluation.perfect == whole.perfect
    assert math.isclose(study.perfect[0], whole.per_shoe("perfect")[0], rel_tol=1e-12)
    found = sheet.verdict
    assert (found.win, found.chosen, found.choosing, found.judging) == (
        study.win_per_shoe,
        study.chosen_on.per_shoe("expected"),
        200,
        201,
    )
    assert "which played no part in the choice" in verdict_reason(found)


def test_a_bet_with_one_count_to_play_is_judged_on_every_shoe() -> None:
    """Nothing is chosen for a bet with no linear count (or one): its study is one run."""
    sheet = par_sheets([BETS["player-pair"], BETS["dragon7"]], Shoe.decks(8), shoes=100, seed=2)[0]
    assert (sheet.study.choosing, sheet.study.evaluation.shoes, sheet.verdict.chosen) == (0, 100, None)


def test_the_choice_alone_cannot_call_a_bet_beatable() -> None:
    """A count that won most on the shoes it was chosen on (by far above the threshold) but
    has no edge on the other shoes is not beatable: the verdict rests on the other shoes."""
    from analyzer.counting.par import CountStudy, judge
    from analyzer.counting.simulation import Procedure
    from analyzer.counting.summary import SystemEvaluation

    tags = (0,) * 7 + (1,) + (0,) * 4 + (-1,)
    system = SYSTEMS["dragon7-jacobson"].__class__("x", "x", "dragon7", tags, Fraction(2))

    def evaluation(win: tuple[float, float]) -> SystemEvaluation:
        found = SystemEvaluation(system, BETS["dragon7"], shoes=1000, triggers=500)
        found.shoe_moments["expected"] = [win[0] * 1000, (win[1] ** 2 * 1000) * 999 + win[0] ** 2 * 1000]
        found.shoe_moments["perfect"] = [300.0, 0.5**2 * 999 + 0.3**2 * 1000]
        return found

    lucky, none = evaluation((0.40, 0.01)), evaluation((-0.05, 0.01))
    procedure = Procedure(shoe=Shoe.decks(8))
    chosen = judge(CountStudy(system, procedure, 1, none, chosen_on=lucky), Fraction(1, 20))
    assert (chosen.kind, chosen.rule, chosen.shoes, chosen.judging) == (NOT_BEATABLE, "count", 2000, 1000)
    assert chosen.chosen is not None and math.isclose(chosen.chosen[0], 0.40)
    assert math.isclose(chosen.win[0] if chosen.win else 0.0, -0.05)
    same = judge(CountStudy(system, procedure, 1, lucky), Fraction(1, 20))
    assert same.kind == BEATABLE  # on the shoes of the choice it would have been called beatable


def test_first_study_is_the_first_study_par_sheets_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """`first_study` names the systems, bets, procedure and shoes of the first counting study
    `par_sheets` runs for the rank-level bets (`baccarat report` runs other systems with it):
    a change to the one not made to the other fails here; no study for card-level bets only."""
    from analyzer.counting import par
    from analyzer.counting.par import first_study

    bets = [BETS[name] for name in NAMES]
    asked = []
    real = par.evaluate_systems

    def recorded(systems, bets, procedure, rules, **kwargs):  # type: ignore[no-untyped-def]
        asked.append((list(systems), list(bets), procedure, kwargs["shoes"], kwargs["start"]))
        return real(systems, bets, procedure, rules, **kwargs)

    monkeypatch.setattr(par, "evaluate_systems", recorded)
    par_sheets(bets, Shoe.decks(8), shoes=20, seed=3)
    systems, their_bets, procedure, shoes = first_study(bets, Shoe.decks(8), shoes=20)
    assert asked[0] == (systems, their_bets, procedure, shoes, 0)
    assert len(systems) > len(NAMES) - 1 and shoes == 10  # several counts, chosen on half the shoes
    assert first_study([BETS["lucky-nines"]], Shoe.decks(8))[0] == []


def test_html_ids_are_unique_whatever_the_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A bet named as another's chart element ("x-effects-figure_1" beside "x") gets no id a
    chart already holds: every id in the page is unique."""
    table = tmp_path / "t.toml"
    line = 'lines = [{ when = { winner = "tie" }, pays = 8 }]\n'
    table.write_text(f"[bets.x]\n{line}[bets.x-effects-figure_1]\n{line}", encoding="utf-8")
    argv = ["par-sheet", "--table", str(table), "--bets", "x,x-effects-figure_1", "--shoes", "10"]
    code, out, err = run(capsys, *argv, "--format", "html")
    assert code == 0, err
    ids = re.findall(r'\bid="([^"]*)"', out)
    assert len(ids) > 100 and len(ids) == len(set(ids))
