"""The `baccarat` command: parses arguments, calls the library, hands results to the formatter."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from analyzer.analyses.odds import odds, punto_table
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import RULES, SEED004, Rules, get_rules
from analyzer.core.shoe import Shoe, parse_cards, parse_counts, parse_decks
from analyzer.present import format as fmt
from analyzer.version import __version__

if TYPE_CHECKING:
    from analyzer.core.bets import Bet
    from analyzer.counting.simulation import Procedure
    from analyzer.counting.systems import CountSystem

# Each command imports the modules it needs when it runs (numpy, the catalogue, the counting
# systems, the games), so a cold `baccarat odds` starts in a fraction of the time.

__all__ = ["main", "shoe_from_args"]


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one AnalyzerError line."""

    def error(self, message: str) -> NoReturn:
        if message.endswith("expected one argument"):
            message += " (for a value starting with '-', write --option=VALUE)"
        raise AnalyzerError(message)


def shoe_from_args(args: argparse.Namespace) -> Shoe:
    """The shoe named by --decks / --counts / --cards, less --remove."""
    given = [
        f"--{name} {getattr(args, name)}"
        for name in ("decks", "counts", "cards")
        if getattr(args, name, None) is not None
    ]
    if len(given) > 1:
        raise AnalyzerError(f"{' and '.join(given)} given together: use one")
    if getattr(args, "cards", None) is not None:
        shoe = parse_cards(args.cards)
    else:
        shoe = parse_counts(args.counts) if args.counts is not None else parse_decks(args.decks or "8")
    if args.decks == "":
        raise AnalyzerError("--decks '': use a positive integer or inf")
    if args.remove is not None:
        shoe = shoe.remove(_removed(args.remove))
    return shoe


def _removed(text: str) -> list[str]:
    """The cards of a --remove argument (ranks such as 5 or suited cards such as KH)."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise AnalyzerError(f"no cards in {text!r}: give a comma-separated list such as 5,5,K or KH,9S")
    return items


def _common(formats: Sequence[str] = fmt.FORMATS) -> _Parser:
    parent = _Parser(add_help=False)
    parent.add_argument("--decks", help="number of decks (default 8; solve: the game's own) or inf")
    parent.add_argument("--counts", help="13 card counts in rank order A,2,...,9,10,J,Q,K")
    parent.add_argument(
        "--cards", help="52 card-type counts: spades A,2,...,10,J,Q,K, then hearts, diamonds, clubs"
    )
    parent.add_argument("--remove", help="cards taken out of the shoe, e.g. 5,5,K or KH,9S")
    parent.add_argument(
        "--rules", help=f"{', '.join(RULES)} or a .toml file (default standard; see `baccarat list rules`)"
    )
    parent.add_argument("--format", default="table", help=f"{'|'.join(formats)} (default table)")
    return parent


def _odds(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    if args.shown is not None:  # odds after cards are shown (card-level engine)
        from analyzer.analyses.shown import parse_shown, shown_odds

        shown = parse_shown(args.shown)
        text = fmt.render_odds(shown_odds(shoe, shown, rules), args.format)
        return fmt.with_shown(text, shown.as_dict(), args.format)
    return fmt.render_odds(odds(shoe, rules), args.format)


def _punto_table(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    return fmt.render_punto_table(
        punto_table(shoe, rules),
        args.format,
        title=f"Probabilities after Punto's two cards: {shoe}, {rules.name} rules",
    )


def _rules(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    return fmt.render_rules(rules, args.format)


def _chosen_bets(args: argparse.Namespace, shoe: Shoe | None = None) -> tuple[Rules | None, tuple[Bet, ...]]:
    """Bets from --table and/or --bets (default: every built-in, the card-level ones that
    `shoe` can price), plus --commission. --bets names a table's own bets or built-ins."""
    from analyzer.core.bets import commission_banker
    from analyzer.core.catalogue import BETS, CARD_BETS, get_table, parse_commission, select_bets

    spec: str | None = getattr(args, "table", None)
    table = get_table(_one_name(spec, "--table")) if spec is not None else None
    bets = list(table.bets) if table else []
    if args.bets is not None:
        bets = select_bets(",".join(_names(args.bets, "--bets")), table)
    if not table and args.bets is None:
        from analyzer.core.bets import can_price  # numpy-free: full decks price from polynomials

        bets = list(BETS.values())
        bets += [bet for bet in CARD_BETS.values() if shoe is None or can_price(bet, shoe)]
    if getattr(args, "commission", None) is not None:
        bets.append(commission_banker(parse_commission(args.commission, "--commission")))
    names = [bet.name for bet in bets]
    for name in names:
        if names.count(name) > 1:
            raise AnalyzerError(f"two different bets are named {name!r}: rename one in the table file")
    return (table.rules if table else None), tuple(bets)


