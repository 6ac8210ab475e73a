"""Par sheets as documents: Markdown (the default), JSON, or a self-contained HTML page
(`analyzer.present.par_html`). A sheet is written once, as a list of blocks of the document
model (`analyzer.present.document`: headings, paragraphs, lists, tables, figures), which each
format's writer writes; its JSON holds the same
figures with exact values as "p/q" strings."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.present.counting import mean_se, plus_minus, tags_text
from analyzer.present.document import Block, Bullets, Figure, Heading, Paragraph, Table, write_markdown
from analyzer.present.edges import bet_json, bet_rows, pays_text
from analyzer.present.effects import DERIVED_HEADERS, derived_rows
from analyzer.present.rules import tableau
from analyzer.present.text import (
    DOCUMENT_FORMATS,
    decimal,
    exact,
    heading,
    markdown_code,
    markdown_text,
    percent,
    short_float,
    signed_decimal,
)

if TYPE_CHECKING:
    from analyzer.counting.par import ParSheet, Verdict

__all__ = [
    "FORMATS",
    "INDEX_HEADERS",
    "MARKER",
    "Block",
    "index_rows",
    "index_where",
    "par_index",
    "par_json",
    "search_text",
    "sheet_blocks",
    "sheet_markdown",
    "sheet_title",
    "verdict_reason",
    "verdict_text",
]

#: The formats of `baccarat par-sheet`, the default first.
FORMATS = DOCUMENT_FORMATS
#: Words every written sheet carries near its top: `baccarat report` and `--out` know their files by them.
MARKER = "Generated from the code by `baccarat par-sheet`"


def _pm(mean: float, se: float) -> str:
    return plus_minus(mean, se, 4)


def verdict_text(verdict: Verdict) -> str:
    """The verdict as a sheet states it, e.g. "inconclusive at 2,000 shoes"."""
    from analyzer.counting.par import INCONCLUSIVE

    return f"{verdict.kind} at {_shoes(verdict.shoes)}" if verdict.kind == INCONCLUSIVE else verdict.kind


def verdict_reason(verdict: Verdict) -> str:
    """The figures a verdict rests on and the rule that decided it, in one sentence."""
    from analyzer.counting.par import BEATABLE, SIGMAS

    limit = float(verdict.material)
    threshold = f"the threshold of {limit:g} units per shoe"
    ceiling = _bound(verdict.perfect)
    played = len(verdict.tried) + 1
    if verdict.win is None:
        figures = "no linear count reads this bet (every rank's removal has the same effect)"
    elif verdict.degenerate and verdict.tried:
        figures = (
            f"no count of the {played} played has evidence in {_shoes(verdict.shoes)} (each made no "
            "bets or won the same on every shoe)"
        )
    elif verdict.degenerate:
        figures = f"the count {_degenerate(verdict)}"
    elif verdict.tried:
        wins = f"wins {_pm(*verdict.win)} units per shoe"
        figures = f"the best of the {played} counts played, {verdict.count}, {wins}"
    else:
        figures = f"the count wins {_pm(*verdict.win)} units per shoe"
    if verdict.rule == "unmeasured":
        if verdict.win is not None and verdict.bets != 0:
            figures = f"the count wins {short_float(verdict.win[0], '+.4f')} units in {_shoes(verdict.shoes)}"
        shoes = _shoes(verdict.shoes)
        return f"{figures}: a study of {shoes} has no standard error and decides nothing; run more shoes"
    if verdict.rule == "count":
        side = "above" if verdict.kind == BEATABLE else "below"
        return f"{figures}: more than {SIGMAS} standard errors {side} {threshold}"
    if verdict.rule == "bound":
        reason = f"{figures}, and the perfect-information bound, {ceiling}, which no count can pass,"
        return f"{reason} is more than {SIGMAS} standard errors below {threshold}"
    if verdict.counted:
        where = f"within {SIGMAS} standard errors of {threshold} (the perfect-information bound: {ceiling})"
    elif verdict.perfect[1] <= 0:
        where = f"and the perfect-information bound, {ceiling}, has no standard error: it decides nothing"
    else:
        side = "above" if verdict.perfect[0] > limit else "not below"
        where = f"and the perfect-information bound, {ceiling}, is {side} {threshold}"
        if verdict.win is None:
            where += ": a count made for this bet would need a study of its own"
        elif verdict.degenerate:
            where += ": a count that bets more often may beat it"
    if verdict.degenerate and not verdict.counted:
        figures += ", so no count's study decides"
    needed = verdict.shoes_to_settle
    unsettled = "more shoes of this study cannot settle it"
    more = f"about {needed:,} shoes would settle it" if needed else unsettled
    return f"{figures}, {where}; {more}"


def _degenerate(verdict: Verdict) -> str:
    """Why the level-1 count's study decides nothing, e.g. "made no bets in 400 shoes"."""
    if verdict.degenerate == "no bets":
        return f"made no bets in {_shoes(verdict.shoes)}"
    return f"has no standard error in {_shoes(verdict.shoes)} (its win per shoe never varied)"


