"""What the analysis commands compute (`baccarat odds`, `punto-table`, `rules`, `edges`,
`compare`, `closed-form`, `design`), each as a library function of typed arguments returning
a typed result that holds the shoe, rules and shown cards it used; `analyzer.present`
renders any of them (`analyzer.present.outputs`). Engines load only when a function runs.

>>> from analyzer import Shoe
>>> from analyzer.analyses.results import edges_result
>>> result = edges_result(Shoe.decks(6), bets=["banker", "player"], table="super6")
>>> result.rules.name, [a.bet.name for a in result.analyses]
('standard', ['banker', 'player'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.analyses.choice import choose_bets, load_table, used_rules
from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe

if TYPE_CHECKING:
    from analyzer.analyses.closed_form import ClosedForm
    from analyzer.analyses.compare import Comparison
    from analyzer.analyses.design import Design
    from analyzer.analyses.odds import Odds, PlayerRow
    from analyzer.analyses.shown import ShownCards
    from analyzer.core.analysis import BetAnalysis
    from analyzer.core.catalogue import Table

__all__ = [
    "ClosedFormResult",
    "CompareResult",
    "DesignResult",
    "EdgesResult",
    "OddsResult",
    "PlayerTableResult",
    "RulesResult",
    "closed_form_result",
    "compare_result",
    "design_result",
    "edges_result",
    "odds_result",
    "player_table_result",
    "rules_result",
]


@dataclass(frozen=True)
class OddsResult:
    """`baccarat odds`: Banker, Player and tie on `shoe` under `rules`, given `shown` cards."""

    shoe: Shoe
    rules: Rules
    odds: Odds
    shown: ShownCards | None = None


def odds_result(shoe: Shoe, rules: Rules | None = None, shown: ShownCards | None = None) -> OddsResult:
    """The outcome probabilities (with `shown` cards: by the card-level engine)."""
    rules = used_rules(rules, None)
    if shown is None:
        from analyzer.analyses.odds import odds

        return OddsResult(shoe, rules, odds(shoe, rules))
    from analyzer.analyses.shown import shown_odds

    return OddsResult(shoe, rules, shown_odds(shoe, shown, rules), shown)


@dataclass(frozen=True)
class PlayerTableResult:
    """`baccarat punto-table`: the probabilities after Punto's two-card total."""

    shoe: Shoe
    rules: Rules
    rows: tuple[PlayerRow, ...]


def player_table_result(shoe: Shoe, rules: Rules | None = None) -> PlayerTableResult:
    from analyzer.analyses.odds import player_table

    rules = used_rules(rules, None)
    return PlayerTableResult(shoe, rules, player_table(shoe, rules))


@dataclass(frozen=True)
class RulesResult:
    """`baccarat rules`: the drawing tableau (the shoe is the one the command was given)."""

    shoe: Shoe
    rules: Rules


def rules_result(shoe: Shoe, rules: Rules | None = None) -> RulesResult:
    return RulesResult(shoe, used_rules(rules, None))


@dataclass(frozen=True)
class EdgesResult:
    """`baccarat edges`: each bet's exact figures on `shoe` under `rules`, given `shown`
    cards; `details` asks for each bet's paytable too; `left_out` names the default bets not
    priced because the shoe does not say their suits (`note` says so)."""

    shoe: Shoe
    rules: Rules
    analyses: tuple[BetAnalysis, ...]
    shown: ShownCards | None = None
    details: bool = False
    left_out: tuple[str, ...] = ()

    @property
    def note(self) -> str:
        """ "" or the sentence saying which bets were left out and what would price them, in
        the library's words."""
        from analyzer.core.errors import word_mentions

        return word_mentions(self.note_template)

    @property
    def note_template(self) -> str:
        """`note` with its options as `mention`s, for a reader to word (the CLI: as flags)."""
        if not self.left_out:
            return ""
        from analyzer.core.shoe import SUITS_REMEDY

        return (
            f"{len(self.left_out)} bets left out: they read suits, which the shoe ({self.shoe}) does not "
            f"give: {', '.join(self.left_out)}; to price them, {SUITS_REMEDY}"
        )

    @property
    def label(self) -> Shoe:
        """The shoe as the tables title it: with the shown cards."""
        return (
            self.shoe if self.shown is None else replace(self.shoe, label=f"{self.shoe}, shown {self.shown}")
        )


