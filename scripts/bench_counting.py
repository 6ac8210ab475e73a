"""Benchmark of counting studies (called by scripts/bench.py; also runs on its own).

- shoes_per_second: one system (Jacobson's Dragon 7 count) on its bet, 8 decks, cut card
  14, one worker in this process (BLAS on one thread): shoes per second of whole
  `evaluate_systems` calls (the evaluator's compile included), median of `repeats`;
  shoes_per_cpu_second: the same per second of this process's CPU time (the per-core
  figure when other work shares the machine).
- worker_speedup: the same study on `speedup_shoes` shoes (default 10,000), whole calls,
  one worker in this process against two workers (this process and a local pool of one
  process, the pool's start included): time with one / time with two. Medians of `repeats`; the spread is
  reported as min and max.

Usage: python scripts/bench_counting.py [--json] [--shoes N] [--speedup-shoes N] [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from analyzer.core.catalogue import BETS  # noqa: E402
from analyzer.core.shoe import Shoe  # noqa: E402
from analyzer.counting.simulation import Procedure, evaluate_systems  # noqa: E402
from analyzer.counting.systems import SYSTEMS  # noqa: E402


def _seconds(shoes: int, workers: int, clock: Any = time.perf_counter) -> float:
    procedure = Procedure(shoe=Shoe.decks(8), cut_card=14)
    start = clock()
    system, bet = SYSTEMS["dragon7-jacobson"], BETS["dragon7"]
    evaluate_systems([system], [bet], procedure, shoes=shoes, workers=workers)
    return float(clock() - start)


def counting_figures(shoes: int = 2000, speedup_shoes: int = 10_000, repeats: int = 3) -> dict[str, Any]:
    """The counting benchmark's figures (see the module doc)."""
    _seconds(200, 1)  # warm: imports, caches
    one = [_seconds(shoes, 1) for _ in range(repeats)]
    rates = [shoes / t for t in one]
    cpu = [shoes / _seconds(shoes, 1, time.process_time) for _ in range(repeats)]
    single = [_seconds(speedup_shoes, 1) for _ in range(repeats)]
    double = [_seconds(speedup_shoes, 2) for _ in range(repeats)]
    ratios = [a / b for a, b in zip(single, double, strict=True)]
    return {
        "shoes_per_second": round(statistics.median(rates), 1),
        "shoes_per_second_spread": [round(min(rates), 1), round(max(rates), 1)],
        "shoes_per_cpu_second": round(statistics.median(cpu), 1),
        "worker_speedup": round(statistics.median(ratios), 3),
        "worker_speedup_spread": [round(min(ratios), 3), round(max(ratios), 3)],
        "counting_seconds_one_worker": round(statistics.median(single), 2),
        "counting_seconds_two_workers": round(statistics.median(double), 2),
        "counting_shoes": [shoes, speedup_shoes],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--shoes", type=int, default=2000, help="shoes for shoes_per_second (default 2000)")
    parser.add_argument("--speedup-shoes", type=int, default=10_000, help="shoes for worker_speedup")
    parser.add_argument("--repeats", type=int, default=3, help="repeats (medians; default 3)")
    args = parser.parse_args()
    figures = counting_figures(args.shoes, args.speedup_shoes, args.repeats)
    if args.json:
        print(json.dumps(figures, separators=(",", ":")))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
