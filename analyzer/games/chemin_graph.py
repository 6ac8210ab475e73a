"""Chemin de fer as a networkx game graph with information sets, compiled into a bilinear form.

The graph extends the ideas of `analyzer.ranks.graph` from totals to two-card hands (pairs of point
values, 0 standing for any ten-valued card), because card removal makes the hand matter in a
finite shoe. Nodes are tuples whose first item names the stage:

- ``("deal",)``: chance; one edge per pair of hands, with the number of orderings.
- ``("dealt", ph, bh)``: the Player's and the Banker's hands; a natural ends the coup here.
- ``("player", ph, bh)``: the Player's decision. Forced totals (the custom) have one edge.
- ``("player-card", ph, bh)``: chance: the Player's third card, one edge per point value.
- ``("banker", ph, bh, v)``: the Banker's decision, free everywhere; ``v`` is the value of the
  Player's third card, or None when the Player stood.
- ``("banker-card", ph, bh, v)``: chance: the Banker's third card.
- ``("settle", p, b)``: final totals; the coup is settled.

Decision nodes carry two information-set keys: ``hand_info`` (a side sees its own two cards)
and ``total_info`` (a side sees only its total, the Kemeny-Snell model). The Banker's key also
holds ``v`` (or None). Card edges carry ``card``; decision edges carry ``action``.

A behaviour strategy is a draw probability per information set: ``x`` for the Player's free
sets, ``q`` for the Banker's. Every path meets at most one decision of each side, so the
Banker's expectation is bilinear: ``V(x, q) = sum G[a, b] X_a Q_b`` with ``X = (x..., 1)`` and
``Q = (q..., 1)``. `compile_tree` lists the graph's paths once (enumerated as a walk of the
graph meets them, without building it); `game_form` evaluates them on a shoe.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any

import networkx as nx
import numpy as np

from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.games.hands import FREE_TOTAL, HANDS, Hand, hand_counts, hand_label, hand_orders, hand_total
from analyzer.ranks.compiler import shoe_factors

__all__ = [
    "FREE_TOTAL",
    "HANDS",
    "INFOS",
    "CompiledTree",
    "GameForm",
    "InfoKey",
    "InfoModel",
    "chemin_graph",
    "compile_tree",
    "game_form",
    "hand_label",
]

Node = tuple[Any, ...]
InfoKey = tuple[Any, ...]  # (side, what it sees, [Player's third card or None])


class InfoModel(StrEnum):
    """What each side sees of its own two cards (Ethier and Gamez's models 3, 2 and 1)."""

    HANDS = "hands"  # each side sees its own two cards
    BANKER_HANDS = "banker-hands"  # the Banker his cards, the Player his total (Downton and Lockwood)
    TOTALS = "totals"  # each side only its total (Kemeny and Snell)


#: The information models' names, in the order reports list them.
INFOS = tuple(InfoModel)

_total = hand_total
_orders = hand_orders


@lru_cache(maxsize=8)
def chemin_graph(rules: Rules) -> nx.DiGraph:
    """The chemin de fer game graph: naturals and the Player's custom from `rules`.

    The Player draws on `rules.player_draws`, stands otherwise, and chooses freely on
    FREE_TOTAL; the Banker chooses freely at every one of its decisions. (Cached; `_graph`
    builds a new one.)
    """
    return _graph(rules)


def _graph(rules: Rules) -> nx.DiGraph:
    """`chemin_graph`, built now."""
    g = nx.DiGraph(rules=rules.name)
    root: Node = ("deal",)
    g.add_node(root, kind="chance")
    for p in range(10):
        for b in range(10):
            winner = "player" if p > b else "banker" if b > p else "tie"
            g.add_node(("settle", p, b), kind="settle", winner=winner)
    for ph in HANDS:
        for bh in HANDS:
            dealt = ("dealt", ph, bh)
            g.add_edge(root, dealt, cards=ph + bh, orders=_orders(ph) * _orders(bh))
            g.nodes[dealt]["kind"] = "check"
            p, b = _total(ph), _total(bh)
            if rules.is_natural(p) or rules.is_natural(b):
                g.add_edge(dealt, ("settle", p, b), action="natural")
            else:
                _player(g, ph, bh, rules)
    return g


def _player(g: nx.DiGraph, ph: Hand, bh: Hand, rules: Rules) -> None:
    p = _total(ph)
    node = ("player", ph, bh)
    free = p == FREE_TOTAL
    g.add_edge(("dealt", ph, bh), node, action="no natural")
    g.add_node(
        node, kind="decision", actor="player", free=free, hand_info=("player", ph), total_info=("player", p)
    )
    if free or rules.player_draws_on(p):
        chance = ("player-card", ph, bh)
        g.add_edge(node, chance, action="draw")
        g.add_node(chance, kind="chance")
        for v in range(10):
            g.add_edge(chance, _banker(g, ph, bh, v), card=v)
    if free or not rules.player_draws_on(p):
        g.add_edge(node, _banker(g, ph, bh, None), action="stand")


def _banker(g: nx.DiGraph, ph: Hand, bh: Hand, v: int | None) -> Node:
    p = _total(ph) if v is None else (_total(ph) + v) % 10
    b = _total(bh)
    node = ("banker", ph, bh, v)
    g.add_node(
        node, kind="decision", actor="banker", hand_info=("banker", bh, v), total_info=("banker", b, v)
    )
    chance = ("banker-card", ph, bh, v)
    g.add_edge(node, chance, action="draw")
    g.add_node(chance, kind="chance")
    for w in range(10):
        g.add_edge(chance, ("settle", p, (b + w) % 10), card=w)
    g.add_edge(node, ("settle", p, b), action="stand")
    return node


@dataclass(frozen=True, eq=False)
class CompiledTree:
    """Every root-to-settle path of the graph as arrays (one row per path).

    - `player_sets` / `banker_sets`: information-set keys of the free decisions, sorted.
    - `cards`: (T, 10) point-value counts the path uses; `orders`: orderings of the deal.
    - `player_set` / `banker_set`: index of the set the path passes (-1: none, or forced);
      `player_draw` / `banker_draw`: the action taken there.
    - `result`: +1 Banker wins, -1 Player wins, 0 tie.
    """

    info: InfoModel
    player_sets: tuple[InfoKey, ...]
    banker_sets: tuple[InfoKey, ...]
    cards: np.ndarray
    orders: np.ndarray
    player_set: np.ndarray
    player_draw: np.ndarray
    banker_set: np.ndarray
    banker_draw: np.ndarray
    result: np.ndarray


def compile_tree(rules: Rules, info: InfoModel) -> CompiledTree:
    """Every path of `chemin_graph(rules)`, listed once; `info` picks the information model
    (the three models' trees come from one pass, cached by `_compiled_trees`)."""
    return _compiled_trees(rules)[InfoModel(info)]


#: The table's columns after the ten card counts: orders, a Player set per model, the
#: Player's draw, a Banker set per model, the Banker's draw, the result.
_ORDERS, _PSET, _PDRAW = 10, 11, 11 + len(INFOS)
_BSET, _BDRAW = _PDRAW + 1, _PDRAW + 1 + len(INFOS)
_COLUMNS = _BDRAW + 2
_Sets = tuple[int, ...]  # a decision's set in each model (-1: none, or forced)


@lru_cache(maxsize=4)
def _compiled_trees(rules: Rules) -> dict[InfoModel, CompiledTree]:
    """Every information model's compiled tree from one pass over the paths of
    `chemin_graph(rules)` (the paths are the same in every model, only the sets differ):
    `_paths` enumerates them without building the graph (about 90 MB and most of the time
    of a walk of it; a test checks the table against a walk of the graph)."""
    found: dict[str, list[dict[InfoKey, int]]] = {
        "player": [{} for _ in INFOS],
        "banker": [{} for _ in INFOS],
    }
    table = _paths(rules, found)
    # Columns of their own, the card counts (at most 6) and results as int8: no view keeps
    # the table alive in the cache. Sets renumbered in sorted key order (a stable order).
    cards, orders = table[:, :10].astype(np.int8), table[:, _ORDERS].copy()
    player_draw, banker_draw = table[:, _PDRAW].astype(bool), table[:, _BDRAW].astype(bool)
    result = table[:, -1].astype(np.int8)
    trees = {}
    for m, info in enumerate(INFOS):
        player_sets, player_map = _sorted(found["player"][m])
        banker_sets, banker_map = _sorted(found["banker"][m])
        pset, bset = table[:, _PSET + m], table[:, _BSET + m]
        trees[info] = CompiledTree(
            info=info,
            player_sets=player_sets,
            banker_sets=banker_sets,
            cards=cards,
            orders=orders,
            player_set=np.where(pset >= 0, player_map[pset], -1),
            player_draw=player_draw,
            banker_set=np.where(bset >= 0, banker_map[bset], -1),
            banker_draw=banker_draw,
            result=result,
        )
    return trees


def _paths(rules: Rules, found: dict[str, list[dict[InfoKey, int]]]) -> np.ndarray:
    """The table (`_COLUMNS` int64 columns), one row per root-to-settle path of
    `chemin_graph(rules)` in the order a depth-first walk of it meets them (edges in the
    order `_graph` adds them); each free decision's set in every model numbered in `found`
    (per side, per model of INFOS) in the order first met. A Banker decision is listed once
    (`_expand` makes its eleven rows)."""
    rows = array("q")  # entries: a row's columns, then (1, b, p) for a Banker decision, else (0, 0, 0)
    forced = (-1,) * len(INFOS)
    # which key each model reads: the Player's hand only in HANDS, the Banker's total only in TOTALS
    player_hand = [info == InfoModel.HANDS for info in INFOS]
    banker_hand = [info != InfoModel.TOTALS for info in INFOS]

    def sets(side: str, keys: list[InfoKey]) -> tuple[int, ...]:
        return tuple(known.setdefault(key, len(known)) for known, key in zip(found[side], keys, strict=True))

    def banker(cards: list[int], head: tuple[int, ...], bh: Hand, p: int, v: int | None) -> None:
        """The rows under a Banker's decision; `head`: the orders, the Player's sets and draw."""
        b = _total(bh)
        hand, total = ("banker", bh, v), ("banker", b, v)
        middle = (*head, *sets("banker", [hand if h else total for h in banker_hand]))
        rows.extend((*hand_counts(cards), *middle, 0, (b > p) - (p > b), 1, b, p))

    for ph in HANDS:
        for bh in HANDS:
            cards, orders = [*ph, *bh], _orders(ph) * _orders(bh)
            p, b = _total(ph), _total(bh)
            if rules.is_natural(p) or rules.is_natural(b):
                rows.extend((*hand_counts(cards), orders, *forced, 0, *forced, 0, (b > p) - (p > b), 0, 0, 0))
                continue
            free = p == FREE_TOTAL
            pset = (
                sets("player", [("player", ph) if h else ("player", p) for h in player_hand])
                if free
                else forced
            )
            if free or rules.player_draws_on(p):
                for v in range(10):
                    banker([*cards, v], (orders, *pset, int(free)), bh, (p + v) % 10, v)
            if free or not rules.player_draws_on(p):
                banker(cards, (orders, *pset, 0), bh, p, None)
    return _expand(np.frombuffer(rows, dtype=np.int64).reshape(-1, _COLUMNS + 3))


def _expand(entries: np.ndarray) -> np.ndarray:
    """The table's rows from `_paths`' entries: a Banker decision's entry (its stand row, then
    1, its total b and the Player's final total p) becomes the rows of its third cards w = 0..9
    (drawn, settled on (b + w) % 10 against p), then its stand row; any other entry is a row."""
    decision, b, p = (entries[:, _COLUMNS + i] for i in range(3))
    reps = np.where(decision == 1, 11, 1)
    rows = np.repeat(entries[:, :_COLUMNS], reps, axis=0)
    k = np.arange(len(rows)) - np.repeat(np.cumsum(reps) - reps, reps)  # the row's place in its entry
    drawn = np.flatnonzero(np.repeat(decision == 1, reps) & (k < 10))
    w = k[drawn]
    rows[drawn, w] += 1
    rows[drawn, _BDRAW] = 1
    rows[drawn, _BDRAW + 1] = np.sign((np.repeat(b, reps)[drawn] + w) % 10 - np.repeat(p, reps)[drawn])
    return rows


def _sort_key(key: InfoKey) -> tuple[Any, ...]:
    return tuple((1, 0) if item is None else (0, item) for item in key)


def _sorted(keys: dict[InfoKey, int]) -> tuple[tuple[InfoKey, ...], np.ndarray]:
    ordered = sorted(keys, key=_sort_key)
    mapping = np.zeros(max(len(keys), 1), dtype=np.int64)
    for new, k in enumerate(ordered):
        mapping[keys[k]] = new
    return tuple(ordered), mapping


@dataclass(frozen=True, eq=False)
class GameForm:
    """The Banker's expectation as a bilinear form, exact: V(x, q) = sum G[a][b] X_a Q_b / total.

    `wins[a][b]` and `losses[a][b]` are integer weights (ordered 6-card sequences for finite
    shoes, 13**6-scaled for the infinite deck) of Banker wins and Player wins; row H and
    column I stand for the constant 1. With commission c, G = (1 - c) wins - losses.
    """

    shoe: Shoe
    rules: Rules
    info: InfoModel
    player_sets: tuple[InfoKey, ...]
    banker_sets: tuple[InfoKey, ...]
    wins: tuple[tuple[int, ...], ...]
    losses: tuple[tuple[int, ...], ...]
    reach: tuple[int, ...]  # chance weight of each Banker set's histories; 0: the set cannot occur
    total: int

    def payoff(self, commission: Fraction) -> list[list[Fraction]]:
        """G / total as Fractions, with the Banker paying `commission` on its wins."""
        grid, scale = self.payoff_numerators(commission)
        return [[Fraction(g, scale) for g in row] for row in grid]

    def payoff_numerators(self, commission: Fraction) -> tuple[list[list[int]], int]:
        """G / total as integer numerators over one positive denominator, with the Banker
        paying `commission` on its wins: (numerators, denominator)."""
        keep = 1 - Fraction(commission)
        win, loss = keep.numerator, keep.denominator
        grid = [
            [win * w - loss * lo for w, lo in zip(wrow, lrow, strict=True)]
            for wrow, lrow in zip(self.wins, self.losses, strict=True)
        ]
        return grid, loss * self.total


def _dtype(total: int) -> type | np.dtype:
    return np.int64 if 64 * total < 2**62 else object


@lru_cache(maxsize=16)
def game_form(shoe: Shoe, rules: Rules, info: InfoModel) -> GameForm:
    """The compiled tree evaluated on `shoe`: exact integer weights of the bilinear form."""
    tree = compile_tree(rules, info)
    ff, zero, tail, total = shoe_factors(shoe)
    dtype = _dtype(total)
    factors = np.array([zero[0], *ff[1:]], dtype=dtype)  # factors[v][j] = (c_v)_j
    weight = tree.orders.astype(dtype)
    for v in range(10):
        weight = weight * factors[v, tree.cards[:, v]]
    weight = weight * np.array(tail, dtype=dtype)[tree.cards.sum(axis=1)]
    n_p, n_b = len(tree.player_sets), len(tree.banker_sets)
    # X = x or 1 - x and Q = q or 1 - q, each expanded into two (coordinate, sign) monomials.
    x_terms = _terms(tree.player_set, tree.player_draw, n_p)
    q_terms = _terms(tree.banker_set, tree.banker_draw, n_b)
    forms = []
    for outcome in (1, -1):
        grid = np.zeros((n_p + 1) * (n_b + 1), dtype=dtype)
        hit = tree.result == outcome
        for xi, xs in x_terms:
            for qi, qs in q_terms:
                sign = xs * qs * hit
                keep = sign != 0
                np.add.at(grid, xi[keep] * (n_b + 1) + qi[keep], weight[keep] * sign[keep])
        forms.append(tuple(tuple(int(v) for v in row) for row in grid.reshape(n_p + 1, n_b + 1)))
    # Chance weight of each Banker set (its stand paths, both Player actions counted): 0 = impossible.
    stand = (tree.banker_set >= 0) & ~tree.banker_draw
    reach = np.zeros(n_b, dtype=dtype)
    np.add.at(reach, tree.banker_set[stand], weight[stand])
    return GameForm(
        shoe=shoe,
        rules=rules,
        info=info,
        player_sets=tree.player_sets,
        banker_sets=tree.banker_sets,
        wins=forms[0],
        losses=forms[1],
        reach=tuple(int(r) for r in reach),
        total=total,
    )


def _terms(index: np.ndarray, draw: np.ndarray, size: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """A path's factor (1, p or 1 - p) as two monomials: (coordinate, sign) arrays.

    Coordinate `size` is the constant 1. Paths without a free decision: 1 = 1 * const.
    """
    has = index >= 0
    first = (np.where(has, index, size), np.where(has, np.where(draw, 1, -1), 1))
    second = (np.full(len(index), size), np.where(has & ~draw, 1, 0))
    return [first, second]
