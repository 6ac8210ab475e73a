"""What the `baccarat list` command shows: every built-in name with its title and source."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.core.errors import AnalyzerError, quoted

__all__ = ["KINDS", "Entry", "ListResult", "entries", "list_result"]

#: What `list` can show, with a one-line description of each.
KINDS: dict[str, str] = {
    "bets": "built-in bets (paytables): --bets, --bet",
    "tables": "built-in tables (a tableau and the bets offered with it): --table, --tables",
    "rules": "built-in tableaux: --rules, --variant",
    "systems": "built-in counting systems: count --system",
    "games": "games where hands choose: solve GAME",
}

#: Where each built-in tableau comes from.
_RULES_SOURCES = {
    "standard": (
        "every casino source: Wikipedia, Baccarat (English, Russian, Hebrew), a Russian gambling dictionary"
    ),
    "banco-4-draws-on-0-1": "the grid of a Russian-language beginner's guide, which no other source shares",
}


@dataclass(frozen=True)
class Entry:
    """One built-in: its name, a title a reader recognises, and its source, and
    for a bet what it reads (`analyzer.core.bets.READS`: outcome, values, ranks, suits, colours)."""

    name: str
    title: str
    source: str
    reads: tuple[str, ...] = ()


def entries(kind: str) -> list[Entry]:
    """The built-ins of `kind` (one of KINDS), in catalogue order."""
    if kind == "bets":
        from analyzer.core.catalogue import BETS

        return [Entry(b.name, b.title, b.source, reads=b.reads) for b in BETS.values()]
    if kind == "tables":
        from analyzer.core.catalogue import TABLES

        return [
            Entry(t.name, t.title, f"tableau {t.rules.name}; bets {', '.join(b.name for b in t.bets)}")
            for t in TABLES.values()
        ]
    if kind == "rules":
        from analyzer.core.rules import RULES

        # Old names (`ALIASES`) are still accepted but not listed: a reader can't look them up.
        return [Entry(r.name, r.description, _RULES_SOURCES.get(r.name, "")) for r in RULES.values()]
    if kind == "systems":
        from analyzer.counting.systems import SYSTEMS

        return [Entry(s.name, s.title, s.source) for s in SYSTEMS.values()]
    if kind == "games":
        from analyzer.games import GAMES

        return [Entry(g.name, g.title, g.source) for g in GAMES.values()]
    raise AnalyzerError(f"list {quoted(kind)}: use one of {', '.join(KINDS)}")


@dataclass(frozen=True)
class ListResult:
    """`baccarat list KIND`: the built-ins of `kind`."""

    kind: str
    entries: tuple[Entry, ...]


def list_result(kind: str) -> ListResult:
    return ListResult(kind, tuple(entries(kind)))
