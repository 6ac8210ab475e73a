"""The products of a card-level bet's plan, cached on disk by the bet's content.

Building a plan and grouping its rows into products (`analyzer.cards.products`) takes
seconds for a bet that reads suits across the coup; the result depends only on the bet's
conditions (its lines' `when`, not their payouts or labels), the tableau and the code that
builds it. It is kept in the user's cache folder (`analyzer.ranks.diskcache`, where compiled
tableaux go too) under a hash of all three, as a NumPy archive read without pickles, with a
checksum of its content; a damaged, edited or foreign file is ignored and rebuilt.
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

__all__ = ["FORMAT", "plan_key", "read_products", "write_products"]

#: Version of the cached layout (a change makes a new key, as a change of the code does).
FORMAT = 2


def plan_key(bet: Bet, rules: Rules) -> str:
    """The content a plan's products depend on, hashed: the conditions of every line in
    order, the tableau, the layout version and the version of the code that builds them
    (the core, rank-level and card-level layers)."""
    whens = [line.when for line in bet.lines]
    content = repr((FORMAT, whens, rules_key(rules), code_version("core", "ranks", "cards")))
    return hashlib.sha256(content.encode()).hexdigest()


def read_products(key: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The cached (keys, lines) of the plan `key`, or None (missing, damaged or foreign)."""
    payload = read_cache_file("plans", key)
    if payload is None:
        return None
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as data:
            keys, lines = data["keys"], data["lines"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error):
        return None
    shaped = keys.ndim == 1 and lines.ndim == 2 and len(keys) == len(lines)
    return (keys, lines) if shaped and keys.dtype == lines.dtype == np.int64 else None


def write_products(key: str, keys: np.ndarray, lines: np.ndarray) -> None:
    """Cache the plan `key`'s products (skipped if the cache cannot be written)."""
    buffer = io.BytesIO()
    np.savez(buffer, keys=keys, lines=lines)
    write_cache_file("plans", key, buffer.getvalue())
