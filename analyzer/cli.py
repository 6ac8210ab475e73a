"""The `baccarat` command: parses arguments, calls the library, hands results to the formatter."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

from analyzer import format as fmt
from analyzer.bets import Bet, analyze, commission_banker
from analyzer.cardlevel import can_price
from analyzer.catalogue import BETS, CARD_BETS, TABLES, get_bet, get_table, parse_commission, select_bets
from analyzer.compare import compare_tables
from analyzer.composition import effects_of_removal
from analyzer.counting import SYSTEMS, derived_counts, get_system
from analyzer.enumerate import distribution
from analyzer.errors import AnalyzerError
from analyzer.odds import odds, punto_table
from analyzer.rules import RULES, Rules, get_rules
from analyzer.shoe import Shoe, parse_cards, parse_counts, parse_decks
from analyzer.simulation import Procedure, evaluate_systems

__all__ = ["main", "shoe_from_args"]


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one AnalyzerError line."""

    def error(self, message: str) -> NoReturn:
        if message.endswith("expected one argument"):
            message += " (for a value starting with '-', write --option=VALUE)"
        raise AnalyzerError(message)


def shoe_from_args(args: argparse.Namespace) -> Shoe:
    """The shoe named by --decks / --counts / --cards, less --remove."""
    given = [f"--{name}" for name in ("decks", "counts", "cards") if getattr(args, name, None) is not None]
    if len(given) > 1:
        raise AnalyzerError(f"{' and '.join(given)} both given: use one")
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


def _common(formats: Sequence[str] = fmt.FORMATS) -> argparse.ArgumentParser:
    parent = _Parser(add_help=False)
    parent.add_argument("--decks", help="number of decks (default 8; solve: the game's own) or inf")
    parent.add_argument("--counts", help="13 card counts in rank order A,2,...,9,10,J,Q,K")
    parent.add_argument(
        "--cards", help="52 card-type counts: spades A,2,...,10,J,Q,K, then hearts, diamonds, clubs"
    )
    parent.add_argument("--remove", help="cards taken out of the shoe, e.g. 5,5,K or KH,9S")
    parent.add_argument("--rules", help=f"{'|'.join(RULES)} or a .toml file (default standard)")
    parent.add_argument("--format", default="table", help=f"{'|'.join(formats)} (default table)")
    return parent