def _bound(perfect: tuple[float, float]) -> str:
    """The perfect-information bound per shoe, without a "± 0" where it never varied."""
    mean, se = perfect
    if se > 0:
        return f"{_pm(mean, se)} units per shoe"
    return f"{short_float(mean, '+.4f')} units per shoe on every shoe"


def _shoes(count: int) -> str:
    """A number of shoes in words, e.g. "1 shoe", "2,000 shoes"."""
    return f"{count:,} shoe{'' if count == 1 else 's'}"


def _power(rounds: int) -> str:
    """A power of ten as written on the sheets, e.g. 10^8."""
    return f"10^{len(str(rounds)) - 1}"


def _one_in(probability: Fraction) -> str:
    return f"1 in {decimal(1 / probability, 2)}" if probability else "never"


def sheet_title(sheet: ParSheet) -> str:
    """A sheet's title (Markdown inline code for the bet's name)."""
    return f"Par sheet: {markdown_text(sheet.bet.title)} ({markdown_code(sheet.bet.name)})"


def index_where(sheets: Sequence[ParSheet]) -> str:
    """The index's note of the shoe and tableau of its sheets ("" for none)."""
    return f" on {_shoe(sheets[0])}, {markdown_text(sheets[0].rules.name)} tableau" if sheets else ""


def _shoe(sheet: ParSheet) -> str:
    return markdown_text(str(sheet.shoe))


def _what(sheet: ParSheet) -> list[Block]:
    bet, study = sheet.bet, sheet.study
    lines = [f"{markdown_text(line.label)}: {pays_text(line.pays)}" for line in sheet.analysis.lines]
    proc = study.procedure
    paragraphs, rows, headers = tableau(sheet.rules, "markdown")
    source = markdown_text(bet.source) if bet.source else "a table file"
    return [
        Heading("1. What is bet"),
        Paragraph(f"{markdown_text(bet.title)}. Source: {source}. Reads: {', '.join(bet.reads)}."),
        Paragraph("Pay table (payout to 1 per unit bet; a push returns the stake):"),
        Bullets(tuple(lines)),
        Paragraph(
            f"Shoe: {_shoe(sheet)} ({sheet.shoe.size:,} cards), every coup dealt from a full shoe "
            f"(combinations count ordered sequences of 6 cards). Counting study: {study.shoes:,} shoes "
            f"of {markdown_text(str(proc.shoe))}, cut card {proc.cut_card} cards from the end, burn (the "
            f"face-up first card seen), no extra coup, seed {study.seed}."
        ),
        Heading(f"Tableau: {markdown_text(sheet.rules.name)}", 3),
        *(Paragraph(" ".join(paragraph)) for paragraph in paragraphs if any(paragraph)),
        Table.of(rows, headers),
    ]


def _exact_table(sheet: ParSheet) -> list[Block]:
    a = sheet.analysis
    resolved = a.house_edge_resolved
    rows = [
        ["house edge (per unit bet)", percent(a.house_edge), exact(a.house_edge)],
        [
            "house edge per resolved bet",
            "n/a" if resolved is None else percent(resolved),
            "n/a" if resolved is None else exact(resolved),
        ],
        ["hit frequency", decimal(a.hit_frequency, 6), exact(a.hit_frequency)],
        ["push", decimal(a.push, 6), exact(a.push)],
        ["variance of the net win", decimal(a.variance, 6), exact(a.variance)],
        ["standard deviation", short_float(a.std_dev, ".6f"), "(square root of the variance)"],
    ]
    return [
        Heading("2. The exact table"),
        Table.of(*bet_rows(a, "markdown")),
        Table.of(rows, ["figure", "value", "exact"]),
    ]


