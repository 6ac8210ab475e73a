"""Shoes dealt as a casino deals them, with the exact value of every coup and each counting
system's count, and the evaluation of counting systems over many shoes.

Procedure (brief): shuffle; burn (turn the first card face up, burn as many cards face
down as its value, ten-valued = 10); deal coups until the cut card, placed `cut_card` cards
from the end, comes out; finish that coup and, optionally, play one more. A coup is only
started with at least 6 cards left. Counters see every card dealt and, by default, the
face-up burn card (`burn_seen`: none, first or all of the burned cards); the exact
expectation of each coup is for the cards actually left in the shoe.

Each shoe is shuffled from (seed, shoe index) alone (`analyzer.counting.dealer`), and shoes are
processed in fixed chunks whose fixed-size summaries (`analyzer.counting.summary`) are merged in
order, so results are identical for any number of workers and any executor.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import accumulate, pairwise
from pathlib import Path

import numpy as np

from analyzer.core import progress
from analyzer.core.bets import Bet
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.files import write_temporary
from analyzer.core.outcome import OUTCOME_CODES, Outcome, unpack_outcomes
from analyzer.core.ranks import RANK_POINTS
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import BY_COUNTS, BY_N_DECKS, Shoe
from analyzer.counting import fastdeal, shared
from analyzer.counting.cover import Cover
from analyzer.counting.dealer import CoupBatch, SuitedBatch, deal_batch, shuffled_cards
from analyzer.counting.executors import forked, pool_of
from analyzer.counting.scheduling import in_order, job_sizes
from analyzer.counting.summary import (
    ColumnFigures,
    ExactSum,
    SystemEvaluation,
    add_bets,
    add_cover,
    binned_sums,
    count_bins,
    distinct_values,
)
from analyzer.counting.systems import CountSystem
from analyzer.ranks.fast import FastEvaluator, card_totals

__all__ = [
    "Procedure",
    "ShoeRecord",
    "SystemEvaluation",
    "View",
    "deal_and_value",
    "deal_cards",
    "deal_chunk",
    "deal_coup",
    "deal_shoe",
    "evaluate_systems",
    "evaluate_views",
    "net_numerators",
    "shuffled",
]

CHUNK = 200  # shoes per unit of work
BURN_SEEN = ("none", "first", "all")
MAX_SHOES = 10**8
MAX_CARDS = 52 * 1000


@dataclass(frozen=True)
class Procedure:
    """How a shoe is dealt and seen: its composition, the cut card's depth (cards behind it;
    the default 7 is this tool's, published studies often use 14), the last-coup rule,
    whether a card is burned, and which burned cards the counter sees."""

    shoe: Shoe = field(default_factory=lambda: Shoe.decks(8))
    cut_card: int = 7  # cards behind the cut card ("in front of the 7th card from the end")
    extra_coup: bool = False  # play one more coup after the cut card came out
    burn: bool = True
    burn_seen: str = "first"  # none, the face-up first card, or all of the burned cards

    def __post_init__(self) -> None:
        if self.burn_seen not in BURN_SEEN:
            raise AnalyzerError(f"burn seen {quoted(self.burn_seen)}: use one of {', '.join(BURN_SEEN)}")
        if self.shoe.counts is None:
            raise AnalyzerError(f"shoe simulation needs a finite shoe: use {BY_N_DECKS} or {BY_COUNTS}")
        if self.shoe.size > MAX_CARDS:
            raise AnalyzerError(f"shoe of {self.shoe.size:,} cards: simulate at most {MAX_CARDS:,} cards")
        if (
            isinstance(self.cut_card, bool)
            or not isinstance(self.cut_card, int)
            or not (0 <= self.cut_card <= self.shoe.size - 6)
        ):
            raise AnalyzerError(
                f"cut card {quoted(self.cut_card)}: "
                f"use an integer from 0 to {self.shoe.size - 6} (cards behind it)"
            )


def deal_coup(cards: Sequence[int], pos: int, rules: Rules) -> tuple[Outcome, int]:
    """Play one coup from `cards` (rank indices) starting at `pos`; returns it and cards used."""
    p1, b1, p2, b2 = cards[pos : pos + 4]
    p0 = (RANK_POINTS[p1] + RANK_POINTS[p2]) % 10
    b0 = (RANK_POINTS[b1] + RANK_POINTS[b2]) % 10
    p, b, used, pc, bc = p0, b0, 4, 2, 2
    natural = rules.is_natural(p0) or rules.is_natural(b0)
    if not natural:
        third = None
        if rules.player_draws_on(p0):
            third = RANK_POINTS[cards[pos + used]]
            p, used, pc = (p + third) % 10, used + 1, 3
        if rules.banker_draws_on(b0, third):
            b, used, bc = (b + RANK_POINTS[cards[pos + used]]) % 10, used + 1, 3
    return Outcome(p0, b0, p, b, pc, bc, natural, p1 == p2, b1 == b2), used


@dataclass(frozen=True)
class ShoeRecord:
    """Every coup of one shoe: cards left (C, 13), cards seen before it (C, 13), outcomes."""

    left: np.ndarray
    seen: np.ndarray
    outcomes: tuple[Outcome, ...]


def shuffled(procedure: Procedure, seed: int, index: int) -> list[int]:
    """Shoe number `index` of a run seeded with `seed`, shuffled: rank indices, top card first."""
    return [int(card) for card in shuffled_cards(procedure.shoe.counts or (), seed, index)]


def deal_shoe(procedure: Procedure, rules: Rules, seed: int, index: int) -> ShoeRecord:
    """Shuffle and deal shoe number `index` of a run seeded with `seed`."""
    return deal_cards(shuffled(procedure, seed, index), procedure, rules)


def deal_cards(cards: Sequence[int], procedure: Procedure, rules: Rules) -> ShoeRecord:
    """Deal a stacked shoe (rank indices, top card first) by the casino procedure."""
    counts = [0] * 13
    for rank in cards:
        counts[rank] += 1
    seen = [0] * 13
    pos = 0
    if procedure.burn:
        first = cards[0]
        seen[first] += 1
        pos = 1 + (RANK_POINTS[first] or 10)
    left = counts
    for rank in cards[:pos]:
        left[rank] -= 1
    stop = len(cards) - procedure.cut_card  # index of the first card behind the cut card
    lefts, seens, outcomes = [], [], []
    last = False
    while len(cards) - pos >= 6:
        lefts.append(list(left))
        seens.append(list(seen))
        outcome, used = deal_coup(cards, pos, rules)
        outcomes.append(outcome)
        for rank in cards[pos : pos + used]:
            left[rank] -= 1
            seen[rank] += 1
        cut_out = pos + used > stop
        pos += used
        if last or (cut_out and not procedure.extra_coup):
            break
        last = cut_out

    def table(rows: list[list[int]]) -> np.ndarray:
        return np.array(rows, dtype=np.int64).reshape(-1, 13)

    return ShoeRecord(table(lefts), table(seens), tuple(outcomes))


@dataclass(frozen=True)
class _Job:
    """One chunk of a study: what a worker needs, the compiled evaluator included: as an
    object in this process, as the path of its pickle for a local process pool (jobs stay
    small), as pickled bytes for other executors; workers cache it by `token` (forked ones
    have it already: None here)."""

    token: str
    evaluator: FastEvaluator | bytes | str | None  # None: no rank-level bet
    systems: tuple[CountSystem, ...]
    columns: tuple[int, ...]  # each system's bet column: the evaluator's bets, then `cards`
    procedure: Procedure
    rules: Rules
    seed: int
    shoes: range
    cards: tuple[Bet, ...] = ()  # card-level bets, valued on suited shoes (analyzer.counting.suited)
    covers: tuple[tuple[Cover, int] | None, ...] = ()  # each system's cover and its bet's column
    kernels: bool = False  # a long study: load the compiled kernels (when installed) first
    exact_bins: tuple[bool, ...] = ()  # each system: keep the exact sums by count (by_count_exact)
    chunk: int = 0  # shoes per chunk, the job's shoes cut from their start (0: one chunk)
    cut_cards: tuple[int, ...] = ()  # each system's cut card (`evaluate_systems`); none: the procedure's


_LOCAL = threading.local()  # evaluators hold work buffers: one copy per thread
#: Evaluators a thread keeps, the least recently used dropped first: a study's token is new
#: on a process pool (its pickle file), so a worker holding four kept three finished studies'
#: (`baccarat report`'s largest worker: about 350 MB with four, 265 with one).
_KEPT_EVALUATORS = 2


def _keep(cache: dict[str, FastEvaluator | None], token: str, evaluator: FastEvaluator | None) -> None:
    """`evaluator` kept in `cache` under `token` as the most recently used."""
    cache.pop(token, None)
    while len(cache) >= _KEPT_EVALUATORS:
        del cache[next(iter(cache))]
    cache[token] = evaluator


def _evaluator(job: _Job) -> FastEvaluator | None:
    """The job's evaluator, unpickled at most once per process (per thread) while it is
    among the `_KEPT_EVALUATORS` last used."""
    cache: dict[str, FastEvaluator | None] = _LOCAL.__dict__.setdefault("evaluators", {})
    if job.token in cache:
        found = cache[job.token]
    else:
        value = job.evaluator
        if isinstance(value, str):
            value = Path(value).read_bytes()
        found = value if value is None or isinstance(value, FastEvaluator) else pickle.loads(value)
    _keep(cache, job.token, found)
    return found


_LINES: dict[Bet, np.ndarray] = {}
_OUTCOMES: dict[int, Outcome] = {}  # each outcome code seen, unpacked once per process
_UNKNOWN = -1


def _rank_lines(bet: Bet, codes: np.ndarray) -> np.ndarray:
    """The line index settling rank-level `bet` on each outcome code; each outcome is
    settled once per process and kept in a table by code."""
    table = _LINES.get(bet)
    if table is None:
        # int16 where the lines fit (every bet of the catalogues): 0.6 MB a bet, not 2.6 MB
        dtype = np.int16 if bet.no_line < np.iinfo(np.int16).max else np.int64
        table = _LINES[bet] = np.full(OUTCOME_CODES, _UNKNOWN, dtype=dtype)
    missing = np.unique(codes[table[codes] == _UNKNOWN]).tolist()
    new = [code for code in missing if code not in _OUTCOMES]
    _OUTCOMES.update(zip(new, unpack_outcomes(np.array(new, dtype=np.int64)), strict=True))
    for code in missing:  # the table is the cache
        table[code] = bet.uncached_line_index(_OUTCOMES[code])
    lines: np.ndarray = table[codes]
    return lines


def net_numerators(bet: Bet, denominator: int, batch: CoupBatch, coups: np.ndarray) -> np.ndarray:
    """Net result of `bet` on the chosen `coups` (a mask or indices) of `batch`, times
    `denominator` (int64): each coup settled to a line on its outcome (on its cards for a
    card-level bet: the batch is then a `SuitedBatch`), the line's net read off `Bet.nets`."""
    if bet.card_level:
        from analyzer.counting.suited import card_lines

        assert isinstance(batch, SuitedBatch)
        lines = card_lines(bet, batch, coups)
    else:
        lines = _rank_lines(bet, batch.outcome[coups])
    nets: np.ndarray = np.array([int(net * denominator) for net in bet.nets], dtype=np.int64)[lines]
    return nets


