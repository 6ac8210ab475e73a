"""The `baccarat` command: parses arguments, calls the library, hands its typed results to
the presentation layer and writes what it renders. `arguments` reads the command line and
words the library's errors (each argument as its flag), `helptext` writes each command's
example and help, `commands` runs each command, `live` reads a recorded shoe from standard
input (`baccarat track -`).

>>> from analyzer.cli import run
>>> print(run(["odds", "--decks", "1"]).splitlines()[4])
banker     6,737,232,640   0.4596241552   10526926/22903335
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

from analyzer.cli.arguments import (
    EXAMPLES,
    OPTIONS,
    REFUSED,
    HelpFormatter,
    Parser,
    cli_words,
    common_options,
    example,
    refuse_shoe_options,
    shoe_from_args,
)
from analyzer.cli.commands import CACHE_HELP, COMMANDS, cache_command, check_outputs, list_command
from analyzer.cli.helptext import with_games
from analyzer.core import progress
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.rules import get_rules
from analyzer.core.signals import TERMINATING
from analyzer.present import text as fmt
from analyzer.version import __version__

__all__ = [
    "COMMANDS",
    "ENDING",
    "EXAMPLES",
    "Terminated",
    "build_parser",
    "example",
    "main",
    "run",
    "shoe_from_args",
]


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
        help_text = with_games(help_text)
        command = sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            parents=[common_options(formats, name)],
            epilog=f"Example: {example(name)}",
            formatter_class=HelpFormatter,
        )
        for flags, options in OPTIONS.get(name, []):
            if isinstance(options.get("help"), str):
                options = {**options, "help": with_games(str(options["help"]))}
            command.add_argument(*flags, **options)  # type: ignore[arg-type]
    if only in (None, "cache"):
        from analyzer.present.cache import CACHE_FORMATS

        cache = sub.add_parser(
            "cache", help=CACHE_HELP, description=CACHE_HELP, epilog=f"Example: {EXAMPLES['cache']}"
        )
        cache.add_argument("--clear", action="store_true", help="remove the project's files (no other)")
        cache.add_argument("--format", default="table", help=f"{'|'.join(CACHE_FORMATS)} (default table)")
    if only is not None and only != "list":
        return parser
    from analyzer.present.listing import KINDS

    listing = sub.add_parser(
        "list",
        help="built-in bets, tables, rules, systems or games, with title and source",
        description="Built-in names, each with its title and source: "
        + "; ".join(f"{kind}: {what}" for kind, what in KINDS.items()),
        epilog=f"Example: {example('list')}",
        formatter_class=HelpFormatter,
    )
    listing.add_argument("what", help=" | ".join(KINDS))
    listing.add_argument("--format", default="table", help=f"{'|'.join(fmt.FORMATS)}|csv (default table)")
    return parser


def run(argv: Sequence[str] | None = None) -> str:
    """Parse `argv` and return the command's output text; bad input raises AnalyzerError."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv and argv[0] in (*COMMANDS, "list", "cache") else None)
    args = parser.parse_args(argv)
    if args.command is None:
        return parser.format_help()
    progress.delay()  # a bad $BACCARAT_PROGRESS_DELAY refused by every command, on a terminal or not
    if args.command == "list":
        return list_command(args)
    if args.command == "cache":
        return cache_command(args)
    command, _, formats = COMMANDS[args.command]
    if args.format not in formats:
        raise AnalyzerError(f"--format {quoted(args.format)}: use one of {', '.join(formats)}")
    if args.command in REFUSED:  # before the shoe is read: the option itself is refused
        refuse_shoe_options(args, args.command)
    shoe = shoe_from_args(args)
    rules = None if args.rules is None else get_rules(args.rules)
    check_outputs(args)  # a file it may not replace is refused before any computing
    live = args.command == "track" and args.record == "-"  # a session at the keyboard: no bar
    told = getattr(args, "progress", False)  # `report --progress`: lines instead of bars
    lines = progress.lines(f"baccarat {args.command}") if told else contextlib.nullcontext()
    bar = contextlib.nullcontext() if live else progress.working(f"baccarat {args.command}")
    with lines, bar:  # lines first: with them on, no bar starts
        return command(args, shoe, rules)  # on a terminal, a bar once it runs over 2 s


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


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (`signum`), raised in the main thread as Ctrl-C raises
    KeyboardInterrupt (a subclass of it), so that what Ctrl-C cleans up is cleaned up: worker
    processes stopped, staging directories and temporary files removed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: The signals that end the command as Ctrl-C does, exit code 128 + the signal's number.
ENDING = TERMINATING


@contextlib.contextmanager
def _ended_like_ctrl_c() -> Iterator[None]:
    """SIGTERM and SIGHUP raise `Terminated` while the block runs (main thread only; a
    signal this process was started ignoring, as under nohup, stays ignored). A second one
    while the first is being cleaned up is ignored: the cleanup finishes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def ending(number: int, frame: object) -> None:
        for other in previous:
            signal.signal(other, signal.SIG_IGN)
        raise Terminated(number)

    previous = {number: signal.getsignal(number) for number in ENDING}
    previous = {number: handler for number, handler in previous.items() if handler is signal.SIG_DFL}
    for number in previous:
        signal.signal(number, ending)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _say(line: str) -> None:
    """`line` on standard error, if it can still be written (a closed terminal cannot)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(line, file=sys.stderr, flush=True)


def _silence_stdout() -> None:
    """Standard output pointed at the null device, so that the flush at exit of what was
    not written (the reader has gone) says nothing."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a file descriptor (e.g. captured)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - closed at exit


#: Exit codes: bad input 2; memory exhausted or the output unwritable 1; ended by a signal
#: 128 + its number (Ctrl-C 130, SIGTERM 143, SIGHUP 129, the reader of a pipe gone 141).
BAD_INPUT, FAILED, SIGNALLED = 2, 1, 128


def main(argv: Sequence[str] | None = None) -> int:
    _survive_any_encoding()
    progress.enable(sys.stderr is not None and sys.stderr.isatty())  # bars on a terminal only
    argv = sys.argv[1:] if argv is None else list(argv)
    command = argv[0] if argv and argv[0] in (*COMMANDS, "list") else None
    try:
        with _ended_like_ctrl_c():
            return _run_and_write(argv)
    except AnalyzerError as error:
        _say(f"baccarat: error: {_one_line(cli_words(error))}")
        return BAD_INPUT
    except Terminated as ended:
        _say(f"baccarat: stopped by {signal.Signals(ended.signum).name}")
        return SIGNALLED + ended.signum
    except KeyboardInterrupt:
        _say("baccarat: interrupted")
        return SIGNALLED + signal.SIGINT
    except BrokenPipeError:  # e.g. piped into head, which has read what it wanted
        _silence_stdout()
        return SIGNALLED + getattr(signal, "SIGPIPE", 13)
    except MemoryError:
        doing = f"`baccarat {command}`" if command else "`baccarat`"
        _say(f"baccarat: error: out of memory while running {doing}: ask for less (fewer shoes, bets or "
             "workers, smaller shoes) or free some memory")  # fmt: skip
        return FAILED


def _run_and_write(argv: list[str]) -> int:
    """Run the command and write its output; the exit code."""
    text = run(argv)
    if sys.stdout is None:  # started with stdout closed
        _say("baccarat: error: cannot write the output: standard output is closed")
        return FAILED
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        _say(f"baccarat: error: cannot write the output: {error.strerror or error}")
        return FAILED
    return 0
