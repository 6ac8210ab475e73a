"""The products of a card-level bet's plan, cached on disk by the bet's content.

Building a plan and grouping its rows into products (`analyzer.cards.products`) takes
seconds for a bet that reads suits across the coup; the result depends only on the bet's
conditions (its lines' `when`, not their payouts or labels), the tableau and the code that
builds it. It is kept in the user's cache folder (`analyzer.ranks.diskcache`, where compiled
tableaux go too) under a hash of all three, as a NumPy archive read without pickles, with a
checksum of its content; a damaged, edited or foreign file is ignored and rebuilt. A plan
grouped otherwise (`analyzer.cards.byrank`: by the rank at a position) is keyed by that too
(`plan_key`'s `variant`) and stores its own arrays (`read_arrays`, `write_arrays`).
"""

from __future__ import annotations

import hashlib
import io
import zipfile
import zlib

import numpy as np

from analyzer.core.bets import Bet
from analyzer.core.rules import Rules
from analyzer.ranks.coupstore import rules_key
from analyzer.ranks.diskcache import code_version, read_cache_file, write_cache_file

__all__ = ["FORMAT", "plan_key", "read_arrays", "read_products", "write_arrays", "write_products"]

#: Version of the cached layout (a change makes a new key, as a change of the code does).
FORMAT = 2


def plan_key(bet: Bet, rules: Rules, *variant: object) -> str:
    """The content a plan's products depend on, hashed: the conditions of every line in
    order, the tableau, the layout version and the version of the code that builds them
    (the core, rank-level and card-level layers); `variant` tells apart other groupings of
    the plan (`analyzer.cards.byrank`: by the rank at a position)."""
    whens = [line.when for line in bet.lines]
    content = repr((FORMAT, whens, rules_key(rules), code_version("core", "ranks", "cards"), *variant))
    return hashlib.sha256(content.encode()).hexdigest()


def read_arrays(key: str, names: tuple[str, ...]) -> dict[str, np.ndarray] | None:
    """The cached int64 arrays `names` of the plan `key`, or None (missing, damaged, foreign
    or another layout); the caller checks their shapes."""
    payload = read_cache_file("plans", key)
    if payload is None:
        return None
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as data:
            found = {name: data[name] for name in names}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error):
        return None
    return found if all(array.dtype == np.int64 for array in found.values()) else None


def write_arrays(key: str, **arrays: np.ndarray) -> None:
    """Cache the plan `key`'s int64 arrays (skipped if the cache cannot be written)."""
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    write_cache_file("plans", key, buffer.getvalue())


def read_products(key: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The cached (keys, lines) of the plan `key`, or None (missing, damaged or foreign)."""
    found = read_arrays(key, ("keys", "lines"))
    if found is None:
        return None
    keys, lines = found["keys"], found["lines"]
    return (keys, lines) if keys.ndim == 1 and lines.ndim == 2 and len(keys) == len(lines) else None


def write_products(key: str, keys: np.ndarray, lines: np.ndarray) -> None:
    """Cache the plan `key`'s products (skipped if the cache cannot be written)."""
    write_arrays(key, keys=keys, lines=lines)
