"""The reports in `reports/`: Markdown files generated from the code by `baccarat report`,
and the plots beside them. This module names the files, builds their texts and writes them;
each report is built in the module of its subject (`bets`, `effects`, `counting`,
`closed_form`, `games`, `track`, `known`,
`par_sheets`) as blocks of the document model
(`analyzer.present.document`), with what they share (the title and preamble written as
Markdown, the PNG writer) in `shared`. Which files of a folder are ours (the names this
module writes, `analyzer.present.folders.REPORT_FILES` and `PLOT_FILES`, with the generated
preamble), and writing them all or none, is `analyzer.present.folders` (re-exported here).

Every report states its shoes and rules; exact values are printed as fractions and the
decimals are rounded from them. A test regenerates the reports and compares them with
the committed files.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path

from analyzer.core.progress import Tally, steps, working
from analyzer.counting.executors import open_executor
from analyzer.counting.shared import keeping, shared_studies
from analyzer.counting.simulation import evaluate_systems
from analyzer.present.document import Bullets, Paragraph
from analyzer.present.folders import (
    KEPT,
    MANIFEST,
    check_output_dir,
    write_all_or_none,
    write_owned,
    write_texts,
)
from analyzer.present.reports.bets import (
    compare_report,
    edges_report,
    odds_report,
    player_table_report,
    tableau_report,
)
from analyzer.present.reports.closed_form import closed_form_report, edge_by_decks_plot
from analyzer.present.reports.counting import (
    CountingRuns,
    counting_plot,
    counting_report,
    counting_runs,
    fourteen_study,
    sixteen_study,
)
from analyzer.present.reports.effects import eor_plot, eor_report
from analyzer.present.reports.games import GAME_REPORTS, games_report, start_games_report
from analyzer.present.reports.known import known_report
from analyzer.present.reports.par_sheets import PAR_SHEETS, par_sheet_reports, sheet_studies
from analyzer.present.reports.shared import report
from analyzer.present.reports.track import tracked_shoe_report

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
_COUNTING_PLOT = "counting-ev-by-count.png"  # drawn from the counting runs


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
    with shared_studies():  # the shoes of two studies dealt and valued once (`_run_together`)
        if runs is None:
            _run_together(executor)
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


def _run_together(executor: Executor | None) -> None:
    """The counting report's studies at cut cards 14 and 16 (the same shoes, each dealt to
    the earlier cut card) and the par sheets' first study of the rank-level bets, when it
    deals the same shoes (it does: the par sheets' counts on 2,000 shoes of seed 1, cut card
    14), run as one: inside `shared_studies`, each then finds its results kept, as if run
    alone (`analyzer.counting.shared`)."""
    from analyzer.counting.par import first_study  # as par_sheet_reports: only when run

    systems, bets, procedure, shoes = fourteen_study()
    how, how_bets, cut_card = sixteen_study()
    ranked, shoe, their_shoes = sheet_studies()[0]
    first, their_bets, theirs, count = first_study(ranked, shoe, shoes=their_shoes)
    if (theirs, count) != (procedure, shoes):
        first, their_bets = [], []
    exact = [True] * (len(systems) + len(how)) + [False] * len(first)  # as each asks for it
    cuts = [procedure.cut_card] * len(systems) + [cut_card] * len(how) + [procedure.cut_card] * len(first)
    with keeping():
        evaluate_systems([*systems, *how, *first], [*bets, *how_bets, *their_bets], procedure, shoes=shoes,
                         executor=executor, workers=2, exact_bins=exact, cut_cards=cuts)  # fmt: skip


def _texts_count() -> int:
    """The steps of `_build`: each report, counting.md, each game's report, the par sheets
    (one step) and README.md."""
    return len(REPORTS) + 1 + len(GAME_REPORTS) + 1 + 1


def write_reports(out: Path, what: str | None = None) -> list[Path]:
    """(Re)write every report into `out`, all files or none (`write_all_or_none`; `what` names
    `out` in its errors): `out` may hold only the files `baccarat report` writes
    (`analyzer.present.folders.report_files`), and keeps its `KEPT` files. Returns the paths
    written. Each file built or written is one finished item of a `Tally` (a line on standard
    error when `analyzer.core.progress.lines` is on; silent otherwise)."""

    def write(staging: Path) -> list[str]:
        tally = Tally(_texts_count() + 1 + len(PLOTS))  # and the plots
        _load_for_workers()
        with open_executor("local", 2) as pool:
            texts, runs = _build(None, pool, tally)
        names = write_texts(staging, texts)
        counting_plot(runs, staging / _COUNTING_PLOT)
        names.append(_COUNTING_PLOT)
        tally.done(_COUNTING_PLOT)
        for name, plot in PLOTS.items():
            plot(staging / name)
            names.append(name)
            tally.done(name)
        return names

    return write_all_or_none(out, write, kept=KEPT, what=what)


#: Modules this process imports later anyway, which each worker would otherwise import for
#: itself: tabulate (the game reports' tables), numpy.ma (np.unique loads it on first use) and
#: sympy.tensor.tensor (sympy's sums load it on first use).
_WORKERS_IMPORT = ("tabulate", "numpy.ma", "sympy.tensor.tensor")


def _load_for_workers() -> None:
    """Import `_WORKERS_IMPORT` now, before the local workers fork: once here instead of once
    in each worker (about 0.09 CPU s of the two workers')."""
    import importlib

    for name in _WORKERS_IMPORT:
        importlib.import_module(name)
