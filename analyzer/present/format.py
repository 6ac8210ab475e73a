"""Rendering results as text tables, Markdown or JSON. Exact values stay exact here:
fractions print as "p/q" and decimals are rounded from the exact value, never from a float.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.core.errors import AnalyzerError
from analyzer.core.ranks import RANKS

if TYPE_CHECKING:  # types only: a cold `baccarat odds` loads none of these
    from analyzer.analyses.compare import Comparison
    from analyzer.analyses.odds import Odds, PuntoRow
    from analyzer.core.analysis import BetAnalysis
    from analyzer.core.rules import Rules
    from analyzer.core.shoe import Shoe
    from analyzer.counting.advantage import AdvantageFigures
    from analyzer.counting.simulation import SystemEvaluation
    from analyzer.counting.systems import DerivedCount
    from analyzer.ranks.fast import EffectsOfRemoval

if TYPE_CHECKING:
    from analyzer.analyses.card_effects import CardEffects

__all__ = [
    "ADVANTAGE_HEADERS",
    "COUNT_HEADERS",
    "DERIVED_HEADERS",
    "EDGE_HEADERS",
    "FORMATS",
    "advantage_json",
    "advantage_rows",
    "bet_json",
    "bet_table",
    "check_format",
    "count_json",
    "count_rows",
    "decimal",
    "derived_rows",
    "dumps",
    "edges_rows",
    "exact",
    "percent",
    "render_closed_forms",
    "render_compare",
    "render_count",
    "render_edges",
    "render_eor",
    "render_list",
    "render_odds",
    "render_punto_table",
    "render_rules",
    "shoe_json",
    "table",
    "tags_text",
]

FORMATS = ("table", "markdown", "json")
#: A cell that reads as a number (exact, decimal, percentage, count, "± SE"): right-aligned.
_NUMBER = re.compile(r"[+\-−]?[\d,]+(\.\d+)?(/\d+)?%?( ± [\d.]+)?|n/a|")


def exact(value: Fraction | int) -> str:
    """An exact value as JSON wants it: "p/q", or "0", "1", "-3"."""
    return str(Fraction(value))


def decimal(value: Fraction | int, places: int = 6) -> str:
    """`value` rounded half away from zero to `places` decimals, from exact arithmetic."""
    value = Fraction(value)
    sign = "-" if value < 0 else ""
    scaled = abs(value) * 10**places
    digits = int(scaled + Fraction(1, 2))  # round half up on the magnitude
    sign = sign if digits else ""  # no "-0"
    whole, frac = divmod(digits, 10**places)
    return f"{sign}{whole}" if places == 0 else f"{sign}{whole}.{frac:0{places}d}"


def percent(value: Fraction | int, places: int = 4) -> str:
    """`value` as a percentage rounded to `places` decimals, e.g. "1.0579%"."""
    return decimal(Fraction(value) * 100, places) + "%"


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], fmt: str) -> str:
    """A table through tabulate: plain text for "table", GitHub Markdown for "markdown".

    Columns of numbers are right-aligned; in Markdown a `|` inside a cell is escaped."""
    from tabulate import tabulate  # type: ignore[import-untyped,unused-ignore]

    cells = [[str(cell) for cell in row] for row in rows]
    align = [
        "right" if cells and all(_NUMBER.fullmatch(row[i]) for row in cells) else "left"
        for i in range(len(headers))
    ]
    if fmt == "markdown":
        cells = [[cell.replace("|", "\\|") for cell in row] for row in cells]
        headers = [header.replace("|", "\\|") for header in headers]
        return str(tabulate(cells, headers=headers, tablefmt="pipe", disable_numparse=True, colalign=align))
    return _fit(cells, list(headers), align)


#: Terminal tables are fitted to this many columns.
WIDTH = 120


def _fit(cells: list[list[str]], headers: list[str], align: list[str]) -> str:
    """A plain-text table no wider than WIDTH: headers wrap at spaces, then prose (left-aligned)
    columns wrap, and columns that still do not fit go to a second table that repeats the first."""
    import textwrap

    from tabulate import tabulate  # type: ignore[import-untyped,unused-ignore]

    def render(columns: Sequence[int], rows: Sequence[list[str]] = cells) -> str:
        return str(
            tabulate(
                [[row[i] for i in columns] for row in rows],
                headers=[headers[i] for i in columns],
                tablefmt="simple",
                disable_numparse=True,
                colalign=[align[i] for i in columns],
            )
        )

    widths: dict[tuple[tuple[int, ...], tuple[str, ...], int], int] = {}
    wraps = [0]  # bumped whenever cells are rewrapped: a width is reused until then
    deciding: dict[int, tuple[set[int], list[int]]] = {}  # per wraps: rows that set widths

    def width(columns: Sequence[int]) -> int:
        """Characters in the widest line of the table of `columns`, rendered on the rows that
        set its column widths: each column's longest cell, and every row whose characters
        might not each take one column (the full table's lines are no longer)."""
        key = (tuple(columns), tuple(headers), wraps[0])
        if key not in widths:
            if wraps[0] not in deciding:
                odd = {r for r, row in enumerate(cells) if not all(_plain(cell) for cell in row)}
                longest = [
                    max(range(len(cells)), key=lambda r: _longest_line(cells[r][i])) if cells else 0
                    for i in range(len(headers))
                ]
                deciding[wraps[0]] = odd, longest
            odd, longest = deciding[wraps[0]]
            chosen = odd | {longest[i] for i in columns if cells}
            text = render(columns, [cells[r] for r in sorted(chosen)])
            widths[key] = max(len(line) for line in text.split("\n"))
        return widths[key]

    def column_width(i: int, with_header: bool = True) -> int:
        column = [row[i] for row in cells] + ([headers[i]] if with_header else [])
        return max((len(line) for cell in column for line in cell.split("\n")), default=0)

    everything = range(len(headers))
    prose = sorted((i for i, side in enumerate(align) if side == "left"), key=column_width, reverse=True)
    for i in prose:
        excess = width(everything) - WIDTH
        if excess > 0 and column_width(i) > 16:
            limit = max(16, column_width(i) - excess)
            for row in cells:
                row[i] = "\n".join(textwrap.wrap(row[i], limit)) or row[i]
            wraps[0] += 1
    for i, header in enumerate(headers):
        if width(everything) > WIDTH:
            limit = max(column_width(i, False), 4)
            headers[i] = "\n".join(textwrap.wrap(header, limit, break_long_words=False)) or header
    shown = list(everything)
    while len(shown) > 2 and width(shown) > WIDTH:
        shown.pop()
    rest = [i for i in everything if i not in shown]
    if not rest:
        return render(shown)
    keep = (0, *rest)
    more = _fit(
        [[row[i] for i in keep] for row in cells], [headers[i] for i in keep], [align[i] for i in keep]
    )
    return render(shown) + "\n\n" + more


def _longest_line(cell: str) -> int:
    return max(len(line) for line in cell.split("\n"))


def _plain(cell: str) -> bool:
    """Whether every character of `cell` takes one terminal column (printable ASCII, or a
    line break)."""
    return cell.isascii() and cell.replace("\n", "").isprintable()


def dumps(data: Any) -> str:
    import json  # loaded for JSON output only

    return json.dumps(data, indent=2) + "\n"


def check_format(fmt: str, allowed: Sequence[str] = FORMATS) -> None:
    """Raise AnalyzerError unless `fmt` is one of `allowed`."""
    if fmt not in allowed:
        raise AnalyzerError(f"format {fmt!r}: use one of {', '.join(allowed)}")


def _heading(title: str, fmt: str) -> str:
    return f"## {title}\n\n" if fmt == "markdown" else f"{title}\n\n"


def render_odds(odds: Odds, fmt: str = "table") -> str:
    """Probabilities (and 6-card-sequence counts for finite shoes) of each result."""
    check_format(fmt)
    probs = {"banker": odds.banker, "player": odds.player, "tie": odds.tie}
    if fmt == "json":
        data: dict[str, Any] = {name: exact(p) for name, p in probs.items()}
        if odds.counts is not None:
            data["counts"] = {str(w): c for w, c in odds.counts.items()}
            data["total"] = odds.total
        data["shoe"] = str(odds.shoe)
        data["rules"] = odds.rules.name
        return dumps(data)
    headers = ["result", "probability", "exact"]
    rows = [[name, decimal(p, 10), exact(p)] for name, p in probs.items()]
    if odds.counts is not None:
        headers.insert(1, "combinations")
        for row, count in zip(rows, odds.counts.values(), strict=True):
            row.insert(1, f"{count:,}")
        rows.append(["total", f"{odds.total:,}", decimal(1, 10), "1"])
    title = f"Outcome probabilities: {odds.shoe}, {odds.rules.name} rules"
    note = (
        "\n\nCombinations count ordered sequences of 6 cards (the published convention)."
        if odds.counts is not None
        else ""
    )
    return _heading(title, fmt) + table(rows, headers, fmt) + note + "\n"


# -- effects of removal of card-level bets (issue 8) -------------------------------------


def _signed(value: Fraction, places: int) -> str:
    return ("+" if value > 0 else "") + decimal(value, places)


def render_card_eor(eor: CardEffects, fmt: str, places: int = 7) -> str:
    """Effects of removal of card-level bets: one row per card type (bets that read suits)
    or rank, one column per bet, and the identity sum n EoR = 0."""
    check_format(fmt)
    if fmt == "json":
        return dumps(
            {
                "shoe": str(eor.shoe),
                "rules": eor.rules.name,
                "expectation": {bet: exact(ev) for bet, ev in eor.base.items()},
                "per": eor.per,
                "bets": {bet: {k: exact(v) for k, v in eff.items()} for bet, eff in eor.effects.items()},
                "identity": {bet: exact(total) for bet, total in eor.identity.items()},
            }
        )
    out = []
    for per in ("card type", "rank"):
        bets = [bet for bet, p in eor.per.items() if p == per]
        if not bets:
            continue
        keys = list(eor.effects[bets[0]])
        rows = [[key, *(_signed(eor.effects[b][key], places) for b in bets)] for key in keys]
        rows.append(["sum n EoR", *(exact(eor.identity[b]) for b in bets)])
        title = f"Effects of removal per {per}, card-level bets: {eor.shoe}, {eor.rules.name} rules"
        out.append(_heading(title, fmt) + table(rows, [per, *bets], fmt) + "\n")
    note = (
        "\nChange in expectation per unit bet (bettor's view) from removing one card of each type or rank. "
        "Last row: sum over the shoe of (cards of the type or rank) x effect, exactly 0.\n"
    )
    return "\n".join(out) + note


# -- odds after cards are shown (issue 8) ------------------------------------------------


def with_shown(text: str, shown: dict[str, str], fmt: str) -> str:
    """Output of render_odds / render_edges for shown cards: JSON gains a `shown` key
    (position -> card as given); other formats already name them in the shoe label."""
    if fmt != "json":
        return text
    import json

    data = json.loads(text)
    data["shown"] = shown
    return dumps(data)


def render_punto_table(rows: Sequence[PuntoRow], fmt: str = "table", title: str = "") -> str:
    """The table after Punto's two cards (a Russian gambling dictionary's Table 2)."""
    check_format(fmt)
    if fmt == "json":
        return dumps(
            {
                "rows": [
                    {
                        "punto_total": r.punto_total,
                        "punto_action": r.punto_action,
                        "punto": exact(r.punto),
                        "banco": exact(r.banco),
                        "egalite": exact(r.egalite),
                    }
                    for r in rows
                ]
            }
        )
    headers = [
        "Punto total",
        "Punto",
        "Banco",
        "Égalité",
        "Punto (exact)",
        "Banco (exact)",
        "Égalité (exact)",
    ]
    body = [
        [
            f"{r.punto_total} ({r.punto_action})",
            decimal(r.punto),
            decimal(r.banco),
            decimal(r.egalite),
            exact(r.punto),
            exact(r.banco),
            exact(r.egalite),
        ]
        for r in rows
    ]
    return _heading(title or "Probabilities after Punto's two cards", fmt) + table(body, headers, fmt) + "\n"


def render_rules(rules: Rules, fmt: str = "table") -> str:
    """The tableau: Punto's rule, Banco's rule when Punto stood, and Banco's matrix."""
    check_format(fmt, (*FORMATS, "dot"))
    if fmt == "json":
        return dumps(rules.to_mapping())
    if fmt == "dot":
        from analyzer.ranks.graph import coup_graph, to_dot  # networkx only when asked

        return to_dot(coup_graph(rules))
    lines = [
        _heading(f"Tableau: {rules.name}", fmt).rstrip("\n"),
        "",
        rules.description,
        "",
        f"Natural: a two-card total of {rules.natural} or more ends the coup.",
        f"Punto draws on: {_list(rules.punto_draws)}.",
        f"Banco, when Punto stood, draws on: {_list(rules.banco_draws_punto_stood)}.",
        "",
        "Banco when Punto drew (D = draws, S = stands), by Punto's third card:",
        "",
    ]
    totals = [t for t in range(10) if not rules.is_natural(t)]
    body = [[str(t)] + ["D" if v in rules.banco_draws[t] else "S" for v in range(10)] for t in totals]
    lines.append(table(body, ["Banco"] + [str(v) for v in range(10)], fmt))
    return "\n".join(lines) + "\n"


def _list(values: frozenset[int]) -> str:
    return ", ".join(map(str, sorted(values))) or "never"


# --- Bets -------------------------------------------------------------------------


def _pays(pays: Fraction | None) -> str:
    """A payout as a casino writes it: "8:1", "19:20", "push", "loses"."""
    if pays is None:
        return "push"
    if -1 < pays < 0:  # a partial loss (card-level bet language)
        return f"loses {-pays}"
    return "loses" if pays == -1 else f"{pays.numerator}:{pays.denominator}"


def bet_json(analysis: BetAnalysis) -> dict[str, Any]:
    """Exact figures of one bet as JSON-ready values."""
    resolved = analysis.house_edge_resolved
    return {
        "title": analysis.bet.title,
        "house_edge": exact(analysis.house_edge),
        "house_edge_resolved": None if resolved is None else exact(resolved),
        "expectation": exact(analysis.expectation),
        "push": exact(analysis.push),
        "hit_frequency": exact(analysis.hit_frequency),
        "variance": exact(analysis.variance),
        "std_dev": f"{analysis.std_dev:.6f}",
        "lines": [
            {
                "event": row.label,
                "combinations": row.combinations,
                "probability": exact(row.probability),
                "pays": "push" if row.pays is None else exact(row.pays),
                "return": exact(row.ret),
            }
            for row in analysis.lines
        ],
    }


def edges_rows(analyses: Sequence[BetAnalysis]) -> list[list[str]]:
    return [
        [
            a.bet.name,
            a.bet.title,
            percent(a.house_edge),
            "n/a" if a.house_edge_resolved is None else percent(a.house_edge_resolved),
            decimal(a.hit_frequency),
            f"{a.std_dev:.4f}",
            exact(a.house_edge),
        ]
        for a in analyses
    ]


EDGE_HEADERS = [
    "bet",
    "title",
    "house edge",
    "per resolved bet",
    "hit frequency",
    "std dev",
    "house edge (exact)",
]


def bet_table(analysis: BetAnalysis, fmt: str) -> str:
    """The combinatorial table of one bet: event, combinations, probability, pays, return."""
    finite = analysis.lines and analysis.lines[0].combinations is not None
    headers = ["event", *(["combinations"] if finite else []), "probability", "pays", "return"]
    rows = []
    for row in analysis.lines:
        counts = [f"{row.combinations:,}"] if finite else []
        rows.append([row.label, *counts, decimal(row.probability, 8), _pays(row.pays), decimal(row.ret, 8)])
    total_counts = [f"{sum(r.combinations or 0 for r in analysis.lines):,}"] if finite else []
    rows.append(["total", *total_counts, decimal(1, 8), "", decimal(analysis.expectation, 8)])
    return table(rows, headers, fmt)


def render_edges(
    analyses: Sequence[BetAnalysis], fmt: str, shoe: Shoe, rules: Rules, details: bool = False
) -> str:
    """House edges of several bets on one shoe; with `details`, each bet's paytable too."""
    check_format(fmt)
    if fmt == "json":
        return dumps(
            {"shoe": str(shoe), "rules": rules.name, "bets": {a.bet.name: bet_json(a) for a in analyses}}
        )
    out = [
        _heading(f"House edges: {shoe}, {rules.name} rules", fmt),
        table(edges_rows(analyses), EDGE_HEADERS, fmt),
    ]
    out.append(
        "\n\nHouse edge per unit bet, positive when the house wins; pushes count as bets. "
        "'Per resolved bet' leaves pushes out.\n"
    )
    if details:
        for a in analyses:
            heading = f"### {a.bet.title} (`{a.bet.name}`)" if fmt == "markdown" else a.bet.title
            source = f"Source: {a.bet.source}." if a.bet.source else ""
            out.append(f"\n{heading}\n\n{source}\n\n{bet_table(a, fmt)}\n")
    return "".join(out)


def render_compare(
    cmp: Comparison, fmt: str, sections: Sequence[str] = ("edges", "commissions", "tableau")
) -> str:
    """Payout rules side by side across shoes, commission equivalents, tableau effects."""
    check_format(fmt)
    labels = [str(shoe) for shoe in cmp.shoes]
    if fmt == "json":
        return dumps(
            {
                "shoes": labels,
                "edges": {
                    table.name: {
                        bet.name: dict(
                            zip(labels, map(exact, cmp.edges[(table.name, bet.name)]), strict=True)
                        )
                        for bet in table.bets
                    }
                    for table in cmp.tables
                },
                "shoe": str(cmp.shoe),
                "commissions": {
                    m.bet.name: {
                        "house_edge": exact(m.house_edge),
                        "commission": exact(m.commission),
                        "relative_to_5pct": exact(m.relative_to()),
                    }
                    for m in cmp.commissions
                },
                "tableau": {
                    "base": cmp.base.name,
                    "variant": cmp.variant.name,
                    "differences": cmp.base.differences(cmp.variant),
                    "bets": {
                        e.bet.name: {
                            "base": exact(e.base),
                            "variant": exact(e.variant),
                            "change": exact(e.change),
                        }
                        for e in cmp.tableau
                    },
                },
            }
        )
    parts = {
        "edges": lambda: (
            _heading("House edge of each table's bets across shoes", fmt)
            + table(
                [
                    [t.title, bet.name, *(percent(edge) for edge in cmp.edges[(t.name, bet.name)])]
                    for t in cmp.tables
                    for bet in t.bets
                ],
                ["table", "bet", *labels],
                fmt,
            )
        ),
        "commissions": lambda: (
            _heading(f"Commission giving the same Banker edge ({cmp.shoe})", fmt)
            + table(
                [
                    [
                        m.bet.name,
                        percent(m.house_edge),
                        percent(m.commission),
                        ("+" if m.relative_to() >= 0 else "") + percent(m.relative_to(), 2),
                        exact(m.commission),
                    ]
                    for m in cmp.commissions
                ],
                ["bet", "house edge", "equivalent commission", "vs 5% commission", "commission (exact)"],
                fmt,
            )
        ),
        "tableau": lambda: (
            _heading(f"Tableau {cmp.variant.name} against {cmp.base.name} ({cmp.shoe})", fmt)
            + "Differences: "
            + ("; ".join(cmp.base.differences(cmp.variant)) or "none")
            + ".\n\n"
            + table(
                [
                    [e.bet.name, percent(e.base), percent(e.variant), percent(e.change), exact(e.change)]
                    for e in cmp.tableau
                ],
                ["bet", f"edge ({cmp.base.name})", f"edge ({cmp.variant.name})", "change", "change (exact)"],
                fmt,
            )
        ),
    }
    return "\n\n".join(parts[name]() for name in sections) + "\n"


# --- Composition-dependent analysis --------------------------------------------------


def _render_eor(eor: EffectsOfRemoval, fmt: str, places: int = 7) -> str:
    """Effects of removal: change in each bet's expectation per unit bet from removing one
    card of each rank, and the full-shoe identity sum_r n_r * EoR_r = 0."""
    check_format(fmt)
    counts = dict(zip(map(str, RANKS), eor.shoe.counts or (), strict=False))
    identity = {
        bet: sum((counts[rank] * value for rank, value in effects.items()), Fraction(0))
        for bet, effects in eor.effects.items()
    }
    if fmt == "json":
        return dumps(
            {
                "shoe": str(eor.shoe),
                "rules": eor.rules.name,
                "expectation": {bet: exact(ev) for bet, ev in eor.base.items()},
                "bets": {
                    bet: {rank: exact(v) for rank, v in effects.items()}
                    for bet, effects in eor.effects.items()
                },
                "identity": {bet: exact(total) for bet, total in identity.items()},
            }
        )
    title = f"Effects of removal: {eor.shoe}, {eor.rules.name} rules"
    note = (
        "\n\nChange in expectation per unit bet (bettor's view) from removing one card of each rank "
        "off the top of this shoe; ten-valued ranks share one row when their effects are equal. Last "
        "row: sum over ranks of (cards of the rank) x effect, exactly 0 for every bet: removing a "
        "random card leaves the expectation unchanged.\n"
    )
    return _heading(title, fmt) + _eor_by_rank(eor, identity, fmt, places) + note


#: Bets per block of the effects-of-removal table (ranks as rows), so it fits 120 columns.
_EOR_BETS_PER_BLOCK = 7


def _eor_by_rank(eor: EffectsOfRemoval, identity: dict[str, Fraction], fmt: str, places: int) -> str:
    """Effects of removal with ranks as rows and bets as columns, in blocks of bets."""
    bets = list(eor.effects)
    ranks = list(next(iter(eor.effects.values())).keys()) if eor.effects else []
    tens = [rank for rank in ranks if rank in ("10", "J", "Q", "K")]
    merge = len(tens) > 1 and all(len({eor.effects[bet][r] for r in tens}) == 1 for bet in bets)
    groups = [[rank] for rank in ranks if not (merge and rank in tens)]
    if merge:
        groups.append(tens)
    blocks = []
    for start in range(0, len(bets), _EOR_BETS_PER_BLOCK):
        chosen = bets[start : start + _EOR_BETS_PER_BLOCK]
        rows = [
            [
                ", ".join(group) + (" (each)" if len(group) > 1 else ""),
                *(_signed(eor.effects[bet][group[0]], places) for bet in chosen),
            ]
            for group in groups
        ]
        rows.append(["sum n_r x effect", *(exact(identity[bet]) for bet in chosen)])
        blocks.append(table(rows, ["rank removed", *chosen], fmt))
    return "\n\n".join(blocks)


DERIVED_HEADERS = [
    "bet", "level", "tags A..9, ten", "balanced", "betting correlation", "break-even true count",
]  # fmt: skip


def derived_rows(counts: Sequence[DerivedCount]) -> list[list[str]]:
    """Rows of best linear counts: tags shown for A..9 and the ten-valued ranks."""
    return [
        [
            c.bet,
            str(c.level),
            " ".join(f"{t:+d}" for t in c.tags[:10]),
            "yes" if c.balanced else "no",
            f"{c.correlation:.4f}",
            f"{c.break_even:.1f}",
        ]
        for c in counts
    ]


def render_eor(eor: EffectsOfRemoval, fmt: str, counts: Sequence[DerivedCount] = (), places: int = 7) -> str:
    """Effects of removal and the identity they satisfy; with `counts`, the best linear
    counts derived from them."""
    text = _render_eor(eor, fmt, places)
    if fmt == "json":
        import json

        data = json.loads(text)
        data["best_counts"] = {c.bet: [] for c in counts}
        for c in counts:
            data["best_counts"][c.bet].append(
                {
                    "level": c.level,
                    "tags": dict(zip(map(str, RANKS), c.tags, strict=True)),
                    "balanced": c.balanced,
                    "betting_correlation": round(c.correlation, 6),
                    "break_even_true_count": round(c.break_even, 3),
                }
            )
        return dumps(data)
    if not counts:
        return text
    heading = "Best linear counts (from these effects)"
    return text + "\n" + _heading(heading, fmt) + table(derived_rows(counts), DERIVED_HEADERS, fmt) + "\n"


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
        "win_per_shoe": {k: {"mean": round(m, 6), "se": round(se, 6)} for k, (m, se) in stats.items()},
    }


