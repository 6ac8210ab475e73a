"""Par sheets as documents: Markdown (the default), JSON, or a self-contained HTML page
(`analyzer.present.par_html`). A sheet is written once, as a list of blocks of the document
model (`analyzer.present.document`: headings, paragraphs, lists, tables, figures), which each
format's writer writes; its JSON holds the same
figures with exact values as "p/q" strings."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.present.counting import cover_json, mean_se
from analyzer.present.document import Block, Bullets, Figure, Heading, Paragraph, Table, Value, write_markdown
from analyzer.present.edges import bet_block, bet_json, pays_text
from analyzer.present.effects import derived_rows
from analyzer.present.par_counts import (
    countability_blocks,
    search_text,
    study_json,
    verdict_reason,
    verdict_text,
)
from analyzer.present.rules import tableau
from analyzer.present.text import (
    DOCUMENT_FORMATS,
    decimal,
    exact,
    markdown_code,
    markdown_text,
    percent,
    short_float,
    signed_decimal,
)

if TYPE_CHECKING:
    from analyzer.counting.par import ParSheet
    from analyzer.present.identity import Identification, Provenance

__all__ = [
    "FORMATS",
    "INDEX_HEADERS",
    "MARKER",
    "Block",
    "identification_blocks",
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
    figures = [a.house_edge, resolved, a.hit_frequency, a.push, a.variance]
    values: list[list[Value]] = [
        [row[0], value, None if value is None else exact(value)]
        for row, value in zip(rows, figures, strict=False)
    ]
    values.append([rows[-1][0], a.std_dev, None])
    return [
        Heading("2. The exact table"),
        bet_block(a, "markdown"),
        Table.of(rows, ["figure", "value", "exact"], values),
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
    decks = [[label, percent(edge), exact(edge)] for label, edge in sheet.by_decks]
    blocks: list[Block] = [
        Heading("5. Sensitivity"),
        Paragraph(
            f"House edge by the number of decks ({markdown_text(sheet.rules.name)} tableau; "
            "inf: the infinite deck):"
        ),
        Table.of(decks, ["decks", "house edge", "exact"], [[n, e, exact(e)] for n, e in sheet.by_decks]),
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
        typed: list[list[Value]] = [[name, edge, exact(edge)] for name, edge in sheet.by_rules]
        blocks += [
            Paragraph(f"Under the other built-in tableau, on {_shoe(sheet)}:"),
            Table.of(rows, ["tableau", "house edge", "exact"], typed),
        ]
    return blocks


def _effects(sheet: ParSheet) -> list[Block]:
    what = (
        f"Exact change in the bettor's expectation per unit bet from removing one card of each "
        f"{sheet.per} from {_shoe(sheet)}"
    )
    if not any(sheet.effects.values()):  # one sentence, not a table of zeros
        return [
            Heading("6. Effects of removal"),
            Paragraph(
                f"{what}: exactly 0 for every {sheet.per} ({len(sheet.effects)} of them). Removing any "
                "one card leaves this bet's expectation as it is."
            ),
        ]
    rows = [[card, signed_decimal(value, 7), exact(value)] for card, value in sheet.effects.items()]
    values: list[list[Value]] = [[card, value, exact(value)] for card, value in sheet.effects.items()]
    return [
        Heading("6. Effects of removal"),
        Paragraph(f"{what}; weighted by the shoe's counts they sum to exactly 0."),
        Table.of(rows, [sheet.per, "effect", "exact"], values),
        Figure("effects"),
    ]


def identification_blocks(ident: Identification) -> list[Block]:
    """The identification block of a sheet: what a lab files it by."""
    rows = [
        ["software", f"{ident.software} {ident.version}"],
        ["date", ident.date],
        ["table file", markdown_text(ident.table_file)],
        ["table file SHA-256", "n/a" if ident.table_sha256 is None else f"`{ident.table_sha256}`"],
        ["bet definition SHA-256", f"`{ident.bet_sha256}`"],
        ["rules", markdown_text(ident.rules)],
        ["rules SHA-256", f"`{ident.rules_sha256}`"],
        ["shoe", markdown_text(ident.shoe)],
    ]
    return [
        Heading("Identification"),
        Table.of(rows, ["field", "value"]),
        Paragraph(f"Procedure of the counting study: {markdown_text(ident.procedure)}."),
        Paragraph(
            "SHA-256 of the table file: of its bytes; of the bet and of the rules: of their canonical "
            "JSON (keys sorted, no spaces, UTF-8), as the JSON sheet's `identification` states them."
        ),
    ]


def sheet_blocks(sheet: ParSheet, provenance: Provenance | None = None) -> list[Block]:
    """Every block of one sheet, in the order of its sections, after its identification
    block (`provenance`: its date and table file, `analyzer.present.identity.identify`)."""
    from analyzer.present.identity import identify

    return [
        *identification_blocks(identify(sheet, provenance)),
        *_what(sheet),
        *_exact_table(sheet),
        *_volatility(sheet),
        *_top_award(sheet),
        *_sensitivity(sheet),
        *_effects(sheet),
        *countability_blocks(sheet),
    ]


def sheet_markdown(sheet: ParSheet, provenance: Provenance | None = None) -> str:
    """One sheet in Markdown (its charts are in the HTML sheet)."""
    title = Heading(sheet_title(sheet), 1)
    note = Paragraph(f"{MARKER}; do not edit. Charts: in the HTML sheet.")
    return write_markdown([title, note, *sheet_blocks(sheet, provenance)]) + "\n"


def par_json(sheet: ParSheet, provenance: Provenance | None = None) -> dict[str, Any]:
    """One sheet's figures as JSON-ready values (exact values "p/q", simulated ones decimals),
    its identification block under "identification"."""
    from analyzer.counting.par import SELECTION
    from analyzer.present.identity import identify

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
                **({} if study.evaluation.cover is None else {"cover": cover_json(study.evaluation)}),
                "choosing_shoes": study.choosing,
                "judging_shoes": study.evaluation.shoes,
                "win_per_shoe_choosing": None if study.chosen_win is None else mean_se(*study.chosen_win),
                "selection": SELECTION if study.choosing else None,
            },
            "verdict": sheet.verdict.kind,
            "verdict_reason": verdict_reason(sheet.verdict),
            "shoes_to_settle": sheet.verdict.shoes_to_settle,
            "verdict_rule": sheet.verdict.rule,
            "degenerate": sheet.verdict.degenerate or None,
            "count_judged": sheet.verdict.count or None,
            "search": search_text(sheet) or None,
            "tried": [study_json(other) for other in sheet.tried],
        },
    )
    if sheet.closed_form is not None:
        data["closed_form"] = {
            "house_edge": str(sheet.closed_form.house_edge),
            "house_edge_infinite_deck": str(sheet.closed_form.house_edge_limit),
        }
    data["identification"] = identify(sheet, provenance).to_data()
    return data


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
    return write_markdown([
        Heading("Par sheets", 1),
        Paragraph(f"{MARKER}; do not edit. One sheet per bet{index_where(sheets)}."),
        Table.of(rows, INDEX_HEADERS),
    ])  # fmt: skip
