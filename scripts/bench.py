"""Benchmark: the compiled exact enumerator against the plain nested-loop enumerator.

Measures, in one run:
  (a) a cold CLI call, `python -m analyzer odds --decks 8`, in a fresh process (median of runs);
  (b) in-process exact analysis of a full 8-deck shoe after a warm compile (median), and the
      compile itself (cold, caches cleared);
  (c) depleted shoes: random 8-deck shoes with 100-300 cards removed, evaluated one by one;
  (d) the batch evaluator (analyzer.composition.FastEvaluator): exact expectations of the main
      bets and the seeds' side bets for many 8-deck-scale compositions at once, on one core
      (BLAS limited to one thread), checked against the enumerator on a sample;
each against `plain_distribution` timed in the same run (the full 8-deck shoe and a few of the
depleted shoes), with the two paths checked to give identical distributions.

Usage: python scripts/bench.py [--json] [--runs N] [--shoes N] [--plain-shoes N] [--seed S]
With --json, prints exactly one JSON line with the figures.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # per-core figures: set before numpy loads
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from tabulate import tabulate  # noqa: E402

from analyzer.bets import analyze  # noqa: E402
from analyzer.cards import RANKS  # noqa: E402
from analyzer.catalogue import BETS  # noqa: E402
from analyzer.composition import FastEvaluator  # noqa: E402
from analyzer.enumerate import compile_rules, distribution  # noqa: E402
from analyzer.graph import continuations  # noqa: E402
from analyzer.plain import plain_distribution  # noqa: E402
from analyzer.shoe import Shoe  # noqa: E402


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Wall-clock seconds of one call, and its result."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def cold_cli(runs: int) -> float:
    """Median wall time of `python -m analyzer odds --decks 8` in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    command = [sys.executable, "-m", "analyzer", "odds", "--decks", "8"]
    times = []
    for _ in range(runs):
        seconds, proc = timed(lambda: subprocess.run(command, capture_output=True, cwd=ROOT, env=env))
        if proc.returncode != 0:
            raise SystemExit(f"bench: the CLI failed: {proc.stderr.decode().strip()}")
        times.append(seconds)
    return statistics.median(times)


def depleted_shoe(rng: random.Random) -> Shoe:
    """An 8-deck shoe with 100-300 cards dealt out at random."""
    cards = [i for i in range(len(RANKS)) for _ in range(32)]
    rng.shuffle(cards)
    left = cards[rng.randint(100, 300) :]
    return Shoe.from_counts([left.count(i) for i in range(len(RANKS))])


def measure(runs: int, shoes: int, plain_shoes: int, seed: int, compositions: int) -> dict[str, Any]:
    """All figures of the benchmark (seconds unless named otherwise)."""
    full = Shoe.decks(8)
    figures: dict[str, Any] = {"cold_cli_seconds": cold_cli(runs)}

    compile_rules.cache_clear()
    continuations.cache_clear()
    figures["compile_seconds"], _ = timed(compile_rules)
    fast_times = []
    for _ in range(max(runs, 5)):
        seconds, fast = timed(lambda: distribution(full))
        fast_times.append(seconds)
    figures["in_process_seconds"] = statistics.median(fast_times)

    figures["plain_seconds"], slow = timed(lambda: plain_distribution(full))
    if slow.weights != fast.weights or slow.total != fast.total:
        raise SystemExit("bench: plain and compiled enumerators disagree on 8 decks")
    figures["distribution_speedup_vs_plain"] = figures["plain_seconds"] / figures["in_process_seconds"]
    figures["cold_cli_speedup_vs_plain"] = figures["plain_seconds"] / figures["cold_cli_seconds"]

    rng = random.Random(seed)
    depleted = [depleted_shoe(rng) for _ in range(shoes)]
    per_shoe = []
    start = time.perf_counter()
    results = []
    for shoe in depleted:
        seconds, dist = timed(lambda shoe=shoe: distribution(shoe))
        per_shoe.append(seconds)
        results.append(dist)
    figures["depleted_total_seconds"] = time.perf_counter() - start
    figures["depleted_shoes"] = shoes
    figures["depleted_cards_min"] = min(s.size for s in depleted)
    figures["depleted_cards_max"] = max(s.size for s in depleted)
    figures["depleted_seconds_per_shoe"] = statistics.median(per_shoe)
    plain_times = []
    for shoe, dist in zip(depleted[:plain_shoes], results, strict=False):
        seconds, slow = timed(lambda shoe=shoe: plain_distribution(shoe))
        if slow.weights != dist.weights:
            raise SystemExit(f"bench: plain and compiled enumerators disagree on {shoe.counts}")
        plain_times.append(seconds)
    figures["depleted_plain_shoes"] = len(plain_times)
    figures["depleted_plain_seconds_per_shoe"] = statistics.mean(plain_times)
    figures["depleted_speedup_vs_plain"] = (
        figures["depleted_plain_seconds_per_shoe"] / figures["depleted_seconds_per_shoe"]
    )
    del results, slow, fast  # a large live heap slows every garbage collection in what follows
    gc.collect()
    figures.update(batch(compositions, seed, figures["depleted_plain_seconds_per_shoe"]))
    figures["python"] = sys.version.split()[0]
    return figures


