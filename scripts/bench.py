"""Benchmark: the project against plain references, always the same work on both sides.

Measures, in one run, each as a median with its spread over repeats:
  (a) whole processes, interleaved round by round so that load from other work hits both
      sides alike: a cold `python -m analyzer odds --decks 8` against
      `python scripts/plain_enumerator.py --decks 8` (a plain pure-Python point-value
      enumerator printing the same counts), the same odds as JSON (no table renderer
      loaded), and a cold `edges` (every built-in bet) against the cold `odds`; beside them
      the interpreter floor (`python -c pass`, `python -c "import tabulate"`, the table
      renderer every table command loads, and `python -c "import argparse, dataclasses,
      fractions"`, the standard library alone) and a cold depleted-shoe
      `odds --decks 8 --remove 5` (no polynomial in the number of decks applies: the coup
      classes are evaluated), each against the plain enumerator;
  (b) in process: the exact 8-deck distribution (warm; from the polynomials in the number
      of decks, and from the coup classes, the path of depleted shoes) against the plain
      enumerator's function, and the cold compile of the rules;
  (c) the batch evaluator (analyzer.ranks.fast.FastEvaluator, one core) for the 8 main and
      side bets, for every built-in bet, and for 20- and 100-deck compositions, against the
      project's own one-at-a-time exact path (`distribution` then `analyze` of each bet) on
      the same compositions, with the results checked equal on a sample; and its rate on
      shoes of 20 to 10**6 decks over its 8-deck rate, interleaved round by round;
  (e) known cards (scripts/bench_known.py): a cold `known` against a cold `edges` of the
      same bets (the rank-level built-ins at positions 1 and 5, every built-in at position
      1), and the best sort of the first four cards;
  (d) an estimated floor for (c): the multiply-adds of one float64 pass over the folded
      coefficients per composition (monomials x the columns the evaluator folds the bets
      onto), at the float64 matrix-product rate measured in this run.
The in-process rates of (c) and the floor's matrix product are per CPU second of this
process (one thread each), like with like, so that other work on a shared machine slows
neither side; with numba (the `fast` extra) (c) is measured as the evaluator runs with it
(each batch on the path `analyzer.ranks.fast.kernel_pays` picks: the compiled kernel, or the
numpy paths with their compiled passes) and, round by round, on the numpy paths alone
(`BACCARAT_KERNEL=numpy`).
Ratios are per round (cold side / reference side) and summarised by their median. The load
average is recorded: with other work on the machine, absolute times grow, ratios less so.

Usage: python scripts/bench.py [--json] [--rounds N] [--compositions N] [--seed S]
                               [--markdown PATH | --no-markdown]
                               [--cold-from install|tree] [--venv DIR]
Writes the Markdown table to reports/speed.md, or to --markdown PATH, or nowhere with
--no-markdown. With --json, prints exactly one JSON line with the figures. The cold-start rows (a) run the
package installed as a user installs it (`pip install .`, not editable, in a fresh venv built
for the run, or --venv DIR) from a directory outside the checkout, unless --cold-from tree.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib.util
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from math import perm
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # per-core figures: set before numpy loads
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from bench_cold import ColdStart, from_install, from_tree, whole_processes  # noqa: E402  # this folder
from tabulate import tabulate  # type: ignore[import-untyped,unused-ignore]  # noqa: E402

from analyzer.analyses.pricing import analyze  # noqa: E402
from analyzer.core.catalogue import BETS, RANK_BETS  # noqa: E402
from analyzer.core.files import write_atomic  # noqa: E402
from analyzer.core.outcome import Winner  # noqa: E402
from analyzer.core.shoe import Shoe  # noqa: E402
from analyzer.ranks.compiler import compile_fresh  # noqa: E402
from analyzer.ranks.enumeration import distribution  # noqa: E402
from analyzer.ranks.fast import FastEvaluator  # noqa: E402
from analyzer.ranks.kernel import available as kernel_available  # noqa: E402

#: The main bets and the seeds' side bets (Super 6, EZ Baccarat, Dragon 7, Panda 8).
BATCH_BETS = ("player", "banker", "tie", "tie-9to1", "super6-banker", "ez-banker", "dragon7", "panda8")
PLAIN = ROOT / "scripts" / "plain_enumerator.py"


def timed(fn: Callable[[], Any], clock: Callable[[], float] = time.perf_counter) -> tuple[float, Any]:
    """Wall-clock seconds of one call (or seconds of `clock`), and its result."""
    start = clock()
    result = fn()
    return clock() - start, result


def cpu_timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of this process for one call, and its result: the in-process rates and
    the floor's matrix product, one thread each, so that other work on the machine slows
    neither side of a ratio."""
    return timed(fn, time.process_time)


def summary(values: Sequence[float]) -> dict[str, float]:
    """Median, quartiles, min and max."""
    q1, _, q3 = statistics.quantiles(values, n=4) if len(values) > 1 else (values[0],) * 3
    return {"median": statistics.median(values), "q1": q1, "q3": q3, "min": min(values), "max": max(values)}


