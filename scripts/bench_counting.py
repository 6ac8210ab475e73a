"""Benchmark of counting studies (called by scripts/bench.py; also runs on its own).

- shoes_per_second: one system (Jacobson's Dragon 7 count) on its bet, 8 decks, cut card
  14, one worker in this process (BLAS on one thread): shoes per second of whole
  `evaluate_systems` calls (the evaluator's compile included), median of `repeats`;
  shoes_per_cpu_second: the same per second of this process's CPU time (the per-core
  figure when other work shares the machine).
- worker_speedup: the same study on `speedup_shoes` shoes (default 10,000), whole calls,
  one worker in this process against two workers (this process and a local pool of one
  process, the pool's start included): time with one / time with two. Medians of `repeats`; the spread is
  reported as min and max. Beside it, from CPU times (meaningful on a busy machine, where
  two workers do not get two cores): worker_cpu_efficiency, the CPU seconds of one worker
  over those of both (this process and its pool's); worker_cpu_speedup, one worker's CPU
  seconds over the larger of the two workers' (what a quiet 2-core machine would give).
- kernel_vs_numpy: the same one-system study with the compiled kernels (the `fast` extra)
  against the numpy paths (BACCARAT_KERNEL=numpy, the paths before them: the reference),
  shoes per CPU second, interleaved round by round; valuation_us_per_coup: CPU microseconds
  per coup of the study's valuation (`FastEvaluator.expectations` of the coups of the same
  dealt shoes), each way.

Usage: python scripts/bench_counting.py [--json] [--shoes N] [--speedup-shoes N] [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


def _cpu() -> tuple[float, float]:
    """CPU seconds (user + system) of this process and of its ended children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _switched(kernel: bool) -> None:
    """The compiled kernels on, or the numpy paths forced (read at every call)."""
    if kernel:
        os.environ.pop("BACCARAT_KERNEL", None)
    else:
        os.environ["BACCARAT_KERNEL"] = "numpy"


def kernel_figures(shoes: int, repeats: int) -> dict[str, Any]:
    """The study and its valuation with the compiled kernels against the numpy paths."""
    from analyzer.core.rules import STANDARD
    from analyzer.counting.simulation import deal_chunk
    from analyzer.ranks.fast import FastEvaluator
    from analyzer.ranks.kernel import available

    if not available():
        return {}
    rates: dict[bool, list[float]] = {True: [], False: []}
    per_coup: dict[bool, list[float]] = {True: [], False: []}
    left = deal_chunk(Procedure(shoe=Shoe.decks(8), cut_card=14), STANDARD, 1, range(shoes)).left
    evaluator = FastEvaluator([BETS["dragon7"]])
    try:
        for _ in range(repeats):
            for kernel in (True, False):
                _switched(kernel)
                rates[kernel].append(shoes / _seconds(shoes, 1, time.process_time))
                evaluator.expectations(left[:100])  # warm
                start = time.process_time()
                evaluator.expectations(left)
                per_coup[kernel].append((time.process_time() - start) / len(left) * 1e6)
    finally:
        _switched(True)
    ratios = [a / b for a, b in zip(rates[True], rates[False], strict=True)]
    return {
        "kernel_shoes_per_cpu_second": round(statistics.median(rates[True]), 1),
        "numpy_shoes_per_cpu_second": round(statistics.median(rates[False]), 1),
        "kernel_vs_numpy": round(statistics.median(ratios), 3),
        "kernel_vs_numpy_spread": [round(min(ratios), 3), round(max(ratios), 3)],
        "valuation_us_per_coup": round(statistics.median(per_coup[True]), 3),
        "valuation_us_per_coup_numpy": round(statistics.median(per_coup[False]), 3),
        "valuation_us_per_coup_spread": [round(min(per_coup[True]), 3), round(max(per_coup[True]), 3)],
    }


def counting_figures(shoes: int = 2000, speedup_shoes: int = 10_000, repeats: int = 3) -> dict[str, Any]:
    """The counting benchmark's figures (see the module doc)."""
    from analyzer.counting import fastdeal
    from analyzer.ranks import kernel

    kernel.warm()  # loaded, as a long study loads them (shorter ones keep the numpy paths)
    fastdeal.warm()
    _seconds(200, 1)  # warm: imports, caches
    one = [_seconds(shoes, 1) for _ in range(repeats)]
    rates = [shoes / t for t in one]
    cpu = [shoes / _seconds(shoes, 1, time.process_time) for _ in range(repeats)]
    single, double, efficiency, projected = [], [], [], []
    for _ in range(repeats):  # one worker, then two, round by round
        own, _children = _cpu()
        single.append(_seconds(speedup_shoes, 1))
        between, children = _cpu()
        double.append(_seconds(speedup_shoes, 2))
        after, children_after = _cpu()
        one_cpu, parent, child = between - own, after - between, children_after - children
        efficiency.append(one_cpu / (parent + child))
        projected.append(one_cpu / max(parent, child))
    ratios = [a / b for a, b in zip(single, double, strict=True)]
    return {
        **kernel_figures(shoes, repeats),
        "worker_cpu_efficiency": round(statistics.median(efficiency), 3),
        "worker_cpu_speedup": round(statistics.median(projected), 3),
        "worker_cpu_speedup_spread": [round(min(projected), 3), round(max(projected), 3)],
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
