"""The plain card-level enumerator: nested loops over card types, the independent slow path.

It shares nothing with `analyzer.cards.engine` but the rules, the Outcome type and the bet's
lines: it deals every sequence of card types card by card (multiplying the cards of each
type left), plays the coup with the rules' own drawing methods and reads each field of a
condition from the dealt cards directly. Tests check the fast engine against it on
small shoes.
"""

from __future__ import annotations

from math import perm
from typing import Any

from analyzer.core.bets import FIELDS, Bet
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.outcome import CARDS_PER_COUP, Outcome
from analyzer.core.ranks import RANK_POINTS, RANKS
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.core.suits import SUITS, parse_card

__all__ = ["plain_card_line_weights"]

Card = tuple[int, int]  # (rank index, suit index)
_RED = {SUITS.index(s) for s in ("H", "D")}


def _colour(cards: list[Card]) -> str:
    reds = sum(s in _RED for _, s in cards)
    return "red" if reds == len(cards) else "black" if reds == 0 else "mixed"


def _count(cards: list[Card], key: str) -> int:
    text = key.strip()
    if text.lower().startswith("value"):
        return sum(RANK_POINTS[r] == int(text[5:]) for r, _ in cards)
    rank, suit = parse_card(text)
    r = RANKS.index(rank)
    return sum(cr == r and (suit is None or cs == SUITS.index(suit)) for cr, cs in cards)


def _read(name: str, seq: list[Card | None], outcome: Outcome) -> Any:
    """The value of field `name` for the dealt cards `seq` (p1, b1, p2, b2, p3, b3)."""
    if name in FIELDS:
        return FIELDS[name][0](outcome)
    dealt = [c for c in seq if c is not None]
    hands = {
        "player": [c for c in seq[0::2] if c is not None],
        "banker": [c for c in seq[1::2] if c is not None],
    }
    head, _, key = name.partition(".")
    if head == "count_first_four":
        return _count(dealt[:4], key)
    if head == "count_coup":
        return _count(dealt, key)
    positions = ("p1", "b1", "p2", "b2", "p3", "b3")
    for i, pos in enumerate(positions):
        card = seq[i]
        if name == f"{pos}_rank":
            return "none" if card is None else str(RANKS[card[0]])
        if name == f"{pos}_suit":
            return "none" if card is None else str(SUITS[card[1]])
    for hand, cards in hands.items():
        (r1, s1), (r2, s2) = cards[0], cards[1]
        if name == f"{hand}_first_two":
            a, b = sorted((r1, r2))
            return f"{RANKS[a]}-{RANKS[b]}"
        if name == f"{hand}_suited":
            return s1 == s2
        if name == f"{hand}_perfect_pair":
            return (r1, s1) == (r2, s2)
        if name == f"{hand}_colour":
            return _colour(cards)
        if name == f"{hand}_highest":
            return max(RANK_POINTS[r] for r, _ in cards)
    first = dealt[:4]
    if name == "pairs_same_rank":
        return len({r for r, _ in first}) == 1
    if name == "pairs_same_card":
        return len(set(first)) == 1
    if name == "colour":
        return _colour(dealt)
    if name == "highest":
        return max(RANK_POINTS[r] for r, _ in dealt)
    raise AnalyzerError(f"unknown field {quoted(name)}")


def _settle(bet: Bet, seq: list[Card | None], outcome: Outcome) -> int:
    for i, line in enumerate(bet.lines):
        if all(_read(name, seq, outcome) in allowed for name, allowed in line.when):
            return i
    return len(bet.lines)


def plain_card_line_weights(bet: Bet, shoe: Shoe, rules: Rules = STANDARD) -> tuple[list[int], int]:
    """Weight of each line of `bet` (last: no line matched) and the total, by dealing every
    sequence of card types (slow: small shoes only). Same convention as
    `analyzer.cards.engine.card_line_weights`."""
    infinite = shoe.counts is None
    if infinite:
        left = [1] * 52
    elif shoe.types is None:
        raise AnalyzerError("the plain card-level path needs a shoe with known suits")
    else:
        left = [shoe.types[s * 13 + r] for r in range(13) for s in range(4)]  # index r * 4 + s
    size = 52 if infinite else shoe.size
    weights = [0] * (len(bet.lines) + 1)
    types = [t for t in range(52) if left[t]]

    def deal(seq: list[Card | None], w: int, k: int) -> None:
        p = (RANK_POINTS[seq[0][0]] + RANK_POINTS[seq[2][0]]) % 10  # type: ignore[index]
        b = (RANK_POINTS[seq[1][0]] + RANK_POINTS[seq[3][0]]) % 10  # type: ignore[index]
        del k
        pairs = (seq[0][0] == seq[2][0], seq[1][0] == seq[3][0])  # type: ignore[index]
        if rules.is_natural(p) or rules.is_natural(b):
            finish([*seq[:4], None, None], w, Outcome(p, b, p, b, 2, 2, True, *pairs))
            return
        if rules.player_draws_on(p):
            for t in types:
                w5 = w * take(t)
                if w5:
                    r5 = t // 4
                    v = RANK_POINTS[r5]
                    pf = (p + v) % 10
                    if rules.banker_draws_on(b, v):
                        for u in types:
                            w6 = w5 * take(u)
                            if w6:
                                bf = (b + RANK_POINTS[u // 4]) % 10
                                cards = [*seq[:4], (r5, t % 4), (u // 4, u % 4)]
                                finish(cards, w6, Outcome(p, b, pf, bf, 3, 3, False, *pairs))
                            give(u)
                    else:
                        finish([*seq[:4], (r5, t % 4), None], w5, Outcome(p, b, pf, b, 3, 2, False, *pairs))
                give(t)
        elif rules.banker_draws_on(b, None):
            for u in types:
                w6 = w * take(u)
                if w6:
                    bf = (b + RANK_POINTS[u // 4]) % 10
                    finish([*seq[:4], None, (u // 4, u % 4)], w6, Outcome(p, b, p, bf, 2, 3, False, *pairs))
                give(u)
        else:
            finish([*seq[:4], None, None], w, Outcome(p, b, p, b, 2, 2, False, *pairs))

    def take(t: int) -> int:
        ways = left[t]
        if not infinite:
            left[t] -= 1
        return ways

    def give(t: int) -> None:
        if not infinite:
            left[t] += 1

    def finish(seq: list[Card | None], w: int, outcome: Outcome) -> None:
        k = sum(c is not None for c in seq)
        rest = 52 ** (CARDS_PER_COUP - k) if infinite else perm(size - k, CARDS_PER_COUP - k)
        weights[_settle(bet, seq, outcome)] += w * rest

    for a in types:
        wa = take(a)
        for b_ in types:
            wb = wa * take(b_)
            for c in types:
                wc = wb * take(c)
                for d in types:
                    wd = wc * take(d)
                    if wd:
                        seq: list[Card | None] = [
                            (a // 4, a % 4),
                            (b_ // 4, b_ % 4),
                            (c // 4, c % 4),
                            (d // 4, d % 4),
                        ]
                        deal(seq, wd, 4)
                    give(d)
                give(c)
            give(b_)
        give(a)
    total = 52**CARDS_PER_COUP if infinite else perm(size, CARDS_PER_COUP)
    return weights, total
