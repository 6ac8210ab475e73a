"""The package's public names: `analyzer.__all__` and its lazy loading."""

from __future__ import annotations

import subprocess
import sys

import pytest

import analyzer


def test_every_public_name_resolves_from_the_module_named_for_it() -> None:
    for name in analyzer.__all__:
        value = getattr(analyzer, name)
        home = analyzer._HOME.get(name)
        if home is not None:
            assert value is getattr(sys.modules[home], name), name
    assert set(analyzer._HOME) <= set(analyzer.__all__)


def test_importing_the_package_loads_no_numpy() -> None:
    code = "import sys, analyzer; print('numpy' in sys.modules, 'networkx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


#: What a cold `odds` or `edges` once loaded and does not use (issue 28): the other commands'
#: renderers and result types (the output registry loads each on first use), the disk cache
#: (the built-in tableau is shipped), the standard library's resource readers and pathlib (the
#: built-in catalogues and shipped files are read by str paths beside their module), the game
#: registry (`solve`'s help names the games when its parser is built), shutil (argparse's
#: help formatter loads it for the terminal's width; `HelpFormatter` finds it without) and the
#: coup-class compiler (full decks are valued from the shipped polynomials). Not hashlib: a
#: recent wcwidth loads it for tabulate.
UNRELATED = {
    "analyzer.present.render", "analyzer.present.cache", "analyzer.present.counting",
    "analyzer.present.track", "analyzer.present.effects", "analyzer.present.compare",
    "analyzer.present.closed_form", "analyzer.present.listing", "analyzer.present.metadata",
    "analyzer.present.rules", "analyzer.present.known", "analyzer.counting.results",
    "analyzer.counting.sorting", "analyzer.counting.tracking", "analyzer.counting.record",
    "analyzer.analyses.known", "analyzer.ranks.diskcache", "tempfile", "importlib.resources", "zipfile",
    "analyzer.games", "pathlib", "shutil", "analyzer.ranks.compiler",
}  # fmt: skip
#: What a cold `odds` does not load beyond `UNRELATED` (`edges` needs it): the bets.
NOT_FOR_ODDS = {"analyzer.core.bets"}
#: What a cold `edges` does not load and `odds` does (issue 28): the odds themselves and the
#: coup classes (full decks price every built-in bet from the shipped polynomials; `odds` is
#: a lazy name of the package like the others).
ODDS_ONLY = {"analyzer.analyses.odds", "analyzer.ranks.enumeration"}
#: What neither loads: the card-level fields (the built-in bets ship read and checked, with
#: what they read; a field loads when a coup is evaluated), tomllib, and the line weights of
#: the coup classes (full decks are priced from the shipped polynomials).
NOT_FOR_EDGES = {"analyzer.core.fields", "tomllib", "analyzer.ranks.lines"}


@pytest.mark.parametrize("command", ["odds", "edges"])
def test_a_cold_odds_loads_no_heavy_or_unrelated_module(command: str) -> None:
    """`baccarat odds` (and `edges`) imports what it uses: no numpy, sympy, networkx or
    matplotlib, no design search, tabulate without importlib.metadata (0.10's import; 0.9
    renders the same), and nothing of `UNRELATED` (beyond what the interpreter loaded before
    the package: an editable install's finder loads importlib.resources)."""
    code = (
        "import contextlib, io, sys\n"
        "before = set(sys.modules)\n"
        "from analyzer.cli import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()): main([{command!r}, '--decks', '8'])\n"
        "print(' '.join(sorted(sys.modules)))\n"
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    everything, added = (line.split() for line in run.stdout.splitlines())
    assert "tabulate" in added  # the table was drawn
    heavy = {"numpy", "sympy", "networkx", "matplotlib", "importlib.metadata"}
    assert heavy.isdisjoint(everything), heavy & set(everything)
    assert not [name for name in added if name.startswith("analyzer") and "design" in name]
    assert UNRELATED.isdisjoint(added), UNRELATED & set(added)
    assert NOT_FOR_EDGES.isdisjoint(added), NOT_FOR_EDGES & set(added)
    if command == "odds":
        assert NOT_FOR_ODDS.isdisjoint(added), NOT_FOR_ODDS & set(added)
        assert set(added) >= ODDS_ONLY  # the names are right: odds loads them
    else:
        assert set(added) >= NOT_FOR_ODDS  # the names are right: edges loads them
        assert ODDS_ONLY.isdisjoint(added), ODDS_ONLY & set(added)
