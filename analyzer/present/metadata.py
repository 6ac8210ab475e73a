"""What the commands say about their inputs: the shoe as a structured JSON value (every
command's `shoe_spec`), and the built-in names that `baccarat list` shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from analyzer.core.ranks import RANKS
from analyzer.present.document import Block, Heading, Table, write
from analyzer.present.text import check_format, dumps, wrap

if TYPE_CHECKING:
    from analyzer.core.shoe import Shoe

__all__ = ["list_blocks", "list_data", "render_list", "shoe_json"]


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


def list_data(kind: str, entries: Sequence[Any]) -> dict[str, Any]:
    """The JSON document of `render_list`: each built-in's title and source (and what a bet reads)."""
    return {
        kind: {
            e.name: {"title": e.title, "source": e.source, **({"reads": list(e.reads)} if e.reads else {})}
            for e in entries
        }
    }


def render_list(kind: str, entries: Sequence[Any], fmt: str = "table") -> str:
    """Built-in names with title and source (`entries`: analyzer.present.listing.Entry values);
    bets also say what they read (outcome, values, ranks, suits, colours)."""
    check_format(fmt)
    if fmt == "json":
        return dumps(list_data(kind, entries))
    return write(list_blocks(kind, entries, fmt), fmt)


def list_blocks(kind: str, entries: Sequence[Any], fmt: str = "table") -> list[Block]:
    """The document of `render_list` in `fmt` (table or markdown)."""
    reads = any(e.reads for e in entries)
    # A reads column (bets) takes its room from the title and source columns.
    title_width, source_width = (32, 40) if reads else (40, 48)
    rows = []
    for e in entries:
        title, source = (
            (wrap(e.title, title_width), wrap(e.source, source_width))
            if fmt == "table"
            else (e.title, e.source)
        )
        rows.append([e.name, *([", ".join(e.reads)] if reads else []), title, source])
    headers = ["name", *(["reads"] if reads else []), "title", "source"]
    return [Heading(f"Built-in {kind}"), Table.of(rows, headers)]
