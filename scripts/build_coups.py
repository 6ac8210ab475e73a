"""Build the files shipped in analyzer/ranks/coups/ for the built-in tableaux and bets: the
compiled coup classes, each outcome's weight polynomial in the number of decks, and the
line-weight polynomials of the built-in bets, card-level ones included (analyzer.ranks.polynomials),
and parsed copies of the built-in catalogues, their bets read and checked (so a cold command
need not load tomllib nor check the built-in bets again).

Run after any change to the compiler, the built-in rules or the built-in bets and tables:
    python scripts/build_coups.py
tests/test_ranks_coupstore.py checks that every shipped coup-class file equals a fresh compile;
tests/test_ranks_polynomials.py checks the polynomials against the direct enumerations.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.analyses.shipped import encode_bet_polynomials, encode_outcome_polynomials  # noqa: E402
from analyzer.core.files import write_atomic  # noqa: E402
from analyzer.core.rules import RULES  # noqa: E402
from analyzer.ranks import polynomials as deckpoly  # noqa: E402
from analyzer.ranks.compiler import compile_fresh  # noqa: E402
from analyzer.ranks.coupstore import encode, shipped_path, shipped_rules  # noqa: E402


def main() -> None:
    folder = shipped_path(shipped_rules()[0]).parent
    for old in (*folder.glob("coups-*.bin"), *folder.glob("polys-*.bin")):
        old.unlink()
    for rules in shipped_rules():
        path = shipped_path(rules)
        write_atomic(path, encode(compile_fresh(rules)))
        print(f"{path.relative_to(ROOT)}: {rules.name}, {path.stat().st_size:,} bytes")
    deckpoly.outcome_polynomials.cache_clear()
    for rules in shipped_rules():
        path = deckpoly.outcome_polynomials_path(rules)
        write_atomic(path, encode_outcome_polynomials(rules))
        print(f"{path.relative_to(ROOT)}: {rules.name}, {path.stat().st_size:,} bytes")
    import json

    from analyzer.core.catalogue import ALL_BETS, PARSED, parsed_copies

    path = ROOT / "analyzer" / "core" / PARSED
    write_atomic(path, json.dumps(parsed_copies(), indent=1) + "\n")
    print(f"{path.relative_to(ROOT)}: built-in catalogues parsed, {path.stat().st_size:,} bytes")

    path = Path(deckpoly.BET_FILE)
    write_atomic(path, encode_bet_polynomials(list(ALL_BETS.values()), list(RULES.values())))
    print(f"{path.relative_to(ROOT)}: {len(ALL_BETS)} bets, {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
