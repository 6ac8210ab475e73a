"""The commands: each parses what its options mean, calls the library function of its
command (`analyzer.analyses.results`, `analyzer.counting.results`, `analyzer.counting.tracking`,
`analyzer.games`) and hands the typed result to the presentation layer
(`analyzer.present.outputs`), which renders it; a command that writes files writes them here.
The engines load only when a command runs, so a cold `baccarat odds` starts fast."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.analyses import results
from analyzer.cli.arguments import (
    SPREADSHEET_COMMANDS,
    bet_names,
    cli_text,
    deck_item,
    deck_list,
    float_arg,
    int_arg,
    name_list,
    one_name,
    removed_cards,
)
from analyzer.cli.helptext import GAME_LIST
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.rules import Rules, get_rules
from analyzer.core.shoe import Shoe
from analyzer.present import outputs
from analyzer.present import text as fmt

if TYPE_CHECKING:
    from pathlib import Path

    from analyzer.analyses.shown import ShownCards
    from analyzer.core.bets import Bet
    from analyzer.counting.replay import Replay, Sizing

__all__ = ["CACHE_HELP", "COMMANDS", "Command", "cache_command", "check_outputs", "list_command"]


def _show(result: object, args: argparse.Namespace) -> str:
    """The result as the command prints it (`--remove`'s cards stated in the JSON's shoe);
    with --out FILE, written to FILE whole instead, and the file named. A binary format
    (XLSX) is written to a file only."""
    out = getattr(args, "out", None)
    if args.format in ("csv", "xlsx") and args.format not in outputs.sheet_formats(type(result)):
        raise AnalyzerError(
            f"--format {args.format}: this output has no tables to write so; use table, markdown or json"
        )
    if args.format in outputs.BINARY_FORMATS:
        if not out:
            raise AnalyzerError(f"--format {args.format} writes a binary file: give --out FILE.{args.format}")
        data: str | bytes = outputs.render_file(result, args.format)
    else:
        data = outputs.render(result, args.format, [] if args.remove is None else removed_cards(args.remove))
        if out is None:
            return data
    return _write_file(out, data)


def _write_file(text: str, data: str | bytes) -> str:
    """`data` written whole to the file `--out text` (judged before computing by
    `check_outputs`, and again against every file the command read); the line naming it."""
    from analyzer.core.files import check_target, write_atomic
    from analyzer.core.parsing import files_read

    check_target(text, "--out", _OUTPUTS["out"][1], [("input", path) for path in files_read()])
    try:
        write_atomic(text, data)
    except OSError as error:
        raise AnalyzerError(f"--out {quoted(text)} cannot be written: {error.strerror or error}") from None
    return fmt.written_list("Output", [text])


#: The options naming files a command may read (each a flag, and whether it lists several):
#: a name ending in .toml names a file, any other a built-in.
_INPUTS = {"table": ("--table", False), "tables": ("--tables", True), "system": ("--system", True),
           "rules": ("--rules", False)}  # fmt: skip
#: The options naming a file a command writes, each with an example name.
_OUTPUTS = {"out": ("--out", "edges.xlsx"), "write": ("--write", "designed.toml")}


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse, before any computing, the file a command is to write (--out FILE, design's
    --write) when it may not be replaced (`analyzer.core.files.check_target`): among them
    the same file as one the command reads (--table, --tables, --system, --rules)."""
    if all(getattr(args, dest, None) is None for dest in _OUTPUTS):
        return  # nothing to write: a cold `baccarat odds` loads no pathlib, no tempfile
    from analyzer.core.files import check_target

    inputs = []
    for dest, (option, several) in _INPUTS.items():
        value = getattr(args, dest, None)
        if value:
            items = [item.strip() for item in (value.split(",") if several else [value])]
            inputs += [(option, item) for item in items if item.lower().endswith(".toml")]
    for dest, (option, example) in _OUTPUTS.items():
        text = getattr(args, dest, None)
        if text is not None and (dest != "out" or args.command in SPREADSHEET_COMMANDS):
            check_target(text, option, example, inputs)


