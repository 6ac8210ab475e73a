"""A recorded shoe replayed: every coup, the exact value of every bet before the next coup,
the counts, the Kelly stakes and the summary (``baccarat track``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.text import check_format, decimal, dumps, exact, short_exact, signed_decimal, user_text

if TYPE_CHECKING:
    from analyzer.counting.replay import Position, Replay, Tally, TrackedCoup

__all__ = [
    "coup_json",
    "render_coup",
    "render_taken_back",
    "render_track",
    "render_track_summary",
    "summary_blocks",
    "track_blocks",
    "track_json",
    "track_line",
]


def _signed(value: Fraction) -> str:
    """A per-unit value as a percentage with 4 decimals, "+" before a positive one."""
    return signed_decimal(value * 100, 4) + "%"


def _units(value: Fraction) -> str:
    """Units won or a bankroll, a count's true count: 2 decimals (exact values in JSON)."""
    return signed_decimal(value, 2)


def _position_json(position: Position) -> dict[str, Any]:
    return {
        "cards_left": position.cards_left,
        "next": {
            name: {"expectation": exact(value), "positive": value > 0}
            for name, value in position.expectations.items()
        },
        "counts": {
            name: {"running": count.running, "true": exact(count.true), "fires": bool(count.fires)}
            for name, count in position.counts.items()
        },
        "bet_sizes": dict(position.stakes),
    }


def coup_json(coup: TrackedCoup) -> dict[str, Any]:
    """One coup as JSON-ready values (the keys of `baccarat track`'s `coups`)."""
    outcome = coup.outcome
    data: dict[str, Any] = {
        "index": coup.index,
        "player": list(coup.player),
        "banker": list(coup.banker),
        "totals": {"player": outcome.player_total, "banker": outcome.banker_total},
        "winner": str(outcome.winner),
        **_position_json(coup.after),
        "cut": coup.cut,
    }
    if coup.after.bankroll is not None:
        data["bankroll"] = exact(coup.after.bankroll)
    return data


def _tally_json(tally: Tally, count: str) -> dict[str, Any]:
    return {count: tally.coups, "expectation": exact(tally.expectation), "won": exact(tally.won)}


def _summary_json(result: Replay) -> dict[str, Any]:
    summary = result.summary
    path = summary.bankroll
    bankroll = None
    if path:
        bankroll = {
            "start": exact(path[0]),
            "end": exact(path[-1]),
            "lowest": exact(min(path)),
            "highest": exact(max(path)),
            "path": [exact(value) for value in path],
        }
    return {
        "coups": summary.coups,
        "incomplete": list(summary.incomplete) or None,
        "bets": {name: _tally_json(tally, "positive_coups") for name, tally in summary.bets.items()},
        "systems": {
            system.name: {"bet": system.bet, **_tally_json(summary.systems[system.name], "triggers")}
            for system in result.systems
        },
        "perfect": _tally_json(summary.perfect, "bets"),
        "bankroll": bankroll,
    }


def track_json(result: Replay, record: str) -> dict[str, Any]:
    """The whole replay as JSON-ready values: `record` (the file, "-" for standard input),
    `start` (before the first coup), `coups`, `summary`, `rules`."""
    return {
        "record": record,
        "start": _position_json(result.start),
        "coups": [coup_json(coup) for coup in result.coups],
        "summary": _summary_json(result),
        "rules": result.rules.name,
    }


def track_line(data: dict[str, Any]) -> str:
    """One JSON value on one line (live entry writes a coup so, as it is dealt)."""
    return json.dumps(data, separators=(",", ":")) + "\n"


def render_taken_back(index: int, fmt: str) -> str:
    """Live entry's word that `undo` took coup `index` back."""
    if fmt == "json":
        return track_line({"taken_back": index})
    return write([Paragraph(f"Coup {index} taken back.")], fmt) + "\n"


# -- tables -------------------------------------------------------------------------------


def _hand(cards: Sequence[str], total: int) -> str:
    return f"{' '.join(cards)} ({total})"


