"""The report on known cards and edge sorting: what one known card is worth at each shoe
position, with the Tie and with the side bets; the sorts 6-9 and 7-9 of the first card, the
four-card sort, and the best sorts of one to four cards; 8 and 6 decks."""

from __future__ import annotations

from analyzer.analyses.known import KnownValue, best_sorts, known_cards, known_values, parse_sort
from analyzer.analyses.known_tensor import release_keys
from analyzer.core.catalogue import get_bet
from analyzer.core.rules import STANDARD
from analyzer.core.shoe import Shoe
from analyzer.present.document import Block, Heading, Paragraph, Table
from analyzer.present.reports.shared import report
from analyzer.present.text import exact, percent

__all__ = ["BET_SETS", "known_report"]

#: The bets valued, from the main two an advantage player makes to every side bet with them.
BET_SETS = {
    "Player, Banker": ("player", "banker"),
    "with the Tie": ("player", "banker", "tie"),
    "with the side bets": ("player", "banker", "tie", "dragon7", "panda8", "player-pair", "banker-pair"),
}
_SHOES = (Shoe.decks(8), Shoe.decks(6))
_POSITIONS = {
    1: "1 (Player's first)",
    2: "2 (Banker's first)",
    3: "3 (Player's second)",
    4: "4 (Banker's second)",
    5: "5 (the next card)",
    6: "6 (the one after)",
}


def _value_cells(value: KnownValue) -> list[str]:
    per_bet = value.edge_per_bet
    return [
        percent(value.edge_per_coup),
        percent(value.fraction_bet),
        "n/a" if per_bet is None else percent(per_bet),
    ]


def _one_card(shoe: Shoe) -> list[Block]:
    rows, exact_rows = [], []
    for position, name in _POSITIONS.items():
        values = known_values(shoe, (position,), [[get_bet(b) for b in bets] for bets in BET_SETS.values()])
        rows.append([name, *(percent(v.edge_per_coup) for v in values), percent(values[0].fraction_bet)])
        exact_rows.append([name, exact(values[0].edge_per_coup)])
    headers = ["position", *BET_SETS, "coups bet (Player, Banker)"]
    return [
        Table.of(rows, headers),
        Paragraph("Exact, Player and Banker:"),
        Table.of(exact_rows, ["position", "edge per coup"]),
    ]


def _sorts(shoe: Shoe) -> Table:
    main = [get_bet("player"), get_bet("banker")]
    cases = [
        ("first card, 6-9", (1,), "6,7,8,9"),
        ("first card, 7-9", (1,), "7,8,9"),
        ("first four cards, 6-9", (1, 2, 3, 4), "6,7,8,9"),
    ]
    rows = []
    for what, positions, sort in cases:
        value = known_cards(shoe, positions, main, STANDARD, parse_sort(sort)).value
        rows.append([what, *_value_cells(value), exact(value.edge_per_coup)])
    return Table.of(rows, ["sort", "edge per coup", "coups bet", "edge per bet", "edge per coup (exact)"])


def _best_sorts(shoe: Shoe) -> Table:
    main = [get_bet("player"), get_bet("banker")]
    rows = []
    for count in range(1, 5):
        result = best_sorts(shoe, tuple(range(1, count + 1)), main)
        assert result.best_sorts is not None
        second = result.best_sorts[1]
        rows.append([
            f"first {count}" if count > 1 else "first card",
            str(result.sort),
            *_value_cells(result.value),
            f"{','.join(second.sorted)}: {percent(second.value.edge_per_coup)}",
        ])  # fmt: skip
    headers = ["cards sorted", "best sort", "edge per coup", "coups bet", "edge per bet", "next best"]
    return Table.of(rows, headers)


def known_report() -> str:
    """known-cards.md: the value of known cards and of sorts, 8 and 6 decks, standard rules."""
    blocks: list[Block] = [
        Paragraph(
            "What information about the next coup's cards is worth before betting, exactly, for a coup "
            "dealt off the top of a full shoe under the standard tableau. Positions are the order cards "
            "leave the shoe: 1 Player's first, 2 Banker's first, 3 Player's second, 4 Banker's second, "
            "5 the next card (Player's third if the Player draws, else Banker's third if the Banker "
            "draws, else unused), 6 the one after. In each information state the player makes the bet "
            "of highest expectation, or sits out when none is positive; the edge per coup counts the "
            "coups sat out as 0 and is positive when the player wins. Banker pays 19 to 20. Jacobson "
            '("Baccarat: The Known Card") gives 6.765% for the first card of an 8-deck shoe. '
            "`baccarat known` computes any of these for any shoe, tableau and rank-level bets."
        )
    ]
    for shoe in _SHOES:
        blocks += [
            Heading(str(shoe), 2),
            Heading("One known card", 3),
            Paragraph(
                "The edge per coup of knowing the card at one position, betting Player or Banker, "
                "then with the Tie (8:1), then with Dragon 7, Panda 8 and the pairs too:"
            ),
            *_one_card(shoe),
            Heading("Sorts", 3),
            Paragraph(
                "Only whether each sorted card is in the class is known, as an edge sorter reads it "
                "from the cards' backs (Player and Banker bets):"
            ),
            _sorts(shoe),
            Heading("The best sorts", 3),
            Paragraph(
                "Every split of the ten point values into a sorted class and the rest (511 splits, "
                "each the same as its complement, written as the class holding the 9), for the first "
                "one to four cards (Player and Banker bets):"
            ),
            _best_sorts(shoe),
        ]
    release_keys()  # the reports after this one need none of the tensors' keys
    return report("Known cards and edge sorting", blocks)
