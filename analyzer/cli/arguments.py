"""Reading the command line: the parser that reports bad arguments as one error line, the
shoe options, the list and number options, and every command's options (its example and the help
formatter: `analyzer.cli.helptext`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from analyzer.cli.helptext import EXAMPLES, GAME_WORDS, HelpFormatter, example
from analyzer.core.errors import QUOTE_LIMIT, AnalyzerError, quoted, word_mentions
from analyzer.core.parsing import list_items, read_fraction, read_int
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, RULES
from analyzer.core.shoe import Shoe, parse_cards, parse_counts, parse_decks
from analyzer.present.text import FORMATS

__all__ = [
    "EXAMPLES",
    "FINITE",
    "OPTIONS",
    "REFUSED",
    "HelpFormatter",
    "Parser",
    "bet_names",
    "cli_text",
    "cli_words",
    "common_options",
    "deck_item",
    "deck_list",
    "example",
    "flag",
    "float_arg",
    "int_arg",
    "name_list",
    "one_name",
    "refuse_shoe_options",
    "removed_cards",
    "shoe_from_args",
]


class Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one AnalyzerError line, and refuses an option
    given twice (one rule for every option: give each once, a list as one comma-separated
    value)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)  # argparse's own loads shutil
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)
        self.register("action", "store", _Once)
        self.register("action", "store_true", _OnceTrue)

    def error(self, message: str) -> NoReturn:
        if message.endswith("expected one argument"):
            message += " (for a value starting with '-', write --option=VALUE)"
        raise AnalyzerError(" ".join(_cut(word) for word in message.split(" ")))


#: The flag of each library argument not named `--` and its name with "-" for "_".
FLAGS = {"window": "--edge", "systems": "--system"}
#: What a library message points to that the CLI does with a command (the value: a bet's name).
COMMAND_WORDS = {"design": "`baccarat design --bet {} --table FILE --edge LOW..HIGH`"}


def flag(argument: str, value: str = "") -> str:
    """A library argument as the CLI words it: its flag (`max_pay` -> `--max-pay`), and the value."""
    if argument in COMMAND_WORDS:
        return COMMAND_WORDS[argument].format(value)
    option = FLAGS.get(argument, "--" + argument.replace("_", "-"))
    return f"{option} {value}" if value else option


def cli_words(error: AnalyzerError) -> str:
    """A library error's message with each argument it mentions worded as its flag."""
    return error.worded(flag)


def cli_text(message: str) -> str:
    """A library message (a note, not an error) with each argument it mentions (`mention`)
    worded as its flag."""
    return word_mentions(message, flag)


def _cut(word: str) -> str:
    """A word of an argparse message (perhaps a bad value), cut as `quoted` cuts values."""
    return word if len(word) <= QUOTE_LIMIT else f"{word[: QUOTE_LIMIT - 3]}... ({len(word):,} characters)"


def _given_once(action: argparse.Action, namespace: argparse.Namespace) -> None:
    given: set[str] = namespace.__dict__.setdefault("_given", set())
    if action.dest in given:
        flag = "/".join(action.option_strings) or action.dest
        raise AnalyzerError(
            f"{flag} is given twice: give each option once (a list as one comma-separated value)"
        )
    given.add(action.dest)


class _Once(argparse._StoreAction):
    def __call__(self, parser: Any, namespace: argparse.Namespace, values: Any, option: Any = None) -> None:
        _given_once(self, namespace)
        super().__call__(parser, namespace, values, option)


class _OnceTrue(argparse._StoreTrueAction):
    def __call__(self, parser: Any, namespace: argparse.Namespace, values: Any, option: Any = None) -> None:
        _given_once(self, namespace)
        super().__call__(parser, namespace, values, option)


def shoe_from_args(args: argparse.Namespace) -> Shoe:
    """The shoe named by --decks / --counts / --cards, less --remove."""
    given = [
        f"--{name} {quoted(getattr(args, name))}"
        for name in ("decks", "counts", "cards")
        if getattr(args, name, None) is not None
    ]
    if len(given) > 1:
        raise AnalyzerError(f"{' and '.join(given)} given together: use one")
    if getattr(args, "rules", None) is not None and not args.rules.strip():
        raise AnalyzerError(f"--rules {quoted(args.rules)}: give {', '.join(RULES)} or a .toml file")
    if getattr(args, "cards", None) is not None:
        shoe = parse_cards(args.cards)
    elif getattr(args, "command", None) in DECK_LISTS and args.counts is None:
        shoe = deck_list(args)[0]
    else:
        shoe = parse_counts(args.counts) if args.counts is not None else parse_decks(args.decks or "8")
    if args.decks == "":
        raise AnalyzerError("--decks '': use a positive integer or inf")
    if args.remove is not None:
        shoe = shoe.remove(removed_cards(args.remove))
    return shoe