def deal_chunk(
    procedure: Procedure, rules: Rules, seed: int, shoes: range, suited: bool = False
) -> CoupBatch:
    """Shoes `shoes` of a run seeded with `seed` dealt by `procedure`; with `suited`, dealt
    as card types (a `SuitedBatch`; every card a spade when the shoe's suits are unknown)."""
    counts = procedure.shoe.counts or ()
    if suited:
        from analyzer.cards.engine import shoe_types

        counts = shoe_types(procedure.shoe)
    return deal_batch(counts, rules, seed, shoes, procedure.cut_card, procedure.extra_coup, procedure.burn)


def deal_and_value(job: _Job) -> tuple[CoupBatch, np.ndarray, np.ndarray]:
    """The job's shoes dealt, with the exact expectation of every coup: (batch, numerators
    (C, bets), totals (C,)); bet i's expectation is numerators[:, i] / (d_i * totals)."""
    fastdeal.long_study(0, True, 1, job.kernels)  # a worker of a long study loads the kernels, once
    batch = deal_chunk(job.procedure, job.rules, job.seed, job.shoes, suited=bool(job.cards))
    evaluator = _evaluator(job)
    if job.cards:  # card-level bets: valued card by card on the suited shoes
        from analyzer.counting.suited import value_suited

        assert isinstance(batch, SuitedBatch)
        return (batch, *value_suited(job.cards, evaluator, batch, job.rules))
    assert evaluator is not None  # a job without card-level bets has rank-level ones
    numerators, totals = evaluator.expectations(batch.left)
    return batch, numerators, totals


