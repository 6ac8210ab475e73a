"""The coup's state graph (analyzer.ranks.graph) built from the rules.

The tableau is the brief's (the Wikipedia articles and the Russian gambling dictionary); the
Russian-language beginner's guide's variant differs at Banco 4
against a Punto third card of 0 or 1.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import networkx as nx
import pytest

from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD, Rules
from analyzer.ranks import tableau
from analyzer.ranks.graph import continuations, coup_graph, to_dot

DEALT = [("dealt", p, b) for p in range(10) for b in range(10)]


def _reachable(g: nx.DiGraph) -> set:
    return nx.descendants(g, ("deal",)) | {("deal",)}


@pytest.mark.parametrize("rules", [STANDARD, BANCO_4_DRAWS_ON_0_1])
def test_every_path_from_a_deal_ends_in_a_settle_node(rules: Rules) -> None:
    g = coup_graph(rules)
    assert nx.is_directed_acyclic_graph(g)  # so every maximal path ends in a sink
    kinds = Counter(data["kind"] for node, data in g.nodes(data=True) if node in _reachable(g))
    assert kinds["deal"] == 1
    assert kinds["check"] == 100
    assert kinds["settle"] > 0
    assert kinds["decision"] > 0
    assert kinds["chance"] > 0
    for dealt in DEALT:
        sinks = [n for n in nx.descendants(g, dealt) if g.out_degree(n) == 0]
        assert sinks
        assert all(g.nodes[n]["kind"] == "settle" for n in sinks), dealt
    for node, data in g.nodes(data=True):
        if data["kind"] == "settle":
            assert g.out_degree(node) == 0
            _, p, b, _, _, _ = node
            assert data["winner"] == ("punto" if p > b else "banco" if b > p else "egalite")


def test_naturals_end_the_coup() -> None:
    g = coup_graph(STANDARD)
    for p, b in [(8, 0), (9, 9), (0, 8), (7, 9)]:
        assert list(g.successors(("dealt", p, b))) == [("settle", p, b, 2, 2, True)]
    assert list(g.successors(("dealt", 7, 7))) == [("punto", 7, 7)]


def test_decision_nodes() -> None:
    """Without options a decision has the one taken edge; with options, draw and stand."""
    g = coup_graph(STANDARD)
    full = coup_graph(STANDARD, options=True)
    reach = _reachable(g)
    for node, data in g.nodes(data=True):
        if data["kind"] == "decision" and node in reach:
            edges = list(g.out_edges(node, data=True))
            assert len(edges) == 1 and edges[0][2]["taken"]
    for node, data in full.nodes(data=True):
        if data["kind"] == "decision":
            actions = {d["action"]: d["taken"] for _, _, d in full.out_edges(node, data=True)}
            assert set(actions) == {"draw", "stand"}
            assert sorted(actions.values()) == [False, True]
        if data["kind"] == "chance":
            assert sorted(d["card"] for _, _, d in full.out_edges(node, data=True)) == list(range(10))
    player_draws = {n[1] for n in full if n[0] == "punto" and full.edges[n, ("punto-card", *n[1:])]["taken"]}
    assert player_draws == {0, 1, 2, 3, 4, 5}


def test_continuation_counts() -> None:
    """Counted by hand from the brief's tableau: Banco 3 draws on 9 of 10 third cards
    (9 * 10 + 1), Banco 4 on 6 (6 * 10 + 4), 5 on 4, 6 on 2, 7 never."""
    conts = continuations(STANDARD)
    assert [len(conts[0, b]) for b in range(10)] == [100, 100, 100, 91, 64, 46, 28, 10, 1, 1]
    assert [len(conts[6, b]) for b in range(10)] == [10, 10, 10, 10, 10, 10, 1, 1, 1, 1]
    assert all(len(conts[p, b]) == 1 for p in range(10) for b in (8, 9))
    assert sum(len(c) for c in conts.values()) == 3394
    seed = continuations(BANCO_4_DRAWS_ON_0_1)
    assert [len(seed[0, b]) for b in range(10)] == [100, 100, 100, 91, 82, 46, 28, 10, 1, 1]
    assert sum(len(c) for c in seed.values()) == 3394 + 6 * 18


@pytest.mark.parametrize("rules", [STANDARD, BANCO_4_DRAWS_ON_0_1])
def test_continuations_follow_the_rules(rules: Rules) -> None:
    for (p, b), conts in continuations(rules).items():
        assert len(set(conts)) == len(conts)
        for c in conts:
            natural = rules.is_natural(p) or rules.is_natural(b)
            assert c.natural == natural
            if natural:
                assert (c.player_third, c.banker_third) == (None, None)
            assert (c.player_third is not None) == (not natural and rules.player_draws_on(p))
            draws = not natural and rules.banker_draws_on(b, c.player_third)
            assert (c.banker_third is not None) == draws
            assert c.player_total == (p + (c.player_third or 0)) % 10
            assert c.banker_total == (b + (c.banker_third or 0)) % 10


_VARIANTS = [
    STANDARD,
    BANCO_4_DRAWS_ON_0_1,
    STANDARD.with_player(5, False),
    STANDARD.with_player(6, True),
    replace(STANDARD, name="natural 9 only", natural=9),
    replace(
        STANDARD,
        name="banco stands on 5 when punto stood",
        banker_draws_player_stood=frozenset({0, 1, 2, 3, 4}),
    ),
]


@pytest.mark.parametrize("rules", _VARIANTS, ids=lambda rules: rules.name)
def test_tableau_continuations_are_the_graph_walk(rules: Rules) -> None:
    """The card engine's rows read continuations from the tableau without networkx: the same
    continuations as the coup graph's walk, in the same order."""
    assert tableau.continuations(rules) == continuations(rules)


def test_beginners_guide_differs_from_standard_exactly_at_banco_4_against_0_and_1() -> None:
    """Same nodes and edges with options; only the taken flag of the Banco-4 decisions after a
    third card of 0 or 1 moves (Punto's 0-7, counting its untaken draws on 6-7)."""
    a, b = coup_graph(STANDARD, options=True), coup_graph(BANCO_4_DRAWS_ON_0_1, options=True)
    assert set(a.nodes) == set(b.nodes)
    assert set(a.edges) == set(b.edges)
    moved = {u for u, v, d in a.edges(data=True) if d.get("taken") != b.edges[u, v].get("taken")}
    expected = {("banco", (p + v) % 10, 4, v) for p in range(8) for v in (0, 1)}
    assert moved == expected
    for node in expected:
        assert a.edges[node, ("banco-card", *node[1:])]["taken"] is False
        assert b.edges[node, ("banco-card", *node[1:])]["taken"] is True
    assert len(STANDARD.differences(BANCO_4_DRAWS_ON_0_1)) == 2


def test_to_dot() -> None:
    g = coup_graph(STANDARD)
    dot = to_dot(g)
    lines = dot.splitlines()
    assert lines[0] == 'digraph "standard" {'
    assert lines[-1] == "}"
    assert sum("->" in line for line in lines) == g.number_of_edges()
    assert sum("[label=" in line and "->" not in line for line in lines) == g.number_of_nodes()
    dashed = to_dot(coup_graph(STANDARD, options=True))
    assert "style=dashed" in dashed and "style=dashed" not in dot


def test_graph_without_options_has_only_reachable_nodes() -> None:
    g = coup_graph(STANDARD)
    assert set(g.nodes) == _reachable(g)
