"""Write the par sheets of every built-in bet at full size: the counting studies over
20,000 shoes each (the default of `baccarat par-sheet`), where `baccarat report` uses
fewer (reports/par-sheets/ states how many on each sheet).

    python scripts/par_sheets.py --out par-sheets-full [--shoes 20000] [--workers 2]

Writes Markdown and HTML sheets with an index of each, all files or none (each sheet takes
seconds of CPU: Perfect Pairs, a card-level bet, 8 s on a 2-core AMD EPYC, 2026-12-06).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.counting.executors import open_executor
from analyzer.counting.par import STUDY_SHOES
from analyzer.present.folders import sheet_files
from analyzer.present.reports import check_output_dir, write_all_or_none, write_texts
from analyzer.present.reports.par_sheets import PAR_SHEETS, par_sheet_reports


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--out", default="par-sheets-full", help="directory to write (default par-sheets-full)"
    )
    parser.add_argument(
        "--shoes", type=int, default=STUDY_SHOES, help=f"shoes per study (default {STUDY_SHOES})"
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()
    out = Path(args.out)
    check_output_dir(out, f"--out {args.out}", files=sheet_files())
    with open_executor("local", args.workers) as pool:
        texts = par_sheet_reports(pool, rank_shoes=args.shoes, card_shoes=args.shoes)
    files = {name.removeprefix(f"{PAR_SHEETS}/"): text for name, text in texts.items()}
    for path in write_all_or_none(out, lambda staging: write_texts(staging, files), sheet_files()):
        print(path)


if __name__ == "__main__":
    main()