def _columns(job: _Job, evaluator: FastEvaluator | None) -> tuple[tuple[Bet, ...], tuple[int, ...]]:
    """The job's bets and their denominators in column order: rank-level, then card-level."""
    bets, denominators = (evaluator.bets, evaluator.denominators) if evaluator else ((), ())
    if job.cards:
        from analyzer.cards.batch import card_evaluator

        cards = card_evaluator(job.cards, job.rules)
        bets, denominators = bets + cards.bets, denominators + cards.denominators
    return bets, denominators


def _running(system: CountSystem, batch: CoupBatch, burn_seen: str) -> np.ndarray:
    """The system's running count before each coup of `batch`, from the cards seen
    (`CoupBatch.seen`)."""
    running: np.ndarray = system.initial + batch.seen_total(np.array(system.tags, dtype=np.int64), burn_seen)
    return running


_Dealt = tuple[CoupBatch, np.ndarray, np.ndarray, np.ndarray]  # batch, numerators, totals, cards left


def _dealt_to(cut_card: int, dealt: _Dealt) -> _Dealt:
    """The coups of `dealt` (dealt with a cut card nearer the end, no extra coup) that the
    same shoes dealt with `cut_card` have: each shoe's first and those with at least
    `cut_card` cards left (the coup before brought out no such cut card), with their values."""
    batch, numerators, totals, cards_left = dealt
    first = np.ones(len(batch.shoe), dtype=bool)
    first[1:] = batch.shoe[1:] != batch.shoe[:-1]
    rows = np.flatnonzero(first | (cards_left >= cut_card))
    return batch.coups(rows), numerators[rows], totals[rows], cards_left[rows]


