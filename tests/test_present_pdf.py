"""`baccarat par-sheet --format pdf`: headless Chromium (Debian's package; `.ci/run` installs
it) prints each sheet to a PDF, read back with pypdf: its pages numbered "page x of y", its
text the sheet's, no section heading left alone at the foot of a page, and Perfect Pairs'
52 zero effects one sentence. Without Chromium: one line naming what to install."""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

import pytest
from clirun import one_line_error

from analyzer.core.errors import AnalyzerError
from analyzer.present.pdf import BROWSERS, browser

pypdf = pytest.importorskip("pypdf")
HAVE_BROWSER = any(shutil.which(name) for name in BROWSERS)
needs_browser = pytest.mark.skipif(not HAVE_BROWSER, reason="chromium is not installed (.ci/run installs it)")

#: The headings of a sheet's sections: none may end a page, its table on the next.
HEADINGS = ("Identification", "1. What is bet", "2. The exact table", "3. Volatility", "4. Top award",
            "5. Sensitivity", "6. Effects of removal", "7. Countability")  # fmt: skip


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Each sheet's PDF as the text of its pages."""
    if not HAVE_BROWSER:
        pytest.skip("chromium is not installed (.ci/run installs it)")
    out = tmp_path_factory.mktemp("pdf") / "sheets"
    capture = pytest.MonkeyPatch()
    capture.setenv("SOURCE_DATE_EPOCH", "1767323045")
    try:
        from analyzer.cli import main

        code = main(["par-sheet", "--bets", "dragon7,perfect-pairs-v1", "--shoes", "20", "--format", "pdf",
                     "--out", str(out)])  # fmt: skip
    finally:
        capture.undo()
    assert code == 0
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "dragon7.pdf", "index.html", "perfect-pairs-v1.pdf"
    ]  # fmt: skip
    texts = {}
    for name in ("dragon7", "perfect-pairs-v1"):
        data = (out / f"{name}.pdf").read_bytes()
        assert data.startswith(b"%PDF")
        reader = pypdf.PdfReader(out / f"{name}.pdf")  # NFKC: the font's ligatures (fi, ff) as letters
        texts[name] = [unicodedata.normalize("NFKC", page.extract_text()) for page in reader.pages]
    return texts


@needs_browser
def test_pages_are_numbered(pdfs: dict[str, list[str]]) -> None:
    for name, pages in pdfs.items():
        assert 3 <= len(pages) <= 7, (name, len(pages))
        for number, text in enumerate(pages, 1):
            assert f"page {number} of {len(pages)}" in text, (name, number)


@needs_browser
def test_text_is_the_sheets(pdfs: dict[str, list[str]]) -> None:
    first = pdfs["dragon7"][0]
    assert "Par sheet: Dragon 7 (40:1) (dragon7)" in first
    assert "Identification" in first and "2026-01-02" in first and "baccarat-analyzer" in first
    every = "\n".join(pdfs["dragon7"])
    assert "Banker wins with a three-card 7: 40:1" in every and "Verdict:" in every
    assert re.search(r"house edge \(per unit bet\) 7\.6113%", every)


@needs_browser
def test_no_heading_ends_a_page(pdfs: dict[str, list[str]]) -> None:
    for name, pages in pdfs.items():
        for number, text in enumerate(pages[:-1], 1):
            lines = [line.strip() for line in text.splitlines() if line.strip()]
            lines = [line for line in lines if not line.startswith("page ")]
            assert lines[-1] not in HEADINGS, (name, number, lines[-1])


@needs_browser
def test_zero_effects_take_one_sentence(pdfs: dict[str, list[str]]) -> None:
    pairs = "\n".join(pdfs["perfect-pairs-v1"])
    assert "exactly 0 for every card type (52 of them)" in pairs
    assert len(pdfs["perfect-pairs-v1"]) < len(pdfs["dragon7"])  # no 52 rows, no chart of zeros


def test_without_chromium(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", "")
    monkeypatch.delenv("BACCARAT_CHROMIUM", raising=False)
    with pytest.raises(AnalyzerError, match=r"install it \(e\.g\. apt-get install chromium\)"):
        browser()
    monkeypatch.setenv("BACCARAT_CHROMIUM", "no-such-chromium")
    with pytest.raises(AnalyzerError, match="BACCARAT_CHROMIUM 'no-such-chromium'"):
        browser()
    monkeypatch.delenv("BACCARAT_CHROMIUM")
    out = tmp_path / "sheets"
    argv = ["par-sheet", "--bets", "tie", "--shoes", "2", "--format", "pdf", "--out", str(out)]
    err = one_line_error(capsys, *argv)
    assert "needs headless Chromium" in err
    assert not out.exists()  # refused before any computing or writing