def _shown(args: argparse.Namespace) -> ShownCards | None:
    """The cards of --shown, if given (the card-level engine loads only then)."""
    if args.shown is None:
        return None
    from analyzer.analyses.shown import parse_shown

    return parse_shown(args.shown)


def _table(args: argparse.Namespace) -> str | None:
    return None if args.table is None else one_name(args.table, "--table")


def _commission(args: argparse.Namespace) -> Fraction | None:
    from analyzer.core.catalogue import parse_commission

    return None if args.commission is None else parse_commission(args.commission, "--commission")


def _odds(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    return _show(results.odds_result(shoe, rules, _shown(args)), args)


def _player_table(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    return _show(results.player_table_result(shoe, rules), args)


def _rules(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    return _show(results.rules_result(shoe, rules), args)


def _edges(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    table, bets = _table(args), bet_names(args.bets)
    result = results.edges_result(shoe, rules, bets, table, _commission(args), _shown(args), args.details)
    if result.note_template:  # stdout as without it: the note on standard error
        print(f"baccarat: note: {cli_text(result.note_template)}", file=sys.stderr)
    return _show(result, args)


def _known(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    from analyzer.analyses.known import known_result

    result = known_result(
        shoe, rules, bet_names(args.bets), _table(args), positions=args.positions, sort=args.sort,
        best_sort=args.best_sort, ranks=args.ranks,
    )  # fmt: skip
    return _show(result, args)


def _compare(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    tables = None if args.tables is None else name_list(args.tables, "--tables")
    shoes = [deck_item(item, "--shoes") for item in name_list(args.shoes, "--shoes")]
    return _show(results.compare_result(shoe, tables, shoes, get_rules(args.variant), rules), args)


def _eor(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    from analyzer.counting.results import eor_result

    return _show(eor_result(shoe, rules, bet_names(args.bets), _table(args)), args)


def _count(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    from analyzer.counting.executors import CONNECT_TIMEOUT, check_executor, check_timeout, check_workers
    from analyzer.counting.results import count_result
    from analyzer.counting.simulation import BURN_SEEN

    _sort_options(args)
    if args.no_burn and args.burn_seen is not None:
        raise AnalyzerError(
            f"--burn-seen {args.burn_seen}: with --no-burn no card is burned; give one or the other"
        )
    if args.sort is not None:
        return _sorted_count(args, shoe, rules)
    executor = check_executor(args.executor)  # the executor is judged before anything starts
    workers = check_workers(int_arg(args.workers, "--workers"))
    timeout = CONNECT_TIMEOUT
    if args.connect_timeout is not None:
        shown = f"--connect-timeout {quoted(args.connect_timeout)}"
        timeout = check_timeout(float_arg(args.connect_timeout, "--connect-timeout"), shown)
        if not executor.startswith("tcp://"):
            raise AnalyzerError(
                f"{shown}: it bounds the connection to a tcp://HOST:PORT scheduler; "
                "give it with --executor tcp://HOST:PORT"
            )
    bet = None if args.bet is None else one_name(args.bet, "--bet")
    if bet is not None and "," in bet:
        raise AnalyzerError(f"--bet {quoted(bet)}: give one bet name")
    result = count_result(
        shoe,
        rules,
        systems=None if args.system is None else name_list(args.system, "--system"),
        bet=bet,
        table=_table(args),
        true_count=args.true_count,
        strict=args.strict,
        cut_card=int_arg(args.cut_card, "--cut-card"),
        extra_coup=args.extra_coup,
        burn=not args.no_burn,
        burn_seen=args.burn_seen or BURN_SEEN[1],
        shoes=int_arg(args.shoes, "--shoes"),
        seed=int_arg(args.seed, "--seed"),
        workers=workers,
        executor=args.executor,
        connect_timeout=timeout,
        bankroll=float_arg(args.bankroll, "--bankroll"),
        coups_per_hour=float_arg(args.coups_per_hour, "--coups-per-hour"),
        cover=args.cover,
    )
    return _show(result, args)


def _track(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    from analyzer.counting.tracking import TrackResult, track_result, track_setup

    if not args.record:
        raise AnalyzerError("track '': give a record file, or - to read the record from standard input")
    _sort_options(args)
    if args.sort is not None:
        return _sorted_track(args, shoe, rules)
    systems = None if args.system is None else name_list(args.system, "--system")
    setup = track_setup(shoe, rules, bet_names(args.bets), _table(args), systems, _sizing(args))
    if args.record == "-":
        from analyzer.cli.live import track_live

        if args.format == "csv":  # a session writes each coup as it comes: a text
            raise AnalyzerError("--format csv: a live session (track -) writes table, markdown or json")

        def finish(replay: Replay) -> str:
            return _show(TrackResult(setup.shoe, setup.rules, replay, "-", live=True), args)

        return track_live(setup, args.format, finish)
    return _show(track_result(setup, args.record), args)


def _sort_alone(args: argparse.Namespace, options: Sequence[str]) -> None:
    """--sort values each coup with the sort alone: the counting options are refused."""
    for option in options:
        value = getattr(args, option.strip("-").replace("-", "_"))
        if value not in (None, False):
            raise AnalyzerError(f"--sort values each coup with the sort: give it without {option}")


def _sort_options(args: argparse.Namespace) -> None:
    """--sort-positions says where --sort reads: refused without --sort."""
    if args.sort is None and args.sort_positions is not None:
        raise AnalyzerError(
            f"--sort-positions {quoted(args.sort_positions)}: it says where --sort reads; give --sort too"
        )


def _sorted_track(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    from analyzer.counting.sorting import sort_track_result

    _sort_alone(args, ("--system", "--bankroll", "--kelly", "--min-bet", "--max-bet"))
    if args.record == "-":
        raise AnalyzerError("track - --sort: give a record file; live entry does not take --sort")
    result = sort_track_result(
        shoe, rules, bet_names(args.bets), _table(args), args.record, args.sort_positions or "1", args.sort
    )
    return _show(result, args)


def _sorted_count(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    from analyzer.counting.simulation import Procedure
    from analyzer.counting.sorting import sort_count_result

    _sort_alone(args, ("--system", "--true-count", "--strict"))
    if args.burn_seen is not None:
        raise AnalyzerError("--sort values each coup with the sort: give it without --burn-seen")
    bets = None if args.bet is None else [one_name(args.bet, "--bet")]
    cut_card = int_arg(args.cut_card, "--cut-card")
    procedure = Procedure(shoe=shoe, cut_card=cut_card, extra_coup=args.extra_coup, burn=not args.no_burn)
    result = sort_count_result(
        procedure, rules, bets, args.sort_positions or "1", args.sort,
        shoes=int_arg(args.shoes, "--shoes"), seed=int_arg(args.seed, "--seed"),
    )  # fmt: skip
    return _show(result, args)


def _sizing(args: argparse.Namespace) -> Sizing | None:
    """The Kelly sizing of --bankroll, --kelly, --min-bet and --max-bet (None without --bankroll)."""
    from analyzer.counting.replay import Sizing

    if args.bankroll is None:
        names = ("kelly", "min_bet", "max_bet")
        given = [f"--{name.replace('_', '-')}" for name in names if getattr(args, name) is not None]
        if given:
            raise AnalyzerError(f"{', '.join(given)} size bets on a bankroll: give --bankroll UNITS too")
        return None
    chosen: dict[str, Any] = {}  # what is not given takes Sizing's defaults
    if args.kelly is not None:
        chosen["kelly"] = _exact_units(args.kelly, "--kelly")
    if args.min_bet is not None:
        chosen["min_bet"] = int_arg(args.min_bet, "--min-bet")
    if args.max_bet is not None:
        chosen["max_bet"] = int_arg(args.max_bet, "--max-bet")
    return Sizing(_exact_units(args.bankroll, "--bankroll"), **chosen)


def _exact_units(text: str, option: str) -> Fraction:
    """A positive exact number of an option (an integer, a decimal or p/q)."""
    from analyzer.core.parsing import read_fraction

    value = read_fraction(text, option)
    if value is None or value <= 0:
        raise AnalyzerError(f"{option} {quoted(text)}: use a positive number, e.g. 100, 0.5 or 1/4")
    return value


def _solve(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    from analyzer.games import solve_result

    given = args.decks is not None or args.counts is not None or args.cards is not None
    removed = [] if given or args.remove is None else removed_cards(args.remove)
    result = solve_result(args.game, shoe if given else None, rules, _commission(args), removed)
    return _show(result, args)


def _report(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    from analyzer.present.reports import write_reports

    out = _out_dir(args.out, "reports")
    written = _written(args.out, lambda: write_reports(out, f"--out {quoted(args.out)}"))
    summary = outputs.render(results.odds_result(Shoe.decks(8)), "table")
    return summary + "\n" + fmt.wrap_prose(fmt.written_list("Reports", written))


def _closed_form(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    return _show(results.closed_form_result(bet_names(args.bets), rules), args)


def _design(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    from analyzer.analyses.design import OutOfReach, parse_window

    table = one_name(args.table, "--table")
    try:
        result = results.design_result(
            table,
            parse_window(args.edge),
            deck_list(args),
            bet=None if args.bet is None else one_name(args.bet, "--bet"),
            rules=rules,
            max_pay=int_arg(args.max_pay, "--max-pay"),
            monotone=args.monotone,
            limit=int_arg(args.limit, "--limit"),
            max_nodes=int_arg(args.max_nodes, "--max-nodes"),
            write=args.write,
            pick=None if args.pick is None else int_arg(args.pick, "--pick"),
        )
    except OutOfReach as error:
        raise AnalyzerError(error.words(fmt.percent)) from None
    return _show(result, args)


def _out_dir(text: str, example: str, command: str = "report") -> Path:
    """The directory `--out text` names, refused before any computing if it cannot take the
    files of `baccarat COMMAND` (`analyzer.present.folders.check_output_dir`)."""
    from pathlib import Path

    from analyzer.present.folders import check_output_dir

    if not text.strip() or text == "-":
        raise AnalyzerError(f"--out {quoted(text)}: give a directory, e.g. {example}")
    check_output_dir(Path(text), f"--out {quoted(text)}", command)
    return Path(text)


def _written(text: str, write: Callable[[], list[Path]]) -> list[Path]:
    """`write()`'s paths, a failure to write them one line naming `--out text`."""
    try:
        return write()
    except OSError as error:
        raise AnalyzerError(f"--out {quoted(text)} cannot be written: {error.strerror or error}") from None


def _par_sheet(args: argparse.Namespace, shoe: Shoe, rules: Rules | None) -> str:
    from analyzer.core.parsing import read_fraction
    from analyzer.counting.executors import check_executor
    from analyzer.counting.results import par_result
    from analyzer.present.par_documents import par_files, sheet_files

    check_executor(args.executor)
    if args.format == "pdf":  # Chromium is looked for before any computing
        from analyzer.present.pdf import browser

        browser()
    workers = int_arg(args.workers, "--workers")
    material = read_fraction(args.material, "--material")
    if material is None or material < 0:
        raise AnalyzerError(f"--material {quoted(args.material)}: use a number of units per shoe, 0 or more")
    out: list[Path] = []

    def check(bets: Sequence[Bet]) -> None:
        """--out refused before any computing, and so are bets whose files would collide."""
        if args.out is not None:
            out.append(_out_dir(args.out, "sheets", "par-sheet"))
            sheet_files([bet.name for bet in bets], args.format)

    result = par_result(
        shoe, rules, bet_names(args.bets), _table(args), shoes=int_arg(args.shoes, "--shoes"),
        seed=int_arg(args.seed, "--seed"), cut_card=int_arg(args.cut_card, "--cut-card"),
        material=material, workers=workers, executor=args.executor, check=check, cover=args.cover,
    )  # fmt: skip
    if not out:
        if args.format in outputs.BINARY_FORMATS:
            raise AnalyzerError(
                f"--format {args.format} writes binary files: give --out DIR (one file per bet)"
            )
        return _show(result, args)
    from analyzer.present.folders import write_owned
    from analyzer.present.par_documents import provenance

    removed = [] if args.remove is None else removed_cards(args.remove)
    files = par_files(result.sheets, args.format, outputs.envelope(result, removed), provenance(result))
    written = _written(args.out, lambda: write_owned(out[0], files, f"--out {quoted(args.out)}"))
    if args.format == "json":
        return fmt.dumps(outputs.enveloped({"written": [str(path) for path in written]}, result, removed))
    return fmt.written_list("Par sheets", written)


def list_command(args: argparse.Namespace) -> str:
    from analyzer.present.listing import list_result

    return outputs.render(list_result(args.what), args.format)


CACHE_HELP = "the cache folder of compiled tableaux and plans (--clear empties it)"


def cache_command(args: argparse.Namespace) -> str:
    """`baccarat cache [--clear]`: the cache folder, the project's files in it and their
    bytes, its bounds; --clear first removes those files (never another file)."""
    from analyzer.present.cache import CACHE_FORMATS
    from analyzer.ranks.diskcache import cache_status

    if args.format not in CACHE_FORMATS:
        raise AnalyzerError(f"--format {quoted(args.format)}: use one of {', '.join(CACHE_FORMATS)}")
    return outputs.render(cache_status(clear=args.clear), args.format)


Command = Callable[[argparse.Namespace, Shoe, "Rules | None"], str]

#: The formats of a command with tables: CSV too; with XLSX too (a file: --out FILE).
_CSV = (*fmt.FORMATS, "csv")
_SHEETS = (*fmt.FORMATS, "csv", "xlsx")

COMMANDS: dict[str, tuple[Command, str, Sequence[str]]] = {
    "odds": (_odds, "exact probabilities of Banker, Player and tie", _CSV),
    "punto-table": (
        _player_table,
        "probabilities after Punto's two-card total (a Russian gambling dictionary's Table 2)",
        _CSV,
    ),
    "rules": (_rules, "show the drawing tableau (dot: the coup's state graph)", (*fmt.FORMATS, "dot", "csv")),
    "edges": (_edges, "exact house edges of bets (default: every built-in bet)", _SHEETS),
    "known": (
        _known,
        "the exact value of known cards or of a sort (edge sorting) at shoe positions 1-6",
        _CSV,
    ),
    "compare": (
        _compare,
        "payout rules side by side across shoes; commissions; tableau effects",
        _SHEETS,
    ),
    "eor": (_eor, "exact effects of removal of one card of each rank on every bet", _SHEETS),
    "count": (_count, "judge counting systems against the exact value of every coup", _SHEETS),
    "solve": (_solve, f"solve a game where hands choose ({GAME_LIST})", _CSV),
    "report": (_report, "(re)write the Markdown reports and print the 8-deck odds", ("table",)),
    "closed-form": (
        _closed_form,
        "each bet's probabilities and house edge as exact functions of the number of decks d",
        _CSV,
    ),
    "design": (
        _design,
        "every whole-number paytable of a bet whose exact house edge lies in a window",
        _CSV,
    ),
    "par-sheet": (
        _par_sheet,
        "a bet's complete mathematics for a regulator, with a verdict on counting",
        (*fmt.DOCUMENT_FORMATS, "csv", "xlsx", "pdf"),
    ),
    "track": (
        _track,
        "replay a recorded shoe coup by coup with the exact value of every bet",
        _CSV,
    ),
}
