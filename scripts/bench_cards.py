"""Card-level figures of the benchmark (`scripts/bench.py` runs them; run alone for a quick look).

Each is a ratio measured in one run, like with like, with its quartiles over interleaved
rounds:

- `user_card_bet_seconds`: docs/bets.md's table-file example (`edges --table FILE --bets
  nines-and-colours --decks 1`) as whole processes, its first run (an empty plan cache) and
  warm runs, `eor` with it warm, beside the plain enumerator of the same shoe (1 deck);
  peak memory of the first and warm runs.
- `card_level_vs_rank_level`: the card-level batch evaluator on the 8 card-level built-ins
  against the rank-level batch evaluator on the 8 main and side bets, the same depleted
  suited 8-deck shoes (rank counts for the rank-level side), one core, interleaved.
- `card_level_counting_ratio`: a counting study (one count, cut card 14, 8 decks) judging
  Perfect Pairs against the same study judging Dragon 7, the same seeds; and all 8
  card-level built-ins at once against Dragon 7 (`card_level_counting_ratio_all`).
- `edges_depleted_vs_plain`: `edges` for every built-in on 8 decks less 9, 9, 8 against the
  plain enumerator of the same depleted shoe, whole processes (wall clock and CPU).

Usage: python scripts/bench_cards.py [--rounds N]
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
from collections.abc import Callable
from typing import Any

from bench import PLAIN, ROOT, suited_compositions, summary  # this folder is on sys.path

TABLE = ROOT / "tests" / "golden" / "table.toml"
MAIN_BETS = ("banker", "player", "tie", "dragon7", "panda8", "player-pair", "banker-pair", "either-pair")
# Runs a command in this interpreter and reports its own peak memory on the last stderr line:
# VmHWM of /proc/self/status where there is one, since on Linux ru_maxrss also counts the
# memory of the process it was forked from before the exec (this bench's, with numba loaded).
_PEAK = (
    "import resource, runpy, sys; sys.argv = ['baccarat', *sys.argv[1:]]\n"
    "def peak():\n"
    "    try:\n"
    "        with open('/proc/self/status') as f:\n"
    "            return next(int(l.split()[1]) for l in f if l.startswith('VmHWM:'))\n"
    "    except (OSError, StopIteration):\n"
    "        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "try:\n    runpy.run_module('analyzer', run_name='__main__')\n"
    "finally:\n    print('peak-kb', peak(), file=sys.stderr)\n"
)


def _run(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, peak KB or 0) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"bench: {' '.join(command)} failed: {proc.stderr.decode().strip()}")
    peak = [int(line.split()[1]) for line in proc.stderr.decode().splitlines() if line.startswith("peak-kb")]
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, peak[-1] if peak else 0


def _environment(cache: str | None = None) -> dict[str, str]:
    """The processes' environment: this checkout, compiled modules cached (as after `pip
    install`; `bench_cold.whole_processes` does the same), and `cache` as the plan cache."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if cache is not None:
        env["BACCARAT_CACHE"] = cache
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def user_card_bet(rounds: int) -> dict[str, Any]:
    """docs/bets.md's table-file example: first run, warm runs, eor warm, the plain enumerator."""
    bet = ["--table", str(TABLE), "--bets", "nines-and-colours", "--decks", "1"]
    commands = {
        "warm": [sys.executable, "-c", _PEAK, "edges", *bet],
        "eor_warm": [sys.executable, "-c", _PEAK, "eor", *bet],
        "plain": [sys.executable, str(PLAIN), "--decks", "1"],
    }
    times: dict[str, list[tuple[float, float, int]]] = {name: [] for name in ("first", *commands)}
    with tempfile.TemporaryDirectory() as warm_cache:
        _run(commands["warm"], _environment(warm_cache))  # fills the warm cache
        for i in range(rounds):
            with tempfile.TemporaryDirectory() as empty:
                times["first"].append(_run(commands["warm"], _environment(empty)))
            order = list(commands) if i % 2 else list(reversed(commands))
            for name in order:
                times[name].append(_run(commands[name], _environment(warm_cache)))
    figures: dict[str, Any] = {
        name: {"wall": summary([t[0] for t in runs]), "cpu": summary([t[1] for t in runs])}
        for name, runs in times.items()
    }
    for name in ("first", "warm"):
        figures[name]["peak_mb"] = statistics.median(t[2] for t in times[name]) / 1024
    return {"user_card_bet_seconds": figures}


def _interleaved(sides: dict[str, Callable[[int], Any]], rounds: int) -> dict[str, list[float]]:
    """Seconds of each side per round (each side given the round's number, so both sides do
    the same work), the sides alternating which goes first; an uncounted warm-up round first."""
    seconds: dict[str, list[float]] = {name: [] for name in sides}
    for i in range(rounds + 1):
        order = list(sides) if i % 2 else list(reversed(sides))
        for name in order:
            start = time.perf_counter()
            sides[name](i)
            if i:
                seconds[name].append(time.perf_counter() - start)
    return seconds


def card_vs_rank(seed: int, count: int = 2000, rounds: int = 7) -> dict[str, Any]:
    """The 8 card-level built-ins' batch rate against the 8 main bets' on the same shoes."""
    from analyzer.cards.batch import CardEvaluator
    from analyzer.core.catalogue import BETS, CARD_BETS
    from analyzer.ranks.fast import FastEvaluator

    types = suited_compositions(seed, count)
    ranks = types.reshape(count, 4, 13).sum(axis=1)
    cards, rank = CardEvaluator(list(CARD_BETS.values())), FastEvaluator([BETS[n] for n in MAIN_BETS])
    sides = {"card": lambda _: cards.expectations(types), "rank": lambda _: rank.expectations(ranks)}
    seconds = _interleaved(sides, rounds)
    ratios = [r / c for c, r in zip(seconds["card"], seconds["rank"], strict=True)]  # rates: card / rank
    return {
        "card_level_vs_rank_level": statistics.median(ratios),
        "card_level_vs_rank_level_spread": summary(ratios),
        "card_level_vs_rank_level_rates": {
            side: summary([count / s for s in values]) for side, values in seconds.items()
        },
        "card_level_paths": dict(zip((bet.name for bet in cards.bets), cards.paths, strict=True)),
    }


def counting_ratio(seed: int, shoes: int = 100, rounds: int = 3) -> dict[str, Any]:
    """Counting studies judging Perfect Pairs, and all 8 card-level built-ins, against Dragon 7."""
    from analyzer.core.catalogue import ALL_BETS, CARD_BETS
    from analyzer.core.shoe import Shoe
    from analyzer.counting.simulation import Procedure, evaluate_systems
    from analyzer.counting.systems import SYSTEMS

    procedure = Procedure(shoe=Shoe.decks(8), cut_card=14)
    system = SYSTEMS["dragon7-jacobson"]
    every = list(CARD_BETS.values())
    study = {
        "dragon7": ([system], [ALL_BETS["dragon7"]]),
        "perfect-pairs-v1": ([system], [ALL_BETS["perfect-pairs-v1"]]),
        "all card-level": ([system] * len(every), every),
    }

    def side(systems: list[Any], bets: list[Any]) -> Callable[[int], Any]:
        return lambda i: evaluate_systems(systems, bets, procedure, shoes=shoes if i else 2, seed=seed + i)

    seconds = _interleaved({name: side(*pair) for name, pair in study.items()}, rounds)
    one = [d / p for p, d in zip(seconds["perfect-pairs-v1"], seconds["dragon7"], strict=True)]
    every_ratio = [d / a for a, d in zip(seconds["all card-level"], seconds["dragon7"], strict=True)]
    return {
        "card_level_counting_ratio": statistics.median(one),
        "card_level_counting_ratio_spread": summary(one),
        "card_level_counting_ratio_all": statistics.median(every_ratio),
        "card_level_counting_ratio_all_spread": summary(every_ratio),
        "card_level_counting_shoes_per_second": {
            name: summary([shoes / s for s in values]) for name, values in seconds.items()
        },
    }


def edges_depleted(rounds: int) -> dict[str, Any]:
    """`edges` of every built-in on 8 decks less 9, 9, 8 against the plain enumerator of it."""
    commands = {
        "edges": [sys.executable, "-m", "analyzer", "edges", "--decks", "8", "--remove", "9,9,8"],
        "plain": [sys.executable, str(PLAIN), "--decks", "8", "--remove", "9,9,8"],
    }
    env = _environment()
    times: dict[str, list[tuple[float, float, int]]] = {name: [] for name in commands}
    for i in range(rounds + 1):  # round 0 warms the caches and is not counted
        for name in list(commands) if i % 2 else list(reversed(commands)):
            result = _run(commands[name], env)
            if i:
                times[name].append(result)
    wall = [e[0] / p[0] for e, p in zip(times["edges"], times["plain"], strict=True)]
    cpu = [e[1] / p[1] for e, p in zip(times["edges"], times["plain"], strict=True)]
    return {
        "edges_depleted_vs_plain": statistics.median(wall),
        "edges_depleted_vs_plain_spread": summary(wall),
        "edges_depleted_vs_plain_cpu": statistics.median(cpu),
        "edges_depleted_process": summary([t[0] for t in times["edges"]]),
        "plain_depleted_process": summary([t[0] for t in times["plain"]]),
    }


def card_figures(seed: int = 1, rounds: int = 7) -> dict[str, Any]:
    """Every card-level figure of this module."""
    return {
        **user_card_bet(max(3, rounds // 2)),
        **card_vs_rank(seed),
        **counting_ratio(seed),
        **edges_depleted(rounds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="rounds (default 7)")
    args = parser.parse_args()
    print(json.dumps(card_figures(rounds=args.rounds), indent=1))


if __name__ == "__main__":
    main()
