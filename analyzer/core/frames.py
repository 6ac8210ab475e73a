"""Helpers for notebook use: pandas frames from result rows (pandas is optional: the
`frames` extra)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from analyzer.core.errors import AnalyzerError

__all__ = ["frame"]


def frame(
    rows: Sequence[Sequence[Any]], columns: Sequence[str], index: str | None = None, exact: bool = True
) -> Any:
    """A pandas DataFrame of `rows`: exact values stay Fractions (object columns), or with
    `exact=False` become floats (float columns, for plotting and `to_csv`)."""
    try:
        import pandas as pd  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise AnalyzerError("to_frame() needs pandas: pip install '.[frames]' (in the project)") from None
    cells = [[float(v) if not exact and isinstance(v, Fraction) else v for v in row] for row in rows]
    data = pd.DataFrame(cells, columns=list(columns))
    return data.set_index(index) if index else data
