"""The reports in `reports/`: Markdown files generated from the code by `baccarat report`,
and the plots beside them. This module names the files, builds their texts and writes them;
each report is built in the module of its subject (`bets`, `effects`, `counting`,
`closed_form`, `games`, `track`, `known`,
`par_sheets`) as blocks of the document model
(`analyzer.present.document`), with what they share (the title and preamble written as
Markdown, the PNG writer) in `shared`.

Every report states its shoes and rules; exact values are printed as fractions and the
decimals are rounded from them. A test regenerates the reports and compares them with
the committed files.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from pathlib import Path

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.files import write_files
from analyzer.core.progress import Tally, steps, working
from analyzer.counting.executors import open_executor
from analyzer.present.document import Bullets, Paragraph
from analyzer.present.reports.bets import (
    compare_report,
    edges_report,
    odds_report,
    player_table_report,
    tableau_report,
)
from analyzer.present.reports.closed_form import closed_form_report, edge_by_decks_plot
from analyzer.present.reports.counting import CountingRuns, counting_plot, counting_report, counting_runs
from analyzer.present.reports.effects import eor_plot, eor_report
from analyzer.present.reports.games import GAME_REPORTS, games_report, start_games_report
from analyzer.present.reports.known import known_report
from analyzer.present.reports.par_sheets import PAR_SHEETS, par_sheet_reports
from analyzer.present.reports.shared import report
from analyzer.present.reports.track import tracked_shoe_report
from analyzer.present.text import dumps

__all__ = [
    "GAME_REPORTS",
    "KEPT",
    "MANIFEST",
    "PLOTS",
    "REPORTS",
    "CountingRuns",
    "build_reports",
    "check_output_dir",
    "games_report",
    "start_games_report",
    "write_all_or_none",
    "write_owned",
    "write_reports",
    "write_texts",
]

#: Report file name -> builder.
REPORTS: dict[str, Callable[[], str]] = {
    "odds.md": odds_report,
    "punto-table.md": player_table_report,
    "house-edges.md": edges_report,
    "compare.md": compare_report,
    "tableau.md": tableau_report,
    "effects-of-removal.md": eor_report,
    "closed-forms.md": closed_form_report,
    "tracked-shoe.md": tracked_shoe_report,
    "known-cards.md": known_report,
}

#: Plot file name -> builder (the counting plot is drawn from the counting runs).
PLOTS: dict[str, Callable[[Path], None]] = {
    "house-edge-by-decks.png": edge_by_decks_plot,
    "effects-of-removal.png": eor_plot,
}
_COUNTING_PLOT = "counting-ev-by-count.png"


def build_reports(runs: CountingRuns | None = None, executor: Executor | None = None) -> dict[str, str]:
    """Every report's text, by file name (`runs`: the counting simulations, run if None;
    `executor`: where the games and the counting studies run; if None the games are
    solved in this process and the counting studies on a local pool of their own). The
    texts do not depend on where anything runs."""
    return _build(runs, executor)[0]


def _build(
    runs: CountingRuns | None, executor: Executor | None, tally: Tally | None = None
) -> tuple[dict[str, str], CountingRuns]:
    """The reports' texts and the counting runs behind them. With an executor, its workers
    solve the games while this process writes the other reports, then run the counting
    studies (queued behind the games). `tally` counts each file built (the par sheets as one)."""
    tally = tally or Tally(_texts_count())
    games = start_games_report(executor)
    texts = {}
    for name, build in steps(REPORTS.items(), "reports", name=lambda item: item[0]):
        texts[name] = build()
        tally.done(name)
    runs = runs or counting_runs(executor=executor)
    texts["counting.md"] = counting_report(runs)
    tally.done("counting.md")
    with working("reports: the games (chemin de fer, banque, macao, punto 5)"):
        solved = games()
    for name in solved:
        tally.done(name)
    texts.update(solved)
    with working("reports: par sheets of every built-in bet"):
        sheets = par_sheet_reports(executor)
    tally.done(f"{PAR_SHEETS}/ ({len(sheets)} files)")
    items = [f"[{name}]({name}): {texts[name].splitlines()[0].lstrip('# ')}" for name in texts]
    items.append(f"[{PAR_SHEETS}/]({PAR_SHEETS}/README.md): each built-in bet's par sheet and verdict")
    regenerate = Paragraph("Regenerate with `baccarat report --out reports`.")
    texts["README.md"] = report("Reports", [regenerate, Bullets(tuple(items))])
    tally.done("README.md")
    return {**texts, **sheets}, runs


def _texts_count() -> int:
    """The steps of `_build`: each report, counting.md, each game's report, the par sheets
    (one step) and README.md."""
    return len(REPORTS) + 1 + len(GAME_REPORTS) + 1 + 1


#: Words every generated report carries near its top (ours, and the games module's).
_MARKERS = ("Generated by `baccarat report`", "Generated from the code")
#: Files other tools write beside the reports (scripts/bench.py writes the speed table):
#: accepted in the output directory and carried over when the reports are rewritten.
KEPT = ("speed.md", "par-sheet-dragon7.png")


#: The file in a folder of `baccarat par-sheet --out` that lists the files the command wrote
#: there (over all its runs): it replaces those and refuses a folder holding any other.
MANIFEST = ".baccarat-par-sheet.json"


def _ours(path: Path) -> bool:
    """True for a file `baccarat report` writes: a report with its preamble, a par sheet or
    its index, one of the plots, or the par sheets' directory (not a folder of `par-sheet
    --out`, which its manifest marks)."""
    if path.name == PAR_SHEETS and path.is_dir() and not path.is_symlink():
        return all(_ours(inner) for inner in path.iterdir())
    if not path.is_file() or path.is_symlink() or path.name == MANIFEST:
        return False
    if path.name in KEPT:
        return True
    if path.suffix in (".md", ".html", ".json"):
        with path.open(encoding="utf-8", errors="replace") as file:
            head = file.read(2000)
        return any(marker in head for marker in _MARKERS) or (
            path.suffix != ".md" and "baccarat par-sheet" in head
        )
    if path.suffix == ".png":
        return path.name in (*PLOTS, _COUNTING_PLOT) or b"baccarat report" in path.read_bytes()[:4096]
    return False


def _owned(out: Path) -> set[str] | None:
    """The files `baccarat par-sheet` wrote into `out`, as its manifest lists them (none
    without a manifest); None for a manifest it did not write."""
    path = out / MANIFEST
    if not path.exists():
        return set()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data["files"] if data.get("generated_by") == "baccarat par-sheet" else None
    except (OSError, ValueError, AttributeError, KeyError):
        return None
    if not path.is_file() or path.is_symlink() or not isinstance(files, list):
        return None
    return {name for name in files if isinstance(name, str)}


def _foreign(out: Path, command: str) -> str | None:
    """The first file in the folder `out` that `baccarat COMMAND` did not write, if any."""
    owned = _owned(out) if command == "par-sheet" else set()
    for path in sorted(out.iterdir()):
        if command != "par-sheet":
            mine = _ours(path)
        elif owned is None:
            return MANIFEST
        else:
            mine = path.name == MANIFEST or (path.name in owned and path.is_file() and not path.is_symlink())
        if not mine:
            return path.name
    return None


def check_output_dir(out: Path, what: str, command: str = "report") -> None:
    """Refuse an output directory before any computing: the filesystem root, the home
    directory, a project root, a folder holding a file `baccarat COMMAND` did not write
    ("report" or "par-sheet"), or one that cannot be written. Raises AnalyzerError naming
    the problem."""
    resolved = out.expanduser().resolve()
    if resolved == Path(resolved.anchor) or resolved == Path.home().resolve():
        raise AnalyzerError(
            f"{what} is the root or home directory: give a directory of its own, e.g. reports"
        )
    if (out / "pyproject.toml").exists():
        raise AnalyzerError(f"{what} is a project root: write the reports into a directory of their own")
    if out.exists():
        if not out.is_dir():
            raise AnalyzerError(f"{what} cannot be written: it is not a directory")
        foreign = _foreign(out, command)
        if foreign is not None:
            raise AnalyzerError(
                f"{what} holds {quoted(foreign)}, which `baccarat {command}` did not write: "
                "use a new or empty directory"
            )
        if not os.access(out, os.W_OK | os.X_OK):
            raise AnalyzerError(f"{what} cannot be written: permission denied")
    parent = resolved.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise AnalyzerError(f"{what} cannot be written: {quoted(str(parent))} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise AnalyzerError(f"{what} cannot be written: {quoted(str(parent))} is not writable")


def write_all_or_none(out: Path, write: Callable[[Path], list[str]]) -> list[Path]:
    """Write a directory's files all or none: `write(staging)` writes them into a new sibling
    directory and returns their names; that directory then replaces `out`. On any failure
    (Ctrl-C included) `out` is left as it was. Returns the paths written, under `out`."""
    shown, out = Path(out), Path(out).resolve()  # resolved: `--out .` renames the directory itself
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.parent / f".{out.name}.baccarat-report-{os.getpid()}"
    old = staging.with_name(staging.name + "-old")
    for leftover in (staging, old):
        shutil.rmtree(leftover, ignore_errors=True)
    staging.mkdir()
    try:
        names = write(staging)
        if out.exists():
            out.rename(old)
        staging.rename(out)
    except BaseException:  # interrupted or failed: leave `out` as it was
        if old.exists() and not out.exists():
            old.rename(out)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)
    return [shown / name for name in names]


def write_owned(out: Path, texts: Mapping[str, str | bytes], what: str) -> list[Path]:
    """Write `texts` (file name -> text, or bytes) into the folder `out` for `baccarat par-sheet`, all
    or none (`analyzer.core.files.write_files`), beside what its earlier runs wrote there: a
    file of the same name is replaced, every other stays, and the manifest lists them all.
    The folder is checked again first (`check_output_dir`). Returns the paths written."""
    check_output_dir(out, what, "par-sheet")
    out.mkdir(parents=True, exist_ok=True)
    kept = {name for name in _owned(out) or () if (out / name).is_file()}
    names = sorted(kept | set(texts))
    manifest = dumps({"generated_by": "baccarat par-sheet", "files": names})
    write_files(out, {MANIFEST: manifest, **texts})
    return [out / name for name in texts]


def write_texts(directory: Path, texts: dict[str, str]) -> list[str]:
    """Write each text under its name (which may name a subdirectory), all or none
    (`analyzer.core.files.write_files`); returns the names."""
    write_files(directory, texts)
    return list(texts)


def write_reports(out: Path) -> list[Path]:
    """(Re)write every report into `out`, all files or none (`write_all_or_none`). Returns the
    paths written. Each file built or written is one finished item of a `Tally` (a line on
    standard error when `analyzer.core.progress.lines` is on; silent otherwise)."""
    final = Path(out).resolve()

    def write(staging: Path) -> list[str]:
        tally = Tally(_texts_count() + 1 + len(PLOTS))  # and the plots
        with open_executor("local", 2) as pool:
            texts, runs = _build(None, pool, tally)
        names = write_texts(staging, texts)
        for name in KEPT:
            if (final / name).is_file():
                shutil.copy2(final / name, staging / name)
        counting_plot(runs, staging / _COUNTING_PLOT)
        names.append(_COUNTING_PLOT)
        tally.done(_COUNTING_PLOT)
        for name, plot in PLOTS.items():
            plot(staging / name)
            names.append(name)
            tally.done(name)
        return names

    return write_all_or_none(out, write)