def _evaluate_chunk(job: _Job) -> list[SystemEvaluation]:
    """Summaries of every system over the job's shoes (each system's cut card's coups)."""
    bets, denominators = _columns(job, _evaluator(job))
    batch, numerators, totals = deal_and_value(job)
    dealt = {job.procedure.cut_card: (batch, numerators, totals, card_totals(batch.left))}
    columns: dict[tuple[int, int], ColumnFigures] = {}  # once for the systems on the same coups and bet
    results = []
    for place, (system, column) in enumerate(zip(job.systems, job.columns, strict=True)):
        cut = job.cut_cards[place] if job.cut_cards else job.procedure.cut_card
        if cut not in dealt:
            dealt[cut] = _dealt_to(cut, dealt[job.procedure.cut_card])
        batch, numerators, totals, cards_left = dealt[cut]
        bet, denominator = bets[column], denominators[column]
        result = SystemEvaluation(system, bet)
        num = numerators[:, column]
        if (column, cut) not in columns:
            columns[column, cut] = ColumnFigures.of(
                num, totals, denominator, cards_left, totals.astype(np.float64), batch.shoe, batch.shoes
            )
        figures = columns[column, cut]
        ev = figures.ev  # statistics only
        top, under = system.count_parts(_running(system, batch, job.procedure.burn_seen), cards_left)
        fires = system.fires_on(top, under)
        net = net_numerators(bet, denominator, batch, fires)
        result.shoes, result.coups = batch.shoes, len(num)
        add_bets(result, batch.shoe[fires], num[fires], totals[fires], denominator, batch.shoes,
                  cards_left[fires])  # fmt: skip
        result.positive = figures.positive
        for key, exact in (("all", figures.every), ("perfect", figures.perfect)):
            result.sums[key] = ExactSum(exact.denominator, dict(exact.by_total))
        result.realized_triggered = Fraction(int(net.sum()), denominator)
        result.realized_squares = Fraction(int((net * net).sum()), denominator * denominator)
        realized = np.bincount(batch.shoe[fires], weights=net / denominator, minlength=batch.shoes)
        result.shoe_moments["realized"] = [float(realized.sum()), float((realized * realized).sum())]
        result.shoe_moments["perfect"] = list(figures.perfect_moments)
        count = top / under
        result.moments = [
            float(count.sum()), figures.ev_sums[0], float((count * count).sum()),
            figures.ev_sums[1], float((count * ev).sum()),
        ]  # fmt: skip
        floor = top // under  # the floor of the count, exactly
        result.by_count = count_bins(floor, ev)
        if job.exact_bins[place]:
            keys, index = distinct_values(floor)
            result.by_count_exact = binned_sums(keys, index, num, totals, denominator, cards_left)
        entry = job.covers[place] if job.covers else None
        if entry is not None:
            cover, at = entry
            add_cover(result, cover, numerators[fires, at], totals[fires], denominators[at],
                       batch.shoe[fires], ev[fires], batch.shoes)  # fmt: skip
        results.append(result)
    return results


