"""Counting systems judged against the exact expectation of every coup, and their
advantage-play figures (win per shoe and per hour, SD, N0, risk of ruin)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.present.document import Block, Estimate, Heading, Paragraph, Table, Value, write
from analyzer.present.text import (
    NO_BETS,
    check_format,
    decimal,
    dumps,
    exact,
    percent,
    short_float,
    user_text,
)

if TYPE_CHECKING:
    from analyzer.counting.advantage import AdvantageFigures
    from analyzer.counting.simulation import Procedure, SystemEvaluation

__all__ = [
    "ADVANTAGE_HEADERS",
    "COUNT_HEADERS",
    "COVER_HEADERS",
    "CVDATA_HEADERS",
    "NO_BETS",
    "TAIL",
    "advantage_json",
    "advantage_rows",
    "count_bins",
    "count_blocks",
    "count_data",
    "count_json",
    "count_rows",
    "cover_json",
    "cover_rows",
    "cover_values",
    "cvdata_rows",
    "estimate",
    "mean_se",
    "plus_minus",
    "procedure_text",
    "render_count",
    "tags_text",
]


def count_json(result: SystemEvaluation) -> dict[str, Any]:
    """One counting system's evaluation as JSON-ready values (exact sums as "p/q")."""
    edge = result.trigger_edge
    stats = {which: result.per_shoe(which) for which in ("expected", "realized", "perfect")}
    return {
        "system": result.system.name,
        "bet": result.bet.name,
        "shoes": result.shoes,
        "coups": result.coups,
        "triggers": result.triggers,
        "positive_coups": result.positive,
        "correlation": round(result.correlation, 6),
        "expectation_all": exact(result.expectation_all),
        "expectation_triggered": exact(result.expectation_triggered),
        "trigger_edge": None if edge is None else exact(edge),
        "realized_triggered": exact(result.realized_triggered),
        "perfect": exact(result.perfect),
        "win_per_shoe": {k: mean_se(m, se) for k, (m, se) in stats.items()},
        **({} if result.cover is None else {"cover": cover_json(result)}),
        "by_count": [
            {
                "count": k,
                "coups": n,
                "frequency": round(n / max(result.coups, 1), 6),
                "mean_expectation": round(float(ev / n), 6),
                "mean_expectation_exact": exact(ev / n),
            }
            for k, (n, ev) in result.by_count_values.items()
        ],
    }


#: The share of the coups a by-count table's merged tails each hold at most.
TAIL = 0.02


def count_bins(result: SystemEvaluation) -> list[tuple[str, int, float, Fraction]]:
    """The coups by the system's count (its floor: the true count of a true-count system):
    each bin's coups, share of the coups and the exact mean of its coups' exact expectations.
    The bins at either end holding less than TAIL of the coups together join the next bin in
    ("<= k", ">= k")."""
    bins = [(k, n, ev) for k, (n, ev) in result.by_count_values.items()]
    total = sum(n for _, n, _ in bins) or 1
    lo, hi, below, above = 0, len(bins) - 1, 0, 0
    while lo < hi and below + bins[lo][1] < TAIL * total:
        below, lo = below + bins[lo][1], lo + 1
    while hi > lo and above + bins[hi][1] < TAIL * total:
        above, hi = above + bins[hi][1], hi - 1
    rows = []
    for i in range(lo, hi + 1):
        first, last = (0 if i == lo else i), (len(bins) - 1 if i == hi else i)
        part = bins[first : last + 1]
        n, ev = sum(b[1] for b in part), sum((b[2] for b in part), Fraction(0))
        label = str(bins[i][0])
        if first < i and last > i:
            label = "all"
        elif first < i:
            label = f"<= {label}"
        elif last > i:
            label = f">= {label}"
        rows.append((label, n, n / total, ev / n))
    return rows


def cover_json(result: SystemEvaluation) -> dict[str, Any]:
    """A study's cover bet: the bet and units staked on each coup bet, its exact expected win
    over the study (negative: its cost), and per shoe the side bet alone, the cover and the net."""
    assert result.cover is not None
    total = result.cover_expectation or Fraction(0)
    return {
        "bet": result.cover.bet.name,
        "units": exact(result.cover.units),
        "expectation": exact(total),
        "side_per_shoe": mean_se(*result.per_shoe("expected")),
        "cover_per_shoe": mean_se(*result.per_shoe("cover")),
        "net_per_shoe": mean_se(*result.per_shoe("net")),
    }


COVER_HEADERS = ["system", "bet", "cover", "side bet alone/shoe", "cover/shoe", "net/shoe", "cover share"]


