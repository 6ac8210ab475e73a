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
