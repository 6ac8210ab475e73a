"""matplotlib for every chart the package draws (report PNGs, par sheets' inline SVG), on the
Agg backend (no display needed), loaded only when a chart is drawn."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["pyplot", "text_as_text"]


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (no display needed); loaded only when a plot is drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


@contextmanager
def text_as_text() -> Iterator[None]:
    """While an SVG whose text is kept as text (svg.fonttype "none") is written: no "Glyph ...
    missing from font(s)" warning. The viewer draws every character from its own fonts (an
    emoji in a bet's title included), so a glyph matplotlib's layout font lacks is no fault."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font", category=UserWarning)
        yield