def cover_rows(results: Sequence[SystemEvaluation], fmt: str = "table") -> list[list[str]]:
    """Rows under COVER_HEADERS, one per covered system: per shoe the side bet alone, the
    cover (negative: its cost) and the net, ± one standard error, and the cover's cost as a
    share of the side bet's win."""
    rows = []
    for r in results:
        if r.cover is None:
            continue
        side, cover, net = (r.per_shoe(k) for k in ("expected", "cover", "net"))
        share = "n/a" if side[0] <= 0 else f"{-cover[0] / side[0]:.1%}"
        rows.append(
            [
                user_text(r.system.name, fmt), user_text(r.bet.name, fmt), user_text(r.cover.text, fmt),
                plus_minus(*side, 3), plus_minus(*cover, 3), plus_minus(*net, 3), share,
            ]
        )  # fmt: skip
    return rows


def cover_values(results: Sequence[SystemEvaluation]) -> list[list[Value]]:
    """The typed values of `cover_rows`: the figures per shoe as Estimates (empty where a
    system made no bets), the cover's share as a number (None: "n/a")."""
    rows: list[list[Value]] = []
    for r in results:
        if r.cover is None:
            continue
        side, cover, net = (r.per_shoe(k) for k in ("expected", "cover", "net"))
        rows.append(
            [
                r.system.name, r.bet.name, r.cover.text,
                *(estimate(*figure, r.shoes, r.triggers) for figure in (side, cover, net)),
                None if side[0] <= 0 else -cover[0] / side[0],
            ]
        )  # fmt: skip
    return rows


COUNT_HEADERS = [
    "system", "bet", "bets/shoe", "count-EV corr", "P(EV>0)", "EV when betting",
    "EV win/shoe", "realized win/shoe", "win/100 coups", "perfect info/shoe",
]  # fmt: skip


def mean_se(mean: float, se: float) -> dict[str, float]:
    """A simulated figure and its standard error as JSON gives them (6 decimals)."""
    return {"mean": round(mean, 6), "se": round(se, 6)}


def plus_minus(value: float, error: float, places: int, bets: int | None = None) -> str:
    """A figure and its standard error, e.g. "+0.123 ± 0.045" (scientific when huge);
    `NO_BETS` for a win from a study that made no bets (`bets` 0)."""
    if bets == 0:
        return NO_BETS
    return f"{short_float(value, f'+.{places}f')} ± {short_float(error, f'.{places}f')}"


def estimate(mean: float, se: float, shoes: int, bets: int | None = None) -> Estimate:
    """A simulated figure as the spreadsheets hold it (`Estimate`): no figure from a study
    with no bets (`bets` 0), no standard error from a study of one shoe or a figure that
    never varied; not "0" for a figure from no data."""
    return won(mean, None if shoes < 2 or se <= 0 else se, bets)


def won(mean: float, se: float | None, bets: int | None = None) -> Estimate:
    """A simulated win as the spreadsheets hold it: none (empty cells) from a study that made
    no bets (`bets` 0), where the text says `NO_BETS`."""
    return Estimate(None, None) if bets == 0 else Estimate(mean, se)


def count_rows(results: Sequence[SystemEvaluation], fmt: str = "table") -> list[list[str]]:
    """Rows under COUNT_HEADERS: one per system, wins per shoe with their standard errors
    (names as `fmt` shows a user's text)."""
    rows = []
    for r in results:
        (ev, ev_se), (real, real_se), (perf, perf_se) = (
            r.per_shoe(k) for k in ("expected", "realized", "perfect")
        )
        per_100 = r.expectation_triggered * 100 / r.coups if r.coups else Fraction(0)
        rows.append(
            [
                user_text(r.system.name, fmt),
                user_text(r.bet.name, fmt),
                f"{r.triggers / r.shoes:.2f}",
                f"{r.correlation:.3f}",
                percent(Fraction(r.positive, max(r.coups, 1)), 2),
                "n/a" if r.trigger_edge is None else percent(r.trigger_edge, 2),
                plus_minus(ev, ev_se, 3, r.triggers),
                plus_minus(real, real_se, 3, r.triggers),
                decimal(per_100, 4),
                plus_minus(perf, perf_se, 3),
            ]
        )
    return rows


def procedure_text(procedure: Procedure, shoes: int, seed: int) -> str:
    """A counting study's procedure in words: the shoe, the cut card (its default stated
    where the figures are), the burn, the last-coup rule, the shoes and the seed."""
    default = ""
    if procedure.cut_card == 7:
        default = " (the default; published studies and reports/counting.md use 14)"
    burn = f"burn, {procedure.burn_seen} of the burned cards seen" if procedure.burn else "no burn"
    last = ", one more coup after the cut card" if procedure.extra_coup else ""
    return (
        f"{procedure.shoe}, cut card {procedure.cut_card} cards from the end{default}, {burn}{last}, "
        f"{shoes:,} shoes, seed {seed}"
    )


