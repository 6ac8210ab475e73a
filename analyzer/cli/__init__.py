"""The `baccarat` command: parses arguments, calls the library, hands its typed results to
the presentation layer and writes what it renders. `arguments` reads the command line and
words the library's errors (each argument as its flag), `commands` runs each command, `live`
reads a recorded shoe from standard input (`baccarat track -`).

>>> import json
>>> from analyzer.cli import run
>>> data = json.loads(run(["odds", "--decks", "1", "--format", "json"]))
>>> data["banker"], data["counts"]["banker"], data["shoe"]
('10526926/22903335', 6737232640, '1 deck')
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from analyzer.cli.arguments import EXAMPLES, OPTIONS, Parser, cli_words, common_options, shoe_from_args
from analyzer.cli.commands import CACHE_HELP, COMMANDS, cache_command, list_command
from analyzer.core import progress
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.rules import get_rules
from analyzer.present import render as fmt
from analyzer.version import __version__

__all__ = ["COMMANDS", "EXAMPLES", "build_parser", "main", "run", "shoe_from_args"]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; `only`: build just that command's subparser (what a call naming
    a command needs: its parsing, help and errors are the same, and it starts faster)."""
    parser = Parser(
        prog="baccarat",
        description="Exact combinatorial analysis of baccarat.",
        epilog="Built-in names: baccarat list bets|tables|rules|systems|games. Example: baccarat odds",
    )
    parser.add_argument("-V", "--version", action="version", version=f"baccarat {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name, (_, help_text, formats) in COMMANDS.items():
        if only is not None and name != only:
            continue
        command = sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            parents=[common_options(formats)],
            epilog=f"Example: {EXAMPLES[name]}",
        )
        for flags, options in OPTIONS.get(name, []):
            command.add_argument(*flags, **options)  # type: ignore[arg-type]
    if only in (None, "cache"):
        cache = sub.add_parser(
            "cache", help=CACHE_HELP, description=CACHE_HELP, epilog=f"Example: {EXAMPLES['cache']}"
        )
        cache.add_argument("--clear", action="store_true", help="remove the project's files (no other)")
        cache.add_argument("--format", default="table", help="table|json (default table)")
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
    parser = build_parser(argv[0] if argv and argv[0] in (*COMMANDS, "list", "cache") else None)
    args = parser.parse_args(argv)
    if args.command is None:
        return parser.format_help()
    if args.command == "list":
        return list_command(args)
    if args.command == "cache":
        return cache_command(args)
    command, _, formats = COMMANDS[args.command]
    if args.format not in formats:
        raise AnalyzerError(f"--format {quoted(args.format)}: use one of {', '.join(formats)}")
    shoe = shoe_from_args(args)
    return command(args, shoe, None if args.rules is None else get_rules(args.rules))


def _one_line(message: str) -> str:
    """A message on one line: line breaks in a bad value are shown as \\n."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


def _survive_any_encoding() -> None:
    """Standard output writes a character its encoding lacks (e.g. the "É" of "Égalité" under
    PYTHONIOENCODING=ascii) as "?", keeping tables aligned, instead of failing."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # a closed stream: reported when written
            reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    _survive_any_encoding()
    progress.enable(sys.stderr is not None and sys.stderr.isatty())  # bars on a terminal only
    try:
        text = run(argv)
    except AnalyzerError as error:
        print(f"baccarat: error: {_one_line(cli_words(error))}", file=sys.stderr)
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