def _evaluate_job(job: _Job) -> list[list[SystemEvaluation]]:
    """Summaries of every system over each chunk of the job's shoes (chunks of `_Job.chunk`
    shoes), in order. The first chunk's carry the exact sums of all of them (summed here:
    fewer and smaller results shipped and merged), the others' their counts and floats."""
    size = job.chunk or len(job.shoes)
    parts = [
        _evaluate_chunk(replace(job, shoes=job.shoes[at : at + size]))
        for at in range(0, len(job.shoes), size)
    ]
    head = parts[0]
    for part in parts[1:]:
        for total, result in zip(head, part, strict=True):
            total.merge_exact(result)
    return [head, *([result.without_exact() for result in part] for part in parts[1:])]


@dataclass(frozen=True)
class View:
    """One way to bet a dealt chunk: `system` on the evaluator's bet `column`, counting the
    burned cards it sees (`burn_seen`), betting the coup after the cut card's coup or not
    (`extra_coup`: the procedure must deal it)."""

    system: CountSystem
    column: int
    burn_seen: str = "first"
    extra_coup: bool = False


def evaluate_views(
    views: Sequence[View],
    evaluator: FastEvaluator,
    procedure: Procedure,
    rules: Rules,
    seed: int,
    shoes: range,
) -> list[SystemEvaluation]:
    """Deal shoes `shoes` of a run seeded with `seed` once by `procedure` and judge every
    view on the coups it bets, as `evaluate_systems` does: each result holds the shoes,
    coups, bets, their exact expected sum (`sums["triggered"]`) and the moments of the
    expected win per shoe (`shoe_moments["expected"]`); the other figures stay zero. Only
    the coups some view bets on are valued, once whatever the number of views."""
    for view in views:
        if view.burn_seen not in BURN_SEEN:
            raise AnalyzerError(f"burn seen {quoted(view.burn_seen)}: use one of {', '.join(BURN_SEEN)}")
        if view.extra_coup and not procedure.extra_coup:
            raise AnalyzerError("a view betting the extra coup needs a procedure that deals it")
    batch = deal_chunk(procedure, rules, seed, shoes)
    cards_left = card_totals(batch.left)
    running: dict[tuple[str, int, tuple[int, ...]], np.ndarray] = {}
    masks = []
    for view in views:
        system = view.system
        key = (view.burn_seen, system.initial, system.tags)
        if key not in running:
            running[key] = _running(system, batch, view.burn_seen)
        fires = system.fires(running[key], cards_left)
        masks.append(fires if view.extra_coup else fires & ~batch.extra)
    rows = np.flatnonzero(np.logical_or.reduce(masks)) if masks else np.zeros(0, dtype=np.int64)
    numerators, totals = evaluator.expectations(batch.left[rows])
    shoe, extras = batch.shoe[rows], int(batch.extra.sum())
    results = []
    for view, mask in zip(views, masks, strict=True):
        result = SystemEvaluation(view.system, evaluator.bets[view.column])
        result.shoes = batch.shoes
        result.coups = len(batch.shoe) - (0 if view.extra_coup else extras)
        picked = mask[rows]
        denominator = evaluator.denominators[view.column]
        num = numerators[picked, view.column]
        add_bets(result, shoe[picked], num, totals[picked], denominator, batch.shoes)
        results.append(result)
    return results


