"""Recorded shoes as text: the cards in the order they left the shoe.

A record lists cards suited (``9H``, ``10D``, ``KS``) or by rank only (``9``, ``K``; ``T``
or ``1`` read as 10 and A), separated by spaces, commas or line breaks. ``#`` starts a
comment. A line beginning ``burn:`` lists burned cards (they leave the shoe; no coup is
dealt from them). The word ``cut`` (on a line of its own, or between cards) marks where the
cut card came out; ``undo`` takes back the entry before it (a card or a cut mark), which is
what a live session types to correct a mistake. The record holds no hand markers: the
tracker deals the coups from the sequence by the tableau.

Every entry keeps its line and its position on the line (counted from 1), so a message can
name the card it is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.parsing import read_text
from analyzer.core.ranks import RANKS
from analyzer.core.suits import SUITS, card_name, parse_card

__all__ = [
    "SAMPLE",
    "Mark",
    "RecordCard",
    "dealt_record",
    "parse_line",
    "parse_record",
    "read_record",
    "sample_path",
    "sample_record",
    "shuffled_record",
    "undone",
]

_SEPARATORS = re.compile(r"[\s,]+")
_BURN = "burn:"
CUT, UNDO = "cut", "undo"
#: The sample record (analyzer/counting/data/), and how it was dealt: decks, run seed, shoe, cut card.
SAMPLE = "sample-shoe.txt"
SAMPLE_DEAL = (8, 1, 0, 14)
#: The largest record read from a file, in bytes (a shoe of 1,000 decks fits easily).
MAX_RECORD = 10**7


@dataclass(frozen=True)
class RecordCard:
    """One card of a record: its rank (index into RANKS), its suit (index into SUITS, None
    when only the rank is recorded), where it is written, and whether it was burned."""

    rank: int
    suit: int | None
    line: int
    position: int
    burned: bool = False

    @property
    def type(self) -> int | None:
        """The card's type (index of `analyzer.core.suits`), None for a rank alone."""
        return None if self.suit is None else self.suit * len(RANKS) + self.rank

    @property
    def name(self) -> str:
        """The card as a record writes it: "9H", or "9" for a rank alone."""
        return RANKS[self.rank].value if self.type is None else card_name(self.type)

    @property
    def where(self) -> str:
        return f"line {self.line}, card {self.position}"


@dataclass(frozen=True)
class Mark:
    """A word of a record that is not a card: `kind` is "cut" or "undo"."""

    kind: str
    line: int
    position: int

    @property
    def where(self) -> str:
        return f"line {self.line}, item {self.position}"


Entry = RecordCard | Mark


def parse_line(text: str, number: int) -> list[Entry]:
    """The entries of line `number` of a record (comments dropped)."""
    body = text.split("#", 1)[0].strip()
    burned = body[: len(_BURN)].lower() == _BURN
    if burned:
        body = body[len(_BURN) :]
    entries: list[Entry] = []
    for position, word in enumerate((w for w in _SEPARATORS.split(body) if w), start=1):
        if word.lower() in (CUT, UNDO):
            if burned:
                raise AnalyzerError(
                    f"line {number}, item {position}: {quoted(word)} on a burn: line; "
                    "a burn: line lists cards"
                )
            entries.append(Mark(word.lower(), number, position))
            continue
        try:
            rank, suit = parse_card(word)
        except AnalyzerError as error:
            raise AnalyzerError(f"line {number}, card {position}: {error.template}") from None
        suit_index = None if suit is None else SUITS.index(suit)
        entries.append(RecordCard(RANKS.index(rank), suit_index, number, position, burned))
    return entries


def parse_record(text: str) -> list[Entry]:
    """Every entry of a record's text, in order."""
    lines = enumerate(text.splitlines(), start=1)
    return [entry for number, line in lines for entry in parse_line(line, number)]


def read_record(path: str) -> list[Entry]:
    """The entries of the record file `path`; a file holding no card is an error."""
    name, text = quoted(path), read_text(path, "record", MAX_RECORD)
    entries = parse_record(text)
    if not any(isinstance(entry, RecordCard) for entry in entries):
        raise AnalyzerError(
            f"record file {name} holds no card: list the cards in the order they left the shoe"
        )
    return entries


def undone(entries: Iterable[Entry]) -> list[Entry]:
    """`entries` with every ``undo`` applied: each takes back the card or cut mark before it."""
    kept: list[Entry] = []
    for entry in entries:
        if isinstance(entry, Mark) and entry.kind == UNDO:
            if not kept:
                raise AnalyzerError(f"{entry.where}: undo with nothing before it to take back")
            kept.pop()
        else:
            kept.append(entry)
    return kept


def dealt_record(cards: Sequence[str], burned: int, coups: Sequence[int], cut: int, header: str) -> str:
    """A record's text: `header` (comment lines), a burn: line of the first `burned` cards,
    then one coup a line (`coups`: each coup's number of cards) and a ``cut`` line before
    card index `cut` of `cards` (where the cut card came out; none if out of range)."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines.append("burn: " + " ".join(cards[:burned]))
    at = burned
    for size in coups:
        part = list(cards[at : at + size])
        if at <= cut < at + size:
            split = cut - at
            lines += [" ".join(part[:split]), CUT, " ".join(part[split:])] if split else [CUT, " ".join(part)]
        else:
            lines.append(" ".join(part))
        at += size
    return "\n".join(line for line in lines if line) + "\n"


def shuffled_record(decks: int, seed: int, index: int, cut_card: int) -> str:
    """The record of shoe number `index` of a run seeded with `seed` (`decks` decks with
    suits), shuffled and dealt by the project's dealer (`analyzer.counting.dealer`,
    `analyzer.counting.simulation.deal_cards`): burn, coups until the cut card, `cut_card`
    cards from the end, comes out, that coup finished."""
    import numpy as np

    from analyzer.core.rules import STANDARD
    from analyzer.core.shoe import Shoe
    from analyzer.core.suits import card_name
    from analyzer.counting.dealer import shuffled_deck
    from analyzer.counting.simulation import Procedure, deal_cards

    shoe = Shoe.decks(decks)
    deck = shuffled_deck(shoe.types or (), seed, np.array([index]))[0].tolist()
    procedure = Procedure(shoe=shoe, cut_card=cut_card)
    dealt = deal_cards([card % len(RANKS) for card in deck], procedure, STANDARD)
    burned = shoe.size - int(dealt.left[0].sum())
    header = (
        f"A sample recorded shoe, not a real one: {decks} decks with suits, shuffled and dealt by this\n"
        f"project's dealer (analyzer.counting.dealer.shuffled_deck, run seed {seed}, shoe {index}),\n"
        f"standard tableau, burn, cut card {cut_card} cards from the end, that coup finished.\n"
        "One coup a line for reading; the tracker needs no hand markers."
    )
    sizes = [outcome.cards for outcome in dealt.outcomes]
    return dealt_record([card_name(card) for card in deck], burned, sizes, len(deck) - cut_card, header)


def sample_record() -> str:
    """The text of the sample record (`SAMPLE`), dealt as `SAMPLE_DEAL` says."""
    return shuffled_record(*SAMPLE_DEAL)


def sample_path() -> str:
    """The path of the sample record shipped with the package."""
    from importlib import resources

    return str(resources.files("analyzer.counting").joinpath("data", SAMPLE))