#: The main bets and the seeds' side bets (Super 6, EZ Baccarat, Dragon 7, Panda 8).
BATCH_BETS = ("player", "banker", "tie", "tie-9to1", "super6-banker", "ez-banker", "dragon7", "panda8")


def batch(compositions: int, seed: int, plain_seconds: float) -> dict[str, Any]:
    """Compositions per second of the batch evaluator on one core, exactness checked on a sample.

    The plain reference per composition is the plain enumerator's time on a depleted shoe
    (measured above in the same run) plus pricing the bets on its distribution.
    """
    bets = [BETS[name] for name in BATCH_BETS]
    rng = np.random.default_rng(seed)
    sizes = rng.integers(116, 417, size=compositions)
    counts = np.array([rng.multivariate_hypergeometric([32] * 13, int(n)) for n in sizes])
    build, evaluator = timed(lambda: FastEvaluator(bets))
    evaluator.expectations(counts[:256])  # warm up
    times = []
    for _ in range(3):
        seconds, (numerators, totals) = timed(lambda: evaluator.expectations(counts))
        times.append(seconds)
    best = min(times)
    pricing = []
    for row in rng.choice(compositions, size=5, replace=False):
        shoe = Shoe.from_counts(counts[row].tolist())
        seconds, dist = timed(lambda shoe=shoe: distribution(shoe))
        for i, bet in enumerate(bets):
            value = numerators[row, i] / (evaluator.denominators[i] * totals[row])
            exact = analyze(bet, dist).expectation
            if int(numerators[row, i]) * exact.denominator != exact.numerator * evaluator.denominators[
                i
            ] * int(totals[row]):
                raise SystemExit(f"bench: batch evaluator disagrees on {bet.name}: {value} != {exact}")
        seconds_pricing, _ = timed(lambda dist=dist: [analyze(bet, dist) for bet in bets])
        pricing.append(seconds_pricing)
    plain_per_composition = plain_seconds + statistics.mean(pricing)
    rate = compositions / best
    return {
        "compositions": compositions,
        "batch_bets": len(bets),
        "evaluator_build_seconds": build,
        "compositions_per_second": rate,
        "plain_seconds_per_composition": plain_per_composition,
        "speedup_vs_plain": rate * plain_per_composition,
    }


def render(f: dict[str, Any]) -> str:
    ms = 1000
    rows = [
        ["cold CLI: python -m analyzer odds --decks 8 (median)", f"{f['cold_cli_seconds'] * ms:.0f} ms", ""],
        ["compile the rules (cold)", f"{f['compile_seconds'] * ms:.0f} ms", ""],
        [
            "exact 8-deck distribution, warm (median)",
            f"{f['in_process_seconds'] * ms:.2f} ms",
            f"{f['distribution_speedup_vs_plain']:,.0f}x",
        ],
        ["plain enumerator, 8 decks", f"{f['plain_seconds'] * ms:.0f} ms", "1x"],
        [
            f"depleted shoes ({f['depleted_cards_min']}-{f['depleted_cards_max']} cards), per shoe (median)",
            f"{f['depleted_seconds_per_shoe'] * ms:.2f} ms",
            f"{f['depleted_speedup_vs_plain']:,.0f}x",
        ],
        [
            f"plain enumerator, depleted shoes (mean of {f['depleted_plain_shoes']})",
            f"{f['depleted_plain_seconds_per_shoe'] * ms:.0f} ms",
            "1x",
        ],
        [
            f"all {f['depleted_shoes']} depleted shoes, one by one",
            f"{f['depleted_total_seconds'] * ms:.0f} ms",
            "",
        ],
        [
            f"batch evaluator, {f['batch_bets']} bets, {f['compositions']:,} compositions (one core)",
            f"{f['compositions_per_second']:,.0f} compositions/s",
            f"{f['speedup_vs_plain']:,.0f}x",
        ],
        [
            "plain enumerator + pricing, per composition",
            f"{f['plain_seconds_per_composition'] * ms:.0f} ms",
            "1x",
        ],
    ]
    note = (
        f"\nCold CLI vs plain in-process: {f['cold_cli_speedup_vs_plain']:.1f}x "
        f"(the CLI includes interpreter start-up and imports). Python {f['python']}."
    )
    return tabulate(rows, headers=["measurement", "time", "speedup vs plain"], disable_numparse=True) + note


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of a table")
    parser.add_argument("--runs", type=int, default=5, help="cold CLI runs (median; default 5)")
    parser.add_argument("--shoes", type=int, default=200, help="depleted shoes (default 200)")
    parser.add_argument("--plain-shoes", type=int, default=2, help="depleted shoes run through plain")
    parser.add_argument("--seed", type=int, default=1, help="seed for the depleted shoes")
    parser.add_argument("--compositions", type=int, default=20_000, help="batch size (default 20000)")
    args = parser.parse_args()
    if min(args.runs, args.shoes, args.plain_shoes, args.compositions) < 1:
        parser.error("--runs, --shoes, --plain-shoes and --compositions must be positive")
    figures = measure(args.runs, args.shoes, min(args.plain_shoes, args.shoes), args.seed, args.compositions)
    from bench_counting import counting_figures  # counting studies (this folder is on sys.path)

    counting = counting_figures()
    figures.update(shoes_per_second=counting["shoes_per_second"], worker_speedup=counting["worker_speedup"])
    print(json.dumps(figures, separators=(",", ":")) if args.json else render(figures))


if __name__ == "__main__":
    main()
