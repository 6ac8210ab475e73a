"""Notebook display: the renderers registered with IPython's Markdown formatter, by the
result types' module and name, exist and give the Markdown tables."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from analyzer import STANDARD, Shoe, analyze_bets, distribution, effects_of_removal, get_bet, odds
from analyzer.present import render as fmt
from analyzer.present.notebook import RENDERERS, register


class _Formatter:
    def __init__(self) -> None:
        self.by_name: dict[tuple[str, str], Callable[[Any], str]] = {}

    def for_type_by_name(self, module: str, name: str, render: Callable[[Any], str]) -> None:
        self.by_name[module, name] = render


class _Shell:
    def __init__(self) -> None:
        self.markdown = _Formatter()
        self.display_formatter = type("Display", (), {"formatters": {"text/markdown": self.markdown}})()


def _shown(value: object) -> str:
    shell = _Shell()
    register(shell)
    kind = type(value)
    return shell.markdown.by_name[kind.__module__, kind.__name__](value)


def test_every_registered_type_exists() -> None:
    for module, name in RENDERERS:
        assert isinstance(getattr(import_module(module), name), type), (module, name)


def test_results_render_as_markdown_tables() -> None:
    shoe = Shoe.decks(1)
    result = odds(shoe)
    assert _shown(result) == fmt.render_odds(result, "markdown")
    assert _shown(distribution(shoe)).startswith(fmt.render_odds(result, "markdown"))
    [tie] = analyze_bets([get_bet("tie")], shoe, STANDARD)
    assert _shown(tie).startswith("**Tie (8:1)** (`tie`): house edge 15.7461%")
    assert "| " in _shown(tie)
    eor = effects_of_removal([get_bet("tie")], shoe)
    assert _shown(eor) == fmt.render_removal_effects(eor, "markdown")
    assert eor.ranks is not None and _shown(eor.ranks) == fmt.render_eor(eor.ranks, "markdown")
    cards = effects_of_removal([get_bet("super-tie")], shoe).cards
    assert cards is not None and _shown(cards).startswith("## Effects of removal per card type, card-level")
