"""The `baccarat` command: parses arguments, calls the library, hands results to the formatter."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from analyzer import format as fmt
from analyzer.bets import Bet, analyze, commission_banker
from analyzer.catalogue import BETS, TABLES, get_bet, get_bets, get_table, parse_commission
from analyzer.compare import compare_tables
from analyzer.composition import effects_of_removal
from analyzer.counting import SYSTEMS, Divisor, derived_counts, get_system
from analyzer.enumerate import distribution
from analyzer.errors import AnalyzerError
from analyzer.odds import odds, punto_table
from analyzer.rules import RULES, Rules, get_rules
from analyzer.shoe import Shoe, parse_counts, parse_decks
from analyzer.simulation import BURN_SEEN, Procedure, evaluate_systems

__all__ = ["main", "shoe_from_args"]


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one AnalyzerError line."""

    def error(self, message: str) -> NoReturn:
        if message.endswith("expected one argument"):
            message += " (for a value starting with '-', write --option=VALUE)"
        raise AnalyzerError(message)


def shoe_from_args(args: argparse.Namespace) -> Shoe:
    """The shoe named by --decks / --counts, less --remove."""
    if args.decks is not None and args.counts is not None:
        raise AnalyzerError(f"--decks {args.decks} and --counts both given: use one")
    shoe = parse_counts(args.counts) if args.counts is not None else parse_decks(args.decks or "8")
    if args.decks == "":
        raise AnalyzerError("--decks '': use a positive integer or inf")
    if args.remove is not None:
        from analyzer.cards import parse_ranks

        shoe = shoe.remove(parse_ranks(args.remove))
    return shoe


def _common(formats: Sequence[str] = fmt.FORMATS) -> argparse.ArgumentParser:
    parent = _Parser(add_help=False)
    parent.add_argument("--decks", help="number of decks (default 8; solve: the game's own) or inf")
    parent.add_argument("--counts", help="13 card counts in rank order A,2,...,9,10,J,Q,K")
    parent.add_argument("--remove", help="cards taken out of the shoe, e.g. 5,5,K")
    parent.add_argument("--rules", help=f"{'|'.join(RULES)} or a .toml file (default standard)")
    parent.add_argument("--format", default="table", help=f"{'|'.join(formats)} (default table)")
    return parent