def _volatility(sheet: ParSheet) -> list[Block]:
    from analyzer.counting.par import CONFIDENCE_Z

    vi = sheet.volatility_index
    rows = [[level, decimal(z, 4), short_float(vi[level], ".4f")] for level, z in CONFIDENCE_Z.items()]
    bands: dict[int, list[str]] = {}
    for band in sheet.hold_bands:
        bands.setdefault(band.rounds, [f"{band.rounds:,}"]).append(f"{band.low:+.4%} to {band.high:+.4%}")
    return [
        Heading("3. Volatility"),
        Paragraph(
            f"Volatility index VI = z × σ per unit bet, σ = {short_float(sheet.analysis.std_dev, '.6f')} "
            f"(the square root of the exact variance above). Over N rounds the hold (the house's win per "
            f"unit bet) lies within the expected hold {percent(sheet.analysis.house_edge)} ± VI/√N "
            f"at that confidence (normal approximation)."
        ),
        Table.of(rows, ["confidence", "z", "VI"]),
        Table.of(list(bands.values()), ["rounds", *(f"hold, {level}" for level in CONFIDENCE_Z)]),
        Figure("volatility"),
    ]


def _top_award(sheet: ParSheet) -> list[Block]:
    from analyzer.counting.par import RARE_PAYS, RARE_ROUNDS

    top = sheet.top_award
    blocks: list[Block] = [Heading("4. Top award")]
    if top is None:
        return [*blocks, Paragraph("No line pays.")]
    lines = f" ({len(top.lines)} lines pay it; their probabilities summed)" if len(top.lines) > 1 else ""
    blocks.append(
        Paragraph(
            f"**{markdown_text(top.label)}** pays {pays_text(top.pays)}{lines}: probability "
            f"{decimal(top.probability, 10)} (exactly {exact(top.probability)}), "
            f"{_one_in(top.probability)} rounds."
        )
    )
    rare = sheet.rare_awards
    if rare:
        items = tuple(
            f"{markdown_text(award.label)}: {pays_text(award.pays)}, {_one_in(award.probability)}"
            for award in rare
        )
        blocks += [
            Paragraph(
                f"**Flagged**: awards paying {RARE_PAYS} to 1 or more that occur less often than once "
                f"in {_power(RARE_ROUNDS)} rounds (lines paying the same are one award; each line's "
                "figures are in the exact table):"
            ),
            Bullets(items),
        ]
    else:
        blocks.append(
            Paragraph(
                f"No award paying {RARE_PAYS} to 1 or more occurs less often than once in "
                f"{_power(RARE_ROUNDS)} rounds (lines paying the same are one award)."
            )
        )
    return blocks


def _sensitivity(sheet: ParSheet) -> list[Block]:
    decks = [
        [label, percent(edge), exact(edge)]
        for label, edge in sheet.by_decks
    ]
    blocks: list[Block] = [
        Heading("5. Sensitivity"),
        Paragraph(
            f"House edge by the number of decks ({markdown_text(sheet.rules.name)} tableau; "
            "inf: the infinite deck):"
        ),
        Table.of(decks, ["decks", "house edge", "exact"]),
    ]
    form = sheet.closed_form
    if form is not None:
        blocks.append(
            Paragraph(
                f"Closed form in the number of decks d: house edge = `{form.house_edge}`; "
                f"as d → ∞: `{form.house_edge_limit}`."
            )
        )
    if sheet.by_rules:
        rows = [[markdown_text(name), percent(edge), exact(edge)] for name, edge in sheet.by_rules]
        blocks += [
            Paragraph(f"Under the other built-in tableau, on {_shoe(sheet)}:"),
            Table.of(rows, ["tableau", "house edge", "exact"]),
        ]
    return blocks


