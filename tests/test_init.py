"""The package's public names: `analyzer.__all__` and its lazy loading."""

from __future__ import annotations

import subprocess
import sys

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


def test_a_cold_odds_loads_no_heavy_or_unrelated_module() -> None:
    """`baccarat odds` imports what it uses: no numpy, sympy, networkx or matplotlib, no design
    search, and tabulate without importlib.metadata (0.10's import; 0.9 renders the same)."""
    code = (
        "import contextlib, io, sys\n"
        "from analyzer.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['odds', '--decks', '8'])\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = run.stdout.split()
    assert "tabulate" in loaded  # the table was drawn
    heavy = {"numpy", "sympy", "networkx", "matplotlib", "importlib.metadata"}
    assert heavy.isdisjoint(loaded), heavy & set(loaded)
    assert not [name for name in loaded if name.startswith("analyzer") and "design" in name]
