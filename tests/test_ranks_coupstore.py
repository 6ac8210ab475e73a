"""Stored coup classes: shipped files equal a fresh compile, the user cache is keyed by the
tableau's content and the code's version, damaged or edited files are recompiled; the
plain-integer evaluation agrees with the plain enumerator; `odds` equals the full
distribution's counts."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.analyses.odds import Odds, odds
from analyzer.core.rules import RULES, STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks import coupstore, diskcache
from analyzer.ranks.compiler import compile_fresh
from analyzer.ranks.enumeration import class_distribution, compile_rules, distribution, winner_weights
from analyzer.ranks.plain import plain_distribution


def _same_classes(rules: Rules) -> None:
    stored, fresh = compile_rules(rules), compile_fresh(rules)
    assert stored.outcomes == fresh.outcomes
    for name in ("basis", "basis_zero_kind", "basis_cards", "entry_outcome", "entry_basis", "entry_coef"):
        assert np.array_equal(getattr(stored, name), getattr(fresh, name)), name


@pytest.mark.parametrize("rules", coupstore.shipped_rules(), ids=lambda r: r.name)
def test_shipped_files_equal_a_fresh_compile(rules: Rules) -> None:
    assert coupstore.shipped_path(rules).exists()
    assert coupstore.decode_file(coupstore.shipped_path(rules), rules) is not None
    _same_classes(rules)


def test_every_builtin_tableau_ships() -> None:
    keys = {coupstore.rules_key(r) for r in coupstore.shipped_rules()}
    assert {coupstore.rules_key(r) for r in RULES.values()} <= keys


def test_key_is_the_content_not_the_name() -> None:
    renamed = Rules("another", STANDARD.natural, STANDARD.player_draws, STANDARD.banker_draws_player_stood,
                    STANDARD.banker_draws)  # fmt: skip
    assert coupstore.rules_key(renamed) == coupstore.rules_key(STANDARD)
    assert coupstore.rules_key(STANDARD.with_player(6, True)) != coupstore.rules_key(STANDARD)


def test_user_rules_are_cached_by_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path))
    rules = STANDARD.with_player(6, True).with_player(0, False)
    coupstore._stored.cache_clear()
    first = coupstore.stored_classes(rules)
    files = list(tmp_path.glob("coups-*.bin"))
    assert files == [diskcache.cache_path("coups", coupstore.cache_key(rules))]
    coupstore._stored.cache_clear()
    again = coupstore.stored_classes(rules)  # read back from the cache
    assert again is not first and again.outcomes == first.outcomes
    shoe = Shoe.from_counts([3, 1, 2, 0, 5, 4, 3, 2, 1, 6, 2, 0, 3])
    assert distribution(shoe, rules).weights == plain_distribution(shoe, rules).weights


def test_damaged_edited_or_foreign_cache_files_are_recompiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A damaged cache file is replaced by the right one when the classes are read again
    (`class_distribution`: `distribution` keeps its last few results)."""
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path))
    rules = STANDARD.with_player(7, True)
    path = diskcache.cache_path("coups", coupstore.cache_key(rules))
    shoe = Shoe.from_counts([2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2])
    expected = plain_distribution(shoe, rules).weights
    classes = compile_fresh(rules)
    right = coupstore.encode(classes)
    coupstore._stored.cache_clear()
    class_distribution(shoe, rules)  # caches the right file
    good = path.read_bytes()
    header = good[: good.index(b"\n") + 1]
    # the same shapes, other numbers: what the checksum alone can tell from the right file
    coefficients = np.where(classes.entry_coef == 1, 2, classes.entry_coef)
    edited = coupstore.encode(dataclasses.replace(classes, entry_coef=coefficients))
    assert len(edited) > 1000 and edited != right
    foreign = coupstore.shipped_path(STANDARD).read_bytes()
    # garbage, the right classes without a checksum (the old layout), truncated, edited, foreign
    for damaged in (b"garbage", right, good[:-100], header + edited, header + foreign):
        path.write_bytes(damaged)
        coupstore._stored.cache_clear()
        assert class_distribution(shoe, rules).weights == expected
        assert path.read_bytes() == good  # replaced by the right file
    # a right checksum over another tableau's classes
    diskcache.write_cache_file("coups", coupstore.cache_key(rules), foreign)
    coupstore._stored.cache_clear()
    assert class_distribution(shoe, rules).weights == expected and path.read_bytes() == good


def test_the_key_holds_the_code_version(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = STANDARD.with_player(7, True)
    before = coupstore.cache_key(rules)
    monkeypatch.setattr(diskcache, "code_version", lambda *packages: "0.1.0-other")
    assert coupstore.cache_key(rules) != before


def test_cache_keeps_a_bounded_number_of_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path))
    monkeypatch.setattr(diskcache, "CACHE_FILES", 2)
    coupstore._stored.cache_clear()
    for total in (0, 1, 2):
        coupstore.stored_classes(STANDARD.with_player(6, True).with_player(total, False))
    assert len(list(tmp_path.glob("coups-*.bin"))) == 2


shoes = st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


@settings(max_examples=30, deadline=None)
@given(shoes)
def test_odds_equals_the_full_distribution(counts: list[int]) -> None:
    shoe = Shoe.from_counts(counts)
    for rules in RULES.values():
        assert odds(shoe, rules) == Odds.from_distribution(distribution(shoe, rules))
        _, total = winner_weights(shoe, rules)
        assert total == distribution(shoe, rules).total


@pytest.mark.parametrize("shoe", [Shoe.infinite(), Shoe.decks(1), Shoe.decks(10**6)], ids=str)
def test_odds_equals_the_full_distribution_at_the_extremes(shoe: Shoe) -> None:
    assert odds(shoe) == Odds.from_distribution(distribution(shoe))


COLD = [
    ["odds", "--decks", "8"],
    ["odds", "--format", "json"],
    ["edges", "--decks", "8"],  # every built-in bet, card-level ones included
    ["edges", "--decks", "6", "--format", "json", "--details"],
    ["punto-table", "--decks", "8"],
]


@pytest.mark.parametrize("command", COLD)
def test_cold_commands_load_no_heavy_modules(command: list[str]) -> None:
    """A cold `odds` or `edges` on full decks evaluates the shipped polynomials (analyzer.ranks.polynomials):
    no numpy, networkx, matplotlib, tqdm or sympy (what made the cold start slower than a
    plain enumerator), no design modules, and not the file writer (pathlib and tempfile: 9 ms,
    0.10 of the plain enumerator's process, when every command loaded it to check --out)."""
    import subprocess
    import sys

    code = (
        "import io, sys, contextlib\n"
        "from analyzer.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main({command!r}) == 0\n"
        "heavy = {'numpy', 'networkx', 'matplotlib', 'tqdm', 'sympy', 'analyzer.core.files',\n"
        "         'analyzer.analyses.design'} & set(sys.modules)\n"
        "print(sorted(heavy))\n"
    )
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