def _counts_cell(position: Position, name: str) -> str:
    count = position.counts[name]
    return f"{count.running:+d} / {_units(count.true)}" + (" bets" if count.fires else "")


def _positive_cell(position: Position, fmt: str) -> str:
    """The bets of positive expectation, each with its stake (with a bankroll) in units."""
    if not position.expectations:
        return "(fewer than 6 cards left)"
    cells = []
    for name in position.positive:
        stake = f" bet {position.stakes[name]}" if name in position.stakes else ""
        cells.append(f"{user_text(name, fmt)} {_signed(position.expectations[name])}{stake}")
    return ", ".join(cells) or "none"


def _coup_rows(result: Replay, fmt: str) -> tuple[list[list[str]], list[str]]:
    systems = [system.name for system in result.systems]
    sized = result.sizing is not None
    positive = "EV > 0 next coup" + (" (Kelly bet)" if sized else "")
    shown = [user_text(name, fmt) for name in systems]
    headers = ["coup", "player", "banker", "winner", "cards left", *shown, positive]
    if sized:
        headers.append("bankroll")
    rows = []
    lines = [("start", None, result.start), *((str(c.index), c, c.after) for c in result.coups)]
    for label, coup, position in lines:
        row = [label, "", "", "", str(position.cards_left)]
        if coup is not None:
            outcome = coup.outcome
            row[1:4] = [
                _hand(coup.player, outcome.player_total),
                _hand(coup.banker, outcome.banker_total),
                str(outcome.winner) + (" (cut card out)" if coup.cut else ""),
            ]
        row += [_counts_cell(position, name) for name in systems]
        row.append(_positive_cell(position, fmt))
        if sized:
            row.append(decimal(position.bankroll or 0, 2))
        rows.append(row)
    return rows, headers


def summary_blocks(result: Replay, fmt: str) -> list[Block]:
    """The blocks of the replay's summary: the coups dealt, each bet's and system's tally,
    perfect information and the bankroll's path (a user's text as `fmt` shows it)."""
    summary = result.summary
    dealt = f"{summary.coups} coups dealt"
    if summary.incomplete:
        dealt += f"; an incomplete last coup: {' '.join(summary.incomplete)}"
    rows = [
        [user_text(name, fmt), str(t.coups), decimal(t.expectation, 4), _units(t.won)]
        for name, t in summary.bets.items()
    ]
    headers = ["bet", "coups with EV > 0", "sum of their EV", "units won, 1 a coup"]
    blocks: list[Block] = [Heading("Summary"), Paragraph(dealt + "."), Table.of(rows, headers)]
    if result.systems:
        rows = [
            [
                user_text(s.name, fmt),
                user_text(s.bet, fmt),
                str(t.coups),
                decimal(t.expectation, 4),
                _units(t.won),
            ]
            for s in result.systems
            for t in [summary.systems[s.name]]
        ]
        headers = ["system", "bet", "coups bet", "sum of their EV", "units won, 1 a coup"]
        blocks.append(Table.of(rows, headers))
    perfect = summary.perfect
    lines = [
        f"Perfect information (one unit on every bet at every coup where its expectation is positive): "
        f"{perfect.coups} bets, expectation {decimal(perfect.expectation, 4)} units, "
        f"won {_units(perfect.won)}."
    ]
    if summary.bankroll:
        path = summary.bankroll
        lines.append(
            f"Bankroll: {decimal(path[0], 2)} -> {decimal(path[-1], 2)} units "
            f"(lowest {decimal(min(path), 2)}, highest {decimal(max(path), 2)})."
        )
    blocks.append(Paragraph("\n".join(lines)))
    return blocks


_NOTE = (
    "Expectations are exact, per unit staked, for the next coup on the cards left (the JSON gives "
    "them as fractions); 'EV > 0 next coup' lists the bets with a positive one. Counts: running / "
    "true (per deck left), 'bets' when the system bets the next coup."
)


