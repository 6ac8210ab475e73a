"""Help text: each command's example, the help formatter (examples never broken across lines,
the terminal's width found without shutil) and the games' names written into a help text only
when a parser shows them."""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sys

__all__ = ["EXAMPLES", "GAME_LIST", "GAME_WORDS", "HelpFormatter", "example", "with_games"]


#: One example per command, shown at the end of its --help; {sevens} and {sample} stand for
#: files the package ships (`example` fills in where they are installed).
EXAMPLES: dict[str, str] = {
    "odds": "baccarat odds --decks 6 --format json",
    "punto-table": "baccarat punto-table --decks inf",
    "rules": "baccarat rules --rules banco-4-draws-on-0-1",
    "edges": "baccarat edges --bets banker,player,tie --decks 6",
    "known": "baccarat known --positions 1 --sort 6,7,8,9",
    "compare": "baccarat compare --tables commission,super6 --shoes 6,8",
    "eor": "baccarat eor --bets tie,dragon7 --decks 8",
    "count": "baccarat count --system dragon7-jacobson --shoes 200",
    "solve": "baccarat solve chemin-de-fer --format markdown",
    "report": "baccarat report --out reports",
    "closed-form": "baccarat closed-form --bets tie,player-pair --format markdown",
    "design": "baccarat design --table {sevens} --edge 4%..6%",
    "par-sheet": "baccarat par-sheet --bets dragon7 --shoes 2000 --format html",
    "track": "baccarat track {sample} --bets dragon7",
    "list": "baccarat list bets --format json",
    "cache": "baccarat cache --clear",
}


def example(command: str) -> str:
    """`command`'s help example (`EXAMPLES`), each shipped file it names written where the
    package is installed: relative to the current directory when under it (in a checkout),
    else in full, so the example runs as printed from anywhere."""
    text = EXAMPLES[command]
    for name in ("sevens", "sample"):
        if "{" + name + "}" in text:
            from pathlib import Path  # only for an example naming a file: `odds` loads no pathlib

            path = Path(_shipped(name)).resolve()
            with contextlib.suppress(ValueError, OSError):  # not under it, or no current directory
                path = path.relative_to(Path.cwd())
            text = text.replace("{" + name + "}", shlex.quote(str(path)))
    return text


def _shipped(name: str) -> str:
    """Where the shipped file an example names is (its modules load only for that example)."""
    if name == "sevens":
        from importlib import resources

        return str(resources.files("analyzer").joinpath("examples", "sevens.toml"))
    from analyzer.counting.record import sample_path

    return sample_path()


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, its example (the epilog) never broken across lines: it is a command
    to copy, and may name a long path. Its width is shutil.get_terminal_size's columns less 2,
    as argparse's, found without loading shutil (which argparse loads for every option added,
    a cold `baccarat odds` about 2 ms)."""

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ) -> None:
        super().__init__(
            prog, indent_increment, max_help_position, _columns() - 2 if width is None else width
        )

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("Example: "):
            return indent + text
        return super()._fill_text(text, width, indent)


def _columns() -> int:
    """The terminal's columns as shutil.get_terminal_size() gives them: $COLUMNS if a positive
    integer, else standard output's terminal, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


#: In a help text, these stand for the games `solve` knows: "a, b or c" and "a, b, c".
#: `with_games` writes them in when a parser is built, so that the game registry loads for
#: the parsers that show them, not for `baccarat odds`.
GAME_WORDS, GAME_LIST = "\x00games\x00", "\x00game list\x00"


def with_games(text: str) -> str:
    """`text` with GAME_WORDS and GAME_LIST written as the games' names."""
    if GAME_WORDS not in text and GAME_LIST not in text:
        return text
    from analyzer.games import GAMES

    names = list(GAMES)
    words = " or ".join([", ".join(names[:-1]), names[-1]])
    return text.replace(GAME_WORDS, words).replace(GAME_LIST, ", ".join(names))
