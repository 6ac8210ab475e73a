"""HTML printed to PDF by headless Chromium (`html_to_pdf`), the browser a lab's reader
prints the page with: the page's print CSS (A4, "page x of y" at the foot, headings kept
with what follows) lays the PDF out. Chromium is found on PATH (`chromium`,
`chromium-browser`, `google-chrome`), or named by BACCARAT_CHROMIUM; without it a PDF is
refused with one line naming what to install. The page is printed from a temporary file in
a temporary profile, both removed after."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.files import write_temporary

__all__ = ["BROWSERS", "browser", "html_to_pdf"]

#: The names Chromium goes by on PATH, tried in order.
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: How long one page may take to print, in seconds.
TIMEOUT = 180
_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
    "--disable-background-networking", "--no-pdf-header-footer", "--hide-scrollbars",
)  # fmt: skip


def browser() -> str:
    """The Chromium to print with: BACCARAT_CHROMIUM, else the first of BROWSERS on PATH; an
    AnalyzerError naming what to install when there is none."""
    named = os.environ.get("BACCARAT_CHROMIUM", "").strip()
    if named:
        found = shutil.which(named)
        if found is None:
            raise AnalyzerError(f"BACCARAT_CHROMIUM {quoted(named)}: no such program; name a Chromium to run")
        return found
    for name in BROWSERS:
        found = shutil.which(name)
        if found is not None:
            return found
    raise AnalyzerError(
        "PDF output needs headless Chromium, which is not installed: install it "
        "(e.g. apt-get install chromium) or name it in BACCARAT_CHROMIUM"
    )


def html_to_pdf(page: str) -> bytes:
    """The self-contained HTML `page` printed to PDF by headless Chromium (its print CSS
    lays it out); an AnalyzerError when Chromium is missing or fails."""
    program = browser()
    source = write_temporary(page.encode("utf-8"), "baccarat-sheet-", ".html")
    try:
        with tempfile.TemporaryDirectory(prefix="baccarat-pdf-") as folder:
            target = Path(folder) / "sheet.pdf"
            profile = Path(folder) / "profile"
            command = [program, *_FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={target}"]
            try:
                done = subprocess.run(
                    [*command, Path(source).as_uri()],
                    capture_output=True, text=True, timeout=TIMEOUT, check=False, stdin=subprocess.DEVNULL,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                raise AnalyzerError(f"Chromium ({program}) did not print the page in {TIMEOUT} s") from None
            except OSError as error:
                reason = error.strerror or error
                raise AnalyzerError(f"Chromium ({program}) cannot be run: {reason}") from None
            data = target.read_bytes() if target.exists() else b""
            if done.returncode != 0 or not data.startswith(b"%PDF"):
                last = (done.stderr.strip().splitlines() or ["no message"])[-1]
                raise AnalyzerError(f"Chromium ({program}) printed no PDF (exit {done.returncode}): {last}")
            return data
    finally:
        os.unlink(source)
