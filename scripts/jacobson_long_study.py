"""The long run behind reports/counting.md's "Against published figures" table: Jacobson's
Dragon 7 (true count >= 4) and Panda 8 (>= 11) counts co-counted over 10^7 8-deck shoes, cut
card 14, the casino procedure (a burn, its face-up first card seen, the exact true count,
the trigger at >=, no extra coup), every coup valued exactly, by `baccarat count`. The other
readings of the procedure are scripts/jacobson_study.py's (10^6 shoes each).

Writes analyzer/counting/data/jacobson-long.json: the command and its whole JSON output.
Results are identical for any number of workers. Regenerate (about 55 CPU minutes: 77 minutes
of wall time with --workers 2 on a 2-core machine shared with other work):

    python scripts/jacobson_long_study.py --workers 2

`--reuse FILE` takes the JSON output of the same command made already (checked for its shoes).
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

DATA = ROOT / "analyzer" / "counting" / "data" / "jacobson-long.json"
SHOES = 10_000_000
COMMAND = [
    "count", "--system", "dragon7-jacobson,panda8-jacobson", "--cut-card", "14",
    "--shoes", str(SHOES), "--seed", "1", "--format", "json",
]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--reuse", help="the JSON output of the same command, made already")
    args = parser.parse_args()
    os.chdir(ROOT)
    if args.reuse:
        found: dict[str, Any] = json.loads(Path(args.reuse).read_text(encoding="utf-8"))
    else:
        found = json.loads(run([*COMMAND, "--workers", str(args.workers)]))
    shoes = {system["shoes"] for system in found["systems"]}
    if shoes != {SHOES}:
        raise SystemExit(f"the output has {sorted(shoes)} shoes, not {SHOES:,}")
    data = {"command": "baccarat " + " ".join(COMMAND), "output": found}
    write_atomic(DATA, json.dumps(data, indent=1) + "\n")
    print(f"wrote {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