def _effects(sheet: ParSheet) -> list[Block]:
    rows = [[card, signed_decimal(value, 7), exact(value)] for card, value in sheet.effects.items()]
    return [
        Heading("6. Effects of removal"),
        Paragraph(
            f"Exact change in the bettor's expectation per unit bet from removing one card of each "
            f"{sheet.per} from {_shoe(sheet)}; weighted by the shoe's counts they sum to exactly 0."
        ),
        Table.of(rows, [sheet.per, "effect", "exact"]),
        Figure("effects"),
    ]


def search_text(sheet: ParSheet) -> str:
    """How the sheet's best counts were found, in one sentence ("" for no count)."""
    if not sheet.best_counts:
        return ""
    tens = (
        "one tag for the ten-valued ranks, whose effects agree"
        if sheet.best_counts[0].tens == "tied"
        else "a tag for each ten-valued rank, as their effects differ"
    )
    vectors = ", ".join(f"{(2 * level + 1) ** (10 if sheet.best_counts[0].tens == 'tied' else 13):,}"
                        for level in (1, 2, 3))  # fmt: skip
    return (
        f"Each level's count is the best of every tag vector of the level ({vectors} vectors at "
        f"levels 1, 2 and 3; {tens}), balanced or not, found exactly: the ranks are searched one "
        "by one keeping, for each sum of the tags and sum of their squares, the tags of the highest "
        "covariance with the effects, and the correlations are compared in exact integers. Where "
        "an unbalanced count is best, the best balanced count of its level follows it."
    )


def _measured(mean: float, se: float, shoes: int, bets: int | None = None) -> str:
    """A simulated figure and its standard error; no "± 0" for a figure from no data."""
    if bets == 0:
        return "none (no bets)"
    if shoes < 2:
        return f"{short_float(mean, '+.4f')} (no standard error)"
    if se <= 0:
        return f"{short_float(mean, '+.4f')} on every shoe (no standard error)"
    return _pm(mean, se)


def _played(sheet: ParSheet) -> list[Block]:
    """Every count played, in the order of the best counts' table, the judged one marked."""
    if not sheet.tried:
        return []
    studies = sorted((sheet.study, *sheet.tried), key=_order(sheet))
    rows = [
        [
            str(other.system.level) if other.system else "",
            "yes" if other.system and other.system.balanced else "no",
            f"{other.system.rule}{f' (start {other.system.initial:+d})' if other.system.initial else ''}"
            if other.system else "",
            f"{other.figures.bets_per_shoe:.2f}",
            _measured(*other.win_per_shoe, other.shoes, other.evaluation.triggers),
            "judged" if other is sheet.study else "",
        ]
        for other in studies
    ]
    return [
        Paragraph(f"Every count of the table played on the same {_shoes(sheet.study.shoes)}:"),
        Table.of(rows, ["level", "balanced", "bets when", "bets per shoe", "win per shoe (units)", ""]),
    ]


def _order(sheet: ParSheet) -> Any:
    """Sort key of a count's study: its place in the best counts' table."""
    tags = [c.tags for c in sheet.best_counts]

    def place(study: Any) -> int:
        return tags.index(study.system.tags) if study.system and study.system.tags in tags else len(tags)

    return place


