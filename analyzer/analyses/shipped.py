"""Building the polynomial files shipped in analyzer/ranks/coups (run by
scripts/build_coups.py): each outcome's weight as a polynomial in the number of decks, and
the line-weight polynomials of the built-in bets, rank-level and card-level, interpolated
from the general paths at d = 1..7. `analyzer.ranks.polynomials` reads them back.
"""

from __future__ import annotations

import json
import zlib
from array import array
from collections.abc import Sequence

from analyzer.cards.engine import card_line_weights
from analyzer.core.bets import Bet
from analyzer.core.outcome import Winner
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks.coupstore import stored_classes
from analyzer.ranks.enumeration import class_distribution
from analyzer.ranks.lines import weights_by_line
from analyzer.ranks.polynomials import (
    DEGREE,
    FORMAT,
    LITTLE_ENDIAN,
    SAMPLE_DECKS,
    bet_key,
    interpolate,
    outcome_key,
)

__all__ = ["encode_bet_polynomials", "encode_outcome_polynomials"]


def _sample_line_weights(bet: Bet, rules: Rules) -> list[tuple[list[int], int]]:
    """Line weights and total of `bet` at d = 1..7 from the general paths (coup classes,
    card enumeration)."""
    if bet.card_level:
        return [card_line_weights(bet, Shoe.decks(d), rules) for d in SAMPLE_DECKS]
    dists = [class_distribution(Shoe.decks(d), rules) for d in SAMPLE_DECKS]
    return [(weights_by_line(bet, dist), dist.total) for dist in dists]


def encode_bet_polynomials(bets: Sequence[Bet], rules: Sequence[Rules]) -> str:
    """The shipped file of the line-weight polynomials of `bets` under each of `rules` (JSON
    text), interpolated from the general paths at d = 1..7."""
    entries = []
    for tableau in rules:
        for bet in bets:
            samples = _sample_line_weights(bet, tableau)
            lines = [interpolate([weights[i] for weights, _ in samples]) for i in range(len(bet.lines) + 1)]
            total = interpolate([total for _, total in samples])
            entries.append({"bet": bet.name, "rules": tableau.name, "key": bet_key(bet, tableau),
                            "lines": lines, "total": total})  # fmt: skip
    return json.dumps({"format": FORMAT, "entries": entries}, indent=1) + "\n"


def encode_outcome_polynomials(rules: Rules) -> bytes:
    """The shipped file of `rules`' outcome polynomials, from its coup classes at d = 1..7."""
    stored = stored_classes(rules)
    samples = []
    for d in SAMPLE_DECKS:
        dist = class_distribution(Shoe.decks(d), rules)
        assert dist.weight_list is not None
        samples.append((dist.weight_list, dist.total))
    polys = [interpolate([weights[i] for weights, _ in samples]) for i in range(stored.size)]
    results = []
    for winner in (Winner.BANKER, Winner.PLAYER, Winner.TIE):
        rows = [p for p, o in zip(polys, stored.outcomes, strict=True) if o.winner == winner]
        results.append([sum(column) for column in zip(*rows, strict=True)])
    results.append(interpolate([total for _, total in samples]))
    head = array("q", [c for row in results for c in row])
    body = array("q", [p[j] for j in range(DEGREE + 1) for p in polys])
    sections = []
    for values in (head, body):
        if not LITTLE_ENDIAN:
            values.byteswap()
        sections.append(zlib.compress(values.tobytes(), 9))
    crc = zlib.crc32(stored.arrays["columns"])
    header = f"{outcome_key(rules)} outcomes={stored.size} crc={crc} head={len(sections[0])}"
    return header.encode() + b"\n" + b"".join(sections)
