"""A par sheet in a real browser: headless Chromium (Debian's package; `.ci/run` installs it)
opens the HTML page from a file, logs no console error, and prints it to a PDF of several
pages."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from analyzer.core.catalogue import BETS
from analyzer.core.shoe import Shoe
from analyzer.counting.par import par_sheets
from analyzer.present.par_documents import render_par_sheets

BROWSER = next((path for name in ("chromium", "chromium-browser") if (path := shutil.which(name))), None)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"]

pytestmark = pytest.mark.skipif(BROWSER is None, reason="chromium is not installed (.ci/run installs it)")


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sheets = par_sheets([BETS["dragon7"], BETS["perfect-pairs-v1"]], Shoe.decks(8), shoes=20)
    path = tmp_path_factory.mktemp("browser") / "sheets.html"
    path.write_text(render_par_sheets(sheets, "html"), encoding="utf-8")
    return path


def _browser(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    assert BROWSER is not None
    return subprocess.run(
        [BROWSER, *FLAGS, f"--user-data-dir={home}", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_page_renders_without_console_errors(page: Path, tmp_path: Path) -> None:
    done = _browser("--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri(), home=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Par sheet: Dragon 7" in done.stdout and done.stdout.count("<svg") == 4  # the DOM was built
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert not console, console


def test_page_prints_to_pdf(page: Path, tmp_path: Path) -> None:
    pdf = tmp_path / "sheets.pdf"
    done = _browser("--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri(), home=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 50_000
    assert data.count(b"/Type /Page") - data.count(b"/Type /Pages") >= 4  # several pages, one sheet each