def _countability(sheet: ParSheet) -> list[Block]:
    from analyzer.counting.par import SIGMAS

    study, figures, verdict = sheet.study, sheet.study.figures, sheet.verdict
    (m, s), (p, sp) = study.win_per_shoe, study.perfect
    blocks: list[Block] = [Heading("7. Countability")]
    if sheet.best_counts:
        blocks += [
            Paragraph("Best linear counts (tags per rank, from the effects of removal of each rank):"),
            Table.of(derived_rows(sheet.best_counts, "markdown"), DERIVED_HEADERS),
            Paragraph(search_text(sheet)),
        ]
        system = study.system
        assert system is not None
        start = f", starting at {system.initial:+d}" if system.initial else ""
        played = (
            f"The study plays each count of the table on the same shoes, betting at its linear "
            "break-even rounded up (an unbalanced count starting at minus its shoe's tag sum), and "
            f"judges the bet by the count that wins most per shoe among those with evidence: the "
            f"level-{system.level} count (tags A..9, ten: {tags_text(system.tags)}{start}), betting "
            f"when its {system.rule}."
        )
    else:
        played = (
            "No linear count: removing a card of any rank has the same effect, so every linear count "
            "has betting correlation 0. The study bets on no coup and measures the perfect-information "
            "bound alone."
        )
    n0 = "n/a" if figures.n0 is None else short_float(figures.n0, ",.0f")
    bets = study.evaluation.triggers if study.system is not None else 0
    per_100 = _measured(figures.win_per_100_coups, figures.win_per_100_coups_se, study.shoes, bets)
    rows = [
        ["win per shoe (units)", _measured(m, s, study.shoes, bets)],
        ["win per 100 coups dealt (units)", per_100],
        ["bets per shoe", f"{figures.bets_per_shoe:.2f}"],
        ["coups per shoe", f"{figures.coups_per_shoe:.2f}"],
        ["N0 (coups bet)", n0],
        ["perfect-information bound per shoe (units)", _measured(p, sp, study.shoes)],
    ]
    material = float(sheet.material)
    resolution = (
        f"Resolution: at {study.shoes:,} shoes the standard error of the count's win per shoe is "
        f"{s:.4f} units (the bound's {sp:.4f}): a win within {SIGMAS * s:.4f} units of the threshold "
        "is inconclusive."
    )
    if verdict.rule == "unmeasured":
        resolution = "Resolution: a study of one shoe has no standard error: run more shoes."
    elif bets == 0 or s <= 0:
        why = "made no bets" if bets == 0 else "has no standard error"
        who = f"the count {why}, so its win decides nothing" if study.system else "no count is played"
        bound = f"{sp:.4f} units" if sp > 0 else "none (it never varied)"
        resolution = (
            f"Resolution: {who}; at {study.shoes:,} shoes the standard error of the bound per shoe is "
            f"{bound}."
        )
    blocks += [
        Paragraph(
            f"{played} {_shoes(study.shoes)}, each coup valued exactly for the cards left; the "
            "figures of the count judged:"
        ),
        Table.of(rows, ["figure", "mean ± standard error"]),
        *_played(sheet),
        Paragraph(
            f"**Verdict: {verdict_text(verdict)}.** Against a materiality threshold of {material:g} units "
            f"per shoe of flat one-unit bets: {verdict_reason(verdict)}. The perfect-information bound "
            f"(betting exactly the coups of positive exact value) is the ceiling no count can pass.",
            role="verdict",
        ),
        Paragraph(
            f"{resolution} Rule: beatable when the win exceeds the threshold by more than {SIGMAS} "
            f"standard errors, not beatable by counting when the win (or the bound) plus {SIGMAS} "
            "standard errors stays below it; a figure with no evidence (a count that made no bets, "
            "a standard error of zero, a study of one shoe) decides nothing; the count judged is the "
            "one of the highest win per shoe among the counts played that have evidence."
        ),
    ]
    return blocks


def sheet_blocks(sheet: ParSheet) -> list[Block]:
    """Every block of one sheet, in the order of its sections."""
    return [
        *_what(sheet),
        *_exact_table(sheet),
        *_volatility(sheet),
        *_top_award(sheet),
        *_sensitivity(sheet),
        *_effects(sheet),
        *_countability(sheet),
    ]


def sheet_markdown(sheet: ParSheet) -> str:
    """One sheet in Markdown (its charts are in the HTML sheet)."""
    note = f"{MARKER}; do not edit. Charts: in the HTML sheet.\n\n"
    return heading(sheet_title(sheet), "markdown", 1) + note + write_markdown(sheet_blocks(sheet)) + "\n"


