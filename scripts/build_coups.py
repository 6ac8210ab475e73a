"""Build the compiled coup classes shipped in analyzer/coups/ for the built-in tableaux.

Run after any change to the compiler or the built-in rules:
    python scripts/build_coups.py
tests/test_coupstore.py checks that every shipped file equals a fresh compile.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.coupstore import encode, shipped_path, shipped_rules
from analyzer.enumerate import compile_fresh


def main() -> None:
    folder = shipped_path(shipped_rules()[0]).parent
    for old in folder.glob("coups-*.bin"):
        old.unlink()
    for rules in shipped_rules():
        path = shipped_path(rules)
        path.write_bytes(encode(compile_fresh(rules)))
        print(f"{path.relative_to(folder.parents[1])}: {rules.name}, {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
