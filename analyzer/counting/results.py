"""What the counting commands compute (`baccarat eor`, `count`, `par-sheet`), each as a
library function of typed arguments returning a typed result that holds the shoe and rules
it used; `analyzer.present` renders any of them. (`track` is `analyzer.counting.tracking`.)

`eor` lives here, not with the effects of removal (`analyzer.analyses.effects`), because its
result carries the best linear counts derived from them (`analyzer.counting.systems`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.analyses.choice import choose_bets, load_table, used_rules
from analyzer.core.errors import AnalyzerError, mention
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from analyzer.analyses.effects import RemovalEffects
    from analyzer.core.bets import Bet
    from analyzer.core.catalogue import Table
    from analyzer.counting.advantage import AdvantageFigures
    from analyzer.counting.par import ParSheet
    from analyzer.counting.simulation import Procedure
    from analyzer.counting.summary import SystemEvaluation
    from analyzer.counting.systems import DerivedCount

__all__ = ["CountResult", "EorResult", "ParResult", "count_result", "eor_result", "par_result"]


@dataclass(frozen=True)
class EorResult:
    """`baccarat eor`: the effects of removal of every bet on `shoe` under `rules`, and the
    best linear counts derived from them (card-level bets' from their effects per rank)."""

    shoe: Shoe
    rules: Rules
    effects: RemovalEffects
    counts: tuple[DerivedCount, ...]


def eor_result(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Sequence[str] | None = None,
    table: str | Table | None = None,
) -> EorResult:
    """Effects of removal of the bets chosen (default every built-in rank-level bet; see
    `analyzer.analyses.choice.choose_bets`) on the finite `shoe`."""
    from analyzer.analyses.effects import effects_of_removal
    from analyzer.core.catalogue import RANK_BETS
    from analyzer.counting.systems import derived_counts

    if shoe.is_infinite:
        raise AnalyzerError(
            "effects of removal need a finite shoe: use "
            f"{mention('decks', 'N', 'Shoe.decks(N)')} or {mention('counts', words='Shoe.from_counts')}"
        )
    chosen = choose_bets(table, bets, rules=rules, default=RANK_BETS.values())
    effects = effects_of_removal(chosen.bets, shoe, chosen.rules)
    counts = derived_counts(effects, list(effects.effects))
    return EorResult(shoe, chosen.rules, effects, tuple(counts))


@dataclass(frozen=True)
class CountResult:
    """`baccarat count`: each system judged on its bet over `shoes` shoes dealt by
    `procedure` (seed `seed`) under `rules`, with its advantage-play figures."""

    shoe: Shoe
    rules: Rules
    procedure: Procedure
    shoes: int
    seed: int
    evaluations: tuple[SystemEvaluation, ...]
    figures: tuple[AdvantageFigures, ...]


def _study_executor(
    spec: str, workers: int, connect_timeout: float | None = None
) -> AbstractContextManager[Executor | None]:
    """`open_executor` for a study of `count` or `par-sheet`. Local: no pool here (None); the
    study starts its own, forked once its kernels are loaded, and this process works as one
    of the `workers`."""
    from analyzer.counting.executors import CONNECT_TIMEOUT, open_executor

    timeout = CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
    return open_executor(spec, 1 if spec == "local" else workers, timeout)


def count_result(
    shoe: Shoe,
    rules: Rules | None = None,
    systems: Sequence[str] | None = None,
    bet: str | None = None,
    table: str | Table | None = None,
    true_count: str | None = None,
    strict: bool = False,
    cut_card: int = 7,
    extra_coup: bool = False,
    burn: bool = True,
    burn_seen: str = "first",
    shoes: int = 1000,
    seed: int = 1,
    workers: int = 1,
    executor: str = "local",
    connect_timeout: float = 10.0,
    bankroll: float = 100.0,
    coups_per_hour: float = 80.0,
    cover: str | None = None,
) -> CountResult:
    """Judge the counting `systems` (built-in names or .toml files; default every built-in)
    against the exact value of every coup. Each system bets its own bet, or `bet` (a
    built-in, or a bet of `table`) for all; `true_count` (exact, half-deck, deck) and
    `strict` (bet above the threshold, not at it) vary every system. The shoes are dealt by
    the procedure (`analyzer.counting.simulation.Procedure`) on `workers` processes of the
    `executor` (local, dask or tcp://HOST:PORT); the figures use `bankroll` units and
    `coups_per_hour`. `cover` ("BET" or "BET:UNITS", `analyzer.counting.cover`): every system
    also stakes that main bet on each coup it bets, valued exactly."""
    from analyzer.core.catalogue import select_bets
    from analyzer.counting.advantage import advantage_figures
    from analyzer.counting.executors import check_executor, check_timeout, check_workers
    from analyzer.counting.simulation import Procedure, evaluate_systems
    from analyzer.counting.systems import SYSTEMS, named_systems, system_bet

    check_executor(executor)  # the executor is judged before anything starts
    check_workers(workers)
    check_timeout(connect_timeout)
    variant = None if strict is False else True
    named = [
        (spec, system.variant(true_count, variant))
        for spec, system in named_systems(systems or list(SYSTEMS))
    ]
    found = load_table(table)
    bets = [select_bets(bet, found)[0] if bet else system_bet(spec, system, found) for spec, system in named]
    from analyzer.counting.cover import parse_cover

    covered = None if cover is None else parse_cover(cover, found)
    procedure = Procedure(shoe=shoe, cut_card=cut_card, extra_coup=extra_coup, burn=burn, burn_seen=burn_seen)
    rules = used_rules(rules, None)
    with _study_executor(executor, workers, connect_timeout) as pool:
        evaluations = evaluate_systems(
            [system for _, system in named], bets, procedure, rules, shoes=shoes, seed=seed,
            workers=workers, executor=pool, covers=[covered] * len(named) if covered else (),
        )  # fmt: skip
    if evaluations and evaluations[0].coups == 0:
        raise AnalyzerError(
            f"no coup can be dealt from {shoe} ({shoe.size} cards) with cut card {cut_card}"
            f"{' after the burn' if burn else ''}: use a bigger shoe or a smaller {mention('cut_card')}"
        )
    figures = tuple(advantage_figures(e, bankroll, coups_per_hour) for e in evaluations)
    return CountResult(shoe, rules, procedure, shoes, seed, tuple(evaluations), figures)


@dataclass(frozen=True)
class ParResult:
    """`baccarat par-sheet`: each bet's par sheet on `shoe` under `rules`; `table_file` and
    `table_sha256`: the table file the bets were read from and the SHA-256 of its bytes
    (None for built-in tables and bets)."""

    shoe: Shoe
    rules: Rules
    sheets: tuple[ParSheet, ...]
    table_file: str | None = None
    table_sha256: str | None = None


def par_result(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Sequence[str] | None = None,
    table: str | Table | None = None,
    shoes: int = 20000,
    seed: int = 1,
    cut_card: int = 14,
    material: Fraction = Fraction(1, 20),
    workers: int = 1,
    executor: str = "local",
    check: Callable[[tuple[Bet, ...]], None] | None = None,
    cover: str | None = None,
) -> ParResult:
    """The par sheet of each bet of `table` or `bets` (one of them must be given; see
    `analyzer.analyses.choice.choose_bets`), its counting study dealing `shoes` shoes (seed
    `seed`, cut card `cut_card`) on `workers` processes of `executor`; beatable or not by
    `material` units per shoe (`analyzer.counting.par.par_sheets`). `check` sees the bets
    chosen before any computing (it may refuse them: the CLI refuses file names that collide).
    `cover` ("BET" or "BET:UNITS"): the study also stakes that main bet on each coup a count
    bets (`analyzer.counting.cover`)."""
    from analyzer.counting.executors import check_executor, check_workers
    from analyzer.counting.par import par_sheets

    check_executor(executor)
    check_workers(workers)
    if bets is None and table is None:
        raise AnalyzerError(
            f"par-sheet: give {mention('bets', 'NAMES')} or {mention('table', 'NAME|FILE')} "
            "(see `baccarat list bets`)"
        )
    chosen = choose_bets(table, bets, rules=rules, shoe=shoe)
    table_file, table_sha256 = _table_file(table)
    from analyzer.counting.cover import parse_cover

    covered = None if cover is None else parse_cover(cover, chosen.table)
    if check is not None:
        check(chosen.bets)
    with _study_executor(executor, workers) as pool:
        sheets = par_sheets(
            chosen.bets, shoe, chosen.rules, shoes=shoes, seed=seed, cut_card=cut_card,
            material=material, workers=workers, executor=pool, cover=covered,
        )  # fmt: skip
    return ParResult(shoe, chosen.rules, tuple(sheets), table_file, table_sha256)


def _table_file(table: str | Table | None) -> tuple[str | None, str | None]:
    """The table file `table` names (not a built-in table) and the SHA-256 of the bytes read
    from it a moment ago and parsed (`analyzer.core.parsing.read_digest`), not of the file as
    it may be now."""
    from analyzer.core.catalogue import TABLES
    from analyzer.core.parsing import read_digest

    if not isinstance(table, str) or table in TABLES:
        return None, None
    return table, read_digest(table)