def tags_text(tags: Sequence[int]) -> str:
    """A system's tags: A..9 then one for the ten-valued ranks when they agree, else A..K."""
    shown = tags[:10] if len(set(tags[9:])) == 1 else tags
    return " ".join(f"{t:+d}" for t in shown)


def _ruin_formula() -> str:
    from analyzer.counting.advantage import RISK_OF_RUIN_FORMULA

    return RISK_OF_RUIN_FORMULA


def advantage_json(figures: AdvantageFigures) -> dict[str, Any]:
    """Advantage-play figures as JSON-ready values (floats rounded to 6 places); the win
    per shoe itself is count_json's `win_per_shoe`."""
    f = dataclasses.asdict(figures)
    data: dict[str, Any] = {
        key: None if f[key] is None else round(f[key], 6)
        for key in (
            "bets_per_shoe", "coups_per_shoe", "sd_per_shoe", "sd_per_coup_bet", "n0", "bankroll",
            "risk_of_ruin", "coups_per_hour", "bets_per_hour", "win_per_hour", "sd_per_100_coups",
            "desirability_index", "score",
        )
    }  # fmt: skip
    data["win_per_100_coups"] = mean_se(figures.win_per_100_coups, figures.win_per_100_coups_se)
    return data


ADVANTAGE_HEADERS = [
    "system", "bet", "tags", "bets when", "bets/shoe", "win/shoe", "win/100 coups", "SD/shoe",
    "SD/coup bet", "N0 (coups bet)", "risk of ruin", "bets/hour", "win/hour",
]  # fmt: skip


def advantage_rows(
    results: Sequence[SystemEvaluation], figures: Sequence[AdvantageFigures], fmt: str = "table"
) -> list[list[str]]:
    """One row per system: its tags and rule, and the advantage-play figures (names as `fmt`
    shows a user's text)."""
    rows = []
    for r, f in zip(results, figures, strict=True):
        rows.append(
            [
                user_text(r.system.name, fmt), user_text(r.bet.name, fmt), tags_text(r.system.tags),
                r.system.rule, f"{f.bets_per_shoe:.2f}",
                plus_minus(f.win_per_shoe, f.win_per_shoe_se, 3, r.triggers),
                plus_minus(f.win_per_100_coups, f.win_per_100_coups_se, 4, r.triggers),
                short_float(f.sd_per_shoe, ".2f"), short_float(f.sd_per_coup_bet, ".2f"),
                "n/a" if f.n0 is None else short_float(f.n0, ",.0f"),
                f"{f.risk_of_ruin:.2%}", f"{f.bets_per_hour:.1f}",
                NO_BETS if r.triggers == 0 else short_float(f.win_per_hour, "+.3f"),
            ]
        )  # fmt: skip
    return rows


def count_data(
    results: Sequence[SystemEvaluation], procedure: str, figures: Sequence[AdvantageFigures] = ()
) -> dict[str, Any]:
    """The JSON document of `render_count`: the procedure in words, and each system's
    figures, tags and rule (with `figures`, the advantage-play figures too)."""
    systems = [count_json(r) for r in results]
    for data, result, fig in zip(systems, results, figures, strict=False):
        data.update(tags=list(result.system.tags), rule=result.system.rule, **advantage_json(fig))
    return {"procedure": procedure, "systems": systems}


def render_count(
    results: Sequence[SystemEvaluation],
    fmt: str,
    procedure: str,
    figures: Sequence[AdvantageFigures] = (),
) -> str:
    """Counting systems judged against the exact expectation of every coup; with `figures`
    (one per result), the advantage-play figures too."""
    check_format(fmt)
    if fmt == "json":
        return dumps(count_data(results, procedure, figures))
    return write(count_blocks(results, fmt, procedure, figures), fmt)


def _count_values(results: Sequence[SystemEvaluation]) -> list[list[Value]]:
    """The typed values of `count_rows`: exact expectations, simulated figures as Estimates."""
    rows: list[list[Value]] = []
    for r in results:
        per_100 = r.expectation_triggered * 100 / r.coups if r.coups else Fraction(0)
        rows.append(
            [
                r.system.name, r.bet.name, r.triggers / r.shoes, r.correlation,
                Fraction(r.positive, max(r.coups, 1)), r.trigger_edge,
                *(won(*r.per_shoe(k), r.triggers) for k in ("expected", "realized")), per_100,
                Estimate(*r.per_shoe("perfect")),
            ]
        )  # fmt: skip
    return rows