def edges_result(
    shoe: Shoe,
    rules: Rules | None = None,
    bets: Sequence[str] | None = None,
    table: str | Table | None = None,
    commission: Fraction | None = None,
    shown: ShownCards | None = None,
    details: bool = False,
) -> EdgesResult:
    """The house edges of the bets chosen (`analyzer.analyses.choice.choose_bets`), under the
    rules given, else the table's; with `shown` cards, by the card-level engine."""
    chosen = choose_bets(table, bets, commission, rules, shoe)
    if shown is None:
        from analyzer.analyses.pricing import analyze_bets

        analyses = analyze_bets(chosen.bets, shoe, chosen.rules)
    else:
        from analyzer.analyses.shown import shown_analyses

        analyses = shown_analyses(chosen.bets, shoe, shown, chosen.rules)
    left_out = tuple(bet.name for bet in chosen.left_out)
    return EdgesResult(shoe, chosen.rules, tuple(analyses), shown, details, left_out)


#: The shoes `compare` puts side by side by default.
COMPARED_SHOES = ("1", "2", "4", "6", "8", "inf")


@dataclass(frozen=True)
class CompareResult:
    """`baccarat compare`: tables across shoes, commissions and a tableau variant on `shoe`."""

    shoe: Shoe
    rules: Rules
    comparison: Comparison


def compare_result(
    shoe: Shoe,
    tables: Sequence[str | Table] | None = None,
    shoes: Sequence[Shoe] | None = None,
    variant: Rules | None = None,
    rules: Rules | None = None,
) -> CompareResult:
    """`tables` (default every built-in) side by side on `shoes` (default 1, 2, 4, 6, 8
    decks and the infinite deck); the commission matching each Banker bet and every
    built-in rank-level bet moved from `rules` (default standard) to `variant` (default
    banco-4-draws-on-0-1), on `shoe`."""
    from analyzer.analyses.compare import compare_tables
    from analyzer.core.catalogue import RANK_BETS, TABLES
    from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1
    from analyzer.core.shoe import parse_decks

    found = [load_table(table) for table in (list(TABLES) if tables is None else tables)]
    across = [parse_decks(decks) for decks in COMPARED_SHOES] if shoes is None else list(shoes)
    base = used_rules(rules, None)
    comparison = compare_tables(
        [table for table in found if table is not None],
        across,
        shoe,
        variant or BANCO_4_DRAWS_ON_0_1,
        list(RANK_BETS.values()),
        base=base,
    )
    return CompareResult(shoe, base, comparison)


@dataclass(frozen=True)
class ClosedFormResult:
    """`baccarat closed-form`: each bet as exact functions of the number of decks d."""

    rules: Rules
    forms: tuple[ClosedForm, ...]


def closed_form_result(bets: Sequence[str] | None = None, rules: Rules | None = None) -> ClosedFormResult:
    """Closed forms of the built-in `bets` (default banker, player, tie); a bet reading
    individual cards is refused (no coup outcome settles it)."""
    from analyzer.analyses.closed_form import MAIN_BETS, closed_forms  # sympy loads only when asked
    from analyzer.core.catalogue import get_bet

    chosen = [get_bet(name) for name in (MAIN_BETS if bets is None else bets)]
    for bet in chosen:
        if bet.card_level:
            raise AnalyzerError(
                f"closed-form {mention('bets')}: {quoted(bet.name)} reads individual cards; "
                "closed forms cover bets that a coup's outcome settles"
            )
    rules = used_rules(rules, None)
    return ClosedFormResult(rules, tuple(closed_forms(chosen, rules)))