def par_json(sheet: ParSheet) -> dict[str, Any]:
    """One sheet's figures as JSON-ready values (exact values "p/q", simulated ones decimals)."""
    a, study = sheet.analysis, sheet.study
    data = bet_json(a)
    top = sheet.top_award
    figures = study.figures

    def award(found: Any) -> dict[str, Any]:
        return {
            "event": found.label,
            "pays": exact(found.pays),
            "probability": exact(found.probability),
            "one_in": exact(1 / found.probability) if found.probability else None,
            "lines": list(found.lines),
        }


    counts = derived_rows(sheet.best_counts)
    data.update(
        volatility_index={level: round(v, 6) for level, v in sheet.volatility_index.items()},
        hold_bands=[
            {"rounds": b.rounds, "confidence": b.confidence, "low": round(b.low, 8), "high": round(b.high, 8)}
            for b in sheet.hold_bands
        ],
        top_award=None if top is None else award(top),
        rare_awards=[award(line) for line in sheet.rare_awards],
        decks={label: exact(edge) for label, edge in sheet.by_decks},
        tableaux={name: exact(edge) for name, edge in sheet.by_rules},
        effects_of_removal={card: exact(v) for card, v in sheet.effects.items()},
        effects_per=sheet.per,
        countability={
            "material": exact(sheet.material),
            "best_counts": [
                {
                    "level": c.level,
                    "tags": list(c.tags),
                    "balanced": c.balanced,
                    "betting_correlation": round(c.correlation, 6),
                    "break_even_true_count": round(c.break_even, 3),
                    "row": row,
                    "tens": c.tens,
                    "search": c.search,
                }
                for c, row in zip(sheet.best_counts, counts, strict=True)
            ],
            "study": {
                "tags": None if study.system is None else list(study.system.tags),
                "initial": None if study.system is None else study.system.initial,
                "rule": None if study.system is None else study.system.rule,
                "shoes": study.shoes,
                "decks": str(study.procedure.shoe),
                "cut_card": study.procedure.cut_card,
                "seed": study.seed,
                "win_per_shoe": mean_se(*study.win_per_shoe),
                "win_per_100_coups": mean_se(figures.win_per_100_coups, figures.win_per_100_coups_se),
                "bets_per_shoe": round(figures.bets_per_shoe, 6),
                "n0": None if figures.n0 is None else round(figures.n0, 3),
                "perfect": mean_se(*study.perfect),
                "bets": None if study.system is None else study.evaluation.triggers,
            },
            "verdict": sheet.verdict.kind,
            "verdict_reason": verdict_reason(sheet.verdict),
            "shoes_to_settle": sheet.verdict.shoes_to_settle,
            "verdict_rule": sheet.verdict.rule,
            "degenerate": sheet.verdict.degenerate or None,
            "count_judged": sheet.verdict.count or None,
            "search": search_text(sheet) or None,
            "tried": [_study_json(other) for other in sheet.tried],
        },
    )
    if sheet.closed_form is not None:
        data["closed_form"] = {
            "house_edge": str(sheet.closed_form.house_edge),
            "house_edge_infinite_deck": str(sheet.closed_form.house_edge_limit),
        }
    return data


def _study_json(study: Any) -> dict[str, Any]:
    """A count tried: its tags, start, rule, bets and win per shoe."""
    system = study.system
    return {
        "count": verdict_count_name(system),
        "tags": list(system.tags),
        "initial": system.initial,
        "rule": system.rule,
        "bets": study.evaluation.triggers,
        "bets_per_shoe": round(study.figures.bets_per_shoe, 6),
        "win_per_shoe": mean_se(*study.win_per_shoe),
    }


def verdict_count_name(system: Any) -> str:
    """`counting.par.count_name` (loaded where it is used)."""
    from analyzer.counting.par import count_name

    return count_name(system)


def index_rows(sheets: Sequence[ParSheet]) -> list[list[str]]:
    """One row per sheet for an index (Markdown text): bet, title, house edge, top award, verdict."""
    return [
        [
            markdown_text(s.bet.name),
            markdown_text(s.bet.title),
            percent(s.analysis.house_edge),
            "n/a" if s.top_award is None else pays_text(s.top_award.pays),
            verdict_text(s.verdict),
        ]
        for s in sheets
    ]


INDEX_HEADERS = ["bet", "title", "house edge", "top award", "verdict"]


def par_index(sheets: Sequence[ParSheet], links: dict[str, str]) -> str:
    """A Markdown index of `sheets`, each bet name linked to `links[name]`."""
    rows = index_rows(sheets)
    for row, sheet in zip(rows, sheets, strict=True):
        row[0] = f"[{row[0]}]({links[sheet.bet.name]})"  # a file name: safe characters only
    from analyzer.present.text import table

    return (
        heading("Par sheets", "markdown", 1)
        + f"{MARKER}; do not edit. One sheet per bet{index_where(sheets)}.\n\n"
        + table(rows, INDEX_HEADERS, "markdown")
        + "\n"
    )
