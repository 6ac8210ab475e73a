"""Known cards and edge sorting (`baccarat known`): the value of the information, each
information state with its probability, every bet's expectation and the best action, and
the best sorts when searched; as JSON data and as a document."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.text import exact, percent, short_exact, user_text

if TYPE_CHECKING:
    from analyzer.analyses.known import KnownResult, KnownValue

__all__ = [
    "BETS_PER_TABLE",
    "SHOWN_SORTS",
    "SHOWN_STATES",
    "known_blocks",
    "known_data",
    "render_known",
    "value_json",
]

#: The most states and sorts a document lists (JSON lists them all).
SHOWN_STATES = 169
SHOWN_SORTS = 10
#: The most bets' expectations in one table of states (more: several tables).
BETS_PER_TABLE = 5


def value_json(value: KnownValue) -> dict[str, Any]:
    """`value` as JSON: exact "p/q" strings (edge_per_bet null when no coup is bet)."""
    per_bet = value.edge_per_bet
    return {
        "edge_per_coup": exact(value.edge_per_coup),
        "fraction_bet": exact(value.fraction_bet),
        "edge_per_bet": None if per_bet is None else exact(per_bet),
    }


def known_data(result: KnownResult) -> dict[str, Any]:
    """The JSON document: positions, sort, bets, value, states, and best_sorts if searched."""
    names = [bet.name for bet in result.bets]
    data: dict[str, Any] = {
        "positions": list(result.positions),
        "sort": None if result.sort is None else list(result.sort.members),
        "bets": names,
        "value": value_json(result.value),
        "states": [
            {
                "known": {str(position): known for position, known in state.known},
                "probability": exact(state.probability),
                "expectations": {name: exact(e) for name, e in zip(names, state.expectations, strict=True)},
                "best": state.best,
            }
            for state in result.states
        ],
    }
    if result.best_sorts is not None:
        data["best_sorts"] = [
            {"sorted": list(entry.sorted), "value": value_json(entry.value)} for entry in result.best_sorts
        ]
    return data


def _value_rows(value: KnownValue) -> list[list[str]]:
    per_bet = value.edge_per_bet
    return [
        ["edge per coup", percent(value.edge_per_coup), short_exact(value.edge_per_coup)],
        ["coups bet", percent(value.fraction_bet), short_exact(value.fraction_bet)],
        [
            "edge per bet made",
            "n/a" if per_bet is None else percent(per_bet),
            "n/a" if per_bet is None else short_exact(per_bet),
        ],
    ]


def known_blocks(result: KnownResult, fmt: str) -> list[Block]:
    """The document: what is known, the value, the states (and the best sorts)."""
    from analyzer.analyses.known import POSITION_NAMES

    where = ", ".join(f"{p} ({POSITION_NAMES[p].split(' (')[0]})" for p in result.positions)
    known = f"Known before betting: position{'s' if len(result.positions) > 1 else ''} {where}"
    if result.sort is not None:
        known += f"; only whether each card is in the sorted class {result.sort}"
    bets = ", ".join(user_text(bet.name, fmt) for bet in result.bets)
    blocks: list[Block] = [
        Heading(
            f"Known cards: {user_text(str(result.shoe), fmt)}, {user_text(result.rules.name, fmt)} rules"
        ),
        Paragraph(f"{known}. Bets: {bets}."),
    ]
    if result.best_sorts is not None:
        what = "ranks" if result.by_ranks else "point values"
        blocks += [
            Heading(f"Best sorts of the {what}", 3),
            Table.of(
                [
                    [
                        str(i),
                        ",".join(entry.sorted),
                        percent(entry.value.edge_per_coup),
                        percent(entry.value.fraction_bet),
                        "n/a" if entry.value.edge_per_bet is None else percent(entry.value.edge_per_bet),
                    ]
                    for i, entry in enumerate(result.best_sorts[:SHOWN_SORTS], 1)
                ],
                ["rank", "sorted", "edge per coup", "coups bet", "edge per bet"],
            ),
            Paragraph(
                f"{len(result.best_sorts):,} splits searched (each the same as its complement, "
                f"written as the class holding the 9); below, the best."
            ),
        ]
    blocks += [Table.of(_value_rows(result.value), ["value", "decimal", "exact"])]
    shown = result.states[:SHOWN_STATES]
    for start in range(0, len(result.bets), BETS_PER_TABLE):  # tables that fit a terminal
        group = range(start, min(start + BETS_PER_TABLE, len(result.bets)))
        rows = [
            [
                *(card for _, card in state.known),
                percent(state.probability),
                *(percent(state.expectations[i]) for i in group),
                "sit out" if state.best is None else user_text(state.best, fmt),
            ]
            for state in shown
        ]
        headers = [f"position {p}" for p in result.positions]
        headers += ["probability", *(user_text(result.bets[i].name, fmt) for i in group), "best"]
        blocks.append(Table.of(rows, headers))
    note = (
        "Expectations per unit bet, positive when the player wins; the best bet is the one of "
        "highest expectation, none (sit out) when no bet's is positive. The edge per coup counts "
        "the coups sat out as 0."
    )
    if len(result.states) > SHOWN_STATES:
        note += f" The first {SHOWN_STATES} of {len(result.states):,} states are shown; JSON lists them all."
    blocks.append(Paragraph(note))
    return blocks


def render_known(result: KnownResult, fmt: str) -> str:
    """The result as a document in `fmt` (table, markdown or html)."""
    return write(known_blocks(result, fmt), fmt)
