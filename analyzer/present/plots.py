"""matplotlib for every chart the package draws (report PNGs, par sheets' inline SVG), through
its object API: each chart is a `matplotlib.figure.Figure` of its own, never a pyplot figure,
so no backend is chosen and nothing process-wide changes (a notebook's pyplot backend and
figures are untouched; pyplot is never imported). Loaded only when a chart is drawn."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["figure", "from_template", "offset_shown", "put_title", "rc_context", "text_as_text"]


def figure(width: float, height: float) -> Figure:
    """A new Figure of `width` x `height` inches, owned by the caller alone (no pyplot: it is
    not registered anywhere and needs no closing); `savefig` writes it with the Agg or SVG
    renderer of the format asked."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


#: Each template's figure, pickled, by its key, with the matplotlib settings it was made under.
_TEMPLATES: dict[Hashable, tuple[dict[str, Any], bytes]] = {}


def from_template(key: Hashable, make: Callable[[], Figure]) -> Figure:
    """A copy of the figure `make()` returns, owned by the caller alone: made once for each
    `key` (which names all `make` depends on) and matplotlib settings in force, then copied
    (unpickled: a figure with its axes and 60 tick marks in 14 ms of CPU against 50 made)."""
    import pickle

    import matplotlib

    # The settings as stored (dict's own view): reading them one by one (dict(rcParams)) would
    # take 6 ms and choose a backend, importing pyplot, on reading "backend".
    settings: dict[str, Any] = dict(dict.items(cast("dict[str, Any]", matplotlib.rcParams)))
    kept = _TEMPLATES.get(key)
    if kept is None or kept[0] != settings:
        kept = _TEMPLATES[key] = (settings, pickle.dumps(make()))
    return cast("Figure", pickle.loads(kept[1]))


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


def put_title(ax: Axes, text: str, placed: bool = True) -> None:
    """Give the axes `ax` the title `text`, taken literally (no $math$). `placed`: at the top
    of the axes (y = 1), where matplotlib's automatic placement puts it when nothing is drawn
    above the axes (no tick labels or axis label on top, and no offset text on the y axis:
    `offset_shown`), so the chart is the same to the byte while the draw skips that
    placement's search (the y axis measured once more: about a tenth of a chart's time);
    else placed by matplotlib."""
    if placed:
        ax.set_title(text, parse_math=False, y=1.0)
    else:
        ax.set_title(text, parse_math=False)


def offset_shown(fig: Figure) -> bool:
    """Whether the drawn figure `fig` shows an offset text on a y axis (a multiplier or an
    offset such as 1e-6 above the axes), which matplotlib's automatic title placement may
    move a title above."""
    return any(ax.yaxis.offsetText.get_visible() and ax.yaxis.offsetText.get_text() for ax in fig.axes)
