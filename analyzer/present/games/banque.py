"""Baccarat banque (`analyzer.games.banque`): the Banker's best reply to two sides that
follow custom, as grids per Banker total, and the full game when solved."""

from __future__ import annotations

from typing import Any

from analyzer.games import banque
from analyzer.games.banque import BanqueReply, BanqueSolution, InfoSet
from analyzer.games.banque_table import NATURAL, OBS_LABEL, OBSERVATIONS
from analyzer.games.hands import FREE_TOTAL
from analyzer.present.document import Block, Bullets, Heading, Paragraph, Table, write
from analyzer.present.games.cells import row_label
from analyzer.present.text import check_format, dumps, exact, percent, signed_percent, user_text

__all__ = [
    "BANQUE_MODEL",
    "banque_blocks",
    "banque_json",
    "banque_stand_blocks",
    "banque_text",
    "render_banque",
    "reply_grids",
    "reply_keys",
]


def _model() -> tuple[Paragraph, Bullets]:
    """The module docstring's model: its opening sentence and its list."""
    model = (banque.__doc__ or "").split("\n\nComputation:")[0].split("\n\n", 1)[1]
    head, *items = model.split("\n- ")
    return Paragraph(" ".join(head.split())), Bullets(tuple(" ".join(item.split()) for item in items))


#: The model of the banque report, as blocks.
BANQUE_MODEL = _model()


def _key_total(key: Any) -> int:
    return sum(key) % 10 if isinstance(key, tuple) else key


def reply_grids(reply: BanqueReply) -> dict[int, tuple[list[str], list[list[str]]]]:
    """Per Banker total: the best reply as a grid (rows: right side, columns: left side).

    For finite shoes a cell is D or S when every hand of that total agrees, else the
    number of hands that draw, e.g. "2/6".
    """
    per_total: dict[int, dict[tuple[int, int], list[bool]]] = {}
    for (key, o1, o2), d in reply.draws.items():
        per_total.setdefault(_key_total(key), {}).setdefault((o1, o2), []).append(d)
    grids = {}
    for total, cells in sorted(per_total.items()):
        headers = ["right \\ left", *(OBS_LABEL[o] for o in OBSERVATIONS)]
        rows = []
        for o1 in OBSERVATIONS:
            row = [OBS_LABEL[o1]]
            for o2 in OBSERVATIONS:
                ds = cells.get((o1, o2), [])
                if o1 == o2 == NATURAL:
                    row.append("-")
                elif not ds:
                    row.append("")
                elif all(ds) or not any(ds):
                    row.append("D" if ds[0] else "S")
                else:
                    row.append(f"{sum(ds)}/{len(ds)}")
            rows.append(row)
        grids[total] = (headers, rows)
    return grids


def _uniform(rows: list[list[str]]) -> str | None:
    cells = {c for row in rows for c in row[1:] if c not in ("-", "")}
    return next(iter(cells)) if len(cells) == 1 else None


def _set_label(s: InfoSet) -> str:
    key, o1, o2 = s
    return f"(Banker {row_label(key)}, right {OBS_LABEL[o1]}, left {OBS_LABEL[o2]})"


def banque_json(reply: BanqueReply, solution: BanqueSolution | None) -> dict[str, Any]:
    """The best reply (and the full game, when solved) as JSON-ready exact strings."""
    data: dict[str, Any] = {
        "game": "banque",
        "shoe": str(reply.shoe),
        "rules": reply.rules.name,
        "commission": exact(reply.commission),
        "customary_five": "draw" if all(x == 1 for x in reply.five) else [exact(x) for x in reply.five],
        "best_reply": {
            "value_total": exact(reply.total),
            "value_per_side": {"right": exact(reply.right), "left": exact(reply.left)},
            "banker_draws": {
                row_label(k): {
                    f"{OBS_LABEL[o1]}|{OBS_LABEL[o2]}": d
                    for (kk, o1, o2), d in reply.draws.items()
                    if kk == k
                }
                for k in reply_keys(reply)
            },
        },
    }
    if solution is not None:
        data["full_game"] = {
            "value_total": exact(solution.value),
            "value_per_side": exact(solution.value / 2),
            "sides_profile": {
                f"{'DS'[1 - r]}{'DS'[1 - lft]}": exact(p) for (r, lft), p in solution.profile.items()
            },
            "sides_independent": solution.independent,
            "banker_mixed": {_set_label(s): exact(p) for s, p in solution.banker.items() if 0 < p < 1},
            "banker_contested": [_set_label(s) for s in solution.contested],
        }
    return data


def reply_keys(reply: BanqueReply) -> list[Any]:
    """The Banker's hands (or totals) of `reply`, in the order they first appear."""
    keys: list[Any] = []
    for key, _, _ in reply.draws:
        if key not in keys:
            keys.append(key)
    return keys


