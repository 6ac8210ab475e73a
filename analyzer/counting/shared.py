"""Counting studies run once for several callers: inside `shared_studies()`, the results of
`analyzer.counting.simulation.evaluate_systems` called under `keeping()` are kept, each
system's under what determines it, and a later call whose every system is kept gets them
(once each) instead of dealing and valuing the shoes again.

A system's result depends only on the system, its bet and cover, the procedure, rules, seed,
first shoe, number of shoes and chunk, and whether it holds exact sums by count (its key),
never on the other systems of its call (the shoes and
each bet's values are the same for all of them): so two studies of the same shoes, run
together once, give each its results as if run alone; so do systems of a farther cut card
(`evaluate_systems`' `cut_cards`: each shoe dealt to it is a prefix of the shoe dealt).
`baccarat report` runs the counting report's systems at cut cards 14 and 16 with the par
sheets' first study (`analyzer.counting.par.first_study`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager

from analyzer.counting.summary import SystemEvaluation

__all__ = ["keep", "keeping", "kept", "shared_studies"]

#: key -> result; None: outside `shared_studies`
_kept: dict[Hashable, SystemEvaluation] | None = None
_keeping = False  # inside `keeping`: results kept


@contextmanager
def shared_studies() -> Iterator[None]:
    """Inside: results kept under `keeping` given again (see the module doc); forgotten on leaving."""
    global _kept
    previous, _kept = _kept, {}
    try:
        yield
    finally:
        _kept = previous


@contextmanager
def keeping() -> Iterator[None]:
    """Inside (and inside `shared_studies`): the studies' results are kept for later calls."""
    global _keeping
    previous, _keeping = _keeping, True
    try:
        yield
    finally:
        _keeping = previous


def kept(keys: Sequence[Hashable]) -> list[SystemEvaluation] | None:
    """The kept results of every key, given once (then forgotten: the memory is the caller's);
    None unless every one is kept (and each asked once)."""
    if _kept is None or len(set(keys)) < len(keys) or any(key not in _kept for key in keys):
        return None
    return [_kept.pop(key) for key in keys]


def keep(keys: Sequence[Hashable], results: Sequence[SystemEvaluation]) -> None:
    """Keep `results` under `keys`, inside `shared_studies` and `keeping` only: not copied,
    so the caller under `keeping` leaves them alone (`baccarat report` drops them)."""
    if _kept is not None and _keeping:
        _kept.update(zip(keys, results, strict=True))
