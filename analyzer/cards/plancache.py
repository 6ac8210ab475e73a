"""The products of a card-level bet's plan, cached on disk by the bet's content.

Building a plan and grouping its rows into products (`analyzer.cards.products`) takes
seconds for a bet that reads suits across the coup; the result depends only on the bet's
conditions (its lines' `when`, not their payouts or labels) and the tableau. It is kept
in the user's cache directory (`analyzer.ranks.coupstore.cache_dir`, where compiled
tableaux go too) under a hash of that content, as a NumPy archive read without pickles; a
damaged or foreign file is ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
import io
from contextlib import suppress

import numpy as np

from analyzer.core.bets import Bet
from analyzer.core.rules import Rules
from analyzer.ranks.coupstore import cache_dir, rules_key, write_cache_file

__all__ = ["FORMAT", "plan_key", "read_products", "write_products"]

#: Version of the cached layout and of the plans' products (a change makes a new key).
FORMAT = 1


def plan_key(bet: Bet, rules: Rules) -> str:
    """The content a plan's products depend on, hashed: the conditions of every line in
    order, the tableau and the layout version."""
    content = repr((FORMAT, [line.when for line in bet.lines], rules_key(rules)))
    return hashlib.sha256(content.encode()).hexdigest()


def _file_name(key: str) -> str:
    return f"plans-{key[:24]}.npz"


def read_products(key: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The cached (keys, lines) of the plan `key`, or None."""
    with suppress(OSError, ValueError, KeyError, EOFError), np.load(
        cache_dir() / _file_name(key), allow_pickle=False
    ) as data:
        keys, lines = data["keys"], data["lines"]
        shaped = keys.ndim == 1 and lines.ndim == 2 and len(keys) == len(lines)
        if str(data["key"]) == key and keys.dtype == lines.dtype == np.int64 and shaped:
            return keys, lines
    return None


def write_products(key: str, keys: np.ndarray, lines: np.ndarray) -> None:
    """Cache the plan `key`'s products (skipped if the cache cannot be written)."""
    buffer = io.BytesIO()
    np.savez(buffer, key=np.array(key), keys=keys, lines=lines)
    write_cache_file(buffer.getvalue(), _file_name(key))
