"""A par sheet in a real browser: headless Chromium (Debian's package; `.ci/run` installs it)
opens the HTML page from a file, logs no console error, and prints it to a PDF of several
pages; hostile names and titles in the page and its index run no script."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from analyzer.core.catalogue import BETS
from analyzer.core.shoe import Shoe
from analyzer.counting.par import par_sheets
from analyzer.present.par_documents import render_par_sheets

BROWSER = next((path for name in ("chromium", "chromium-browser") if (path := shutil.which(name))), None)
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
    "--disable-background-networking",
]  # fmt: skip

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
    # the DOM was built: two charts of Dragon 7, and Perfect Pairs' volatility chart (its effects
    # of removal are all 0: a sentence, no chart)
    assert "Par sheet: Dragon 7" in done.stdout and done.stdout.count("<svg") == 3
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert not console, console


def test_page_prints_to_pdf(page: Path, tmp_path: Path) -> None:
    pdf = tmp_path / "sheets.pdf"
    done = _browser("--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri(), home=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 50_000
    assert data.count(b"/Type /Page") - data.count(b"/Type /Pages") >= 4  # several pages, one sheet each


# -- hostile names and titles ------------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile sheets (tests/hostile_names.py: markup in every title, label, source and
    tableau name of a table file, and a library caller's names of paths and markup) as one
    page, sheets.html, and as a folder of sheets with their index."""
    from hostile_names import hostile_sheets

    from analyzer.present.par_documents import par_files

    folder = tmp_path_factory.mktemp("hostile")
    sheets = hostile_sheets(folder)
    (folder / "sheets.html").write_text(render_par_sheets(sheets, "html"), encoding="utf-8")
    for name, text in par_files(sheets, "html").items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("page", ["sheets.html", "index.html"])
def test_hostile_names_and_titles_run_no_script(hostile: Path, tmp_path: Path, page: str) -> None:
    """In Chromium, no user string becomes an element, a handler or a link: the handlers
    would set the page's title to "pwned", and the DOM holds no element they could be on."""
    done = _browser("--dump-dom", (hostile / page).as_uri(), home=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert "<h1>" in dom and "<table>" in dom  # the DOM was built
    titles = re.findall(r"<title>(.*?)</title>", dom, re.DOTALL)
    assert len(titles) == 1 and titles[0].startswith("Par sheet"), titles  # a handler makes it "pwned"
    elements = re.findall(r"<(img|script|b|iframe)\b", dom)
    assert not elements, elements
    assert not re.search(r"<[^>]*\son[a-z]+=", dom)  # no handler attribute on any element
    assert not re.search(r"href=\"\s*javascript:", dom)
    assert "&lt;img src=x onerror=" in dom  # the text is there, as text