def evaluate_systems(
    systems: Sequence[CountSystem],
    bets: Sequence[Bet],
    procedure: Procedure,
    rules: Rules = STANDARD,
    shoes: int = 1000,
    seed: int = 1,
    workers: int = 1,
    executor: Executor | None = None,
    chunk: int = CHUNK,
    covers: Sequence[Cover | None] = (),
    start: int = 0,
    exact_bins: bool | Sequence[bool] = True,
    cut_cards: Sequence[int] = (),
) -> list[SystemEvaluation]:
    """Judge each system on its bet (`bets[i]` for `systems[i]`) over `shoes` simulated shoes
    (shoes number `start` to `start` + `shoes` - 1 of the run seeded with `seed`; without
    `exact_bins` (for all, or per system), the results keep no exact sums by count:
    `by_count_values` is then refused; inside `counting.shared.shared_studies`, results kept);
    with `covers`, system i also stakes `covers[i]` (a rank-level bet, `counting.cover`) on
    every coup it bets. With `cut_cards`, system i is judged on the shoes dealt with cut card
    `cut_cards[i]` (at least the procedure's; no extra coup), each a prefix of the shoe the
    procedure deals: the coups dealt and valued once for all (the same results as alone).

    Shoes are dealt in chunks of `chunk` shoes, each summarised and the summaries merged in
    chunk order: identical results for any `workers` and any `executor` (any
    `concurrent.futures`-style executor; without one, `workers` > 1 starts a local process
    pool of `workers` - 1 processes for this call, this process working as the other).
    Memory does not grow with `shoes`.
    """
    for value, name in ((shoes, "shoes"), (workers, "workers"), (chunk, "chunk")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise AnalyzerError(f"{name} {quoted(value)}: use a positive integer")
    if shoes > MAX_SHOES:
        raise AnalyzerError(f"shoes {shoes}: use at most {MAX_SHOES:,}")
    if isinstance(start, bool) or not isinstance(start, int) or start < 0:
        raise AnalyzerError(f"start {quoted(start)}: use a shoe number, 0 or more", argument="start")
    if covers and len(covers) != len(systems):
        raise AnalyzerError(f"covers: give one per system ({len(systems)}), or none", argument="covers")
    if cut_cards and len(cut_cards) != len(systems):
        raise AnalyzerError(f"cut cards: give one per system ({len(systems)}), or none", argument="cut_cards")
    bins = (exact_bins,) * len(systems) if isinstance(exact_bins, bool) else tuple(exact_bins)
    cuts = tuple(cut_cards) or (procedure.cut_card,) * len(systems)
    procedures = [_cut_to(procedure, cut) for cut in cuts]
    given = zip(systems, bets, covers or [None] * len(systems), bins, procedures, strict=True)
    keys = [(*each, rules, seed, start, shoes, chunk) for each in given]  # what a result is of
    if (found := shared.kept(keys)) is not None:
        return found
    unique: list[Bet] = []
    for bet in [*bets, *(c.bet for c in covers if c is not None)]:
        if bet not in unique:
            unique.append(bet)
    # Rank-level bets first, each kind by name: studies of the same bets in any order share
    # their evaluators (built, shipped and held once).
    ranked = sorted((bet for bet in unique if not bet.card_level), key=lambda bet: bet.name)
    cards = tuple(sorted((bet for bet in unique if bet.card_level), key=lambda bet: bet.name))
    if cards:
        from analyzer.core.bets import check_card_bets

        check_card_bets(cards, procedure.shoe)
    unique = [*ranked, *cards]
    long = fastdeal.long_study(shoes * (sum(procedure.shoe.counts or ()) // 5), executor is None, workers)
    evaluator = FastEvaluator.cached(tuple(ranked), rules) if ranked else None  # ready for the kernels
    chunks = -(-shoes // chunk)
    # With no executor given, this process is one of the `workers`: a local pool of the
    # others takes chunks while this process takes the ones they have not started.
    helpers = min(workers, chunks) - 1
    own = executor is None and helpers > 0
    token = f"{id(evaluator)}-{os.getpid()}-{hash((tuple(unique), rules))}"
    cache = _LOCAL.__dict__.setdefault("evaluators", {})
    if own:  # the evaluator cached before the workers fork (they inherit it, kernels included)
        _keep(cache, token, evaluator)
    pools = pool_of(helpers) if own else nullcontext(executor)
    with pools as pool:  # a local pool of our own is stopped on leaving, at once on an error
        payload: FastEvaluator | bytes | str | None = evaluator
        shipped = None
        if own and forked(pool):  # every worker has this process's copy, under the token
            payload = None
        elif isinstance(pool, ProcessPoolExecutor):  # pickled once, read once by each worker
            shipped = write_temporary(pickle.dumps(evaluator), "baccarat-evaluator-", ".pickle")
            payload = token = shipped
        elif pool is not None:
            payload = pickle.dumps(evaluator)
        _keep(cache, token, evaluator)  # this process's copy
        covered = tuple(None if c is None else (c, unique.index(c.bet)) for c in covers)
        columns = tuple(unique.index(b) for b in bets)
        # Consecutive chunks: larger jobs first with several processes (`job_sizes`).
        bounds = pairwise(
            accumulate(
                job_sizes(chunks, helpers + 1 if own else workers if pool is not None else 1), initial=0
            )
        )
        jobs = (
            _Job(token, payload, tuple(systems), columns, procedure, rules, seed,
                 range(start + a * chunk, start + min(b * chunk, shoes)), cards, covered, long, bins,
                 chunk, cuts)
            for a, b in bounds
        )  # fmt: skip
        totals = [SystemEvaluation(system, bet) for system, bet in zip(systems, bets, strict=True)]
        bar = progress.bar(chunks, f"counting study: {shoes:,} shoes", unit="chunk")  # on a terminal
        try:
            for parts in _run(jobs, pool, share=own):
                for part in parts:  # chunk by chunk, in order
                    for total, result in zip(totals, part, strict=True):
                        total.merge(result)
                    bar.update(1)
        finally:
            bar.close()
            if shipped is not None:
                os.unlink(shipped)
    shared.keep(keys, totals)
    return totals


def _cut_to(procedure: Procedure, cut_card: int) -> Procedure:
    """`procedure` with cut card `cut_card`, whose shoes are prefixes of the procedure's."""
    if cut_card == procedure.cut_card:
        return procedure
    if isinstance(cut_card, int) and cut_card > procedure.cut_card and not procedure.extra_coup:
        return replace(procedure, cut_card=cut_card)  # checked there
    raise AnalyzerError(
        f"cut card {quoted(cut_card)}: use one at least the procedure's ({procedure.cut_card}), "
        "with no extra coup", argument="cut_cards",
    )  # fmt: skip


def _run(
    jobs: Iterator[_Job], executor: Executor | None, share: bool = False
) -> Iterator[list[list[SystemEvaluation]]]:
    """Each job's chunk summaries (`_evaluate_job`), in job order (`scheduling.in_order`;
    `share`: this process works too); a process pool's workers given two jobs at a time."""
    workers = getattr(executor, "_max_workers", 0) if isinstance(executor, ProcessPoolExecutor) else 0
    return in_order(_evaluate_job, jobs, executor, workers=workers, share=share)


def __getattr__(name: str) -> object:
    """`ChoiceValue` and `banker_player_choice` by their old names (`analyzer.counting.choice`)."""
    if name in ("ChoiceValue", "banker_player_choice"):
        return getattr(__import__("analyzer.counting.choice", fromlist=[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