@dataclass(frozen=True)
class DesignResult:
    """`baccarat design`: the paytables found, and the file paytable `pick` was written to."""

    design: Design
    written: str | None = None
    pick: int = 1

    @property
    def rules(self) -> Rules:
        return self.design.rules

    @property
    def shoes(self) -> tuple[Shoe, ...]:
        return self.design.shoes


def design_result(
    table: str | Table,
    window: tuple[Fraction, Fraction],
    shoes: Sequence[Shoe] | None = None,
    bet: str | None = None,
    rules: Rules | None = None,
    max_pay: int = 1000,
    monotone: bool = False,
    limit: int = 20,
    max_nodes: int | None = None,
    write: str | None = None,
    pick: int | None = None,
) -> DesignResult:
    """Every whole-number paytable of `bet` (default: the table's one bet with payouts to
    find; the table's own bets by name, else built-ins) whose house edge lies in `window`
    on every one of `shoes` (default 8 decks), under `rules` (default the table's); see
    `analyzer.analyses.design.design`. With `write`, paytable `pick` (default 1, the
    closest) is written there as a table file, whole or not at all."""
    from analyzer.analyses.design import MAX_NODES, design

    found_table = load_table(table)
    assert found_table is not None
    name = bet
    if name is None:
        open_bets = [b.name for b in found_table.bets if b.unknowns]
        if len(open_bets) != 1:
            some = f"one of {', '.join(open_bets)}" if open_bets else "no bet of it has payouts to find"
            shown = table if isinstance(table, str) else found_table.name
            raise AnalyzerError(f"{mention('table')} {quoted(shown)}: give {mention('bet')}, {some}")
        name = open_bets[0]
    own = {b.name: b for b in found_table.bets}
    if name not in own:
        from analyzer.core.catalogue import get_bet

        own[name] = get_bet(name)
    found = design(
        own[name],
        [Shoe.decks(8)] if shoes is None else shoes,
        *window,
        rules=used_rules(rules, found_table),
        max_pay=max_pay,
        monotone=monotone,
        limit=limit,
        max_nodes=MAX_NODES if max_nodes is None else max_nodes,
    )
    if write is None:
        if pick is not None:
            raise AnalyzerError(
                f"{mention('pick')} chooses the paytable {mention('write')} writes: "
                f"give {mention('write', 'FILE')} too"
            )
        return DesignResult(found)
    chosen = 1 if pick is None else pick
    _write_design(found, chosen, write, found_table.title, table if isinstance(table, str) else None)
    return DesignResult(found, write, chosen)


def _write_design(found: Design, pick: int, write: str, title: str, table_file: str | None) -> None:
    """Write paytable `pick` of `found` to the file `write` as a table file titled `title`
    (never over `table_file`, the table designed)."""
    from analyzer.analyses.design import design_comment
    from analyzer.core.files import check_target, write_atomic
    from analyzer.core.tablefile import table_text

    if not 1 <= pick <= len(found.solutions):
        more = f" (raise {mention('limit')})" if found.solutions else ""
        raise AnalyzerError(
            f"{mention('pick')} {quoted(str(pick))}: the listing holds "
            f"{len(found.solutions):,} paytables{more}"
        )
    from analyzer.core.parsing import files_read

    inputs = [] if table_file is None else [(mention("table"), table_file.strip())]
    inputs += [("input", path) for path in files_read()]  # a rules file the table names too
    check_target(write, mention("write"), "designed.toml", inputs)
    solution = found.solutions[pick - 1]
    try:
        write_atomic(write, table_text(solution.bet, found.rules, title, design_comment(found, pick)))
    except OSError as error:
        reason = error.strerror or error
        raise AnalyzerError(f"{mention('write')} {quoted(write)} cannot be written: {reason}") from None