def removed_cards(text: str) -> list[str]:
    """The cards of a --remove argument (ranks such as 5 or suited cards such as KH); a card
    given twice is taken out twice."""
    return list_items(text, "--remove", "5,5,K or KH,9S")


#: The shoe options (and --rules) a command refuses, and why: kept in its parser, so that the
#: refusal names the option and says why, but not offered in its help.
REFUSED: dict[str, tuple[tuple[str, ...], str]] = {
    "report": (
        ("decks", "counts", "cards", "remove", "rules"),
        "the reports state their own shoes and rules",
    ),
    "closed-form": (
        ("decks", "counts", "cards", "remove"),
        "the closed forms are functions of the number of decks d",
    ),
    "design": (("counts", "cards", "remove"), "it prices full shoes, --decks N,M or inf"),
}
#: Commands that need a finite shoe: their help offers no infinite deck.
FINITE = ("count", "eor", "par-sheet", "track")


def _decks_help(command: str | None) -> str:
    if command == "solve":
        return "number of decks or inf (default: the game's own)"
    if command in DECK_LISTS:
        return "decks to price, e.g. 6,8 or inf (default 8)"
    return "number of decks (default 8)" + ("" if command in FINITE else " or inf")


def common_options(formats: Sequence[str] = FORMATS, command: str | None = None) -> Parser:
    """The shoe options, --rules and --format, as `command` takes them (None: every one,
    each offered in full); those it refuses are parsed but not shown (`REFUSED`)."""
    hidden = REFUSED.get(command or "", ((), ""))[0]

    def shown(name: str, text: str) -> str:
        return argparse.SUPPRESS if name in hidden else text

    parent = Parser(add_help=False)
    parent.add_argument("--decks", help=shown("decks", _decks_help(command)))
    parent.add_argument("--counts", help=shown("counts", "13 card counts in rank order A,2,...,9,10,J,Q,K"))
    parent.add_argument(
        "--cards",
        help=shown("cards", "52 card-type counts: spades A,2,...,10,J,Q,K, then hearts, diamonds, clubs"),
    )
    parent.add_argument("--remove", help=shown("remove", "cards taken out of the shoe, e.g. 5,5,K or KH,9S"))
    rules = f"{', '.join(RULES)} or a .toml file (default standard; see `baccarat list rules`)"
    parent.add_argument("--rules", help=shown("rules", rules))
    default = "table" if "table" in formats else formats[0]
    parent.add_argument("--format", default=default, help=f"{'|'.join(formats)} (default {default})")
    return parent


#: The largest value an integer option takes.
MAX_INT = 10**18


def float_arg(text: str, option: str) -> float:
    """A positive number in ASCII digits, e.g. 100, 0.5 or 1e3."""
    exact = read_fraction(text, option)
    value = 0.0 if exact is None or "/" in text or not 0 < exact < 10**300 else float(exact)
    if not value > 0:
        raise AnalyzerError(f"{option} {quoted(text)}: use a positive number")
    return value


def int_arg(text: str, option: str) -> int:
    """An integer in ASCII digits, at most 10**18 in size."""
    value = read_int(text, option, MAX_INT)
    if value is None:
        raise AnalyzerError(f"{option} {quoted(text)}: use an integer")
    return value


def refuse_shoe_options(args: argparse.Namespace, command: str) -> None:
    """Refuse each option `command` refuses (`REFUSED`) that it was given, saying why."""
    options, why = REFUSED[command]
    for option in options:
        if getattr(args, option) is not None:
            raise AnalyzerError(f"{command} does not take --{option}: {why}")


def name_list(text: str, option: str) -> list[str]:
    """A comma-separated list of names. One rule for every list option: an empty value or
    an empty item is an error, and so is a name given twice."""
    items = list_items(text, option, allowed="give comma-separated names, none empty")
    for item in items:
        if items.count(item) > 1:
            raise AnalyzerError(f"{option} {quoted(text)}: {quoted(item)} is given twice; give each once")
    return items


def one_name(text: str, option: str) -> str:
    if not text.strip():
        raise AnalyzerError(f"{option} {quoted(text)}: give a name (see `baccarat list`)")
    return text.strip()


