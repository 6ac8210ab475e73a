"""The report plots' PNG writer (analyzer.present.reports.shared.save_png) and the charts'
templates (analyzer.present.plots.from_template)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from analyzer.present.plots import from_template, rc_context
from analyzer.present.reports.shared import PNG_METADATA, figure, save_png


def _laid_out() -> Figure:
    fig = figure(6, 3)
    for ax, title in zip(fig.subplots(1, 2), ("first", "second"), strict=True):
        ax.plot([1, 2, 3], [0.5, -1.5, 2.0], marker="o", label="a line")
        ax.set_title(title)
        ax.set_xlabel("x")
        ax.legend()
    fig.tight_layout()
    return fig


def test_a_laid_out_plot_is_drawn_once_and_written_as_savefig_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After tight_layout, savefig alone would draw the figure twice (the layout engine's
    placeholder asks for a draw first); save_png draws it once, and the bytes are the same."""
    plain = io.BytesIO()
    _laid_out().savefig(plain, format="png", dpi=90, metadata=PNG_METADATA)
    draws = []
    original = Figure.draw

    def counted(self: Figure, renderer: object) -> None:
        draws.append(renderer)
        original(self, renderer)

    monkeypatch.setattr(Figure, "draw", counted)
    save_png(_laid_out(), tmp_path / "plot.png")
    assert len(draws) == 1
    assert (tmp_path / "plot.png").read_bytes() == plain.getvalue()


def test_a_template_is_made_once_for_its_settings_and_each_call_gets_a_copy_of_its_own() -> None:
    made = []

    def make() -> Figure:
        made.append(1)
        fig = figure(3, 2)
        fig.subplots()
        return fig

    first, second = (from_template(("test", 3, 2), make) for _ in range(2))
    assert len(made) == 1 and first is not second and first.axes[0] is not second.axes[0]
    first.axes[0].set_xlabel("changed")
    assert from_template(("test", 3, 2), make).axes[0].get_xlabel() == ""
    with rc_context({"font.size": 20}):  # other settings: made again, under them
        assert from_template(("test", 3, 2), make).axes[0].xaxis.label.get_fontsize() == 20
    assert from_template(("test", 3, 2), make).axes[0].xaxis.label.get_fontsize() == 10
    assert len(made) == 3


def test_a_template_chooses_no_backend() -> None:
    """Comparing the settings a template was made under reads them as stored: matplotlib's
    backend stays unchosen (reading "backend" chooses one, importing pyplot)."""
    script = (
        "import sys\nfrom analyzer.present.plots import figure, from_template\n"
        "from_template('t', lambda: figure(1, 1))\nprint('matplotlib.pyplot' in sys.modules)"
    )
    env = {name: value for name, value in os.environ.items() if name != "MPLBACKEND"}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env)
    assert run.stdout.split() == ["False"]