def _sizing_note(result: Replay) -> str:
    sizing = result.sizing
    if sizing is None:
        return ""
    top = "no maximum" if sizing.max_bet is None else f"maximum {sizing.max_bet}"
    return (
        f" Bet sizes: {sizing.kelly} Kelly (expectation / variance of the coup), rounded down to whole "
        f"units, minimum {sizing.min_bet}, {top}, at most the bankroll; bankroll after each coup's result."
    )


def _title(result: Replay, record: str, fmt: str) -> str:
    where = "entered live" if record == "-" else user_text(record, fmt)
    shoe, rules = user_text(str(result.shoe), fmt), user_text(result.rules.name, fmt)
    return f"Recorded shoe {where}: {shoe}, {rules} rules"


def render_track(result: Replay, fmt: str, record: str) -> str:
    """The whole replay of the record `record` (a file name, "-" for standard input): the
    coups, every bet's expectation before each coup, the summary."""
    check_format(fmt)
    if fmt == "json":
        return dumps(track_json(result, record))
    return write(track_blocks(result, fmt, record), fmt)


def track_blocks(result: Replay, fmt: str, record: str) -> list[Block]:
    """The blocks of `render_track` (a user's text as `fmt` shows it)."""
    rows, headers = _coup_rows(result, fmt)
    names = [bet.name for bet in result.bets]
    positions = [("start", result.start), *((str(c.index), c.after) for c in result.coups)]
    ev_rows = [[label, *(_ev_cell(p, name) for name in names)] for label, p in positions]
    return [
        Heading(_title(result, record, fmt)),
        Paragraph(_NOTE + _sizing_note(result)),
        Table.of(rows, headers),
        Heading("Expectation of each bet on the next coup (per unit staked)"),
        Table.of(ev_rows, ["coup", *(user_text(name, fmt) for name in names)]),
        *summary_blocks(result, fmt),
    ]


def _ev_cell(position: Position, name: str) -> str:
    value = position.expectations.get(name)
    return "n/a" if value is None else _signed(value)


def render_coup(result: Replay, coup: TrackedCoup, fmt: str) -> str:
    """One coup as live entry reports it: the coup, then every bet's exact expectation on
    the next coup, the counts and the stakes (JSON: the coup on one line)."""
    check_format(fmt)
    if fmt == "json":
        return track_line(coup_json(coup))
    outcome, after = coup.outcome, coup.after
    cut = "; the cut card came out" if coup.cut else ""
    winner = "tie" if str(outcome.winner) == "tie" else f"{outcome.winner} wins"
    line = (
        f"Coup {coup.index}: player {_hand(coup.player, outcome.player_total)}, banker "
        f"{_hand(coup.banker, outcome.banker_total)}: {winner}{cut}; {after.cards_left} cards left"
    )
    if after.bankroll is not None:
        line += f"; bankroll {decimal(after.bankroll, 2)}"
    blocks: list[Block] = [Heading(line)]
    if after.expectations:
        headers = ["bet", "next coup", "exact", *(["bet size"] if result.sizing else [])]
        rows = [
            [user_text(name, fmt) + (" *" if value > 0 else ""), _signed(value), short_exact(value)]
            + ([str(after.stakes.get(name, ""))] if result.sizing else [])
            for name, value in after.expectations.items()
        ]
        blocks.append(Table.of(rows, headers))
    else:
        blocks.append(Paragraph("Fewer than 6 cards left: the next coup is not valued."))
    if result.systems:
        rows = [
            [user_text(name, fmt), f"{c.running:+d}", _units(c.true), "yes" if c.fires else "no"]
            for name, c in after.counts.items()
        ]
        blocks.append(Table.of(rows, ["system", "running", "true count", "bets next coup"]))
    return write(blocks, fmt) + "\n"  # a blank line before the next coup


def render_track_summary(result: Replay, fmt: str, record: str = "-") -> str:
    """The summary alone (live entry ends with it); JSON: the whole replay."""
    check_format(fmt)
    if fmt == "json":
        return dumps(track_json(result, record))
    return write(summary_blocks(result, fmt), fmt)