def bet_names(text: str | None, option: str = "--bets") -> list[str] | None:
    """The names of a --bets list, None when it is not given."""
    return None if text is None else name_list(text, option)


#: Commands whose --decks is a list of deck counts, each priced (their shoe is the first).
DECK_LISTS = ("design",)


def deck_list(args: argparse.Namespace) -> list[Shoe]:
    """The shoes of a --decks list, e.g. 6,8 (default 8)."""
    return [deck_item(item, "--decks") for item in name_list(args.decks or "8", "--decks")]


def deck_item(text: str, option: str) -> Shoe:
    try:
        return parse_decks(text)
    except AnalyzerError as error:
        raise AnalyzerError(f"{option}: {error.template}") from None


SHOWN_OPTION: tuple[tuple[str, ...], dict[str, object]] = (
    ("--shown",),
    {"help": "cards shown at dealt positions, e.g. p1=9,b1=KH (p1 b1 p2 b2 p3 b3)"},
)
#: Edge sorting through a shoe (`track`, `count`): the class of the cards at these positions
#: is known before each coup (`baccarat known`).
SORT_OPTIONS: list[tuple[tuple[str, ...], dict[str, object]]] = [
    (
        ("--sort",),
        {
            "help": "edge sorting: before each coup whether the cards at --sort-positions are in "
            "this class (values or ranks: 6,7,8,9); each coup valued exactly with it"
        },
    ),
    (("--sort-positions",), {"help": "the shoe positions the sorter reads (default 1)"}),
]
OPTIONS: dict[str, list[tuple[tuple[str, ...], dict[str, object]]]] = {
    "odds": [SHOWN_OPTION],
    "edges": [
        SHOWN_OPTION,
        (("--bets",), {"help": "comma-separated bet names, built-in or of --table (`baccarat list bets`)"}),
        (("--table",), {"help": "a table name (see `baccarat list tables`) or a table .toml file"}),
        (("--commission",), {"help": "add a Banker bet with this commission, e.g. 4%% or 0.04"}),
        (("--details",), {"action": "store_true", "help": "each bet's combinatorial table (table/markdown)"}),
    ],
    "known": [
        (
            ("--positions",),
            {
                "default": "1",
                "help": "shoe positions known before betting, e.g. 1 or 1,2,3,4 (1 Player's "
                "first, 2 Banker's first, 3 and 4 their second, 5 and 6 the next cards; default 1)",
            },
        ),
        (("--sort",), {"help": "only whether each card is in this class (values, ranks, suits: 6,7,8,9)"}),
        (
            ("--best-sort",),
            {"action": "store_true", "help": "search every split of the values for the best sort"},
        ),
        (("--ranks",), {"action": "store_true", "help": "with --best-sort: split the 13 ranks"}),
        (("--bets",), {"help": "bet names (default player,banker; card-level ones at one of positions 1-4)"}),
        (("--table",), {"help": "a table name (`baccarat list tables`) or a table .toml file"}),
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
                "default": BANCO_4_DRAWS_ON_0_1.name,
                "help": (
                    f"tableau compared against --rules (default {BANCO_4_DRAWS_ON_0_1.name}; "
                    "`baccarat list rules`)"
                ),
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
                "card-level bet deals suited shoes (docs/reports.md, Speed)"
            },
        ),
        (("--table",), {"help": "a table .toml file whose own bets --bet may name"}),
        (("--shoes",), {"default": "1000", "help": "number of shoes to simulate (default 1000)"}),
        (("--seed",), {"default": "1", "help": "random seed (default 1)"}),
        (
            ("--workers",),
            {
                "default": "1",
                "help": "worker processes (default 1; at most 4 per core); results don't depend on it",
            },
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
                "workers) or tcp://HOST:PORT (an existing Dask scheduler; see docs/counting.md, On Dask)",
            },
        ),
        (
            ("--connect-timeout",),
            {
                "metavar": "SECONDS",
                "help": "seconds allowed to connect to a tcp://HOST:PORT scheduler, and again for "
                "its Dask handshake (default 10)",
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
        *SORT_OPTIONS,
        (
            ("--cover",),
            {
                "metavar": "BET[:UNITS]",
                "help": "a main bet staked on every coup the side bet is made "
                "(e.g. banker:1; many tables require one), valued exactly: side bet, cover and net",
            },
        ),
    ],
    "solve": [
        (("game",), {"help": f"{GAME_WORDS} (`baccarat list games`)"}),
        (("--commission",), {"help": "commission on Banker wins, e.g. 5%% (chemin de fer)"}),
    ],
    "report": [
        (("--out",), {"default": "reports", "help": "directory to write (default reports)"}),
        (
            ("--progress",),
            {
                "action": "store_true",
                "help": "one line on stderr per report file as it is built or written, e.g. "
                "`baccarat report: odds.md (1/19, 0.8 s)`, for a log or a pipe (instead of the "
                "bar a terminal shows)",
            },
        ),
    ],
    "closed-form": [
        (("--bets",), {"help": "comma-separated bet names (default banker,player,tie; `baccarat list bets`)"})
    ],
    "design": [
        (("--table",), {"required": True, "help": 'a table .toml file; its bet may pay "?" or "A..B"'}),
        (("--bet",), {"help": "the bet to design (default: the table's one bet with payouts to find)"}),
        (
            ("--edge",),
            {"required": True, "help": "the house-edge window LOW..HIGH, e.g. 4.5%%..5.5%% or 0.045..0.055"},
        ),
        (("--max-pay",), {"default": "1000", "help": 'the largest payout of a "?" line (default 1000)'}),
        (("--monotone",), {"action": "store_true", "help": "a rarer line never pays less than a commoner"}),
        (
            ("--limit",),
            {"default": "20", "help": "paytables listed, closest to the window's middle first (default 20)"},
        ),
        (
            ("--max-nodes",),
            {
                "default": "1000000",
                "help": "the most nodes the search may visit, refused above (default 1,000,000)",
            },
        ),
        (("--write",), {"metavar": "FILE", "help": "write paytable --pick as a table file that edges reads"}),
        (("--pick",), {"help": "which listed paytable --write writes (default 1, the closest)"}),
    ],
    "par-sheet": [
        (("--bets",), {"help": "bet names, built-in or of --table (default: the table's bets; `list bets`)"}),
        (("--table",), {"help": "a table name (`baccarat list tables`) or a table .toml file"}),
        (("--cut-card",), {"default": "14", "help": "cards behind the cut card in the study (default 14)"}),
        (("--shoes",), {"default": "20000", "help": "shoes in the counting study (default 20000)"}),
        (("--seed",), {"default": "1", "help": "random seed of the study (default 1)"}),
        (
            ("--material",),
            {
                "default": "0.05",
                "help": "materiality threshold, units won per shoe of flat one-unit bets "
                "(default 0.05): beatable above it, not beatable below it, by 3 standard errors",
            },
        ),
        (
            ("--out",),
            {
                "help": "write one file per bet and an index into this directory, all or none "
                "(--format xlsx and pdf need it)"
            },
        ),
        (("--workers",), {"default": "1", "help": "worker processes of the study (default 1), as in count"}),
        (("--executor",), {"default": "local", "help": "local, dask or tcp://HOST:PORT, as in count"}),
        (
            ("--cover",),
            {
                "metavar": "BET[:UNITS]",
                "help": "a main bet staked on every coup the side bet is made "
                "(e.g. banker:1; many tables require one), valued exactly: side bet, cover and net",
            },
        ),
    ],
    "track": [
        (("record",), {"help": "a record file (cards in the order they left the shoe), or - for live entry"}),
        (
            ("--bets",),
            {"help": "bet names, built-in or of --table (default: every built-in the record's cards allow)"},
        ),
        (("--table",), {"help": "a table name (`baccarat list tables`) or a table .toml file"}),
        (("--system",), {"help": "counting systems to follow (`baccarat list systems`) or a .toml file"}),
        (("--bankroll",), {"help": "bankroll in units: size each positive bet by Kelly"}),
        (("--kelly",), {"help": "the fraction of the Kelly bet staked (default 0.5; with --bankroll)"}),
        (("--min-bet",), {"help": "table minimum in whole units (default 1; with --bankroll)"}),
        (("--max-bet",), {"help": "table maximum in whole units (default none; with --bankroll)"}),
        *SORT_OPTIONS,
    ],
}

#: The commands written as spreadsheets too (--format xlsx, a binary file) take --out FILE.
SPREADSHEET_COMMANDS = ("edges", "compare", "eor", "count")
for _command in SPREADSHEET_COMMANDS:
    _help = "write the output to FILE, whole or not at all (--format xlsx needs it)"
    OPTIONS[_command].append((("--out",), {"metavar": "FILE", "help": _help}))
