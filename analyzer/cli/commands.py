"""The commands: each parses what its options mean, calls the library and hands the result
to the renderer. Each command imports the modules it needs when it runs (numpy, the
catalogue, the counting systems, the games), so a cold `baccarat odds` starts fast."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.analyses.odds import odds, player_table
from analyzer.cli.arguments import (
    DECK_LISTS,
    bet_list,
    deck_item,
    deck_list,
    float_arg,
    int_arg,
    name_list,
    one_name,
    removed_cards,
)
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.rules import Rules, get_rules
from analyzer.core.shoe import Shoe
from analyzer.present import render as fmt
from analyzer.version import __version__

if TYPE_CHECKING:
    from fractions import Fraction

    from analyzer.analyses.design import Design
    from analyzer.cli.live import TrackSetup
    from analyzer.core.bets import Bet
    from analyzer.counting.simulation import Procedure
    from analyzer.counting.systems import CountSystem

__all__ = ["CACHE_HELP", "COMMANDS", "Command", "cache_command", "list_command", "with_metadata"]


def _odds(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    if args.shown is not None:  # odds after cards are shown (card-level engine)
        from analyzer.analyses.shown import parse_shown, shown_odds

        shown = parse_shown(args.shown)
        text = fmt.render_odds(shown_odds(shoe, shown, rules), args.format)
        return fmt.with_shown(text, shown.as_dict(), args.format)
    return fmt.render_odds(odds(shoe, rules), args.format)


def _player_table(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    return fmt.render_player_table(
        player_table(shoe, rules),
        args.format,
        title=f"Probabilities after Punto's two cards: {shoe}, {rules.name} rules",
    )


def _rules(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    return fmt.render_rules(rules, args.format)


def _chosen_bets(args: argparse.Namespace, shoe: Shoe | None = None) -> tuple[Rules | None, tuple[Bet, ...]]:
    """Bets from --table and/or --bets (default: every built-in, the card-level ones that
    `shoe` can price), plus --commission. --bets names a table's own bets or built-ins."""
    from analyzer.core.bets import commission_banker
    from analyzer.core.catalogue import BETS, get_table, parse_commission, select_bets

    spec: str | None = getattr(args, "table", None)
    table = get_table(one_name(spec, "--table")) if spec is not None else None
    bets = list(table.bets) if table else []
    if args.bets is not None:
        bets = select_bets(",".join(name_list(args.bets, "--bets")), table)
    if not table and args.bets is None:
        from analyzer.core.bets import can_price  # numpy-free: full decks price from polynomials

        bets = [bet for bet in BETS.values() if shoe is None or can_price(bet, shoe)]
    if getattr(args, "commission", None) is not None:
        bets.append(commission_banker(parse_commission(args.commission, "--commission")))
    names = [bet.name for bet in bets]
    for name in names:
        if names.count(name) > 1:
            raise AnalyzerError(f"two different bets are named {quoted(name)}: rename one in the table file")
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
    from analyzer.core.catalogue import RANK_BETS, TABLES, get_table

    names = list(TABLES) if args.tables is None else name_list(args.tables, "--tables")
    tables = [get_table(name) for name in names]
    shoes = [deck_item(item, "--shoes") for item in name_list(args.shoes, "--shoes")]
    variant = get_rules(args.variant)
    comparison = compare_tables(tables, shoes, shoe, variant, list(RANK_BETS.values()), base=rules)
    return fmt.render_compare(comparison, args.format)