COUNT_HEADERS = [
    "system", "bet", "bets/shoe", "count-EV corr", "P(EV>0)", "EV when betting",
    "EV win/shoe", "realized win/shoe", "win/100 coups", "perfect info/shoe",
]  # fmt: skip


def count_rows(results: Sequence[SystemEvaluation]) -> list[list[str]]:
    rows = []
    for r in results:
        (ev, ev_se), (real, real_se), (perf, perf_se) = (
            r.per_shoe(k) for k in ("expected", "realized", "perfect")
        )
        per_100 = r.expectation_triggered * 100 / r.coups if r.coups else Fraction(0)
        rows.append(
            [
                r.system.name,
                r.bet.name,
                f"{r.triggers / r.shoes:.2f}",
                f"{r.correlation:.3f}",
                percent(Fraction(r.positive, max(r.coups, 1)), 2),
                "n/a" if r.trigger_edge is None else percent(r.trigger_edge, 2),
                f"{ev:+.3f} ± {ev_se:.3f}",
                f"{real:+.3f} ± {real_se:.3f}",
                decimal(per_100, 4),
                f"{perf:+.3f} ± {perf_se:.3f}",
            ]
        )
    return rows


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
            "risk_of_ruin", "coups_per_hour", "bets_per_hour", "win_per_hour",
        )
    }  # fmt: skip
    data["win_per_100_coups"] = {
        "mean": round(figures.win_per_100_coups, 6),
        "se": round(figures.win_per_100_coups_se, 6),
    }
    return data


