"""The CLI fuzz test (tests/test_fuzz_cli.py) with a longer profile than `.ci/run`'s.

    python scripts/fuzz_cli.py --examples 5000

Runs pytest on the fuzz test with FUZZ_EXAMPLES set and hypothesis' statistics shown (how
many command lines of each command exited 0 and 2); exits with pytest's code.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=5000, help="command lines to try (default 5000)")
    args = parser.parse_args()
    env = {**os.environ, "FUZZ_EXAMPLES": str(args.examples)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
               "--hypothesis-show-statistics", str(ROOT / "tests" / "test_fuzz_cli.py")]  # fmt: skip
    return subprocess.call(command, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