def _eor(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.analyses.effects import effects_of_removal
    from analyzer.core.catalogue import RANK_BETS
    from analyzer.counting.systems import derived_counts

    if shoe.is_infinite:
        raise AnalyzerError("effects of removal need a finite shoe: use --decks N or --counts")
    table_rules, chosen = _chosen_bets(args) if args.bets is not None or args.table is not None else (
        None, tuple(RANK_BETS.values())
    )
    result = effects_of_removal(chosen, shoe, _edges_rules(args, table_rules, rules))
    counts = derived_counts(result, list(result.effects))
    return fmt.render_removal_effects(result, args.format, counts)


def _count(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.core.catalogue import get_table, select_bets
    from analyzer.counting.advantage import advantage_figures
    from analyzer.counting.executors import check_executor, check_timeout, check_workers, open_executor
    from analyzer.counting.simulation import Procedure, evaluate_systems
    from analyzer.counting.systems import SYSTEMS

    address = check_executor(args.executor)  # the executor is judged before anything starts
    workers = check_workers(int_arg(args.workers, "--workers"))
    shown = f"--connect-timeout {quoted(args.connect_timeout)}"
    timeout = check_timeout(float_arg(args.connect_timeout, "--connect-timeout"), shown)
    strict = True if args.strict else None
    names = ",".join(SYSTEMS) if args.system is None else args.system
    specs = [(spec, system.variant(args.true_count, strict)) for spec, system in _named_systems(names)]
    systems = [system for _, system in specs]
    table = get_table(one_name(args.table, "--table")) if args.table is not None else None
    bet = None if args.bet is None else one_name(args.bet, "--bet")
    if bet is not None and "," in bet:
        raise AnalyzerError(f"--bet {quoted(bet)}: give one bet name")
    bets = [select_bets(bet, table)[0] if bet else _system_bet(spec, system) for spec, system in specs]
    cut_card = int_arg(args.cut_card, "--cut-card")
    procedure = Procedure(
        shoe=shoe,
        cut_card=cut_card,
        extra_coup=args.extra_coup,
        burn=not args.no_burn,
        burn_seen=args.burn_seen,
    )
    shoes = int_arg(args.shoes, "--shoes")
    bankroll = float_arg(args.bankroll, "--bankroll")
    per_hour = float_arg(args.coups_per_hour, "--coups-per-hour")
    with open_executor(address, workers, timeout) as executor:
        results = evaluate_systems(
            systems, bets, procedure, rules, shoes=shoes, seed=int_arg(args.seed, "--seed"),
            workers=workers, executor=executor,
        )  # fmt: skip
    if results and results[0].coups == 0:
        raise AnalyzerError(
            f"no coup can be dealt from {shoe} ({shoe.size} cards) with cut card {cut_card}"
            f"{'' if args.no_burn else ' after the burn'}: use a bigger shoe or a smaller --cut-card"
        )
    figures = [advantage_figures(r, bankroll, per_hour) for r in results]
    return fmt.render_count(results, args.format, _described(args, procedure, shoes), figures)


def _named_systems(names: str) -> list[tuple[str, CountSystem]]:
    """The systems of a --system list (built-in names or .toml files), each with the item
    naming it; a system name given twice is an error."""
    from analyzer.counting.systems import get_system

    specs = [(spec, system) for spec in name_list(names, "--system") for system in get_system(spec)]
    for i, (spec, system) in enumerate(specs):
        if any(system.name == other.name for _, other in specs[:i]):
            raise AnalyzerError(
                f"--system: {quoted(spec)} gives a system named {quoted(system.name)} again; "
                "give each system one name"
            )
    return specs


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


def _system_bet(spec: str, system: CountSystem) -> Bet:
    """The system's own bet; an unknown one is named with the file that gives it."""
    from analyzer.core.catalogue import get_bet

    try:
        return get_bet(system.bet)
    except AnalyzerError as error:
        raise AnalyzerError(f"{spec}: systems.{system.name}.bet: {error}") from None


def _track(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.counting.record import RecordCard, read_record
    from analyzer.counting.replay import replay

    if not args.record:
        raise AnalyzerError("track '': give a record file, or - to read the record from standard input")
    setup = _track_setup(args, shoe, rules)
    if args.record == "-":
        from analyzer.cli.live import track_live

        return track_live(setup, args.format, lambda text: with_metadata(text, args, shoe, rules))
    entries = read_record(args.record)
    suited = all(entry.suit is not None for entry in entries if isinstance(entry, RecordCard))
    result = replay(entries, shoe, setup.valuer(suited), setup.systems, setup.sizing)
    return fmt.render_track(result, args.format, args.record)


def _track_setup(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> TrackSetup:
    """What `track` values, read from its options before any card: the bets (default: every
    built-in the record's cards allow, so two lists: for suited and for ranks-only records),
    the table's rules unless --rules, the systems (and their bets), the Kelly sizing."""
    from analyzer.cli.live import TrackSetup
    from analyzer.counting.replay import Sizing

    if shoe.counts is None:
        raise AnalyzerError("track needs a finite shoe: use --decks N, --counts or --cards")
    table_rules, suited = _chosen_bets(args, shoe)
    _, ranks_only = _chosen_bets(args, Shoe.from_counts(shoe.counts))
    systems = _named_systems(args.system) if args.system is not None else []
    extra = [_system_bet(spec, system) for spec, system in systems]
    sizing = None
    if args.bankroll is None:
        names = ("kelly", "min_bet", "max_bet")
        given = [f"--{name.replace('_', '-')}" for name in names if getattr(args, name) is not None]
        if given:
            raise AnalyzerError(f"{', '.join(given)} size bets on a bankroll: give --bankroll UNITS too")
    else:
        sizing = Sizing(
            _exact_units(args.bankroll, "--bankroll"),
            _exact_units(args.kelly or "0.5", "--kelly"),
            int_arg(args.min_bet or "1", "--min-bet"),
            None if args.max_bet is None else int_arg(args.max_bet, "--max-bet"),
        )

    def tracked(bets: Sequence[Bet]) -> tuple[Bet, ...]:
        """The bets, and each system's bet after them unless a bet of its name is there."""
        chosen = list(bets)
        for bet in extra:
            if all(bet.name != other.name for other in chosen):
                chosen.append(bet)
        return tuple(chosen)

    return TrackSetup(
        rules=_edges_rules(args, table_rules, rules),
        shoe=shoe,
        bets=(tracked(suited), tracked(ranks_only)),
        systems=tuple(system for _, system in systems),
        sizing=sizing,
    )


def _exact_units(text: str, option: str) -> Fraction:
    """A positive exact number of an option (an integer, a decimal or p/q)."""
    from analyzer.core.parsing import read_fraction

    value = read_fraction(text, option)
    if value is None or value <= 0:
        raise AnalyzerError(f"{option} {quoted(text)}: use a positive number, e.g. 100, 0.5 or 1/4")
    return value


def _solve_shoe(args: argparse.Namespace, shoe: Shoe) -> Shoe:
    """The game's own default shoe, less --remove, unless --decks or --counts is given."""
    from analyzer.games import default_shoe  # the game solvers load only when asked

    if args.decks is None and args.counts is None and args.cards is None:
        shoe = default_shoe(args.game)
        if args.remove is not None:
            shoe = shoe.remove(removed_cards(args.remove))
    return shoe


def _solve(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.core.catalogue import parse_commission
    from analyzer.games import solve
    from analyzer.present.games import render_game  # the game solvers load only when asked

    commission = None if args.commission is None else parse_commission(args.commission, "--commission")
    return render_game(solve(args.game, _solve_shoe(args, shoe), rules, commission), args.format)


def _report(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.present.reports import write_reports

    out = _out_dir(args.out, "reports")
    written = _written(args.out, lambda: write_reports(out))
    summary = fmt.render_odds(odds(Shoe.decks(8)), "table")
    return summary + "\n" + fmt.written_list("Reports", written)


def _closed_form(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.analyses.closed_form import MAIN_BETS, closed_forms  # sympy loads only when asked
    from analyzer.core.catalogue import BETS

    bets = bet_list(args.bets, "--bets") if args.bets is not None else tuple(BETS[n] for n in MAIN_BETS)
    for bet in bets:
        if bet.card_level:
            raise AnalyzerError(
                f"closed-form --bets: {quoted(bet.name)} reads individual cards; "
                "closed forms cover bets that a coup's outcome settles"
            )
    return fmt.render_closed_forms(closed_forms(bets, rules), args.format)


def _design(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.analyses.design import OutOfReach, design, parse_window
    from analyzer.core.catalogue import get_bet, get_table

    table = get_table(one_name(args.table, "--table"))
    own = {bet.name: bet for bet in table.bets}
    if args.bet is None:
        open_bets = [bet.name for bet in table.bets if bet.unknowns]
        if len(open_bets) != 1:
            some = f"one of {', '.join(open_bets)}" if open_bets else "no bet of it has payouts to find"
            raise AnalyzerError(f"--table {quoted(args.table)}: give --bet, {some}")
        args.bet = open_bets[0]
    name = one_name(args.bet, "--bet")
    try:
        found = design(
            own[name] if name in own else get_bet(name),
            deck_list(args),
            *parse_window(args.edge),
            rules=_edges_rules(args, table.rules, rules),
            max_pay=int_arg(args.max_pay, "--max-pay"),
            monotone=args.monotone,
            limit=int_arg(args.limit, "--limit"),
            max_nodes=int_arg(args.max_nodes, "--max-nodes"),
        )
    except OutOfReach as error:
        raise AnalyzerError(error.words(fmt.percent)) from None
    text = fmt.render_design(found, args.format)
    if args.write is None:
        if args.pick is not None:
            raise AnalyzerError("--pick chooses the paytable --write writes: give --write FILE too")
        return text
    written = _write_design(args, found, table.title)
    return text if args.format == "json" else f"{text}\n{written}\n"


def _write_design(args: argparse.Namespace, found: Design, title: str) -> str:
    """Write the --pick'th paytable of `found` to --write as a table file; say what was written."""
    from analyzer.core.files import write_atomic
    from analyzer.core.tablefile import table_text

    pick = 1 if args.pick is None else int_arg(args.pick, "--pick")
    if not 1 <= pick <= len(found.solutions):
        more = " (raise --limit)" if found.solutions else ""
        raise AnalyzerError(
            f"--pick {quoted(args.pick or '1')}: the listing holds {len(found.solutions):,} paytables{more}"
        )
    out = Path(args.write)
    if not args.write.strip() or out.is_dir():
        raise AnalyzerError(f"--write {quoted(args.write)}: give a file name, e.g. designed.toml")
    if out.exists() and out.resolve() == Path(args.table.strip()).resolve():
        raise AnalyzerError(f"--write {quoted(args.write)} is the --table file designed: write another file")
    solution = found.solutions[pick - 1]
    try:
        text = table_text(solution.bet, found.rules, title, fmt.design_comment(found, pick))
        write_atomic(out, text)
    except OSError as error:
        reason = error.strerror or error
        raise AnalyzerError(f"--write {quoted(args.write)} cannot be written: {reason}") from None
    return fmt.written_paytable(pick, args.write)


def _out_dir(text: str, example: str, command: str = "report") -> Path:
    """The directory `--out text` names, refused before any computing if it cannot take the
    files of `baccarat COMMAND` (`analyzer.present.reports.check_output_dir`)."""
    from analyzer.present.reports import check_output_dir

    if not text.strip():
        raise AnalyzerError(f"--out '': give a directory, e.g. {example}")
    check_output_dir(Path(text), f"--out {quoted(text)}", command)
    return Path(text)


def _written(text: str, write: Callable[[], list[Path]]) -> list[Path]:
    """`write()`'s paths, a failure to write them one line naming `--out text`."""
    try:
        return write()
    except OSError as error:
        raise AnalyzerError(f"--out {quoted(text)} cannot be written: {error.strerror or error}") from None


def _par_sheet(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    from analyzer.core.parsing import read_fraction
    from analyzer.counting.executors import check_executor, check_workers, open_executor
    from analyzer.counting.par import par_sheets
    from analyzer.present.par_documents import par_files, render_par_sheets, sheet_files

    address = check_executor(args.executor)
    workers = check_workers(int_arg(args.workers, "--workers"))
    if args.bets is None and args.table is None:
        raise AnalyzerError("par-sheet: give --bets NAMES or --table NAME|FILE (see `baccarat list bets`)")
    table_rules, bets = _chosen_bets(args, shoe)
    rules = _edges_rules(args, table_rules, rules)
    material = read_fraction(args.material, "--material")
    if material is None or material < 0:
        raise AnalyzerError(f"--material {quoted(args.material)}: use a number of units per shoe, 0 or more")
    out = None
    if args.out is not None:
        out = _out_dir(args.out, "sheets", "par-sheet")
        sheet_files([bet.name for bet in bets], args.format)  # names that collide: refused now
    shoes, seed = int_arg(args.shoes, "--shoes"), int_arg(args.seed, "--seed")
    with open_executor(address, workers) as executor:
        sheets = par_sheets(
            bets, shoe, rules, shoes=shoes, seed=seed, cut_card=int_arg(args.cut_card, "--cut-card"),
            material=material, workers=workers, executor=executor,
        )  # fmt: skip
    if out is None:
        return render_par_sheets(sheets, args.format)
    from analyzer.present.reports import write_owned

    files = par_files(sheets, args.format)
    if args.format == "json":
        files = {name: with_metadata(text, args, shoe, rules) for name, text in files.items()}
    written = _written(args.out, lambda: write_owned(out, files, f"--out {quoted(args.out)}"))
    if args.format == "json":
        return fmt.dumps({"written": [str(path) for path in written]})
    return fmt.written_list("Par sheets", written)


def list_command(args: argparse.Namespace) -> str:
    from analyzer.present.listing import entries

    text = fmt.render_list(args.what, entries(args.what), args.format)
    return fmt.dumps({**json.loads(text), "version": __version__}) if args.format == "json" else text


CACHE_HELP = "the cache folder of compiled tableaux and plans (--clear empties it)"


def cache_command(args: argparse.Namespace) -> str:
    """`baccarat cache [--clear]`: the cache folder, the project's files in it and their
    bytes, its bounds; --clear first removes those files (never another file)."""
    from analyzer.ranks.diskcache import CACHE_BYTES, CACHE_FILES, cache_info, clear_cache

    if args.format not in ("table", "json"):
        raise AnalyzerError(f"--format {quoted(args.format)}: use one of table, json")
    removed = clear_cache() if args.clear else None
    info = cache_info()
    if args.format == "json":
        gone = None if removed is None else {"files": removed.files, "bytes": removed.bytes}
        data = {"folder": str(info.folder), "files": info.files, "bytes": info.bytes, "removed": gone}
        return fmt.dumps({**data, "max_files": CACHE_FILES, "max_bytes": CACHE_BYTES, "version": __version__})
    folder = str(info.folder) if str(info.folder).isprintable() else quoted(str(info.folder))
    lines = [f"Cache folder: {folder}"]
    if removed is not None:
        lines.append(f"Removed: {removed.files:,} files ({removed.bytes:,} bytes)")
    lines += [
        f"Files: {info.files:,} ({info.bytes:,} bytes)",
        f"Kept: at most {CACHE_FILES:,} files and {CACHE_BYTES:,} bytes, the least recently used go first",
        "BACCARAT_CACHE moves it; baccarat cache --clear empties it",
    ]
    return "\n".join(lines) + "\n"


def _used(args: argparse.Namespace, shoe: Shoe, rules: Rules) -> tuple[Shoe, Rules]:
    """The shoe and rules a command actually used (a game's own shoe, a table's rules)."""
    if args.command == "solve":
        return _solve_shoe(args, shoe), rules
    if args.command in ("edges", "design", "par-sheet") and args.table is not None:
        from analyzer.core.catalogue import get_table

        return shoe, _edges_rules(args, get_table(args.table.strip()).rules, rules)
    return shoe, rules


def with_metadata(text: str, args: argparse.Namespace, shoe: Shoe, rules: Rules) -> str:
    """A command's JSON with `version`, `shoe`, `shoe_spec` and `rules` added; other keys stay.

    `shoe` is the shoe's display text, as it always was in the commands that had it (the
    contract keeps a key's value); `shoe_spec` is the same shoe as a structured value."""
    data = json.loads(text)
    if not isinstance(data, dict):
        return text
    used_shoe, used_rules = _used(args, shoe, rules)
    removed = [] if args.remove is None or args.command == "closed-form" else removed_cards(args.remove)
    shoe_value = {"decks": "d"} if args.command == "closed-form" else fmt.shoe_json(used_shoe, removed)
    if args.command in DECK_LISTS:
        shoe_value = fmt.shoes_json(deck_list(args))
    data["shoe"] = shoe_value.get("label", "d decks")
    data["shoe_spec"] = shoe_value
    data.setdefault("rules", used_rules.name)
    data["version"] = __version__
    return fmt.dumps(data)


Command = Callable[[argparse.Namespace, Shoe, Rules], str]

COMMANDS: dict[str, tuple[Command, str, Sequence[str]]] = {
    "odds": (_odds, "exact probabilities of Banker, Player and tie", fmt.FORMATS),
    "punto-table": (
        _player_table,
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
    "design": (
        _design,
        "every whole-number paytable of a bet whose exact house edge lies in a window",
        fmt.FORMATS,
    ),
    "par-sheet": (
        _par_sheet,
        "a bet's complete mathematics for a regulator, with a verdict on counting",
        fmt.DOCUMENT_FORMATS,
    ),
    "track": (
        _track,
        "replay a recorded shoe coup by coup with the exact value of every bet",
        fmt.FORMATS,
    ),
}

