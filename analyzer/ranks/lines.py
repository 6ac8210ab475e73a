"""A bet settled on every stored coup class: each bet's line per outcome, computed once per
group of outcomes alike in the fields the bet reads, and the weight of each line.
"""

from __future__ import annotations

from functools import lru_cache
from operator import add, sub
from typing import Any

from analyzer.core.bets import FIELDS, Bet
from analyzer.core.outcome import Winner
from analyzer.ranks.coupstore import StoredClasses
from analyzer.ranks.enumeration import Distribution

__all__ = ["column", "line_indexes", "weights_by_line"]


#: Outcome columns read straight from the stored classes (Outcome's field order); the
#: others come from FIELDS' readers. A test checks these equal the readers.
_STORED_COLUMNS = {
    "player_initial": 0,
    "banker_initial": 1,
    "player_total": 2,
    "banker_total": 3,
    "player_cards": 4,
    "banker_cards": 5,
    "natural": 6,
    "player_pair": 7,
    "banker_pair": 8,
}
_WINNER_NAMES = (str(Winner.TIE), str(Winner.PLAYER), str(Winner.BANKER))  # by sign of p - b


@lru_cache(maxsize=256)
def column(classes: StoredClasses, name: str) -> list[Any]:
    """Field `name` of every stored outcome, in stored order."""
    if name in _STORED_COLUMNS:
        return list(classes.column(_STORED_COLUMNS[name]))
    if name in ("winner", "margin", "cards"):
        left, right = (column(classes, f) for f in ("player_total", "banker_total"))
        if name == "cards":
            return list(map(add, column(classes, "player_cards"), column(classes, "banker_cards")))
        differences = list(map(sub, left, right))
        if name == "margin":
            return list(map(abs, differences))
        return [_WINNER_NAMES[(d > 0) - (d < 0)] for d in differences]
    return list(map(FIELDS[name][0], classes.outcomes))


Key = tuple[Any, ...]


@lru_cache(maxsize=256)
def _groups(classes: StoredClasses, names: tuple[str, ...]) -> tuple[list[int], list[Key]]:
    """Stored outcomes grouped by the values of fields `names`: each outcome's group, and
    each group's values."""
    keys = list(zip(*(column(classes, name) for name in names), strict=True))
    distinct = list(dict.fromkeys(keys))
    index = {key: i for i, key in enumerate(distinct)}
    return list(map(index.__getitem__, keys)), distinct


def _read_fields(bet: Bet) -> tuple[str, ...]:
    return tuple(sorted({name for line in bet.lines for name, _ in line.when}))


@lru_cache(maxsize=1024)
def _group_lines(bet: Bet, classes: StoredClasses) -> list[int]:
    """The line that settles `bet` in each group of `_groups` (`bet.no_line`: no line matched)."""
    names = _read_fields(bet)
    position = {name: i for i, name in enumerate(names)}
    return [
        next(
            (
                i
                for i, line in enumerate(bet.lines)
                if all(key[position[name]] in allowed for name, allowed in line.when)
            ),
            bet.no_line,
        )
        for key in _groups(classes, names)[1]
    ]


def line_indexes(bet: Bet, classes: StoredClasses) -> list[int]:
    """`bet.line_index` of every stored outcome, in stored order (`bet.no_line`: no line matched);
    each group of outcomes alike in the fields the bet reads is settled once."""
    groups, _ = _groups(classes, _read_fields(bet))
    return list(map(_group_lines(bet, classes).__getitem__, groups))


@lru_cache(maxsize=8)
def _group_weights(dist: Distribution, names: tuple[str, ...]) -> list[int]:
    """The weight of each group of `_groups` in `dist` (shared by bets reading the same fields)."""
    assert dist.classes is not None and dist.weight_list is not None
    groups, keys = _groups(dist.classes, names)
    sums = [0] * len(keys)
    for group, w in zip(groups, dist.weight_list, strict=True):
        sums[group] += w
    return sums


def weights_by_line(bet: Bet, dist: Distribution) -> list[int]:
    """Weight of each line of `bet` in `dist`, and last the weight no line matched."""
    weights = [0] * (len(bet.lines) + 1)  # last slot: no line matched (loss)
    if dist.classes is not None and dist.weight_list is not None:
        sums = _group_weights(dist, _read_fields(bet))
        for line, w in zip(_group_lines(bet, dist.classes), sums, strict=True):
            weights[line] += w
        return weights
    for outcome, w in dist.weights.items():
        weights[bet.line_index(outcome)] += w
    return weights
