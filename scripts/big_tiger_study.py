"""The long study behind reports/counting.md's Big Tiger table: Jacobson's Big Tiger count
(analyzer/examples/big-tiger-count.toml) judged on the Big Tiger bet
(analyzer/examples/big-tiger.toml) over 10^7 8-deck shoes, cut card 14, every coup valued
exactly, by `baccarat count`; then the same count under other readings of the procedure
(no burn, the trigger above the threshold, decks rounded, one more coup) over 200,000 shoes
each, to see which reading Jacobson's published figures (10^8 shoes) follow.

Writes analyzer/counting/data/big-tiger.json: each command and the figures of its JSON output
(the whole output of the long run). Results are identical for any number of workers.
Regenerate (about 30 CPU minutes for the long run, 5 for the readings; --workers 2 halves the
wall time on two cores):

    python scripts/big_tiger_study.py --workers 2

`--reuse DIR` takes outputs of the same commands made already, as DIR/KEY.json (KEY: "long"
or a reading's key), each checked for its shoes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.cli import run  # noqa: E402
from analyzer.core.files import write_atomic  # noqa: E402

DATA = ROOT / "analyzer" / "counting" / "data" / "big-tiger.json"
LONG, READING = 10_000_000, 200_000
#: The readings of the procedure: key -> (words, the count options that give it).
READINGS = {
    "casino": ("burn, the first burned card seen (as the long run)", []),
    "no-burn": ("no burn", ["--no-burn"]),
    "strict": ("burn; bet above the threshold (>)", ["--strict"]),
    "no-burn-strict": ("no burn; bet above the threshold (>)", ["--no-burn", "--strict"]),
    "no-burn-half-deck": ("no burn; decks rounded to half decks", ["--no-burn", "--true-count", "half-deck"]),
    "no-burn-extra-coup": ("no burn; one more coup after the cut card's", ["--no-burn", "--extra-coup"]),
    "extra-coup": ("burn; one more coup after the cut card's", ["--extra-coup"]),
    "deck": ("burn; decks rounded to whole decks", ["--true-count", "deck"]),
}  # fmt: skip


def arguments(shoes: int, options: list[str] | None = None) -> list[str]:
    """The `baccarat count` arguments of the study (paths relative to the checkout)."""
    return [
        "count", "--table", "analyzer/examples/big-tiger.toml",
        "--system", "analyzer/examples/big-tiger-count.toml",
        "--cut-card", "14", "--shoes", str(shoes), "--seed", "1", "--format", "json", *(options or []),
    ]  # fmt: skip


def output(key: str, command: list[str], shoes: int, workers: int, reuse: str | None) -> dict[str, Any]:
    """The JSON output of `command`, run now or read from `reuse`/KEY.json."""
    if reuse:
        found: dict[str, Any] = json.loads((Path(reuse) / f"{key}.json").read_text(encoding="utf-8"))
    else:
        found = json.loads(run([*command, "--workers", str(workers)]))
    if found["systems"][0]["shoes"] != shoes:
        raise SystemExit(f"{key}: {found['systems'][0]['shoes']:,} shoes, not {shoes:,}")
    return found


def figures(found: dict[str, Any]) -> dict[str, Any]:
    """What the report quotes of one output."""
    (system,) = found["systems"]
    keys = ("shoes", "coups", "triggers", "trigger_edge", "win_per_100_coups", "desirability_index")
    return {key: system[key] for key in keys}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--reuse", help="a folder of outputs of the same commands, made already")
    args = parser.parse_args()
    os.chdir(ROOT)
    long = arguments(LONG)
    data: dict[str, Any] = {
        "command": "baccarat " + " ".join(long),
        "output": output("long", long, LONG, args.workers, args.reuse),
        "readings": [],
    }
    for key, (words, options) in READINGS.items():
        command = arguments(READING, options)
        found = output(key, command, READING, args.workers, args.reuse)
        data["readings"].append({"key": key, "procedure": words, "command": "baccarat " + " ".join(command),
                                 **figures(found)})  # fmt: skip
    write_atomic(DATA, json.dumps(data, indent=1) + "\n")
    print(f"wrote {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