ADVANTAGE_HEADERS = [
    "system", "bet", "tags", "bets when", "bets/shoe", "win/shoe", "win/100 coups", "SD/shoe",
    "SD/coup bet", "N0 (coups bet)", "risk of ruin", "bets/hour", "win/hour",
]  # fmt: skip


def advantage_rows(
    results: Sequence[SystemEvaluation], figures: Sequence[AdvantageFigures]
) -> list[list[str]]:
    """One row per system: its tags and rule, and the advantage-play figures."""
    rows = []
    for r, f in zip(results, figures, strict=True):
        rows.append(
            [
                r.system.name, r.bet.name, tags_text(r.system.tags), r.system.rule, f"{f.bets_per_shoe:.2f}",
                f"{f.win_per_shoe:+.3f} ± {f.win_per_shoe_se:.3f}",
                f"{f.win_per_100_coups:+.4f} ± {f.win_per_100_coups_se:.4f}",
                f"{f.sd_per_shoe:.2f}", f"{f.sd_per_coup_bet:.2f}", "n/a" if f.n0 is None else f"{f.n0:,.0f}",
                f"{f.risk_of_ruin:.2%}", f"{f.bets_per_hour:.1f}", f"{f.win_per_hour:+.3f}",
            ]
        )  # fmt: skip
    return rows


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
        systems = [count_json(r) for r in results]
        for data, result, fig in zip(systems, results, figures, strict=False):
            data.update(tags=list(result.system.tags), rule=result.system.rule, **advantage_json(fig))
        return dumps({"procedure": procedure, "systems": systems})
    note = (
        "\n\nWins are in units of one flat bet per trigger, ± one standard error over shoes. "
        "'EV win' sums the exact expectation of the coups bet; 'realized' the outcomes dealt; "
        "'perfect info' bets exactly when the exact expectation is positive.\n"
    )
    text = _heading(f"Counting systems: {procedure}", fmt) + table(count_rows(results), COUNT_HEADERS, fmt)
    text += note
    if not figures:
        return text
    first = figures[0]
    return (
        text
        + "\n"
        + _heading("Advantage-play figures", fmt)
        + table(advantage_rows(results, figures), ADVANTAGE_HEADERS, fmt)
        + f"\n\nTags A..9 then ten-valued (all 13 ranks when those differ). Win per shoe: exact EV of "
        f"the coups bet; per 100 coups dealt. SD: of the result dealt. N0 = (SD per coup bet / EV per "
        f"coup bet)^2. Risk of ruin for a bankroll of {first.bankroll:g} units: {_ruin_formula()}. "
        f"Per hour: {first.coups_per_hour:g} coups dealt per hour.\n"
    )


