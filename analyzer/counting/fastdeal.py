"""The compiled dealing path of `analyzer.counting.dealer.deal_batch` (numba, the optional
``fast`` extra): the same shuffles, the same coups, outcomes and counts, shoe by shoe in
one compiled loop instead of lockstep numpy passes and a prefix-count table.

`deal_shoes` takes the shuffled shoes (rank indices, as `analyzer.counting.dealer` shuffles
them) and returns each coup's shoe, first card, outcome code (`analyzer.core.outcome.pack_codes`),
extra flag, and cards left and dealt before it; `available()` as the valuation kernel's
(`analyzer.ranks.kernel`: numba importable, ``BACCARAT_KERNEL`` not ``numpy``). Tests check
both dealers give the same batches.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.core.outcome import OUTCOME_RADIX
from analyzer.core.ranks import RANK_POINTS
from analyzer.ranks import kernel
from analyzer.ranks.kernel import available

__all__ = ["available", "deal_shoes", "long_study", "ready", "warm"]

_POINTS = np.array(RANK_POINTS, dtype=np.int64)
_RADIX = np.array(OUTCOME_RADIX, dtype=np.int64)
_compiled: Any = None
_loaded = False  # the dealer called once in this process


def ready() -> bool:
    """Whether the compiled dealer is available and loaded in this process (`warm`)."""
    return _loaded and available()


def warm() -> None:
    """Compile the dealer, or load it from numba's cache, now if it is available (before
    a long study, and before forking workers, which then have it): one deal of one tiny
    shoe, with the argument types of every call."""
    global _loaded
    if available() and not _loaded:
        try:
            deal_shoes(np.zeros((1, 12), dtype=np.int64), 6, np.zeros(1, dtype=np.int64),
                       (np.zeros(10), np.zeros(10), np.zeros((10, 11))), 0, False)  # fmt: skip
        except ImportError:  # found but broken: the numpy dealer
            return
        _loaded = True


def long_study(coups: int, here: bool, workers: int, worker: bool = False) -> bool:
    """Whether a study of about `coups` coups repays loading the compiled kernels (dealer and
    valuation, `kernel.LOAD_WORTH` coups or so each load; any with ``BACCARAT_KERNEL=always``):
    loaded now when this process works on it (`here`: its own forked workers inherit them),
    else by each of the executor's `workers` on its share (`analyzer.counting.simulation`'s
    jobs say so); a `worker` loads them."""
    share = coups >= kernel.LOAD_WORTH * (1 if here else workers)
    long = kernel.available() and (share or kernel.always() or worker)
    if long and (here or worker):
        warm()
        kernel.warm()
    return long


def _dealer() -> Any:
    global _compiled
    if _compiled is None:
        numba = kernel.import_numba()
        _compiled = kernel.compiled(numba.njit(cache=True, nogil=True, boundscheck=False)(_deal))
    return _compiled


def deal_shoes(
    cards: np.ndarray,
    size: int,
    start: np.ndarray,
    tables: tuple[np.ndarray, np.ndarray, np.ndarray],
    cut_card: int,
    extra_coup: bool,
) -> tuple[np.ndarray, ...]:
    """Every coup of the shuffled shoes `cards` (S, size + 6) rank indices (6 padding
    cards), each shoe's first card after the burn `start` (S,), by the rules' tables
    (natural (10,), player draws (10,), banker draws (10, 11): `analyzer.counting.dealer`'s):
    (shoe, at, code, extra, left (C, 13), dealt (C, 13)), shoe by shoe in dealing order,
    and burned (S, 13) int16, the cards before `start`."""
    shoes = cards.shape[0]
    most = shoes * (size // 4 + 1)  # a coup takes at least 4 cards
    shoe = np.empty(most, dtype=np.int64)
    at = np.empty(most, dtype=np.int64)
    code = np.empty(most, dtype=np.int64)
    extra = np.empty(most, dtype=np.bool_)
    left = np.empty((most, 13), dtype=np.int64)
    dealt = np.empty((most, 13), dtype=np.int64)
    burned = np.empty((shoes, 13), dtype=np.int16)
    natural, player, banker = (np.ascontiguousarray(t, dtype=np.int64) for t in tables)
    coups = _dealer()(
        np.ascontiguousarray(cards, dtype=np.int64), size, np.ascontiguousarray(start, dtype=np.int64),
        natural, player, banker, _POINTS, _RADIX, cut_card, extra_coup, shoe, at, code, extra, left,
        dealt, burned,
    )  # fmt: skip
    return shoe[:coups], at[:coups], code[:coups], extra[:coups], left[:coups], dealt[:coups], burned


def _deal(
    cards: Any, size: int, start: Any, natural_on: Any, player_on: Any, banker_on: Any, points: Any,
    radix: Any, cut_card: int, extra_coup: bool, shoe: Any, at: Any, code: Any, extra: Any,
    left: Any, dealt: Any, burned: Any,
) -> int:  # fmt: skip
    """The dealing loop, in the subset of Python numba compiles; returns the coups."""
    stop = size - cut_card  # a coup whose cards go past index `stop` brings out the cut card
    total = np.zeros(13, dtype=np.int64)
    seen = np.zeros(13, dtype=np.int64)
    taken = np.zeros(13, dtype=np.int64)
    coup = 0
    for s in range(cards.shape[0]):
        total[:] = 0
        for k in range(size):
            total[cards[s, k]] += 1
        seen[:] = 0  # the cards before `pos`, burned ones included
        for k in range(start[s]):
            seen[cards[s, k]] += 1
        for r in range(13):
            burned[s, r] = seen[r]
        taken[:] = 0  # the cards dealt face up in earlier coups
        pos, last = start[s], False
        while size - pos >= 6:
            c0, c1, c2, c3 = cards[s, pos], cards[s, pos + 1], cards[s, pos + 2], cards[s, pos + 3]
            p0 = (points[c0] + points[c2]) % 10
            b0 = (points[c1] + points[c3]) % 10
            natural = natural_on[p0] | natural_on[b0]
            pdraw = 1 if (natural == 0 and player_on[p0] != 0) else 0
            third = points[cards[s, pos + 4]] if pdraw else 10
            bdraw = 1 if (natural == 0 and banker_on[b0, third] != 0) else 0
            bcard = points[cards[s, pos + 4 + pdraw]]
            p = (p0 + points[cards[s, pos + 4]]) % 10 if pdraw else p0
            b = (b0 + bcard) % 10 if bdraw else b0
            pairs = (1 if c0 == c2 else 0, 1 if c1 == c3 else 0)
            digits = (p0, b0, p, b, pdraw, bdraw, 1 if natural else 0, pairs[0], pairs[1])
            value = 0
            for i in range(9):
                value = value * radix[i] + digits[i]
            shoe[coup], at[coup], code[coup], extra[coup] = s, pos, value, last
            for r in range(13):
                left[coup, r] = total[r] - seen[r]
                dealt[coup, r] = taken[r]
            coup += 1
            used = 4 + pdraw + bdraw
            for k in range(pos, pos + used):
                seen[cards[s, k]] += 1
                taken[cards[s, k]] += 1
            pos += used
            cut_out = pos > stop
            if last or (cut_out and not extra_coup):
                break
            last = cut_out
    return coup
