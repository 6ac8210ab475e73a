"""Hostile text for the tests that names and titles stay data: a table file whose every free
text (title, source, labels, the tableau's name and description) is markup, links, math and
line breaks, and a library caller's bet named like a path or markup."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from analyzer.core.catalogue import get_table
from analyzer.core.shoe import Shoe
from analyzer.counting.par import ParSheet, par_sheets

#: Sets the page's title, so a script that runs is seen in the DOM.
PWNED = "document.title='pwned'"
TITLE = f'x"><img src=x onerror="{PWNED}"> **bold** | cell\n# heading $\\frac{{1}}{{0}}$ &amp;'
LABEL = f"<script>{PWNED}</script> [link](javascript:{PWNED}) `code`"
SOURCE = f"<img src=x onerror={PWNED}>\n- list | item"
RULES_NAME = f'tab"leau\n}}; digraph x {{ <b onmouseover={PWNED}>'
#: Names a library caller may give (a table file refuses them): paths, markup, a link.
NAMES = ("../../x", "/tmp/abs", f'x"><img src=x onerror="{PWNED}">', f"javascript:{PWNED}", "", ".")


def hostile_table(folder: Path) -> Path:
    """A table file of one bet, `lucky` (a natural tie pays 30), and a tableau, every free
    text of them (the table's title too) hostile."""
    path = folder / "hostile.toml"
    text = (
        f"title = {_basic(TITLE)}\n"
        "[rules]\n"
        f"name = {_basic(RULES_NAME)}\n"
        f"description = {_basic(SOURCE)}\n"
        "[bets.lucky]\n"
        f"title = {_basic(TITLE)}\n"
        f"source = {_basic(SOURCE)}\n"
        "lines = [\n"
        f'  {{ when = {{ winner = "tie", natural = true }}, pays = 30, label = {_basic(LABEL)} }},\n'
        f'  {{ when = {{ winner = "tie" }}, pays = "push", label = {_basic(TITLE)} }},\n'
        "]\n"
    )
    path.write_text(text, encoding="utf-8")
    return path


def _basic(text: str) -> str:
    """`text` as a TOML basic string."""
    import json

    return json.dumps(text)


def hostile_sheets(folder: Path) -> list[ParSheet]:
    """The par sheet of the hostile table's bet, and copies of it under each of NAMES."""
    table = get_table(str(hostile_table(folder)))
    [sheet] = par_sheets(table.bets, Shoe.decks(8), table.rules, shoes=5)
    renamed = [
        replace(sheet, analysis=replace(sheet.analysis, bet=replace(sheet.bet, name=name))) for name in NAMES
    ]
    return [sheet, *renamed]