def _edges_rules(args: argparse.Namespace, table_rules: Rules | None, rules: Rules) -> Rules:
    """The table's rules unless --rules is given."""
    return table_rules if table_rules and args.rules is None else rules


def _edges(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.analyses.pricing import analyze_bets

    table_rules, bets = _chosen_bets(args, shoe)
    rules = _edges_rules(args, table_rules, rules)
    if args.shown is not None:  # every bet's value after cards are shown (card-level engine)
        from analyzer.analyses.shown import parse_shown, shown_analyses
        from analyzer.core.bets import can_price

        shown = parse_shown(args.shown)
        if args.bets is None and args.table is None:
            bets = tuple(bet for bet in bets if can_price(bet, shoe))
        analyses = shown_analyses(bets, shoe, shown, rules)
        labelled = replace(shoe, label=f"{shoe}, shown {shown}")
        text = fmt.render_edges(analyses, args.format, labelled, rules, args.details)
        return fmt.with_shown(text, shown.as_dict(), args.format)
    return fmt.render_edges(analyze_bets(bets, shoe, rules), args.format, shoe, rules, args.details)


def _compare(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.analyses.compare import compare_tables
    from analyzer.core.catalogue import BETS, TABLES, get_table

    names = list(TABLES) if args.tables is None else _names(args.tables, "--tables")
    tables = [get_table(name) for name in names]
    shoes = [_deck_item(item, "--shoes") for item in _names(args.shoes, "--shoes")]
    variant = get_rules(args.variant)
    comparison = compare_tables(tables, shoes, shoe, variant, list(BETS.values()), base=rules)
    return fmt.render_compare(comparison, args.format)


def _eor(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.core.catalogue import BETS
    from analyzer.counting.systems import derived_counts
    from analyzer.ranks.fast import effects_of_removal

    if shoe.is_infinite:
        raise AnalyzerError("effects of removal need a finite shoe: use --decks N or --counts")
    table_rules, chosen = _chosen_bets(args) if args.bets is not None or args.table is not None else (
        None, tuple(BETS.values())
    )
    rules = _edges_rules(args, table_rules, rules)
    bets = tuple(bet for bet in chosen if not bet.card_level)
    cards = tuple(bet for bet in chosen if bet.card_level)
    text = ""
    if bets:
        eor = effects_of_removal(bets, shoe, rules)
        text = fmt.render_eor(eor, args.format, derived_counts(eor, [bet.name for bet in bets]))
    if cards:  # card-level bets: per card type when they read suits
        from analyzer.analyses.card_effects import card_effects_of_removal

        card_text = fmt.render_card_eor(card_effects_of_removal(cards, shoe, rules), args.format)
        if args.format == "json" and bets:
            import json

            data = json.loads(text)
            data["card_level"] = json.loads(card_text)
            return fmt.dumps(data)
        text = text + ("\n" if text else "") + card_text
    return text


def _count(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.core.catalogue import get_table, select_bets
    from analyzer.counting.advantage import advantage_figures
    from analyzer.counting.executors import open_executor
    from analyzer.counting.simulation import Procedure, evaluate_systems
    from analyzer.counting.systems import SYSTEMS, get_system

    strict = True if args.strict else None
    names = ",".join(SYSTEMS) if args.system is None else args.system
    specs = [
        (spec, system.variant(args.true_count, strict))
        for spec in _names(names, "--system")
        for system in get_system(spec)
    ]
    systems = [system for _, system in specs]
    table = get_table(_one_name(args.table, "--table")) if args.table is not None else None
    bet = None if args.bet is None else _one_name(args.bet, "--bet")
    bets = [select_bets(bet, table)[0] if bet else _system_bet(spec, system) for spec, system in specs]
    cut_card = _int_arg(args.cut_card, "--cut-card")
    procedure = Procedure(
        shoe=shoe,
        cut_card=cut_card,
        extra_coup=args.extra_coup,
        burn=not args.no_burn,
        burn_seen=args.burn_seen,
    )
    shoes, workers = _int_arg(args.shoes, "--shoes"), _int_arg(args.workers, "--workers")
    bankroll = _float_arg(args.bankroll, "--bankroll")
    per_hour = _float_arg(args.coups_per_hour, "--coups-per-hour")
    with open_executor(args.executor, workers) as executor:
        results = evaluate_systems(
            systems, bets, procedure, rules, shoes=shoes, seed=_int_arg(args.seed, "--seed"),
            workers=workers, progress=sys.stderr.isatty(), executor=executor,
        )  # fmt: skip
    if results and results[0].coups == 0:
        raise AnalyzerError(
            f"no coup can be dealt from {shoe} ({shoe.size} cards) with cut card {cut_card}"
            f"{'' if args.no_burn else ' after the burn'}: use a bigger shoe or a smaller --cut-card"
        )
    figures = [advantage_figures(r, bankroll, per_hour) for r in results]
    return fmt.render_count(results, args.format, _described(args, procedure, shoes), figures)


def _described(args: argparse.Namespace, procedure: Procedure, shoes: int) -> str:
    """The procedure in words, the cut-card default stated where the figures are."""
    default = ""
    if procedure.cut_card == 7:
        default = " (the default; published studies and reports/counting.md use 14)"
    burn = f"burn, {procedure.burn_seen} of the burned cards seen" if procedure.burn else "no burn"
    last = ", one more coup after the cut card" if procedure.extra_coup else ""
    return (
        f"{procedure.shoe}, cut card {procedure.cut_card} cards from the end{default}, {burn}{last}, "
        f"{shoes:,} shoes, seed {args.seed}"
    )


def _float_arg(text: str, option: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise AnalyzerError(f"{option} {text!r}: use a positive number") from None
    if not (0 < value < float("inf")):
        raise AnalyzerError(f"{option} {text!r}: use a positive number")
    return value


def _system_bet(spec: str, system: CountSystem) -> Bet:
    """The system's own bet; an unknown one is named with the file that gives it."""
    from analyzer.core.catalogue import get_bet

    try:
        return get_bet(system.bet)
    except AnalyzerError as error:
        raise AnalyzerError(f"{spec}: systems.{system.name}.bet: {error}") from None


def _int_arg(text: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise AnalyzerError(f"{option} {text!r}: use an integer") from None


def _solve_shoe(args: argparse.Namespace, shoe: Shoe) -> Shoe:
    """The game's own default shoe, less --remove, unless --decks or --counts is given."""
    from analyzer.games import default_shoe  # the game solvers load only when asked

    if args.decks is None and args.counts is None and args.cards is None:
        shoe = default_shoe(args.game)
        if args.remove is not None:
            shoe = shoe.remove(_removed(args.remove))
    return shoe


def _solve(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.core.catalogue import parse_commission
    from analyzer.games import solve
    from analyzer.present.games import render_game  # the game solvers load only when asked

    commission = None if args.commission is None else parse_commission(args.commission, "--commission")
    return render_game(solve(args.game, _solve_shoe(args, shoe), rules, commission), args.format)


def _report(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.present.reports import check_output_dir, write_reports

    _refuse_shoe_options(args, "report", "the reports state their own shoes and rules", ("rules",))
    out = Path(args.out)
    if not args.out.strip():
        raise AnalyzerError("--out '': give a directory, e.g. reports")
    check_output_dir(out, f"--out {args.out!r}")
    try:
        written = write_reports(out, progress=sys.stderr.isatty())
    except OSError as error:
        raise AnalyzerError(f"--out {args.out!r} cannot be written: {error.strerror or error}") from None
    summary = fmt.render_odds(odds(Shoe.decks(8)), "table")
    return summary + "\nReports written:\n" + "".join(f"  {path}\n" for path in written)


# -- closed forms, `list`, name lists, JSON metadata ------------------------------------


def _closed_form(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.analyses.closed_form import MAIN_BETS, closed_forms  # sympy loads only when asked
    from analyzer.core.catalogue import BETS

    _refuse_shoe_options(args, "closed-form", "the closed forms are functions of the number of decks d")
    bets = _bets(args.bets, "--bets") if args.bets is not None else tuple(BETS[n] for n in MAIN_BETS)
    for bet in bets:
        if bet.card_level:
            raise AnalyzerError(
                f"closed-form --bets: {bet.name!r} reads individual cards; "
                "closed forms cover bets that a coup's outcome settles"
            )
    return fmt.render_closed_forms(closed_forms(bets, rules), args.format)



def _refuse_shoe_options(
    args: argparse.Namespace, command: str, why: str, also: tuple[str, ...] = ()
) -> None:
    for option in ("decks", "counts", "cards", "remove", *also):
        if getattr(args, option) is not None:
            raise AnalyzerError(f"{command} does not take --{option}: {why}")


def _names(text: str, option: str) -> list[str]:
    """A comma-separated list of names. One rule for every list option: an empty value or
    an empty item is an error, and so is a name given twice."""
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or not all(items):
        raise AnalyzerError(f"{option} {text!r}: give comma-separated names, none empty")
    for item in items:
        if items.count(item) > 1:
            raise AnalyzerError(f"{option} {text!r}: {item!r} is given twice; give each once")
    return items


def _one_name(text: str, option: str) -> str:
    if not text.strip():
        raise AnalyzerError(f"{option} {text!r}: give a name (see `baccarat list`)")
    return text.strip()


def _bets(text: str, option: str) -> tuple[Bet, ...]:
    from analyzer.core.catalogue import get_bet

    return tuple(get_bet(name) for name in _names(text, option))


def _deck_item(text: str, option: str) -> Shoe:
    try:
        return parse_decks(text)
    except AnalyzerError as error:
        raise AnalyzerError(f"{option}: {error}") from None


def _list(args: argparse.Namespace) -> str:
    from analyzer.present.listing import entries

    text = fmt.render_list(args.what, entries(args.what), args.format)
    return fmt.dumps({**json.loads(text), "version": __version__}) if args.format == "json" else text


def _used(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> tuple[Shoe, Rules]:
    """The shoe and rules a command actually used (a game's own shoe, a table's rules)."""
    if args.command == "solve":
        return _solve_shoe(args, shoe), rules
    if args.command == "edges" and args.table is not None:
        from analyzer.core.catalogue import get_table

        return shoe, _edges_rules(args, get_table(args.table.strip()).rules, rules)
    return shoe, rules


def _with_metadata(text: str, args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    """A command's JSON with `version`, `shoe`, `shoe_spec` and `rules` added; other keys stay.

    `shoe` is the shoe's display text, as it always was in the commands that had it (the
    contract keeps a key's value); `shoe_spec` is the same shoe as a structured value."""
    data = json.loads(text)
    if not isinstance(data, dict):
        return text
    used_shoe, used_rules = _used(args, shoe, rules)
    removed = [] if args.remove is None or args.command == "closed-form" else args.remove.split(",")
    shoe_value = (
        {"decks": "d"}
        if args.command == "closed-form"
        else fmt.shoe_json(used_shoe, [r.strip() for r in removed])
    )
    data["shoe"] = shoe_value.get("label", "d decks")
    data["shoe_spec"] = shoe_value
    data.setdefault("rules", used_rules.name)
    data["version"] = __version__
    return fmt.dumps(data)


Command = Callable[[argparse.Namespace, Shoe, Rules], str]

COMMANDS: dict[str, tuple[Command, str, Sequence[str]]] = {
    "odds": (_odds, "exact probabilities of Banker, Player and tie", fmt.FORMATS),
    "punto-table": (
        _punto_table,
        "probabilities after Punto's two-card total (a Russian gambling dictionary's Table 2)",
        fmt.FORMATS,
    ),
    "rules": (_rules, "show the drawing tableau (dot: the coup's state graph)", (*fmt.FORMATS, "dot")),
    "edges": (_edges, "exact house edges of bets (default: every built-in bet)", fmt.FORMATS),
    "compare": (
        _compare,
        "payout rules side by side across shoes; commissions; tableau effects",
        fmt.FORMATS,
    ),
    "eor": (_eor, "exact effects of removal of one card of each rank on every bet", fmt.FORMATS),
    "count": (_count, "judge counting systems against the exact value of every coup", fmt.FORMATS),
    "solve": (_solve, "solve a game where hands choose (chemin-de-fer, punto-5, banque, macao)", fmt.FORMATS),
    "report": (_report, "(re)write the Markdown reports and print the 8-deck odds", ("table",)),
    "closed-form": (
        _closed_form,
        "each bet's probabilities and house edge as exact functions of the number of decks d",
        fmt.FORMATS,
    ),
}

#: One example per command, shown at the end of its --help.
EXAMPLES: dict[str, str] = {
    "odds": "baccarat odds --decks 6 --format json",
    "punto-table": "baccarat punto-table --decks inf",
    "rules": "baccarat rules --rules banco-4-draws-on-0-1",
    "edges": "baccarat edges --bets banker,player,tie --decks 6",
    "compare": "baccarat compare --tables commission,super6 --shoes 6,8",
    "eor": "baccarat eor --bets tie,dragon7 --decks 8",
    "count": "baccarat count --system dragon7-jacobson --shoes 200",
    "solve": "baccarat solve chemin-de-fer --format markdown",
    "report": "baccarat report --out reports",
    "closed-form": "baccarat closed-form --bets tie,player-pair --format markdown",
    "list": "baccarat list bets --format json",
}

_SHOWN: tuple[tuple[str, ...], dict[str, object]] = (
    ("--shown",),
    {"help": "cards shown at dealt positions, e.g. p1=9,b1=KH (p1 b1 p2 b2 p3 b3)"},
)
_EXTRA: dict[str, list[tuple[tuple[str, ...], dict[str, object]]]] = {
    "odds": [_SHOWN],
    "edges": [
        _SHOWN,
        (("--bets",), {"help": "comma-separated bet names, built-in or of --table (`baccarat list bets`)"}),
        (("--table",), {"help": "a table name (see `baccarat list tables`) or a table .toml file"}),
        (("--commission",), {"help": "add a Banker bet with this commission, e.g. 4%% or 0.04"}),
        (("--details",), {"action": "store_true", "help": "each bet's combinatorial table (table/markdown)"}),
    ],
    "compare": [
        (
            ("--tables",),
            {"help": "comma-separated table names (`baccarat list tables`) or .toml files (default: all)"},
        ),
        (
            ("--shoes",),
            {"default": "1,2,4,6,8,inf", "help": "decks to compare across (default 1,2,4,6,8,inf)"},
        ),
        (
            ("--variant",),
            {
                "default": SEED004.name,
                "help": f"tableau compared against --rules (default {SEED004.name}; `baccarat list rules`)",
            },
        ),
    ],
    "eor": [
        (("--bets",), {"help": "bet names, built-in or of --table (default: every built-in; `list bets`)"}),
        (("--table",), {"help": "a table name (`baccarat list tables`) or a table .toml file"}),
    ],
    "count": [
        (
            ("--system",),
            {"help": "system names (`baccarat list systems`) or a .toml file (default: every built-in)"},
        ),
        (
            ("--bet",),
            {
                "help": "bet to judge the systems on (default: each system's own; `list bets`); a "
                "card-level bet deals suited shoes and runs several times slower (README, Speed)"
            },
        ),
        (("--table",), {"help": "a table .toml file whose own bets --bet may name"}),
        (("--shoes",), {"default": "1000", "help": "number of shoes to simulate (default 1000)"}),
        (("--seed",), {"default": "1", "help": "random seed (default 1)"}),
        (
            ("--workers",),
            {"default": "1", "help": "worker processes (default 1); results don't depend on it"},
        ),
        (
            ("--cut-card",),
            {
                "default": "7",
                "help": "cards behind the cut card (default 7; the published figures and "
                "reports/counting.md use 14)",
            },
        ),
        (("--extra-coup",), {"action": "store_true", "help": "play one more coup after the cut card"}),
        (("--no-burn",), {"action": "store_true", "help": "burn no cards at the start of the shoe"}),
        (
            ("--burn-seen",),
            {
                "default": "first",
                "choices": ("none", "first", "all"),  # analyzer.counting.simulation.BURN_SEEN
                "help": "burned cards the counter sees: none, the face-up first (default) or all",
            },
        ),
        (
            ("--true-count",),
            {
                "choices": ("exact", "half-deck", "deck"),  # analyzer.counting.systems.Divisor
                "help": "decks left for the true count: exact (cards left / 52, the default), or "
                "rounded to the nearest half-deck or deck as a counter reckons them",
            },
        ),
        (("--strict",), {"action": "store_true", "help": "bet when the count exceeds the threshold (>)"}),
        (
            ("--executor",),
            {
                "default": "local",
                "help": "local (process pool, default), dask (a local Dask cluster of --workers "
                "workers) or tcp://HOST:PORT (an existing Dask scheduler; see README)",
            },
        ),
        (
            ("--bankroll",),
            {
                "default": "100",
                "help": "bankroll in units for the risk of ruin (default 100); risk of ruin = "
                "exp(-2 mu B / sigma^2), mu and sigma the mean and SD of the win per shoe",
            },
        ),
        (
            ("--coups-per-hour",),
            {"default": "80", "help": "coups dealt per hour, for the hourly figures (default 80)"},
        ),
    ],
    "solve": [
        (("game",), {"help": "chemin-de-fer, punto-5, banque or macao (`baccarat list games`)"}),
        (("--commission",), {"help": "commission on Banker wins, e.g. 5%% (chemin de fer)"}),
    ],
    "report": [(("--out",), {"default": "reports", "help": "directory to write (default reports)"})],
    "closed-form": [
        (("--bets",), {"help": "comma-separated bet names (default banker,player,tie; `baccarat list bets`)"})
    ],
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; `only`: build just that command's subparser (what a call naming
    a command needs: its parsing, help and errors are the same, and it starts faster)."""
    parser = _Parser(
        prog="baccarat",
        description="Exact combinatorial analysis of baccarat.",
        epilog="Built-in names: baccarat list bets|tables|rules|systems|games. Example: baccarat odds",
    )
    parser.add_argument("-V", "--version", action="version", version=f"baccarat {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (_, help_text, formats) in COMMANDS.items():
        if only is not None and name != only:
            continue
        command = sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            parents=[_common(formats)],
            epilog=f"Example: {EXAMPLES[name]}",
        )
        for flags, options in _EXTRA.get(name, []):
            command.add_argument(*flags, **options)  # type: ignore[arg-type]
    if only is not None and only != "list":
        return parser
    from analyzer.present.listing import KINDS

    listing = sub.add_parser(
        "list",
        help="built-in bets, tables, rules, systems or games, with title and source",
        description="Built-in names, each with its title and source: "
        + "; ".join(f"{kind}: {what}" for kind, what in KINDS.items()),
        epilog=f"Example: {EXAMPLES['list']}",
    )
    listing.add_argument("what", help=" | ".join(KINDS))
    listing.add_argument("--format", default="table", help=f"{'|'.join(fmt.FORMATS)} (default table)")
    return parser


def run(argv: Sequence[str] | None = None) -> str:
    """Parse `argv` and return the command's output text; bad input raises AnalyzerError."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv and argv[0] in (*COMMANDS, "list") else None)
    args = parser.parse_args(argv)
    if args.command is None:
        return parser.format_help()
    if args.command == "list":
        return _list(args)
    command, _, formats = COMMANDS[args.command]
    if args.format not in formats:
        raise AnalyzerError(f"--format {args.format!r}: use one of {', '.join(formats)}")
    shoe, rules = shoe_from_args(args), get_rules(args.rules or "standard")
    text = command(args, shoe, rules)
    if args.format == "table":
        return _wrap_prose(text)
    return _with_metadata(text, args, shoe, rules) if args.format == "json" else text


def _wrap_prose(text: str) -> str:
    """Prose lines wrapped to the terminal tables' width (table rows, which hold runs of
    spaces, are fitted by the formatter and left alone)."""
    import textwrap

    lines = []
    for line in text.split("\n"):
        if len(line) > fmt.WIDTH and "  " not in line.strip():
            indent = line[: len(line) - len(line.lstrip())]
            lines += textwrap.wrap(line, fmt.WIDTH, subsequent_indent=indent * 2, break_long_words=False)
        else:
            lines.append(line)
    return "\n".join(lines)


def _one_line(message: str) -> str:
    """A message on one line: line breaks in a bad value are shown as \\n."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        text = run(argv)
    except AnalyzerError as error:
        print(f"baccarat: error: {_one_line(str(error))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("baccarat: interrupted", file=sys.stderr)
        return 130
    if sys.stdout is None:  # started with stdout closed
        print("baccarat: error: cannot write the output: standard output is closed", file=sys.stderr)
        return 1
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: nothing more to say
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 1
    except OSError as error:
        print(f"baccarat: error: cannot write the output: {error.strerror or error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("baccarat: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
