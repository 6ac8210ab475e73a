"""The `baccarat` command: parses arguments, calls the library, hands results to the formatter."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from analyzer import format as fmt
from analyzer.errors import AnalyzerError
from analyzer.odds import odds, punto_table
from analyzer.rules import RULES, Rules, get_rules
from analyzer.shoe import Shoe, parse_counts, parse_decks

__all__ = ["main", "shoe_from_args"]


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one AnalyzerError line."""

    def error(self, message: str) -> NoReturn:
        raise AnalyzerError(message)


def shoe_from_args(args: argparse.Namespace) -> Shoe:
    """The shoe named by --decks / --counts, less --remove."""
    if args.decks is not None and args.counts is not None:
        raise AnalyzerError(f"--decks {args.decks} and --counts both given: use one")
    shoe = parse_counts(args.counts) if args.counts is not None else parse_decks(args.decks or "8")
    if args.remove:
        from analyzer.cards import parse_ranks

        shoe = shoe.remove(parse_ranks(args.remove))
    return shoe


def _common(formats: Sequence[str] = fmt.FORMATS) -> argparse.ArgumentParser:
    parent = _Parser(add_help=False)
    parent.add_argument("--decks", help="number of decks (default 8) or inf")
    parent.add_argument("--counts", help="13 card counts in rank order A,2,...,9,10,J,Q,K")
    parent.add_argument("--remove", help="cards taken out of the shoe, e.g. 5,5,K")
    parent.add_argument("--rules", default="standard", help=f"{'|'.join(RULES)} or a .toml file")
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


Command = Callable[[argparse.Namespace, Shoe, Rules], str]

COMMANDS: dict[str, tuple[Command, str, Sequence[str]]] = {
    "odds": (_odds, "exact probabilities of Banker, Player and tie", fmt.FORMATS),
    "punto-table": (
        _punto_table,
        "probabilities after Punto's two-card total (seed 003, Table 2)",
        fmt.FORMATS,
    ),
    "rules": (_rules, "show the drawing tableau (dot: the coup's state graph)", (*fmt.FORMATS, "dot")),
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="baccarat", description="Exact combinatorial analysis of baccarat.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (_, help_text, formats) in COMMANDS.items():
        sub.add_parser(name, help=help_text, description=help_text, parents=[_common(formats)])
    return parser


def run(argv: Sequence[str] | None = None) -> str:
    """Parse `argv` and return the command's output text; bad input raises AnalyzerError."""
    args = build_parser().parse_args(argv)
    if args.command is None:
        raise AnalyzerError(f"no command given: use one of {', '.join(COMMANDS)}")
    command, _, formats = COMMANDS[args.command]
    if args.format not in formats:
        raise AnalyzerError(f"--format {args.format!r}: use one of {', '.join(formats)}")
    return command(args, shoe_from_args(args), get_rules(args.rules))


def main(argv: Sequence[str] | None = None) -> int:
    try:
        sys.stdout.write(run(argv))
    except AnalyzerError as error:
        print(f"baccarat: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
