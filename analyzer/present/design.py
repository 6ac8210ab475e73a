"""Designed paytables: every paytable whose house edge lies in the window, the closest to its
midpoint listed with their exact house edges, hit frequency, spread and top award."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from analyzer.analyses.design import design_comment
from analyzer.core.tablefile import written_pays
from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.metadata import shoe_json
from analyzer.present.text import check_format, decimal, dumps, exact, percent, short_float, user_text

if TYPE_CHECKING:
    from analyzer.analyses.design import Design, Solution
    from analyzer.core.shoe import Shoe

__all__ = [
    "deck_key",
    "design_blocks",
    "design_comment",
    "design_data",
    "render_design",
    "shoes_json",
    "written_paytable",
]


def _decks(shoe: Shoe) -> int | str:
    """A shoe of full decks as its number of decks (8), the infinite deck as "inf" (both as
    `shoe_json` gives them), any other shoe as its label."""
    decks: int | str = shoe_json(shoe).get("decks", str(shoe))
    return decks


def written_paytable(pick: int, path: str) -> str:
    """design's word that paytable `pick` was written to `path`."""
    return f"Paytable {pick} written to {path}."


def deck_key(shoe: Shoe) -> str:
    """A shoe as a JSON key: its number of decks ("8"), "inf", or its label."""
    return str(_decks(shoe))


def shoes_json(shoes: Sequence[Shoe]) -> dict[str, Any]:
    """The `shoe_spec` of a command pricing several deck counts: {"decks": [6, 8], "label"}."""
    return {"decks": [_decks(shoe) for shoe in shoes], "label": ", ".join(map(str, shoes))}


def _pays(design: Design, solution: Solution) -> list[int | str]:
    """Each line's payout in line order: a found one, or the fixed result as written."""
    return [written_pays(line.pays) for line in solution.bet.lines]


def _solution_json(design: Design, solution: Solution) -> dict[str, Any]:
    keys = [deck_key(shoe) for shoe in design.shoes]
    from analyzer.analyses.design import top_award_one_in  # the search loads only for design

    one_in = [top_award_one_in(a) for a in solution.analyses]
    return {
        "pays": _pays(design, solution),
        "house_edge": {k: exact(a.house_edge) for k, a in zip(keys, solution.analyses, strict=True)},
        "hit_frequency": {k: exact(a.hit_frequency) for k, a in zip(keys, solution.analyses, strict=True)},
        "std_dev": {k: f"{a.std_dev:.6f}" for k, a in zip(keys, solution.analyses, strict=True)},
        "top_award_one_in": {k: None if n is None else exact(n) for k, n in zip(keys, one_in, strict=True)},
    }


def design_data(design: Design) -> dict[str, Any]:
    """The JSON document of `render_design`: bet, window {low, high}, decks, count, solutions."""
    return {
        "bet": design.bet.name,
        "window": {"low": exact(design.low), "high": exact(design.high)},
        "decks": shoes_json(design.shoes)["decks"],
        "count": design.count,
        "solutions": [_solution_json(design, s) for s in design.solutions],
    }


def render_design(design: Design, fmt: str) -> str:
    """The paytables found: JSON keys bet, window {low, high}, decks, count, solutions."""
    check_format(fmt)
    if fmt == "json":
        return dumps(design_data(design))
    return write(design_blocks(design, fmt), fmt)


def design_blocks(design: Design, fmt: str) -> list[Block]:
    """The blocks of `render_design`: the bet's lines, how many paytables the window holds,
    the closest of them (a user's text as `fmt` shows it)."""
    shoes = ", ".join(str(shoe) for shoe in design.shoes)
    window = f"{percent(design.low)}..{percent(design.high)}"
    bet, rules = f"{user_text(design.bet.title, fmt)} ({user_text(design.bet.name, fmt)})", design.rules.name
    title = f"Paytables of {bet}: house edge {window} on {shoes}, {user_text(rules, fmt)} rules"
    ranges = dict(zip(design.bet.unknowns, design.ranges, strict=True))
    rows = [
        [
            i + 1,
            user_text(line.describe(), fmt),
            _shown_pays(line.pays, ranges.get(i)) if i in ranges else line.result,
        ]
        for i, line in enumerate(design.bet.lines)
    ]
    blocks: list[Block] = [Heading(title), Table.of(rows, ["line", "event", "pays"])]
    listed = len(design.solutions)
    middle = percent((design.low + design.high) / 2)
    closest = f"; the {listed:,} closest to the midpoint {middle}" if listed else ""
    order = " (--monotone: a rarer line never pays less)" if design.monotone else ""
    plural = "s" if design.count != 1 else ""
    if design.count:
        blocks.append(Paragraph(f"{design.count:,} paytable{plural} in the window{order}{closest}:"))
    else:
        blocks.append(Paragraph(f"No whole payouts put the house edge in {window} on {shoes}{order}."))
    if listed:
        first = str(design.shoes[0])
        note = (
            f"Distance to the midpoint: the largest over the shoes of |house edge - midpoint|; equal "
            f"distances list smaller payouts first. Hit frequency, std dev (per unit bet) and the top "
            f"award's 1 in N on {first}."
        )
        blocks += [_solutions_table(design), Paragraph(note)]
    return blocks


def _shown_pays(pays: object, searched: tuple[int, int] | None) -> str:
    """A line to find: as written, with the payouts searched when they differ from it."""
    assert searched is not None
    low, high = searched
    span = f"{low:,}..{high:,}"
    return str(pays) if str(pays) == f"{low}..{high}" else f"{pays} ({span} to 1)"


def _solutions_table(design: Design) -> Table:
    headers = [
        "#",
        *(f"line {u + 1} pays" for u in design.bet.unknowns),
        *(f"house edge {shoe}" for shoe in design.shoes),
        "hit frequency",
        "std dev",
        "top award 1 in",
    ]
    rows = []
    for i, solution in enumerate(design.solutions, 1):
        first = solution.analyses[0]
        from analyzer.analyses.design import top_award_one_in

        one_in = top_award_one_in(first)
        rows.append(
            [
                i,
                *(f"{x:,}" for x in solution.pays),
                *(percent(a.house_edge) for a in solution.analyses),
                decimal(first.hit_frequency),
                short_float(first.std_dev, ".4f"),
                "n/a" if one_in is None else decimal(one_in, 1),
            ]
        )
    return Table.of(rows, headers)