def in_process(repeats: int) -> dict[str, Any]:
    """Warm 8-deck distribution against the plain enumerator's function, and a cold compile."""
    spec = importlib.util.spec_from_file_location("plain_enumerator", PLAIN)
    assert spec is not None and spec.loader is not None
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    from analyzer.ranks.enumeration import class_distribution, forget_distributions

    full = Shoe.decks(8)
    distribution(full)  # warm: stored classes and polynomials read
    fast, plain_times, classes = [], [], []
    for _ in range(repeats):
        forget_distributions()  # the distribution made, not the one kept handed out again
        seconds, dist = timed(lambda: distribution(full))
        fast.append(seconds)
        classes.append(timed(lambda: class_distribution(full))[0])
        seconds, counts = timed(lambda: plain.enumerate_coup(8))
        plain_times.append(seconds)
    if counts != [dist.winner_counts()[w] for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE)]:
        raise SystemExit("bench: plain enumerator and distribution disagree on 8 decks")
    compile_seconds = [timed(compile_fresh)[0] for _ in range(3)]
    return {
        "in_process": summary(fast),
        "plain_in_process": summary(plain_times),
        "in_process_seconds": statistics.median(fast),
        "plain_seconds": statistics.median(plain_times),
        "distribution_speedup_vs_plain": statistics.median(plain_times) / statistics.median(fast),
        "in_process_classes": summary(classes),
        "distribution_classes_speedup_vs_plain": statistics.median(plain_times) / statistics.median(classes),
        "compile_seconds": statistics.median(compile_seconds),
    }


def compositions(rng: np.random.Generator, count: int, decks: int) -> np.ndarray:
    """Random depleted `decks`-deck shoes with 28%-100% of the cards left."""
    full = 52 * decks
    sizes = rng.integers(int(full * 0.28), full + 1, size=count)
    return np.array([rng.multivariate_hypergeometric([4 * decks] * 13, int(n)) for n in sizes])


