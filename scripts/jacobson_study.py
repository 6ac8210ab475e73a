"""The long study behind reports/counting.md's "Settling Jacobson's figures" table.

Jacobson's Dragon 7 (true count >= 4) and Panda 8 (>= 11) counts, 8 decks, cut card 14,
under every plausible reading of the procedure: a card burned or not; with a burn, the
counter sees none, the face-up first, or all of the burned cards; the true count divides
by the exact decks left, or by decks rounded to the nearest half deck or whole deck; the
trigger is >= or >; one more coup after the cut card's coup or not.

One dealing pass (per burn setting) feeds every variant, each a view of
analyzer.counting.simulation.evaluate_views: variants that differ only in counting see
the same coups with the same exact values, and the no-extra-coup variants are the
extra-coup shoes less their last coup. Only coups some variant bets on are valued
(exactly, by analyzer.ranks.fast.FastEvaluator): a variant's win per shoe is the sum of
the exact expectations of the coups it bets on.

The state is a JSON checkpoint, rewritten atomically after every chunk; rerunning resumes
it. The committed files analyzer/counting/data/jacobson-burn.json and jacobson-no-burn.json are
that state. Regenerate (two processes, one per burn setting; hours of CPU):

    nice -n 15 python scripts/jacobson_study.py --burn burn --shoes 1000000
    nice -n 15 python scripts/jacobson_study.py --burn no-burn --shoes 1000000
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from analyzer.core.catalogue import BETS  # noqa: E402
from analyzer.core.files import write_atomic  # noqa: E402
from analyzer.core.rules import STANDARD  # noqa: E402
from analyzer.core.shoe import Shoe  # noqa: E402
from analyzer.counting.simulation import Procedure, View, evaluate_views  # noqa: E402
from analyzer.counting.summary import ExactSum  # noqa: E402
from analyzer.counting.systems import SYSTEMS, Divisor  # noqa: E402
from analyzer.ranks.fast import FastEvaluator  # noqa: E402

SEED = 1
DECKS = 8
CUT_CARD = 14
SYSTEM_NAMES = ("dragon7-jacobson", "panda8-jacobson")
DATA = ROOT / "analyzer" / "counting" / "data"


def variants(burn: bool) -> list[tuple[str, str, str, bool, bool]]:
    """(key, burn seen, divisor, strict, extra coup) of every variant of one dealing pass."""
    seen = ("first", "none", "all") if burn else ("none",)
    rows = []
    for sight, divisor, strict, extra in itertools.product(
        seen, tuple(Divisor), (False, True), (False, True)
    ):
        prefix = f"burn, {sight} seen" if burn else "no burn"
        key = f"{prefix} | {divisor} | {'>' if strict else '>='} | {'extra coup' if extra else 'no extra'}"
        rows.append((key, sight, str(divisor), strict, extra))
    return rows


def _empty(keys: list[str]) -> dict[str, Any]:
    cell = {"bets": 0, "sum": 0.0, "squares": 0.0, "exact": "0"}
    return {
        "seed": SEED,
        "decks": DECKS,
        "cut_card": CUT_CARD,
        "shoes": 0,
        "seconds": 0.0,
        "variants": {key: {name: dict(cell) for name in SYSTEM_NAMES} for key in keys},
    }


def run_chunk(
    state: dict[str, Any],
    exact: dict[tuple[str, str], ExactSum],
    evaluator: FastEvaluator,
    burn: bool,
    start: int,
    shoes: int,
) -> None:
    """Deal shoes start..start+shoes-1 once and add every variant's figures to `state`."""
    procedure = Procedure(shoe=Shoe.decks(DECKS), cut_card=CUT_CARD, extra_coup=True, burn=burn)
    cells, views = [], []
    for key, sight, divisor, strict, extra in variants(burn):
        for column, name in enumerate(SYSTEM_NAMES):  # the evaluator's bets, in this order
            cells.append((key, name))
            views.append(View(SYSTEMS[name].variant(divisor, strict), column, sight, extra))
    results = evaluate_views(views, evaluator, procedure, STANDARD, SEED, range(start, start + shoes))
    for (key, name), result in zip(cells, results, strict=True):
        cell = state["variants"][key][name]
        cell["bets"] += result.triggers
        cell["sum"] += result.shoe_moments["expected"][0]
        cell["squares"] += result.shoe_moments["expected"][1]
        exact.setdefault((key, name), ExactSum()).merge(result.sums["triggered"])
    state["shoes"] += shoes


def save(state: dict[str, Any], exact: dict[tuple[str, str], ExactSum], path: Path) -> None:
    """Fold the exact sums into the state (as "p/q") and write it atomically: a reader sees
    the old or the new state, never half of one."""
    for (key, name), total in exact.items():
        cell = state["variants"][key][name]
        cell["exact"] = str(Fraction(cell["exact"]) + total.value())
    exact.clear()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(state, indent=1, sort_keys=True) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--burn", choices=("burn", "no-burn"), required=True)
    parser.add_argument("--shoes", type=int, default=1_000_000, help="stop after this many shoes")
    parser.add_argument("--chunk", type=int, default=500, help="shoes dealt at once")
    parser.add_argument("--every", type=float, default=120.0, help="seconds between checkpoints")
    parser.add_argument(
        "--out", type=Path, help="state file (default analyzer/counting/data/jacobson-BURN.json)"
    )
    args = parser.parse_args()
    from analyzer.counting import fastdeal
    from analyzer.ranks import kernel

    kernel.warm()  # a long study: the compiled kernels (the fast extra), when installed
    fastdeal.warm()
    burn = args.burn == "burn"
    path = args.out or DATA / f"jacobson-{args.burn}.json"
    keys = [v[0] for v in variants(burn)]
    state = json.loads(path.read_text(encoding="utf-8")) if path.exists() else _empty(keys)
    if state.get("chunk", args.chunk) != args.chunk:
        raise SystemExit(f"{path} was made with --chunk {state['chunk']}")
    state["chunk"] = args.chunk
    evaluator = FastEvaluator([BETS["dragon7"], BETS["panda8"]], STANDARD)
    stop = False
    exact: dict[tuple[str, str], ExactSum] = {}
    saved = time.monotonic()

    def finish(signum: int, frame: Any) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    while state["shoes"] < args.shoes and not stop:
        began = time.perf_counter()
        size = min(args.chunk, args.shoes - state["shoes"])
        run_chunk(state, exact, evaluator, burn, state["shoes"], size)
        state["seconds"] += time.perf_counter() - began
        if time.monotonic() - saved > args.every:
            save(state, exact, path)
            saved = time.monotonic()
            rate = state["shoes"] / max(state["seconds"], 1e-9)
            print(f"{path.name}: {state['shoes']:,} shoes, {rate:.0f} shoes/s", file=sys.stderr, flush=True)
    save(state, exact, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
