"""Shoes dealt as a casino deals them, with the exact value of every coup and each counting
system's count, and the evaluation of counting systems over many shoes.

Procedure (brief): shuffle; burn (turn the first card face up, burn as many cards face
down as its value, ten-valued = 10); deal coups until the cut card, placed `cut_card` cards
from the end, comes out; finish that coup and, optionally, play one more. A coup is only
started with at least 6 cards left. Counters see the face-up burn card and every card
dealt; the exact expectation of each coup is for the cards actually left in the shoe.

Each shoe is shuffled by its own generator, seeded from (seed, shoe index), and shoes are
processed in fixed chunks merged in order, so results are identical for any number of
workers.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from analyzer.bets import Bet
from analyzer.cards import RANK_POINTS
from analyzer.composition import FastEvaluator
from analyzer.counting import CountSystem
from analyzer.enumerate import Outcome
from analyzer.errors import AnalyzerError
from analyzer.rules import STANDARD, Rules
from analyzer.shoe import Shoe

__all__ = [
    "ChoiceValue",
    "Procedure",
    "ShoeRecord",
    "SystemEvaluation",
    "banker_player_choice",
    "deal_cards",
    "deal_coup",
    "deal_shoe",
    "evaluate_systems",
    "shuffled",
]

CHUNK = 25  # shoes per unit of work
MAX_SHOES = 10**8
MAX_CARDS = 52 * 1000


@dataclass(frozen=True)
class Procedure:
    """How a shoe is dealt: its composition, the cut card's depth, and the last-coup rule."""

    shoe: Shoe = field(default_factory=lambda: Shoe.decks(8))
    cut_card: int = 7  # cards behind the cut card ("in front of the 7th card from the end")
    extra_coup: bool = False  # play one more coup after the cut card came out
    burn: bool = True

    def __post_init__(self) -> None:
        if self.shoe.counts is None:
            raise AnalyzerError("shoe simulation needs a finite shoe: use --decks N or --counts")
        if self.shoe.size > MAX_CARDS:
            raise AnalyzerError(f"shoe of {self.shoe.size:,} cards: simulate at most {MAX_CARDS:,} cards")
        if (
            isinstance(self.cut_card, bool)
            or not isinstance(self.cut_card, int)
            or not (0 <= self.cut_card <= self.shoe.size - 6)
        ):
            raise AnalyzerError(
                f"cut card {self.cut_card!r}: use an integer from 0 to {self.shoe.size - 6} (cards behind it)"
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
        if rules.punto_draws_on(p0):
            third = RANK_POINTS[cards[pos + used]]
            p, used, pc = (p + third) % 10, used + 1, 3
        if rules.banco_draws_on(b0, third):
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
    counts = procedure.shoe.counts or ()
    cards = [rank for rank, n in enumerate(counts) for _ in range(n)]
    random.Random(f"baccarat-analyzer:{seed}:{index}").shuffle(cards)
    return cards


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


@dataclass
class SystemEvaluation:
    """A counting system judged on one bet over simulated shoes.

    Exact sums (Fractions) cover every coup; `per_shoe_*` lists (floats, for standard
    errors) hold each shoe's expected and realized win when flat-betting one unit on the
    system's triggers, and the perfect-information win (betting exactly when the exact
    expectation is positive).
    """

    system: CountSystem
    bet: Bet
    shoes: int = 0
    coups: int = 0
    triggers: int = 0
    positive: int = 0
    realized_triggered: Fraction = Fraction(0)
    sums: dict[str, ExactSum] = field(
        default_factory=lambda: {key: ExactSum() for key in ("all", "triggered", "perfect")}
    )
    per_shoe_expected: list[float] = field(default_factory=list)
    per_shoe_realized: list[float] = field(default_factory=list)
    per_shoe_perfect: list[float] = field(default_factory=list)
    moments: list[float] = field(default_factory=lambda: [0.0] * 5)  # n-free sums: x, y, xx, yy, xy
    by_count: dict[int, list[float]] = field(default_factory=dict)  # floor(count) -> [coups, sum EV]

    # -- derived figures (floats are display values) ---------------------------------------

    @property
    def expectation_all(self) -> Fraction:
        """Sum of the exact expectations of every coup (exact)."""
        return self.sums["all"].value()

    @property
    def expectation_triggered(self) -> Fraction:
        """Sum of the exact expectations of the coups the system bets on: the expected win."""
        return self.sums["triggered"].value()

    @property
    def perfect(self) -> Fraction:
        """Sum of the positive exact expectations: the perfect-information win."""
        return self.sums["perfect"].value()

    @property
    def trigger_edge(self) -> Fraction | None:
        """Mean exact expectation of the coups the system bets on (player's view)."""
        return self.expectation_triggered / self.triggers if self.triggers else None

    @property
    def correlation(self) -> float:
        """Correlation across coups between the system's count and the bet's exact expectation."""
        sx, sy, sxx, syy, sxy = self.moments
        n = self.coups
        if n == 0:
            return 0.0
        vx, vy = sxx - sx * sx / n, syy - sy * sy / n
        return (sxy - sx * sy / n) / math.sqrt(vx * vy) if vx > 0 and vy > 0 else 0.0

    def per_shoe(self, which: str) -> tuple[float, float]:
        """Mean and standard error per shoe of 'expected', 'realized' or 'perfect' win."""
        values = {"expected": self.per_shoe_expected, "realized": self.per_shoe_realized,
                  "perfect": self.per_shoe_perfect}[which]  # fmt: skip
        n = len(values)
        mean = math.fsum(values) / n
        var = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        return mean, math.sqrt(var / n)

    def merge(self, other: SystemEvaluation) -> None:
        self.shoes += other.shoes
        self.coups += other.coups
        self.triggers += other.triggers
        self.positive += other.positive
        self.realized_triggered += other.realized_triggered
        for key, total in other.sums.items():
            self.sums[key].merge(total)
        self.per_shoe_expected += other.per_shoe_expected
        self.per_shoe_realized += other.per_shoe_realized
        self.per_shoe_perfect += other.per_shoe_perfect
        self.moments = [a + b for a, b in zip(self.moments, other.moments, strict=True)]
        for key, (n, s) in other.by_count.items():
            cell = self.by_count.setdefault(key, [0.0, 0.0])
            cell[0] += n
            cell[1] += s


@dataclass
class ExactSum:
    """An exact sum of expectations numerator / (denominator * total), kept as integer
    numerator sums per total (the 6-card count of the shoe valued) until asked for."""

    denominator: int = 1
    by_total: dict[int, int] = field(default_factory=dict)

    def add(self, numerators: np.ndarray, totals: np.ndarray, denominator: int) -> float:
        """Add the terms; returns their sum as a float (for per-shoe statistics)."""
        self.denominator = denominator
        for num, tot in zip(numerators.tolist(), totals.tolist(), strict=True):
            self.by_total[tot] = self.by_total.get(tot, 0) + num
        return float((numerators / (denominator * totals.astype(np.float64))).sum())

    def merge(self, other: ExactSum) -> None:
        self.denominator = other.denominator
        for tot, num in other.by_total.items():
            self.by_total[tot] = self.by_total.get(tot, 0) + num

    def value(self) -> Fraction:
        return sum((Fraction(n, self.denominator * t) for t, n in self.by_total.items()), Fraction(0))


def _valued_shoes(
    evaluator: FastEvaluator, procedure: Procedure, rules: Rules, seed: int, shoes: range
) -> Iterator[tuple[ShoeRecord, np.ndarray, np.ndarray]]:
    """Each shoe dealt, with the exact expectations (numerators, totals) of its coups; the
    coups of `CHUNK` shoes are valued in one batch."""
    for start in range(shoes.start, shoes.stop, CHUNK):
        records = [deal_shoe(procedure, rules, seed, i) for i in range(start, min(start + CHUNK, shoes.stop))]
        numerators, totals = evaluator.expectations(np.vstack([r.left for r in records]))
        ends = np.cumsum([len(r.outcomes) for r in records])
        for record, end in zip(records, ends, strict=True):
            begin = end - len(record.outcomes)
            yield record, numerators[begin:end], totals[begin:end]


_STATE: dict[str, object] = {}


def _evaluate_chunk(
    args: tuple[Sequence[CountSystem], Sequence[Bet], Procedure, Rules, int, range],
) -> list[SystemEvaluation]:
    systems, bets, procedure, rules, seed, shoes = args
    key = (tuple(bets), rules)
    if _STATE.get("key") != key:
        _STATE["key"], _STATE["evaluator"] = key, FastEvaluator(bets, rules)
    evaluator: FastEvaluator = _STATE["evaluator"]  # type: ignore[assignment]
    results = [SystemEvaluation(system, bet) for system, bet in zip(systems, bets, strict=True)]
    for record, numerators, totals in _valued_shoes(evaluator, procedure, rules, seed, shoes):
        cards_left = record.left.sum(axis=1)
        for j, (system, result) in enumerate(zip(systems, results, strict=True)):
            bet, denominator = evaluator.bets[j], evaluator.denominators[j]
            num = numerators[:, j]
            running = system.initial + record.seen @ np.array(system.tags, dtype=np.int64)
            if system.trigger == "running":
                count = running.astype(np.float64)
                fires = running * system.threshold.denominator >= system.threshold.numerator
            else:
                count = running * 52 / cards_left
                fires = running * 52 * system.threshold.denominator >= system.threshold.numerator * cards_left
            ev = num.astype(np.float64) / (denominator * totals.astype(np.float64))  # statistics only
            realized = sum(
                ((bet.settle(o) or 0) for o, hit in zip(record.outcomes, fires, strict=True) if hit),
                Fraction(0),
            )
            positive = num > 0
            result.shoes += 1
            result.coups += len(num)
            result.triggers += int(fires.sum())
            result.positive += int(positive.sum())
            result.sums["all"].add(num, totals, denominator)
            result.realized_triggered += realized
            result.per_shoe_expected.append(
                result.sums["triggered"].add(num[fires], totals[fires], denominator)
            )
            result.per_shoe_realized.append(float(realized))
            result.per_shoe_perfect.append(
                result.sums["perfect"].add(num[positive], totals[positive], denominator)
            )
            m = result.moments
            m[0] += float(count.sum())
            m[1] += float(ev.sum())
            m[2] += float((count * count).sum())
            m[3] += float((ev * ev).sum())
            m[4] += float((count * ev).sum())
            keys, index = np.unique(np.floor(count).astype(np.int64), return_inverse=True)
            sizes, sums = np.bincount(index), np.bincount(index, weights=ev)
            for key, n, total in zip(keys.tolist(), sizes.tolist(), sums.tolist(), strict=True):
                cell = result.by_count.setdefault(key, [0.0, 0.0])
                cell[0] += n
                cell[1] += total
    return results


def evaluate_systems(
    systems: Sequence[CountSystem],
    bets: Sequence[Bet],
    procedure: Procedure,
    rules: Rules = STANDARD,
    shoes: int = 1000,
    seed: int = 1,
    workers: int = 1,
    progress: bool = False,
) -> list[SystemEvaluation]:
    """Judge each system on its bet (`bets[i]` for `systems[i]`) over `shoes` simulated shoes."""
    if isinstance(shoes, bool) or not isinstance(shoes, int) or shoes < 1:
        raise AnalyzerError(f"shoes {shoes!r}: use a positive integer")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise AnalyzerError(f"workers {workers!r}: use a positive integer")
    if shoes > MAX_SHOES:
        raise AnalyzerError(f"shoes {shoes}: use at most {MAX_SHOES:,}")
    count = -(-shoes // CHUNK)
    jobs = (
        (tuple(systems), tuple(bets), procedure, rules, seed, range(i * CHUNK, min((i + 1) * CHUNK, shoes)))
        for i in range(count)
    )
    workers = min(workers, count, os.cpu_count() or 1)
    bar = _progress(count, shoes, progress)
    totals = [SystemEvaluation(system, bet) for system, bet in zip(systems, bets, strict=True)]
    if workers == 1:
        parts = map(_evaluate_chunk, jobs)
        for part in parts:
            for total, result in zip(totals, part, strict=True):
                total.merge(result)
            bar.update(1)
    else:
        import multiprocessing

        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core per worker
        with multiprocessing.get_context("spawn").Pool(workers, initializer=_ignore_interrupts) as pool:
            for part in pool.imap(_evaluate_chunk, jobs):
                for total, result in zip(totals, part, strict=True):
                    total.merge(result)
                bar.update(1)
    bar.close()
    return totals


def _ignore_interrupts() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops the pool and reports it once."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(chunks: int, shoes: int, enabled: bool):
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:  # the bar is a convenience
        return _NoBar()
    return tqdm(total=chunks, desc=f"{shoes} shoes", unit="chunk", leave=False)


@dataclass(frozen=True)
class ChoiceValue:
    """Exact averages per coup over simulated shoes of the Banker and Player expectations,
    and of what perfect knowledge of each coup's composition could take from them."""

    coups: int
    banker: Fraction  # mean expectation of always betting Banker
    player: Fraction
    better: Fraction  # mean of max(Banker, Player): betting the better side every coup
    banker_positive: Fraction  # mean of max(Banker, 0): betting Banker only when favourable
    player_positive: Fraction
    banker_favourable: int  # coups where the Banker bet has positive expectation
    player_favourable: int


def banker_player_choice(
    banker: Bet, player: Bet, procedure: Procedure, rules: Rules = STANDARD, shoes: int = 100, seed: int = 1
) -> ChoiceValue:
    """How much exact knowledge of every coup could gain on Banker and Player (exact sums)."""
    evaluator = FastEvaluator([banker, player], rules)
    db, dp = evaluator.denominators
    lcm_d = math.lcm(db, dp)
    sums = {key: ExactSum() for key in ("b", "p", "max", "b+", "p+")}
    coups = fav_b = fav_p = 0
    for _record, numerators, totals in _valued_shoes(evaluator, procedure, rules, seed, range(shoes)):
        nb, np_ = numerators[:, 0] * (lcm_d // db), numerators[:, 1] * (lcm_d // dp)
        sums["b"].add(nb, totals, lcm_d)
        sums["p"].add(np_, totals, lcm_d)
        sums["max"].add(np.maximum(nb, np_), totals, lcm_d)
        sums["b+"].add(np.maximum(nb, 0), totals, lcm_d)
        sums["p+"].add(np.maximum(np_, 0), totals, lcm_d)
        coups += len(nb)
        fav_b += int((nb > 0).sum())
        fav_p += int((np_ > 0).sum())
    return ChoiceValue(
        coups, *(sums[k].value() / coups for k in ("b", "p", "max", "b+", "p+")), banker_favourable=fav_b,
        player_favourable=fav_p,
    )  # fmt: skip