# --- issue 11: metadata, `list`, closed forms ------------------------------------------


def shoe_json(shoe: Shoe, removed: Sequence[str] = ()) -> dict[str, Any]:
    """A shoe as structured JSON: {"decks": 8} (or "inf") or {"counts": [13 ints]} before
    removal, with "removed" (the cards taken out), "cards" and the display "label"."""
    from analyzer.core.suits import parse_card

    if shoe.counts is None:
        return {"decks": "inf", "label": str(shoe)}
    base = list(shoe.counts)
    for card in removed:
        base[RANKS.index(parse_card(card)[0])] += 1
    data: dict[str, Any] = (
        {"decks": base[0] // 4} if len(set(base)) == 1 and base[0] % 4 == 0 else {"counts": base}
    )
    if removed:
        data["removed"] = [_card_text(card) for card in removed]
    data["cards"] = shoe.size
    data["label"] = str(shoe)
    return data


def _card_text(card: str) -> str:
    """A removed card as the shoe reads it: a rank ("5") or a suited card ("KH")."""
    from analyzer.core.suits import parse_card

    rank, suit = parse_card(card)
    return f"{rank}{suit.value if suit else ''}"


def render_list(kind: str, entries: Sequence[Any], fmt: str = "table") -> str:
    """Built-in names with title and source (`entries`: analyzer.present.listing.Entry values)."""
    check_format(fmt)
    if fmt == "json":
        return dumps(
            {
                kind: {
                    e.name: {
                        "title": e.title,
                        "source": e.source,
                        **({"aliases": list(e.aliases)} if e.aliases else {}),
                    }
                    for e in entries
                }
            }
        )
    rows = [[e.name + "".join(f" (alias {a})" for a in e.aliases), e.title, e.source] for e in entries]
    if fmt == "table":
        rows = [[name, _wrap(title, 40), _wrap(source, 48)] for name, title, source in rows]
    return _heading(f"Built-in {kind}", fmt) + table(rows, ["name", "title", "source"], fmt) + "\n"


def _wrap(text: str, width: int) -> str:
    """Prose wrapped to `width` columns, so terminal tables fit 120 columns."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width)) or text


def render_closed_forms(forms: Sequence[Any], fmt: str = "table") -> str:
    """Closed forms in d (`forms`: analyzer.analyses.closed_form.ClosedForm values): text, LaTeX in
    Markdown, or JSON strings that sympy.sympify reads back."""
    import sympy as sp  # type: ignore[import-untyped,unused-ignore]

    check_format(fmt)
    if fmt == "json":
        return dumps(
            {
                "variable": "d (number of 52-card decks)",
                "bets": {
                    f.bet.name: {
                        "title": f.bet.title,
                        "house_edge": str(f.house_edge),
                        "house_edge_infinite_deck": str(f.house_edge_limit),
                        "results": {
                            label: {"probability": str(p), "infinite_deck": str(limit)}
                            for (label, p), (_, limit) in zip(f.results, f.results_limit, strict=True)
                        },
                    }
                    for f in forms
                },
            }
        )
    rules = forms[0].rules.name if forms else "standard"
    out = [_heading(f"Closed forms in the number of decks d, {rules} rules", fmt)]
    for f in forms:
        if fmt == "markdown":
            out.append(f"### {f.bet.title} (`{f.bet.name}`)\n\n")
            out.append(f"House edge: $${sp.latex(f.house_edge)}$$\n\n")
            out.append(
                f"Infinite deck: ${sp.latex(f.house_edge_limit)}$ "
                f"({percent(_fraction(f.house_edge_limit))})\n\n"
            )
            rows = [[label, f"${sp.latex(p)}$"] for label, p in f.results]
            out.append(table(rows, ["result", "probability"], fmt) + "\n\n")
        else:
            out.append(f"{f.bet.title} ({f.bet.name})\n")
            out.append(f"  house edge = {f.house_edge}\n")
            out.append(f"  infinite deck: {f.house_edge_limit} ({percent(_fraction(f.house_edge_limit))})\n")
            for label, p in f.results:
                out.append(f"  P({label}) = {p}\n")
            out.append("\n")
    return "".join(out)


def _fraction(value: Any) -> Fraction:
    from analyzer.analyses.closed_form import to_fraction  # (sympy is loaded already: value is one of its)

    return to_fraction(value)