def _odds(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    if args.shown is not None:  # odds after cards are shown (card-level engine)
        from analyzer.shown import parse_shown, shown_odds

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
    spec: str | None = getattr(args, "table", None)
    table = get_table(spec) if spec else None
    bets = list(table.bets) if table else []
    if args.bets:
        bets = select_bets(args.bets, table)
    if not table and not args.bets:
        bets = list(BETS.values())
        bets += [bet for bet in CARD_BETS.values() if shoe is None or can_price(bet, shoe)]
    if getattr(args, "commission", None) is not None:
        bets.append(commission_banker(parse_commission(args.commission, "--commission")))
    names = [bet.name for bet in bets]
    for name in names:
        if names.count(name) > 1:
            raise AnalyzerError(f"two different bets are named {name!r}: rename one in the table file")
    return (table.rules if table else None), tuple(bets)


def _edges(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    table_rules, bets = _chosen_bets(args, shoe)
    rules = table_rules if table_rules and args.rules is None else rules
    if args.shown is not None:  # every bet's value after cards are shown (card-level engine)
        from analyzer.shown import parse_shown, shown_analyses

        shown = parse_shown(args.shown)
        if args.bets is None and args.table is None:
            bets = tuple(bet for bet in bets if can_price(bet, shoe))
        analyses = shown_analyses(bets, shoe, shown, rules)
        labelled = replace(shoe, label=f"{shoe}, shown {shown}")
        text = fmt.render_edges(analyses, args.format, labelled, rules, args.details)
        return fmt.with_shown(text, shown.as_dict(), args.format)
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
    table_rules, chosen = _chosen_bets(args) if args.bets or args.table else (None, tuple(BETS.values()))
    rules = table_rules if table_rules and args.rules is None else rules
    bets = tuple(bet for bet in chosen if not bet.card_level)
    cards = tuple(bet for bet in chosen if bet.card_level)
    text = ""
    if bets:
        eor = effects_of_removal(bets, shoe, rules)
        text = fmt.render_eor(eor, args.format, derived_counts(eor, [bet.name for bet in bets]))
    if cards:  # card-level bets: per card type when they read suits (issue 8)
        from analyzer.cardeor import card_effects_of_removal

        card_text = fmt.render_card_eor(card_effects_of_removal(cards, shoe, rules), args.format)
        if args.format == "json" and bets:
            import json

            data = json.loads(text)
            data["card_level"] = json.loads(card_text)
            return fmt.dumps(data)
        text = text + ("\n" if text else "") + card_text
    return text


def _count(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    systems = [system for spec in args.system.split(",") for system in get_system(spec.strip())]
    table = get_table(args.table) if args.table else None
    bets = [select_bets(args.bet, table)[0] if args.bet else get_bet(system.bet) for system in systems]
    for bet in bets:
        if bet.card_level:
            raise AnalyzerError(f"count judges bets an outcome settles; {bet.name!r} reads individual cards")
    cut_card = _int_arg(args.cut_card, "--cut-card")
    procedure = Procedure(shoe=shoe, cut_card=cut_card, extra_coup=args.extra_coup)
    results = evaluate_systems(
        systems, bets, procedure, rules,
        shoes=_int_arg(args.shoes, "--shoes"), seed=_int_arg(args.seed, "--seed"),
        workers=_int_arg(args.workers, "--workers"), progress=sys.stderr.isatty(),
    )  # fmt: skip
    last = ", one more coup after the cut card" if procedure.extra_coup else ""
    described = f"{shoe}, cut card {cut_card} cards from the end{last}, {args.shoes} shoes, seed {args.seed}"
    return fmt.render_count(results, args.format, described)


def _int_arg(text: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise AnalyzerError(f"{option} {text!r}: use an integer") from None


def _solve(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.games import default_shoe, solve_text  # the game solvers load only when asked

    commission = None if args.commission is None else parse_commission(args.commission, "--commission")
    if args.decks is None and args.counts is None and args.cards is None:  # the game's own, less --remove
        shoe = default_shoe(args.game)
        if args.remove is not None:
            shoe = shoe.remove(_removed(args.remove))
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

_SHOWN: tuple[tuple[str, ...], dict[str, object]] = (
    ("--shown",),
    {"help": "cards shown at dealt positions, e.g. p1=9,b1=KH (p1 b1 p2 b2 p3 b3)"},
)
_EXTRA: dict[str, list[tuple[tuple[str, ...], dict[str, object]]]] = {
    "odds": [_SHOWN],
    "edges": [
        _SHOWN,
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
    "eor": [
        (("--bets",), {"help": "bet names, built-in or of --table (default: every built-in)"}),
        (("--table",), {"help": "a built-in table name or a table .toml file"}),
    ],
    "count": [
        (("--system",), {"default": ",".join(SYSTEMS), "help": "built-in system names or a .toml file"}),
        (("--bet",), {"help": "bet to judge the systems on (default: each system's own bet)"}),
        (("--table",), {"help": "a table .toml file whose own bets --bet may name"}),
        (("--shoes",), {"default": "1000", "help": "number of shoes to simulate (default 1000)"}),
        (("--seed",), {"default": "1", "help": "random seed (default 1)"}),
        (
            ("--workers",),
            {"default": "1", "help": "worker processes (default 1); results don't depend on it"},
        ),
        (("--cut-card",), {"default": "7", "help": "cards behind the cut card (default 7)"}),
        (("--extra-coup",), {"action": "store_true", "help": "play one more coup after the cut card"}),
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