def _odds(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    return fmt.render_odds(odds(shoe, rules), args.format)


def _punto_table(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    return fmt.render_punto_table(
        punto_table(shoe, rules),
        args.format,
        title=f"Probabilities after Punto's two cards: {shoe}, {rules.name} rules",
    )


def _rules(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    return fmt.render_rules(rules, args.format)


def _chosen_bets(args: argparse.Namespace) -> tuple[Rules | None, tuple[Bet, ...]]:
    """Bets from --table and/or --bets (default: every built-in), plus --commission."""
    table = get_table(args.table) if args.table else None
    bets = list(table.bets) if table else []
    if args.bets:
        bets += [bet for bet in get_bets(args.bets) if bet not in bets]
    if not table and not args.bets:
        bets = list(BETS.values())
    if args.commission is not None:
        bets.append(commission_banker(parse_commission(args.commission, "--commission")))
    names = [bet.name for bet in bets]
    for name in names:
        if names.count(name) > 1:
            raise AnalyzerError(f"two different bets are named {name!r}: rename one in the table file")
    return (table.rules if table else None), tuple(bets)


def _edges(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    table_rules, bets = _chosen_bets(args)
    rules = table_rules if table_rules and args.rules is None else rules
    dist = distribution(shoe, rules)
    return fmt.render_edges([analyze(bet, dist) for bet in bets], args.format, shoe, rules, args.details)


def _compare(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    names = [n.strip() for n in (args.tables or ",".join(TABLES)).split(",") if n.strip()]
    tables = [get_table(name) for name in names]
    shoes = [parse_decks(item) for item in args.shoes.split(",")]
    variant = get_rules(args.variant)
    comparison = compare_tables(tables, shoes, shoe, variant, list(BETS.values()), base=rules)
    return fmt.render_compare(comparison, args.format)


def _eor(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    if shoe.is_infinite:
        raise AnalyzerError("effects of removal need a finite shoe: use --decks N or --counts")
    bets = get_bets(args.bets) if args.bets else tuple(BETS.values())
    eor = effects_of_removal(bets, shoe, rules)
    return fmt.render_eor(eor, args.format, derived_counts(eor, [bet.name for bet in bets]))


def _count(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.advantage import advantage_figures
    from analyzer.executors import open_executor

    strict = True if args.strict else None
    systems = [
        system.variant(args.true_count, strict)
        for spec in args.system.split(",")
        for system in get_system(spec.strip())
    ]
    bets = [get_bet(args.bet or system.bet) for system in systems]
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


def _int_arg(text: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise AnalyzerError(f"{option} {text!r}: use an integer") from None


def _solve(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.games import default_shoe, solve_text  # the game solvers load only when asked

    commission = None if args.commission is None else parse_commission(args.commission, "--commission")
    if args.decks is None and args.counts is None:  # the game's own default shoe, less --remove
        shoe = default_shoe(args.game)
        if args.remove is not None:
            from analyzer.cards import parse_ranks

            shoe = shoe.remove(parse_ranks(args.remove))
    return solve_text(args.game, shoe, rules, commission, args.format)


def _report(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.report import write_reports

    out = Path(args.out)
    if not args.out.strip():
        raise AnalyzerError("--out '': give a directory, e.g. reports")
    if (out / "pyproject.toml").exists():
        raise AnalyzerError(
            f"--out {args.out!r} is a project root: write the reports into a directory of their own"
        )
    try:
        written = write_reports(out, progress=sys.stderr.isatty())
    except OSError as error:
        raise AnalyzerError(f"--out {args.out!r} cannot be written: {error.strerror or error}") from None
    summary = fmt.render_odds(odds(Shoe.decks(8)), "table")
    return summary + "\nReports written:\n" + "".join(f"  {path}\n" for path in written)


Command = Callable[[argparse.Namespace, Shoe, Rules], str]

COMMANDS: dict[str, tuple[Command, str, Sequence[str]]] = {
    "odds": (_odds, "exact probabilities of Banker, Player and tie", fmt.FORMATS),
    "punto-table": (
        _punto_table,
        "probabilities after Punto's two-card total (seed 003, Table 2)",
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
}

_EXTRA: dict[str, list[tuple[tuple[str, ...], dict[str, object]]]] = {
    "edges": [
        (("--bets",), {"help": "comma-separated built-in bet names"}),
        (("--table",), {"help": "a built-in table name or a table .toml file"}),
        (("--commission",), {"help": "add a Banker bet with this commission, e.g. 4%% or 0.04"}),
        (("--details",), {"action": "store_true", "help": "each bet's combinatorial table (table/markdown)"}),
    ],
    "compare": [
        (("--tables",), {"help": "comma-separated table names or .toml files (default: every built-in)"}),
        (
            ("--shoes",),
            {"default": "1,2,4,6,8,inf", "help": "decks to compare across (default 1,2,4,6,8,inf)"},
        ),
        (
            ("--variant",),
            {"default": "seed004", "help": "tableau compared against --rules (default seed004)"},
        ),
    ],
    "eor": [(("--bets",), {"help": "comma-separated built-in bet names (default: every built-in)"})],
    "count": [
        (("--system",), {"default": ",".join(SYSTEMS), "help": "built-in system names or a .toml file"}),
        (("--bet",), {"help": "bet to judge the systems on (default: each system's own bet)"}),
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
                "choices": BURN_SEEN,
                "help": "burned cards the counter sees: none, the face-up first (default) or all",
            },
        ),
        (
            ("--true-count",),
            {
                "choices": tuple(Divisor),
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
        (("game",), {"help": "chemin-de-fer, punto-5, banque or macao"}),
        (("--commission",), {"help": "commission on Banker wins, e.g. 5%% (chemin de fer)"}),
    ],
    "report": [(("--out",), {"default": "reports", "help": "directory to write (default reports)"})],
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="baccarat", description="Exact combinatorial analysis of baccarat.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (_, help_text, formats) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text, parents=[_common(formats)])
        for flags, options in _EXTRA.get(name, []):
            command.add_argument(*flags, **options)  # type: ignore[arg-type]
    return parser


def run(argv: Sequence[str] | None = None) -> str:
    """Parse `argv` and return the command's output text; bad input raises AnalyzerError."""
    args = build_parser().parse_args(argv)
    if args.command is None:
        raise AnalyzerError(f"no command given: use one of {', '.join(COMMANDS)}")
    command, _, formats = COMMANDS[args.command]
    if args.format not in formats:
        raise AnalyzerError(f"--format {args.format!r}: use one of {', '.join(formats)}")
    return command(args, shoe_from_args(args), get_rules(args.rules or "standard"))


def main(argv: Sequence[str] | None = None) -> int:
    try:
        text = run(argv)
    except AnalyzerError as error:
        print(f"baccarat: error: {error}", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: nothing more to say
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 1
    except OSError as error:
        print(f"baccarat: error: cannot write the output: {error.strerror or error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