def suited_compositions(seed: int, count: int) -> np.ndarray:
    """Random depleted suited 8-deck shoes (52 card-type counts), 28%-100% of the cards left."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(int(416 * 0.28), 417, size=count)
    return np.array([rng.multivariate_hypergeometric([8] * 52, int(n)) for n in sizes])


def one_at_a_time(bets: Sequence[Any], counts: np.ndarray) -> tuple[float, list[list[Any]]]:
    """Seconds per composition of the exact path, one by one, and its expectations."""
    values = []
    start = time.perf_counter()
    for row in counts:
        dist = distribution(Shoe.from_counts(row.tolist()))
        values.append([analyze(bet, dist).expectation for bet in bets])
    return (time.perf_counter() - start) / len(counts), values


def check_equal(evaluator: Any, numerators: np.ndarray, totals: np.ndarray, exact: list[list[Any]],
                where: str) -> None:  # fmt: skip
    """Stop the bench unless the batch results' first rows equal the exact path's `exact`."""
    for row, values in enumerate(exact):
        for i, (value, d) in enumerate(zip(values, evaluator.denominators, strict=True)):
            if int(numerators[row, i]) * value.denominator != value.numerator * d * int(totals[row]):
                raise SystemExit(f"bench: batch evaluator disagrees with the exact path{where} on "
                                 f"{evaluator.bets[i].name}")  # fmt: skip


def batch(name: str, bets: Sequence[Any], counts: np.ndarray, repeats: int, sample: int) -> dict[str, Any]:
    """Compositions per second of the batch evaluator against the one-at-a-time exact path."""
    build, evaluator = timed(lambda: FastEvaluator(bets))
    evaluator.expectations(counts[:256])  # warm up
    rates, numpy_rates = [], []
    for _ in range(repeats):  # with numba (when installed: the path chosen), then the numpy paths alone
        seconds, (numerators, totals) = cpu_timed(lambda: evaluator.expectations(counts))
        rates.append(len(counts) / seconds)
        if kernel_available():
            os.environ["BACCARAT_KERNEL"] = "numpy"
            try:
                seconds, (plain, _) = cpu_timed(lambda: evaluator.expectations(counts))
            finally:
                os.environ.pop("BACCARAT_KERNEL", None)
            numpy_rates.append(len(counts) / seconds)
            if not (plain == numerators).all():
                raise SystemExit(f"bench: the kernel and the numpy paths disagree ({name})")
    slow_seconds, exact = one_at_a_time(bets, counts[:sample])
    check_equal(evaluator, numerators, totals, exact, "")
    gc.collect()
    ratios = [a / b for a, b in zip(rates, numpy_rates, strict=False)]
    return {
        **(
            {f"{name}_numpy_rate": summary(numpy_rates), f"{name}_kernel_vs_numpy": summary(ratios)}
            if numpy_rates
            else {}
        ),
        f"{name}_rate": summary(rates),
        f"{name}_compositions": len(counts),
        f"{name}_bets": len(bets),
        f"{name}_build_seconds": build,
        f"{name}_one_at_a_time_per_second": 1 / slow_seconds,
        f"{name}_speedup_vs_one_at_a_time": statistics.median(rates) * slow_seconds,
        f"{name}_columns": min(len(bets), len(evaluator.atoms)),  # as before: bets or atoms
        f"{name}_lattice_columns": evaluator.columns,  # what the evaluator computes
        f"{name}_monomials": len(evaluator.matrix),
        f"{name}_nonzero_coefficients": evaluator.terms,  # of the monomials x lattice columns
    }


#: Deck counts of the size table: results beyond int64 from about 30 decks, beyond what
#: residues modulo 2**64 and float estimates pin from about 1,100; 10**6 is the limit.
DECK_SIZES = (20, 50, 100, 200, 500, 1000, 2000, 10**4, 10**6)


def deck_sizes(rng: np.random.Generator, count: int, rounds: int = 3, sample: int = 2) -> dict[str, Any]:
    """The batch evaluator (8 bets, one core) on `count` depleted shoes of each of
    DECK_SIZES and of 8 decks, interleaved round by round: compositions/s, and each round's
    rate over the 8-deck rate of the same round; the first `sample` rows of each size
    checked against the one-at-a-time exact path."""
    bets = [BETS[name] for name in BATCH_BETS]
    evaluator = FastEvaluator(bets)
    shoes = {decks: compositions(rng, count, decks) for decks in (8, *DECK_SIZES)}
    for counts in shoes.values():
        evaluator.expectations(counts[:256])  # warm up
    rates: dict[int, list[float]] = {decks: [] for decks in shoes}
    for _ in range(rounds):
        for decks, counts in shoes.items():
            seconds, _ = cpu_timed(lambda: evaluator.expectations(counts))  # noqa: B023
            rates[decks].append(len(counts) / seconds)
    for decks, counts in shoes.items():
        numerators, totals = evaluator.expectations(counts[:sample])
        _, exact = one_at_a_time(bets, counts[:sample])
        check_equal(evaluator, numerators, totals, exact, f" on {decks} decks")
    ratios = {decks: [r / e for r, e in zip(rates[decks], rates[8], strict=True)] for decks in DECK_SIZES}
    return {
        "deck_sizes_compositions": count,
        "deck_sizes_rate": {str(decks): summary(values) for decks, values in rates.items()},
        "deck_sizes_ratio_vs_8_decks": {str(decks): summary(values) for decks, values in ratios.items()},
        "compositions_per_second_100_decks_ratio": statistics.median(ratios[100]),
        "compositions_per_second_1000_decks": statistics.median(rates[1000]),
        "compositions_per_second_1000000_decks": statistics.median(rates[10**6]),
        "worst_deck_size_ratio_vs_8_decks": min(statistics.median(values) for values in ratios.values()),
    }


def gemm_rate() -> float:
    """Float64 multiply-adds per second of a well-shaped matrix product on one core."""
    a, b = np.random.default_rng(0).random((2, 512, 512))
    a @ b
    seconds = min(cpu_timed(lambda: a @ b)[0] for _ in range(5))
    return 512**3 / seconds


def card_level(seed: int, count: int = 2000, sample: int = 4) -> dict[str, Any]:
    """Card-level checks: every card-level built-in priced exactly by the batch evaluator
    (analyzer.cards.batch) on depleted suited 8-deck shoes against the one-shoe engine
    (analyzer.cards.batch.analyze_cards, the path `edges` takes) on the first `sample` of
    the same shoes, the results checked equal; the batch rate is `bench_cards.card_vs_rank`'s
    (the same shoes)."""
    from analyzer.cards.batch import CardEvaluator, analyze_cards
    from analyzer.core.catalogue import CARD_BETS

    shoes = suited_compositions(seed, count)
    bets = list(CARD_BETS.values())
    build, evaluator = timed(lambda: CardEvaluator(bets))
    numerators, totals = evaluator.expectations(shoes[:sample])
    one_by_one = []
    for row in range(sample):
        shoe = Shoe.from_cards(shoes[row].tolist())
        seconds, exact = timed(lambda: [analyze_cards(bet, shoe).expectation for bet in bets])  # noqa: B023
        one_by_one.append(1 / seconds)
        for i, (value, d) in enumerate(zip(exact, evaluator.denominators, strict=True)):
            if int(numerators[row, i]) * value.denominator != value.numerator * d * int(totals[row]):
                raise SystemExit(f"bench: card-level batch evaluator disagrees on {bets[i].name}")
    gc.collect()
    return {
        "card_level_bets": len(bets),
        "card_level_compositions": count,
        "card_level_build_seconds": build,
        "card_level_products": evaluator.products,
        "card_level_one_at_a_time": summary(one_by_one),
    }


def measure(rounds: int, count: int, seed: int, cold: ColdStart) -> dict[str, Any]:
    """All figures of the benchmark (the cold-start rows run as `cold` says)."""
    from analyzer.ranks.kernel import warm

    warm()  # the compiled kernel loaded (when installed), as a long study or a large batch loads it
    figures: dict[str, Any] = {"load_average_start": os.getloadavg()[0]}
    figures.update(whole_processes(rounds, cold))
    figures.update(whole_processes(max(3, rounds // 3), cold, bytecode=False))
    figures.update(in_process(max(3, rounds // 3)))
    rng = np.random.default_rng(seed)
    eight, twenty = compositions(rng, count, 8), compositions(rng, count // 4, 20)
    hundred = compositions(rng, count // 8, 100)  # results beyond int64
    main = [BETS[name] for name in BATCH_BETS]
    figures.update(batch("main", main, eight, 5, 20))
    figures.update(batch("all", list(RANK_BETS.values()), eight[: count // 2], 5, 10))
    figures.update(batch("twenty", main, twenty, 5, 10))
    figures.update(batch("hundred", main, hundred, 5, 3))
    figures["compositions_per_second"] = figures["main_rate"]["median"]
    figures["compositions_per_second_all_bets"] = figures["all_rate"]["median"]
    figures["compositions_per_second_20_decks"] = figures["twenty_rate"]["median"]
    figures["compositions_per_second_100_decks"] = figures["hundred_rate"]["median"]
    figures.update(deck_sizes(rng, count // 8))
    figures["compositions"] = count
    figures["batch_bets"] = len(main)
    rate = gemm_rate()
    figures["gemm_multiply_adds_per_second"] = rate
    per_main = figures["main_monomials"] * figures["main_lattice_columns"]
    figures["floor_compositions_per_second"] = rate / per_main
    per_all = figures["all_monomials"] * figures["all_lattice_columns"]
    figures["floor_compositions_per_second_all_bets"] = rate / per_all
    figures["main_vs_floor"] = figures["compositions_per_second"] / figures["floor_compositions_per_second"]
    figures["all_vs_floor"] = (
        figures["compositions_per_second_all_bets"] / figures["floor_compositions_per_second_all_bets"]
    )
    for name, key in (("main", "compositions_per_second"), ("all", "compositions_per_second_all_bets")):
        # The same floor over the nonzero folded coefficients only: the multiply-adds a pass
        # that skips every zero must still do (no dense product runs at that rate).
        figures[f"{name}_vs_sparse_floor"] = figures[key] * figures[f"{name}_nonzero_coefficients"] / rate
    figures["kernel"] = kernel_available()
    figures.update(card_level(seed))
    from bench_cards import card_figures  # this folder is on sys.path

    figures.update(card_figures(seed, max(3, rounds // 2)))
    rates = figures["card_level_rate"] = figures["card_level_vs_rank_level_rates"]["card"]  # earlier keys
    figures["compositions_per_second_card_level"] = rates["median"]
    one_by_one = figures["card_level_one_at_a_time"]["median"]
    figures["card_level_speedup_vs_one_at_a_time"] = rates["median"] / one_by_one
    studies = figures["card_level_counting_shoes_per_second"]  # the earlier keys, from the same studies
    figures["counting_card_level_shoes_per_second"] = studies["perfect-pairs-v1"]
    figures["counting_rank_level_shoes_per_second"] = studies["dragon7"]
    figures["shoes_per_second_card_level"] = studies["perfect-pairs-v1"]["median"]
    from bench_known import known_figures  # known cards and edge sorting (this folder is on sys.path)

    figures.update(known_figures(max(3, rounds // 3)))
    figures["largest_8_deck_weight"] = perm(416, 6)
    figures["load_average_end"] = os.getloadavg()[0]
    figures["python"] = sys.version.split()[0]
    figures["machine"] = _machine()  # the CPU and its vector extensions: the kernel's rate moves with them
    return figures


def _spread(s: dict[str, float], scale: float = 1.0, unit: str = "", places: int = 0) -> tuple[str, str]:
    fmt = f"{{:,.{places}f}}{unit}"
    return fmt.format(s["median"] * scale), f"{fmt.format(s['q1'] * scale)} - {fmt.format(s['q3'] * scale)}"


def render(f: dict[str, Any]) -> str:
    ms = 1000
    rows = [
        ["cold `baccarat odds --decks 8` / plain enumerator (processes)",
         *_spread(f["cold_cli_vs_plain_spread"], places=2), f"CPU time: {f['cold_cli_vs_plain_cpu']:.2f}"],
        ["  cold odds process", *_spread(f["cold_cli"], ms, " ms"), ""],
        ["cold `odds --decks 8 --format json` (no table renderer) / plain",
         *_spread(f["cold_cli_json_vs_plain_spread"], places=2), ""],
        ["  plain_enumerator.py process", *_spread(f["plain_process"], ms, " ms"), ""],
        ["cold `edges` (every built-in, card-level too) / cold `odds`",
         *_spread(f["edges_vs_odds_spread"], places=2),
         f"CPU time: {f['edges_vs_odds_cpu']:.2f}"],
        ["  cold edges process", *_spread(f["cold_edges"], ms, " ms"), ""],
        ["cold `odds --decks 8 --remove 5` (depleted: coup classes) / plain",
         *_spread(f["cold_depleted_vs_plain_spread"], places=2), ""],
        ["  cold depleted odds process", *_spread(f["cold_depleted"], ms, " ms"), ""],
        ["interpreter floor: `python -c pass` / plain",
         *_spread(f["interpreter_vs_plain_spread"], places=2),
         f"with `import tabulate`: {f['interpreter_tabulate_vs_plain']:.2f}"],
        ["  with `import argparse, dataclasses, fractions` / plain",
         f"{f['interpreter_stdlib_vs_plain']:.2f}", "", "standard library only, no project code"],
        ["  python -c pass process", *_spread(f["interpreter_process"], ms, " ms"), ""],
        ["  python -c 'import tabulate' process", *_spread(f["interpreter_tabulate_process"], ms, " ms"), ""],
        ["the same two ratios, no bytecode cache (every module compiled)",
         f"{f['cold_cli_vs_plain_no_bytecode_cache']:.2f} / {f['edges_vs_odds_no_bytecode_cache']:.2f}",
         "", ""],
        ["warm 8-deck distribution (in process; polynomials in d)", *_spread(f["in_process"], ms, " ms", 2),
         f"{f['distribution_speedup_vs_plain']:,.0f}x plain"],
        ["  the same from the coup classes (depleted shoes' path)",
         *_spread(f["in_process_classes"], ms, " ms", 2),
         f"{f['distribution_classes_speedup_vs_plain']:,.1f}x plain"],
        ["plain enumerator function (in process)", *_spread(f["plain_in_process"], ms, " ms"), ""],
        ["compile the rules afresh (shipped files skip this)", f"{f['compile_seconds'] * ms:.0f} ms", "", ""],
        [f"batch evaluator, {f['main_bets']} bets, 8-deck shoes, compositions/s",
         *_spread(f["main_rate"]), f"{f['main_speedup_vs_one_at_a_time']:,.0f}x one at a time"],
        [f"batch evaluator, all {f['all_bets']} bets, compositions/s", *_spread(f["all_rate"]),
         f"{f['all_speedup_vs_one_at_a_time']:,.0f}x one at a time"],
        [f"batch evaluator, {f['twenty_bets']} bets, 20-deck shoes, compositions/s",
         *_spread(f["twenty_rate"]), f"{f['twenty_speedup_vs_one_at_a_time']:,.0f}x one at a time"],
        [f"batch evaluator, {f['hundred_bets']} bets, 100-deck shoes (beyond int64), compositions/s",
         *_spread(f["hundred_rate"]), f"{f['hundred_speedup_vs_one_at_a_time']:,.0f}x one at a time"],
        ["  rate / 8-deck rate, interleaved, by decks: "
         + ", ".join(f"{d}: {r['median']:.2f}" for d, r in f["deck_sizes_ratio_vs_8_decks"].items()), "", "",
         f"1,000,000 decks: {f['compositions_per_second_1000000_decks']:,.0f}/s"],
        ["one at a time (distribution + analyze), 8 bets, compositions/s",
         f"{f['main_one_at_a_time_per_second']:,.0f}", "", ""],
        ["estimated floor, 8 bets / all bets, compositions/s",
         f"{f['floor_compositions_per_second']:,.0f} / {f['floor_compositions_per_second_all_bets']:,.0f}",
         "", f"at {f['gemm_multiply_adds_per_second'] / 1e9:.1f} G multiply-adds/s"],
        [f"card-level batch evaluator, {f['card_level_bets']} bets, suited 8-deck shoes, compositions/s",
         *_spread(f["card_level_rate"]), f"{f['card_level_speedup_vs_one_at_a_time']:,.0f}x one at a time"],
        ["card-level one at a time (analyze_cards), the same bets and shoes, compositions/s",
         *_spread(f["card_level_one_at_a_time"], places=2), ""],
        ["counting study on perfect-pairs-v1 (suited shoes) / on dragon7, the same shoes, shoes/s",
         *_spread(f["counting_card_level_shoes_per_second"]),
         f"dragon7: {f['counting_rank_level_shoes_per_second']['median']:,.0f}"],
    ]  # fmt: skip
    rows += [[*row[:3], f"target {row[3]}" if row[3] else ""] for row in kernel_rows(f)]
    if "shoes_per_second_spread" in f:  # the counting studies of scripts/bench_counting.py
        low, high = f["shoes_per_second_spread"]
        rows.append(["counting study, one system, cut card 14, 8 decks, one core, shoes/s",
                     f"{f['shoes_per_second']:,.0f}", f"{low:,.0f} - {high:,.0f} (range)", ""])  # fmt: skip
        low, high = f["worker_speedup_spread"]
        rows.append(["the same study, two workers against one, 10,000 shoes",
                     f"{f['worker_speedup']:.2f}x", f"{low:.2f} - {high:.2f} (range)", ""])  # fmt: skip
    note = (
        f"\nMedians over interleaved rounds; spread = quartiles. Load average "
        f"{f['load_average_start']:.1f} at the start, {f['load_average_end']:.1f} at the end "
        f"(2 cores; other work inflates absolute times). Python {f['python']}. Cold-start rows: "
        f"{f['cold_start_from']}."
    )
    headers = ["measurement", "median", "spread", "note"]
    return str(tabulate(rows, headers=headers, disable_numparse=True)) + note


def kernel_rows(f: dict[str, Any]) -> list[list[str]]:
    """Rows of the compiled kernel's figures (issue 28): measurement, median, spread,
    target; the reference side of each named in the measurement."""
    rows = [
        ["batch evaluator / its estimated floor (above, same run), 8 bets / all bets",
         f"{f['main_vs_floor']:.2f} / {f['all_vs_floor']:.2f}", "", "all bets: 0.5"],
    ]  # fmt: skip
    if "all_vs_sparse_floor" in f:
        dense = [f[f"{k}_monomials"] * f[f"{k}_lattice_columns"] for k in ("main", "all")]
        rows.append(["  the same against a floor of the nonzero folded coefficients only (the multiply-adds "
                     f"of a pass that skips every zero: {f['main_nonzero_coefficients']:,} / "
                     f"{f['all_nonzero_coefficients']:,} a composition, against {dense[0]:,} / {dense[1]:,})",
                     f"{f['main_vs_sparse_floor']:.2f} / {f['all_vs_sparse_floor']:.2f}", "",
                     ""])  # fmt: skip
    if "main_kernel_vs_numpy" in f:
        rows.append(["batch evaluator with numba (the path `kernel_pays` picks: the compiled kernel, or the "
                     "numpy paths with compiled passes) / the numpy paths alone (`BACCARAT_KERNEL=numpy`), "
                     "round by round, 8 bets / all bets",
                     f"{f['main_kernel_vs_numpy']['median']:.2f} / {f['all_kernel_vs_numpy']['median']:.2f}",
                     f"{_quartiles(f['main_kernel_vs_numpy'], places=2)} / "
                     f"{_quartiles(f['all_kernel_vs_numpy'], places=2)}", ""])  # fmt: skip
    if "kernel_vs_numpy" in f:  # scripts/bench_counting.py, with numba
        low, high = f["kernel_vs_numpy_spread"]
        rows.append(
            [
                "counting study, one system, 8 decks, shoes per CPU second: compiled kernels / "
                "the numpy paths (`BACCARAT_KERNEL=numpy`, the paths before them), round by round",
                f"{f['kernel_vs_numpy']:.2f}x ({_n(f['kernel_shoes_per_cpu_second'])} / "
                f"{_n(f['numpy_shoes_per_cpu_second'])})",
                f"{low:.2f}-{high:.2f} (range)",
                "3x",
            ]
        )
        low, high = f["valuation_us_per_coup_spread"]
        rows.append(["  valuation inside the study, CPU µs per coup: kernel / numpy paths",
                     f"{f['valuation_us_per_coup']:.2f} / {f['valuation_us_per_coup_numpy']:.2f}",
                     f"{low:.2f}-{high:.2f} (range)", "0.7"])  # fmt: skip
    if "worker_cpu_speedup" in f:
        low, high = f["worker_cpu_speedup_spread"]
        rows.append(["  two workers against one, from CPU times: one worker's CPU s / the busier worker's "
                     f"(CPU efficiency {f['worker_cpu_efficiency']:.2f})",
                     f"{f['worker_cpu_speedup']:.2f}x", f"{low:.2f}-{high:.2f} (range)", "1.7x"])  # fmt: skip
    return rows


#: Where `main` writes the Markdown table (`--markdown`); not one of `baccarat report`'s files.
SPEED_MD = ROOT / "reports" / "speed.md"


def _n(value: float, places: int = 0) -> str:
    """`value` with thousands separators; rates of 10,000 and more rounded to hundreds."""
    if places == 0 and value >= 10_000:
        value = round(value, -2)
    return f"{value:,.{places}f}"


def _quartiles(s: dict[str, float], scale: float = 1.0, places: int = 0, unit: str = "") -> str:
    return f"{_n(s['q1'] * scale, places)}-{_n(s['q3'] * scale, places)}{unit}"


#: The vector extensions that move the valuation kernel's rate (AVX-512 has the 64-bit
#: vector multiply that AVX2 emulates), in the order they are listed.
VECTOR_FLAGS = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512ifma")


def _machine() -> str:
    """The machine in a few words: cores, architecture, CPU model and its vector extensions
    where Linux names them."""
    model, flags = "", set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as file:
            for line in file:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and not model:
                    model = value.strip()
                elif key.strip() == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    vector = [flag for flag in VECTOR_FLAGS if flag in flags]
    extensions = "vector extensions " + " ".join(vector) if vector else ""
    words = ", ".join(part for part in (model, extensions) if part)
    return f"{os.cpu_count()}-core {platform.machine()}" + (f" ({words})" if words else "")


def _card_rows(f: dict[str, Any]) -> list[list[str]]:
    """The rows of `bench_cards.card_figures`: each a ratio of one run, like with like."""
    ms, user = 1000, f["user_card_bet_seconds"]
    rates = f["card_level_vs_rank_level_rates"]
    studies = f["card_level_counting_shoes_per_second"]

    def seconds(side: str, key: str = "wall") -> str:
        return f"{user[side][key]['median']:.2f} s"

    return [
        ["docs/bets.md's table-file example (`edges --table FILE --bets nines-and-colours --decks 1`), "
         "first run (empty plan cache) / warm, whole processes; CPU time; peak memory",
         f"{seconds('first')} / {seconds('warm')}",
         f"CPU {seconds('first', 'cpu')} / {seconds('warm', 'cpu')}; "
         f"{user['first']['peak_mb']:.0f} / {user['warm']['peak_mb']:.0f} MB", "2 s / 0.5 s; 300 MB"],
        ["  `eor` with it, warm; beside it, the plain enumerator of the same 1-deck shoe (three "
         "outcomes only: context, not the same work)",
         f"{seconds('eor_warm')} / {seconds('plain')}",
         f"{_quartiles(user['eor_warm']['wall'], places=2)} / "
         f"{_quartiles(user['plain']['wall'], places=2)} s", "3 s"],
        ["card-level batch evaluator, 8 card-level built-ins / rank-level batch evaluator, 8 main bets, "
         "the same depleted suited 8-deck shoes, one core", f"{f['card_level_vs_rank_level']:.2f}",
         _quartiles(f["card_level_vs_rank_level_spread"], places=2), "0.2"],
        ["  the two rates", f"{_n(rates['card']['median'])} / {_n(rates['rank']['median'])} compositions/s",
         f"{_quartiles(rates['card'])} / {_quartiles(rates['rank'])}", ""],
        ["counting study judging Perfect Pairs / the same study judging Dragon 7 (rates, same shoes)",
         f"{f['card_level_counting_ratio']:.2f}",
         _quartiles(f["card_level_counting_ratio_spread"], places=2), "0.5"],
        ["  judging all 8 card-level built-ins at once / judging Dragon 7",
         f"{f['card_level_counting_ratio_all']:.2f}",
         _quartiles(f["card_level_counting_ratio_all_spread"], places=2), "0.15"],
        ["  shoes/s: Dragon 7, Perfect Pairs, all 8",
         ", ".join(_n(studies[k]["median"]) for k in ("dragon7", "perfect-pairs-v1", "all card-level")),
         "", ""],
        ["cold `edges --decks 8 --remove 9,9,8` (every built-in) / plain enumerator of the same depleted "
         "shoe, whole processes",
         f"{f['edges_depleted_vs_plain']:.2f} (CPU time {f['edges_depleted_vs_plain_cpu']:.2f})",
         _quartiles(f["edges_depleted_vs_plain_spread"], places=2), "1.0"],
        ["  the two processes", f"{f['edges_depleted_process']['median'] * ms:.0f} ms / "
         f"{f['plain_depleted_process']['median'] * ms:.0f} ms", "",
         f"floor: `import tabulate` alone is {f['interpreter_tabulate_vs_plain']:.2f} of plain (above)"],
    ]  # fmt: skip


def speed_markdown(f: dict[str, Any], command: str, date: str) -> str:
    """reports/speed.md from the figures of `measure` (and of bench_counting when present):
    the command that regenerates it, the machine and date, the method, the table."""
    ms, sizes = 1000, f["deck_sizes_ratio_vs_8_decks"]

    def ratio(keys: Sequence[str]) -> str:
        return ", ".join(f"{sizes[key]['median']:.2f}" for key in keys)

    def rate(key: str) -> str:
        return f"{_n(f[key]['median'])} compositions/s"

    no_cache = f"{f['cold_cli_vs_plain_no_bytecode_cache']:.2f} / {f['edges_vs_odds_no_bytecode_cache']:.2f}"
    warm = f"{f['distribution_speedup_vs_plain']:.0f}x / {f['distribution_classes_speedup_vs_plain']:.1f}x"
    card_speedup = f"{f['card_level_speedup_vs_one_at_a_time']:,.0f}x one at a time"
    rows = [
        ["cold `baccarat odds --decks 8` / plain enumerator, whole processes",
         f"{f['cold_cli_vs_plain']:.2f} (CPU time {f['cold_cli_vs_plain_cpu']:.2f})",
         _quartiles(f["cold_cli_vs_plain_spread"], places=2), "1.0"],
        ["cold `odds` process / plain enumerator process",
         f"{f['cold_cli']['median'] * ms:.0f} ms / {f['plain_process']['median'] * ms:.0f} ms",
         f"{_quartiles(f['cold_cli'], ms)} / {_quartiles(f['plain_process'], ms)} ms", ""],
        ["cold `odds --decks 8 --format json` (no table renderer) / plain enumerator",
         f"{f['cold_cli_json_vs_plain']:.2f}", _quartiles(f["cold_cli_json_vs_plain_spread"], places=2), ""],
        ["interpreter floor: `python -c pass` / plain enumerator", f"{f['interpreter_vs_plain']:.2f}",
         _quartiles(f["interpreter_vs_plain_spread"], places=2), ""],
        ['`python -c "import argparse, dataclasses, fractions"` / plain enumerator (standard library only)',
         f"{f['interpreter_stdlib_vs_plain']:.2f}", "", ""],
        ['`python -c "import tabulate"` / plain enumerator (the floor of any table output)',
         f"{f['interpreter_tabulate_vs_plain']:.2f}", "", ""],
        ["cold `odds --decks 8 --remove 5` (depleted shoe: the coup classes) / plain enumerator",
         f"{f['cold_depleted_vs_plain']:.2f}", _quartiles(f["cold_depleted_vs_plain_spread"], places=2), ""],
        ["cold `baccarat edges` (every built-in, card-level too) / cold `odds`",
         f"{f['edges_vs_odds']:.2f} (CPU time {f['edges_vs_odds_cpu']:.2f})",
         _quartiles(f["edges_vs_odds_spread"], places=2), "1.1"],
        ["cold `edges` process", f"{f['cold_edges']['median'] * ms:.0f} ms",
         _quartiles(f["cold_edges"], ms, unit=" ms"), ""],
        ["the same two ratios (odds / plain, edges / odds), no bytecode cache",
         no_cache, "", ""],
        ["warm exact 8-deck distribution, in process, against the plain enumerator's function: "
         "from the polynomials in d / from the coup classes",
         f"{warm} faster", "", ""],
        [f"batch evaluator, {f['main_bets']} main and side bets, 8-deck shoes, one core", rate("main_rate"),
         _quartiles(f["main_rate"]), "150,000"],
        [f"batch evaluator, all {f['all_bets']} rank-level built-in bets", rate("all_rate"),
         _quartiles(f["all_rate"]), "60,000"],
        [f"batch evaluator, {f['twenty_bets']} bets, 20-deck shoes", rate("twenty_rate"),
         _quartiles(f["twenty_rate"]), "half the 8-deck rate"],
        [f"batch evaluator, {f['hundred_bets']} bets, 100-deck shoes, results beyond int64",
         rate("hundred_rate"), _quartiles(f["hundred_rate"]), "half the 8-deck rate"],
        [f"the same {f['main_bets']} bets, interleaved round by round with 8-deck shoes, rate / 8-deck rate "
         "at 20, 50, 100, 200, 500 decks", ratio(("20", "50", "100", "200", "500")), "", "half"],
        ["the same at 1,000, 2,000, 10,000 and 10**6 decks",
         f"{ratio(('1000', '2000', '10000', '1000000'))} "
         f"({_n(f['compositions_per_second_1000000_decks'])} compositions/s at 10**6)", "", "half"],
        ["the same batches one at a time (`distribution`, then `analyze` of each bet), "
         f"{f['main_bets']} bets",
         f"{_n(f['main_one_at_a_time_per_second'])} compositions/s", "", ""],
        [f"estimated floor, {f['main_bets']} bets / all bets ({f['main_lattice_columns']} and "
         f"{f['all_lattice_columns']} columns)",
         f"{_n(f['floor_compositions_per_second'])} / "
         f"{_n(f['floor_compositions_per_second_all_bets'])} compositions/s", "", ""],
        [f"card-level bets ({f['card_level_bets']}), suited compositions one at a time (`analyze_cards`), "
         "the shoes of the card-level batch rate below",
         f"{_n(f['card_level_one_at_a_time']['median'], 1)} compositions/s (the batch: {card_speedup})",
         _quartiles(f["card_level_one_at_a_time"], places=1), ""],
    ]  # fmt: skip
    if "shoes_per_second" in f:  # the counting studies of scripts/bench_counting.py
        low, high = f["shoes_per_second_spread"]
        rows.append(["counting study, one system, cut card 14, 8 decks (`scripts/bench_counting.py`)",
                     f"{_n(f['shoes_per_second'])} shoes/s",
                     f"{_n(low)}-{_n(high)} (range of the repeats)", "1,500"])  # fmt: skip
        low, high = f["worker_speedup_spread"]
        rows.append(["the same study, two workers against one, 10,000 shoes", f"{f['worker_speedup']:.2f}x",
                     f"{low:.2f}-{high:.2f} (range of the repeats)", "1.7x"])  # fmt: skip
    rows += kernel_rows(f)
    rows += _card_rows(f)
    if "known_vs_edges" in f:  # scripts/bench_known.py
        from bench_known import known_rows

        rows += known_rows(f)
    if "report_seconds" in f:  # not measured by this script; add it to the figures to list it
        rows.append(["`baccarat report` (two worker processes for the games and the counting studies)",
                     f"{f['report_seconds']:.1f} s", "", "about 20 s"])  # fmt: skip
    table = ["| measurement | median | quartiles | target |", "|---|---|---|---|"]
    table += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join([
        "# Speed",
        "",
        f"Written by `{command}` (not by `baccarat report`); run it again to regenerate this file "
        "(`--no-markdown` leaves it alone, `--json` prints the figures as one JSON line).",
        "",
        f"Machine: {_machine()}, Python {f['python']}; load average {f['load_average_start']:.1f} at the "
        f"start and {f['load_average_end']:.1f} at the end. Date: {date}.",
        "",
        "Each figure is a median with its quartiles over repeats, always the same work on both sides. "
        "Whole processes run interleaved round by round, so load from other work hits both sides alike, "
        "and CPU-time ratios are given beside the wall-clock ones. The cold-start reference is "
        "`scripts/plain_enumerator.py`: a plain pure-Python point-value enumerator (standard library, "
        "integer arithmetic) of the same shoe that prints the same counts, run by the same interpreter. "
        f"The cold-start processes run {f['cold_start_from']}. The batch evaluator's "
        "reference is the project's own exact path, one composition at a time (`distribution`, then "
        "`analyze` of each bet), checked equal on a sample. On a shared machine absolute rates move "
        "by 20-25% between runs; ratios less so.",
        "",
        *table,
        "",
    ])  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of a table")
    parser.add_argument("--rounds", type=int, default=15, help="whole-process rounds (default 15)")
    parser.add_argument("--compositions", type=int, default=20_000, help="batch size (default 20000)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the compositions")
    parser.add_argument("--markdown", type=Path, default=SPEED_MD,
                        help="where to write the Markdown table (default reports/speed.md)")  # fmt: skip
    parser.add_argument("--no-markdown", action="store_true", help="write no Markdown file")
    parser.add_argument("--cold-from", choices=("install", "tree"), default="install",
                        help="the cold-start rows run the package installed in a fresh venv, as a "
                        "user installs it (default; about 30 s to build), or this checkout on "
                        "PYTHONPATH")  # fmt: skip
    parser.add_argument("--venv", type=Path,
                        help="the venv of --cold-from install: kept, and reused if it exists (default: "
                        "a temporary one, removed; reinstall after a change by removing it)")  # fmt: skip
    args = parser.parse_args()
    if args.rounds < 1 or args.compositions < 40:
        parser.error("--rounds must be positive and --compositions at least 40")
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bench-venv-") as temporary:
        if args.cold_from == "tree":
            cold = from_tree()
        else:
            cold = from_install(args.venv or Path(temporary) / "venv")
        figures = measure(args.rounds, args.compositions, args.seed, cold)
    from bench_counting import counting_figures  # counting studies (this folder is on sys.path)

    figures.update(counting_figures())  # shoes_per_second, worker_speedup and their spreads
    print(json.dumps(figures, separators=(",", ":")) if args.json else render(figures))
    if not args.no_markdown:
        command = " ".join(["python scripts/bench.py", *sys.argv[1:]]).replace(" --json", "")
        text = speed_markdown(figures, command, datetime.date.today().isoformat())
        write_atomic(args.markdown, text)
        print(f"bench: wrote {args.markdown}", file=sys.stderr)


if __name__ == "__main__":
    main()