def render_banque(reply: BanqueReply, solution: BanqueSolution | None, fmt: str = "table") -> str:
    """The best reply (and the full game when solved) as text, Markdown or JSON."""
    check_format(fmt)
    if fmt == "json":
        return dumps(banque_json(reply, solution))
    return banque_text(reply, solution, fmt)


def banque_text(reply: BanqueReply, solution: BanqueSolution | None, fmt: str, level: int = 2) -> str:
    """The best reply (and the full game, when solved) as text or Markdown, headed at `level`."""
    return write(banque_blocks(reply, solution, fmt, level), fmt)


def banque_blocks(
    reply: BanqueReply, solution: BanqueSolution | None, fmt: str, level: int = 2
) -> list[Block]:
    """The blocks of `banque_text` (a user's text as `fmt` shows it)."""
    r = reply
    if r.five[0] == r.five[1]:
        five = (
            "draws"
            if r.five[0] == 1
            else "stands"
            if r.five[0] == 0
            else f"draws with probability {r.five[0]}"
        )
    else:
        five = f"draws with probability {r.five[0]} (right) and {r.five[1]} (left)"
    forced = ", ".join(map(str, sorted(r.rules.player_draws - {FREE_TOTAL})))
    blocks: list[Block] = [Heading(f"Baccarat banque: {r.shoe}", level)]
    blocks.append(
        Paragraph(
            f"Both sides follow custom: draw on {forced}, "
            f"stand on 6-7, and on {FREE_TOTAL} each side {five} (the customary choice assumed here is to "
            f"draw: the punto banco rule). Naturals: {user_text(r.rules.name, fmt)} rules. "
            "Commission on Banker wins: "
            f"{percent(r.commission, 2)}. The Banker sees its own "
            f"{'total' if r.shoe.is_infinite else 'two cards'} and each side's state."
        )
    )
    rows = [
        ["Banker, per unit on the right side", signed_percent(r.right), exact(r.right)],
        ["Banker, per unit on the left side", signed_percent(r.left), exact(r.left)],
        ["Banker, per coup (both stakes)", signed_percent(r.total), exact(r.total)],
    ]
    blocks.append(Table.of(rows, ["best reply to custom", "expectation", "exact"]))
    grids = reply_grids(r)
    uniform = {t: _uniform(rows) for t, (_, rows) in grids.items()}
    same = [f"{t}: {'draws' if u == 'D' else 'stands'} everywhere" for t, u in uniform.items() if u]
    blocks.append(
        Paragraph(
            "The Banker's best reply (D draws, S stands; rows: what it sees of the right side, columns: "
            "of the left side"
            + ("" if r.shoe.is_infinite else "; k/n: k of the n hands of that total draw")
            + "). "
            + ("Banker total " + "; ".join(same) + "." if same else "")
        )
    )
    for t, (headers, rows) in grids.items():
        if not uniform[t]:
            blocks += [Paragraph(f"Banker total {t}:"), Table.of(rows, headers)]
    if solution is not None:
        blocks += _solution_blocks(solution)
    return blocks


def _solution_blocks(s: BanqueSolution) -> list[Block]:
    right, left = s.side_probabilities()
    mixed = [f"{_set_label(k)} draws with probability {exact(p)}" for k, p in s.banker.items() if 0 < p < 1]
    rows = [
        ["value per coup (both stakes)", signed_percent(s.value), exact(s.value)],
        ["value per side", signed_percent(s.value / 2), exact(s.value / 2)],
        ["right side draws on 5", "", exact(right)],
        ["left side draws on 5", "", exact(left)],
    ]
    return [
        Paragraph(
            "Full game (the Banker against both sides together, each side choosing on its 5 by its "
            "total; the sides may correlate their choices):"
        ),
        Table.of(rows, ["quantity", "decimal", "exact"]),
        Paragraph(
            "Sides' optimal joint play on 5 (DD both draw, DS right draws and left stands, ...): "
            + ", ".join(f"{'DS'[1 - a]}{'DS'[1 - b]} {exact(p)}" for (a, b), p in s.profile.items())
            + (". It is a product of independent choices" if s.independent else ". It is correlated")
            + ". Banker's mixed sets: "
            + ("; ".join(mixed) or "none")
            + f". At {len(s.contested)} of its {len(s.banker)} sets the Banker's best action depends on "
            "the sides' play on 5 (listed in the JSON output); at every other set one action is best "
            "whatever the sides do."
        ),
    ]


def banque_stand_blocks(stand: BanqueReply) -> list[Block]:
    """The Banker's best reply when both sides stand on 5: a sentence and a one-row table."""
    rows = [["Banker, per coup (both stakes)", signed_percent(stand.total), exact(stand.total)]]
    return [
        Paragraph("For comparison, the Banker's best reply when both sides stand on 5 instead:"),
        Table.of(rows, ["best reply, sides stand on 5", "expectation", "exact"]),
    ]
