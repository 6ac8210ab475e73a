"""matplotlib for every chart the package draws (report PNGs, par sheets' inline SVG), on the
Agg backend (no display needed), loaded only when a chart is drawn."""

from __future__ import annotations

from typing import Any

__all__ = ["pyplot"]


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (no display needed); loaded only when a plot is drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
