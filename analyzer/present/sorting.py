"""Edge sorting through a shoe (`baccarat track --sort`, `baccarat count --sort`): each coup's
known classes, best bet, exact expectation and result, and the win per shoe; as JSON data
and as a document."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.text import decimal, exact, percent, user_text

if TYPE_CHECKING:
    from analyzer.core.bets import Bet
    from analyzer.counting.sorting import SortCountResult, SortedShoe, SortTrackResult

__all__ = ["render_sort_count", "render_sort_track", "sort_count_data", "sort_track_data"]


def _shoe_json(replay: SortedShoe) -> dict[str, Any]:
    return {"coups": len(replay.coups), "coups_bet": replay.coups_bet,
            "expected": exact(replay.expected), "won": exact(replay.won)}  # fmt: skip


def sort_track_data(result: SortTrackResult) -> dict[str, Any]:
    """The JSON document: positions, sort, bets, each coup, the summary."""
    return {
        "record": result.record,
        "positions": list(result.positions),
        "sort": list(result.sort.members),
        "bets": [bet.name for bet in result.bets],
        "coups": [
            {
                "coup": coup.index,
                "cards_left": coup.cards_left,
                "known": {str(p): k for p, k in zip(result.positions, coup.known, strict=True)},
                "best": coup.best,
                "expectation": exact(coup.expectation),
                "won": exact(coup.won),
            }
            for coup in result.replay.coups
        ],
        "summary": _shoe_json(result.replay),
    }


def _what(positions: tuple[int, ...], sort: str) -> str:
    where = ", ".join(map(str, positions))
    return f"Sorted: {sort}, known at position{'s' if len(positions) > 1 else ''} {where} before each coup"


def _shoe_rules(result: SortTrackResult | SortCountResult, fmt: str) -> str:
    return f"{user_text(str(result.shoe), fmt)}, {user_text(result.rules.name, fmt)} rules"


def _bets(bets: tuple[Bet, ...]) -> str:
    return ", ".join(bet.name for bet in bets)


def render_sort_track(result: SortTrackResult, fmt: str) -> str:
    """Each coup of the record with the sort, then the summary."""
    replay = result.replay
    rows = [
        [str(c.index), str(c.cards_left), " ".join(c.known),
         "sit out" if c.best is None else user_text(c.best, fmt),
         "" if c.best is None else percent(c.expectation), "" if c.best is None else decimal(c.won, 2)]
        for c in replay.coups
    ]  # fmt: skip
    blocks: list[Block] = [
        Heading(
            f"Edge sorting through {user_text(result.record, fmt)}: {result.shoe}, {result.rules.name} rules"
        ),
        Paragraph(
            f"{_what(result.positions, str(result.sort))}. Bets: {', '.join(b.name for b in result.bets)}."
        ),
        Table.of(rows, ["coup", "cards left", "known", "best", "expectation", "won"]),
        Paragraph(
            f"{len(replay.coups)} coups valued, {replay.coups_bet} bet (one unit each): expected "
            f"{decimal(replay.expected, 4)} units, won {decimal(replay.won, 2)}."
        ),
    ]
    return write(blocks, fmt)


def sort_count_data(result: SortCountResult) -> dict[str, Any]:
    """The JSON document: the procedure, positions, sort, bets, the win per shoe."""
    study = result.study
    _, se = study.won_per_shoe
    shoes = len(study.shoes)
    coups = Fraction(sum(len(s.coups) for s in study.shoes), shoes)
    bet = Fraction(sum(s.coups_bet for s in study.shoes), shoes)
    mean = sum((s.won for s in study.shoes), Fraction(0)) / shoes
    return {
        "positions": list(study.positions),
        "sort": list(study.sort.members),
        "bets": [b.name for b in study.bets],
        "shoes": len(study.shoes),
        "seed": result.seed,
        "cut_card": study.procedure.cut_card,
        "coups_per_shoe": exact(coups),
        "coups_bet_per_shoe": exact(bet),
        "expected_per_shoe": exact(study.expected_per_shoe),
        "won_per_shoe": {"mean": exact(mean), "se": f"{se:.6f}"},
    }


def render_sort_count(result: SortCountResult, fmt: str) -> str:
    """The study's win per shoe: exact expectations summed, and the realized results."""
    study = result.study
    shoes = len(study.shoes)
    _, se = study.won_per_shoe
    mean = sum((s.won for s in study.shoes), Fraction(0)) / shoes
    rows = [
        ["shoes", str(shoes)],
        ["coups per shoe", decimal(Fraction(sum(len(s.coups) for s in study.shoes), shoes), 2)],
        ["coups bet per shoe", decimal(Fraction(sum(s.coups_bet for s in study.shoes), shoes), 2)],
        ["expected win per shoe (units)", decimal(study.expected_per_shoe, 4)],
        ["realized win per shoe (units)", f"{decimal(mean, 4)} ± {se:.4f}"],
    ]
    blocks: list[Block] = [
        Heading(f"Edge sorting over simulated shoes: {_shoe_rules(result, fmt)}"),
        Paragraph(
            f"{_what(study.positions, str(study.sort))}; cut card {study.procedure.cut_card} cards from the "
            f"end, seed {result.seed}. Bets: {_bets(study.bets)}, one unit on the best "
            "when its exact expectation is positive."
        ),
        Table.of(rows, ["", "value"]),
    ]
    return write(blocks, fmt)
