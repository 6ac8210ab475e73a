"""The coup as a networkx state graph derived from the rules.

Nodes are tuples whose first item names the stage:

- ``("deal",)``: four cards dealt Punto, Banco, Punto, Banco.
- ``("dealt", p, b)``: two-card totals known; naturals are checked here.
- ``("punto", p, b)``: Punto's decision (draw or stand).
- ``("punto-card", p, b)``: chance: Punto's third card, one edge per point value.
- ``("banco", p, b, v)``: Banco's decision, seeing Punto's third-card value ``v``
  (``None`` when Punto stood). ``p`` is Punto's final total here.
- ``("banco-card", p, b, v)``: chance: Banco's third card.
- ``("settle", p, b, player_cards, banker_cards, natural)``: final totals; the coup is settled.

Decision edges carry ``action`` ("draw"/"stand") and ``taken`` (whether the tableau takes
it); card edges carry ``hand`` and ``card`` (the point value drawn). The enumerator
compiles coup classes by walking the taken edges, and games where hands choose
(chemin de fer) can reuse the untaken ones as the other options of a decision node.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache, partial
from typing import Any

import networkx as nx

from analyzer.core.rules import Rules
from analyzer.ranks.tableau import Continuation

__all__ = ["Continuation", "continuations", "coup_graph", "to_dot"]

Node = tuple[Any, ...]


def coup_graph(rules: Rules, options: bool = False) -> nx.DiGraph:
    """The coup's state graph under `rules`; with `options`, untaken decision edges too.

    Banco on 4 against a third card of 1 (Punto's final total 4):

    >>> from analyzer import BANCO_4_DRAWS_ON_0_1, STANDARD
    >>> from analyzer.ranks.graph import coup_graph
    >>> node = ("banco", 4, 4, 1)
    >>> sorted((e["action"], e["taken"]) for e in coup_graph(STANDARD, options=True)[node].values())
    [('draw', False), ('stand', True)]
    >>> [e["action"] for e in coup_graph(BANCO_4_DRAWS_ON_0_1)[node].values()]
    ['draw']
    """
    g = nx.DiGraph(rules=rules.name)
    root: Node = ("deal",)
    g.add_node(root, kind="deal", label="deal P,B,P,B")

    def settle(p: int, b: int, np_: int, nb: int, natural: bool) -> Node:
        node = ("settle", p, b, np_, nb, natural)
        if node not in g:
            winner = "punto" if p > b else "banco" if b > p else "egalite"
            g.add_node(node, kind="settle", winner=winner, label=f"{p}-{b} {winner}")
        return node

    def decision(node: Node, actor: str, draw_to: Node, stand_to: Callable[[], Node], draws: bool) -> None:
        """A decision node; the stand target is built only when its edge is added."""
        g.add_node(node, kind="decision", actor=actor, label=f"{actor} {node[1:]}")
        if options or draws:
            g.add_edge(node, draw_to, action="draw", taken=draws)
        if options or not draws:
            g.add_edge(node, stand_to(), action="stand", taken=not draws)

    def banker_turn(p: int, b: int, v: int | None) -> Node:
        node = ("banco", p, b, v)
        if node in g:
            return node
        np_ = 2 if v is None else 3
        chance = ("banco-card", p, b, v)
        decision(node, "banco", chance, lambda: settle(p, b, np_, 2, False), rules.banker_draws_on(b, v))
        if chance in g:
            g.nodes[chance].update(kind="chance", hand="banco", label="Banco's third card")
            for w in range(10):
                g.add_edge(chance, settle(p, (b + w) % 10, np_, 3, False), hand="banco", card=w)
        return node

    for p in range(10):
        for b in range(10):
            dealt = ("dealt", p, b)
            g.add_node(dealt, kind="check", label=f"Punto {p}, Banco {b}")
            g.add_edge(root, dealt, cards=4)
            if rules.is_natural(p) or rules.is_natural(b):
                g.add_edge(dealt, settle(p, b, 2, 2, True), action="natural", taken=True)
                continue
            player_turn = ("punto", p, b)
            g.add_edge(dealt, player_turn, action="no natural", taken=True)
            chance = ("punto-card", p, b)
            decision(player_turn, "punto", chance, partial(banker_turn, p, b, None), rules.player_draws_on(p))
            if chance in g:
                g.nodes[chance].update(kind="chance", hand="punto", label="Punto's third card")
                for v in range(10):
                    g.add_edge(chance, banker_turn((p + v) % 10, b, v), hand="punto", card=v)
    return g


def _walk(g: nx.DiGraph, node: Node, drawn: dict[str, int]) -> Iterator[Continuation]:
    if g.nodes[node]["kind"] == "settle":
        _, p, b, _, _, natural = node
        yield Continuation(drawn.get("punto"), drawn.get("banco"), p, b, natural)
        return
    for succ, edge in g.succ[node].items():
        if "card" in edge:
            yield from _walk(g, succ, {**drawn, edge["hand"]: edge["card"]})
        elif edge.get("taken", True):
            yield from _walk(g, succ, drawn)


@lru_cache(maxsize=32)
def continuations(rules: Rules) -> dict[tuple[int, int], tuple[Continuation, ...]]:
    """For each pair of two-card totals (p, b), every way the coup can go on under `rules`."""
    g = coup_graph(rules)
    return {(p, b): tuple(_walk(g, ("dealt", p, b), {})) for p in range(10) for b in range(10)}


def to_dot(g: nx.DiGraph) -> str:
    """Graphviz DOT text of a coup graph (node labels and edge actions/cards)."""
    ids = {node: f"n{i}" for i, node in enumerate(g.nodes)}

    def quote(text: object) -> str:
        """A DOT quoted string: backslashes and quotes escaped, a line break as DOT's \\n."""
        escaped = str(text).replace("\\", "\\\\").replace('"', '\\"')
        return '"' + "\\n".join(escaped.splitlines()) + '"'

    shapes = {"decision": "box", "chance": "circle", "settle": "doubleoctagon"}
    lines = [f"digraph {quote(g.graph.get('rules', 'coup'))} {{", "  rankdir=LR;"]
    for node, data in g.nodes(data=True):
        shape = shapes.get(data.get("kind"), "ellipse")
        lines.append(f"  {ids[node]} [label={quote(data.get('label', node))}, shape={shape}];")
    for a, b, data in g.edges(data=True):
        label = data.get("action") or (f"{data['hand']} {data['card']}" if "card" in data else "")
        style = "" if data.get("taken", True) else ", style=dashed"
        lines.append(f"  {ids[a]} -> {ids[b]} [label={quote(label)}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