def _advantage_values(
    results: Sequence[SystemEvaluation], figures: Sequence[AdvantageFigures]
) -> list[list[Value]]:
    """The typed values of `advantage_rows`."""
    return [
        [
            r.system.name, r.bet.name, tags_text(r.system.tags), r.system.rule, f.bets_per_shoe,
            won(f.win_per_shoe, f.win_per_shoe_se, r.triggers),
            won(f.win_per_100_coups, f.win_per_100_coups_se, r.triggers),
            f.sd_per_shoe, f.sd_per_coup_bet, f.n0, f.risk_of_ruin, f.bets_per_hour,
            None if r.triggers == 0 else f.win_per_hour,
        ]
        for r, f in zip(results, figures, strict=True)
    ]  # fmt: skip


def count_blocks(
    results: Sequence[SystemEvaluation],
    fmt: str,
    procedure: str,
    figures: Sequence[AdvantageFigures] = (),
) -> list[Block]:
    """The document of `render_count` in `fmt` (table or markdown), typed values beside."""
    blocks: list[Block] = [
        Heading(f"Counting systems: {procedure}"),
        Table.of(count_rows(results, fmt), COUNT_HEADERS, _count_values(results)),
        Paragraph(
            "Wins are in units of one flat bet per trigger, ± one standard error over shoes. "
            "'EV win' sums the exact expectation of the coups bet; 'realized' the outcomes dealt; "
            "'perfect info' bets exactly when the exact expectation is positive."
        ),
    ]
    covered = cover_rows(results, fmt)
    if covered:
        blocks += [
            Heading("Cover bets"),
            Table.of(covered, COVER_HEADERS, cover_values(results)),
            Paragraph(
                "Each coup a system bets, the cover's units are staked on its main bet too, valued "
                "exactly for the cards left: per shoe, the side bet alone, the cover (negative: what it "
                "costs) and the net, ± one standard error over shoes; the share is the cover's cost "
                "over the side bet's win."
            ),
        ]
    if figures:
        first = figures[0]
        blocks += [
            Heading("Advantage-play figures"),
            Table.of(
                advantage_rows(results, figures, fmt), ADVANTAGE_HEADERS, _advantage_values(results, figures)
            ),
            Paragraph(
                "Tags A..9 then ten-valued (all 13 ranks when those differ). Win per shoe: exact EV of "
                "the coups bet; per 100 coups dealt. SD: of the result dealt. N0 = (SD per coup bet / EV "
                f"per coup bet)^2. Risk of ruin for a bankroll of {first.bankroll:g} units: "
                f"{_ruin_formula()}. Per hour: {first.coups_per_hour:g} coups dealt per hour."
            ),
            Heading("CVData figures"),
            Table.of(cvdata_rows(results, figures, fmt), CVDATA_HEADERS),
            Paragraph(
                "Per 100 coups dealt (a coup not bet counts 0): the win (exact EV) and the SD of the "
                "result dealt; DI = 100 x win / SD per 100 coups; SCORE = DI^2, the win per 100 coups of "
                "a 10,000-unit bankroll at a 13.5% risk of ruin (0 when DI <= 0)."
            ),
        ]
    for r in results:
        found = count_bins(r)
        rows = [[label, f"{n:,}", f"{share:.2%}", signed(float(mean))] for label, n, share, mean in found]
        values: list[list[Value]] = [[label, n, share, mean] for label, n, share, mean in found]
        blocks += [
            Heading(f"By count: {user_text(r.system.name, fmt)} on {user_text(r.bet.name, fmt)}", 3),
            Table.of(rows, [_count_word(r), "coups", "frequency", "mean exact EV"], values),
        ]
    if results:
        blocks.append(
            Paragraph(
                "Coups by the floor of each system's count before the coup (true count: per deck left); "
                f"the tails holding under {TAIL:.1%} of the coups join the next row. Mean exact EV: the "
                "mean over those coups of each coup's exact expectation for the cards left."
            )
        )
    return blocks


def signed(value: float) -> str:
    """A mean expectation per unit bet, e.g. "+0.0123"."""
    return short_float(value, "+.4f")


def _count_word(result: SystemEvaluation) -> str:
    return "running count" if result.system.trigger == "running" else "true count"


CVDATA_HEADERS = ["system", "bet", "win/100 coups", "SD/100 coups", "DI", "SCORE"]


def cvdata_rows(
    results: Sequence[SystemEvaluation], figures: Sequence[AdvantageFigures], fmt: str = "table"
) -> list[list[str]]:
    """Rows under CVDATA_HEADERS: per 100 coups dealt, the win and SD, DI and SCORE."""
    return [
        [
            user_text(r.system.name, fmt), user_text(r.bet.name, fmt),
            NO_BETS if r.triggers == 0 else short_float(f.win_per_100_coups, "+.4f"),
            short_float(f.sd_per_100_coups, ".3f"),
            "n/a" if f.desirability_index is None else short_float(f.desirability_index, "+.2f"),
            short_float(f.score, ".2f"),
        ]
        for r, f in zip(results, figures, strict=True)
    ]  # fmt: skip
