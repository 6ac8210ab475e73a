"""matplotlib for every chart the package draws (report PNGs, par sheets' inline SVG), through
its object API: each chart is a `matplotlib.figure.Figure` of its own, never a pyplot figure,
so no backend is chosen and nothing process-wide changes (a notebook's pyplot backend and
figures are untouched; pyplot is never imported). Loaded only when a chart is drawn."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from matplotlib.figure import Figure

__all__ = ["figure", "rc_context", "text_as_text"]


def figure(width: float, height: float) -> Figure:
    """A new Figure of `width` x `height` inches, owned by the caller alone (no pyplot: it is
    not registered anywhere and needs no closing); `savefig` writes it with the Agg or SVG
    renderer of the format asked."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def rc_context(rc: dict[str, Any]) -> AbstractContextManager[None]:
    """matplotlib settings `rc` for the charts drawn and saved inside the `with` block, as they
    were afterwards."""
    import matplotlib

    return matplotlib.rc_context(cast(Any, rc))  # (its keys' type is matplotlib 3.10's)


@contextmanager
def text_as_text() -> Iterator[None]:
    """While an SVG whose text is kept as text (svg.fonttype "none") is written: no "Glyph ...
    missing from font(s)" warning. The viewer draws every character from its own fonts (an
    emoji in a bet's title included), so a glyph matplotlib's layout font lacks is no fault."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font", category=UserWarning)
        yield
