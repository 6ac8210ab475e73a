"""Benchmark of known cards and edge sorting (called by scripts/bench.py; also runs on its own).

- known_vs_edges: a cold `baccarat known --positions 1` for every rank-level built-in bet
  against a cold `baccarat edges` of the same bets on the same 8-deck shoe, whole processes
  interleaved round by round (wall and CPU time); the same for position 5, the slowest single
  position, and for every built-in bet, card-level included, at position 1 against `edges`
  of those bets (target: at most 3). The card-level bets read their plans' products from the
  disk cache (`analyzer.cards.byrank`), which round 0 fills: warm, as the bench's other
  caches (`edges` of these bets on full decks reads none); beside it the same `known` with an
  empty cache folder each time (cold: it builds and writes them).
- best_sort_four_seconds: the best sort of the first four cards over the 511 splits of the
  point values, 8 decks, Player and Banker, in this process on one core (BLAS on one thread),
  wall and CPU seconds, median of `repeats` (target: under 30 s); beside it the same over the
  4,095 splits of the ranks.

Usage: python scripts/bench_known.py [--json] [--rounds N] [--processes]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from analyzer.analyses.known import best_sorts  # noqa: E402
from analyzer.core.catalogue import ALL_BETS, RANK_BETS  # noqa: E402
from analyzer.core.shoe import Shoe  # noqa: E402


def _summary(values: list[float]) -> dict[str, float]:
    q1, _, q3 = statistics.quantiles(values, n=4) if len(values) > 1 else (values[0],) * 3
    return {"median": statistics.median(values), "q1": q1, "q3": q3}


def _processes(rounds: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    bets, every = ",".join(RANK_BETS), ",".join(ALL_BETS)
    base = [sys.executable, "-m", "analyzer"]
    commands = {
        "edges": [*base, "edges", "--decks", "8", "--bets", bets],
        "known": [*base, "known", "--decks", "8", "--positions", "1", "--bets", bets],
        "known5": [*base, "known", "--decks", "8", "--positions", "5", "--bets", bets],
        "edges_all": [*base, "edges", "--decks", "8", "--bets", every],
        "known_all": [*base, "known", "--decks", "8", "--positions", "1", "--bets", every],
    }
    commands["known_all_cold"] = commands["known_all"]  # an empty cache folder each time
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for i in range(rounds + 1):  # round 0 warms the caches and is not counted
        for name in list(commands) if i % 2 else list(reversed(commands)):
            with tempfile.TemporaryDirectory() as empty:
                cold = {**env, "BACCARAT_CACHE": empty} if name.endswith("_cold") else env
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                proc = subprocess.run(commands[name], capture_output=True, env=cold)
                seconds = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if proc.returncode != 0:
                raise SystemExit(f"bench_known: {name} failed: {proc.stderr.decode().strip()}")
            if i:
                wall[name].append(seconds)
                cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)

    def ratios(times: dict[str, list[float]], top: str, bottom: str = "edges") -> list[float]:
        return [t / e for t, e in zip(times[top], times[bottom], strict=True)]

    return {
        "known_vs_edges": statistics.median(ratios(wall, "known")),
        "known_vs_edges_spread": _summary(ratios(wall, "known")),
        "known_vs_edges_cpu": statistics.median(ratios(cpu, "known")),
        "known5_vs_edges": statistics.median(ratios(wall, "known5")),
        "known5_vs_edges_spread": _summary(ratios(wall, "known5")),
        "known5_vs_edges_cpu": statistics.median(ratios(cpu, "known5")),
        "known_all_vs_edges": statistics.median(ratios(wall, "known_all", "edges_all")),
        "known_all_vs_edges_spread": _summary(ratios(wall, "known_all", "edges_all")),
        "known_all_vs_edges_cpu": statistics.median(ratios(cpu, "known_all", "edges_all")),
        "known_all_vs_edges_cpu_spread": _summary(ratios(cpu, "known_all", "edges_all")),
        "known_all_cold_vs_edges": statistics.median(ratios(wall, "known_all_cold", "edges_all")),
        "known_all_cold_vs_edges_cpu": statistics.median(ratios(cpu, "known_all_cold", "edges_all")),
        "known_all_cold_vs_edges_cpu_spread": _summary(ratios(cpu, "known_all_cold", "edges_all")),
        "known_process": _summary(wall["known"]),
        "known_edges_process": _summary(wall["edges"]),
        "known_all_process": _summary(wall["known_all"]),
        "known_all_edges_process": _summary(wall["edges_all"]),
        "known_all_cold_process": _summary(wall["known_all_cold"]),
        "known_bets": len(RANK_BETS),
        "known_all_bets": len(ALL_BETS),
    }


def _best_sort(repeats: int, by_ranks: bool) -> dict[str, Any]:
    wall, cpu = [], []
    for _ in range(repeats):
        start, clock = time.perf_counter(), time.process_time()
        result = best_sorts(Shoe.decks(8), (1, 2, 3, 4), by_ranks=by_ranks)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - clock)
    assert result.best_sorts is not None and result.sort is not None
    splits, best = len(result.best_sorts), str(result.sort)
    return {"wall": _summary(wall), "cpu": _summary(cpu), "splits": splits, "best": best}


def known_figures(rounds: int = 5, repeats: int = 3, processes_only: bool = False) -> dict[str, Any]:
    """The figures of this benchmark (see the module's docstring); `processes_only`: the
    whole-process rows alone, without the best sorts."""
    figures = _processes(rounds)
    if processes_only:
        return figures
    figures["best_sort_four_seconds"] = _best_sort(repeats, by_ranks=False)
    figures["best_sort_four_ranks_seconds"] = _best_sort(max(1, repeats // 2), by_ranks=True)
    return figures


def known_rows(f: dict[str, Any]) -> list[list[str]]:
    """The rows of reports/speed.md for these figures: measurement, median, quartiles, target."""

    def quartiles(s: dict[str, float], places: int = 2) -> str:
        return f"{s['q1']:.{places}f} - {s['q3']:.{places}f}"

    def ms(s: dict[str, float]) -> str:
        return f"{s['median'] * 1000:.0f}"

    rows = [
        [f"cold `known --positions 1` / cold `edges`, the same {f['known_bets']} rank-level bets, 8 decks, "
         "whole processes", f"{f['known_vs_edges']:.2f} (CPU time {f['known_vs_edges_cpu']:.2f})",
         quartiles(f["known_vs_edges_spread"]), "3"],
        ["  the same with `--positions 5`",
         f"{f['known5_vs_edges']:.2f} (CPU time {f['known5_vs_edges_cpu']:.2f})",
         quartiles(f["known5_vs_edges_spread"]), "3"],
        [f"  the same, `--positions 1`, every built-in bet ({f['known_all_bets']}, card-level included) "
         "against `edges` of those bets, the disk cache of plans warm (`edges` reads none); CPU-time "
         "quartiles", f"{f['known_all_vs_edges']:.2f} (CPU time {f['known_all_vs_edges_cpu']:.2f})",
         quartiles(f["known_all_vs_edges_cpu_spread"]), "3"],
        ["  the same, the cache cold (an empty folder: the plans built and written); CPU-time quartiles",
         f"{f['known_all_cold_vs_edges']:.2f} (CPU time {f['known_all_cold_vs_edges_cpu']:.2f})",
         quartiles(f["known_all_cold_vs_edges_cpu_spread"]), ""],
        ["  the processes: `known` / `edges`, the rank-level bets; every built-in (warm, cold)",
         f"{ms(f['known_process'])} / {ms(f['known_edges_process'])} ms; "
         f"{ms(f['known_all_process'])}, {ms(f['known_all_cold_process'])} / "
         f"{ms(f['known_all_edges_process'])} ms", "", ""],
    ]  # fmt: skip
    if "best_sort_four_seconds" not in f:  # --processes
        return rows
    four, ranks = f["best_sort_four_seconds"], f["best_sort_four_ranks_seconds"]
    return [
        *rows,
        [f"best sort of the first four cards, {four['splits']} splits of the values, 8 decks, one core "
         f"(best: {four['best']})", f"{four['wall']['median']:.2f} s (CPU {four['cpu']['median']:.2f} s)",
         f"{quartiles(four['wall'])} s", "30 s"],
        [f"  the same over the {ranks['splits']:,} splits of the ranks",
         f"{ranks['wall']['median']:.2f} s (CPU {ranks['cpu']['median']:.2f} s)", "", ""],
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--rounds", type=int, default=5, help="whole-process rounds (default 5)")
    parser.add_argument(
        "--processes", action="store_true", help="the whole-process rows only (no best sorts)"
    )
    args = parser.parse_args()
    figures = known_figures(max(1, args.rounds), processes_only=args.processes)
    if args.json:
        print(json.dumps(figures, separators=(",", ":")))
    else:
        for row in known_rows(figures):
            print(" | ".join(row))


if __name__ == "__main__":
    main()
