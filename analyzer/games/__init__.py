"""Games where the hands make choices, solved exactly.

- ``punto-5``: the Russian rules (a Russian gambling dictionary), where Punto bettors draw
  or stand on a two-card 5.
- ``chemin-de-fer``: the two-person zero-sum game (Player free on 5, Banker free everywhere);
  with a commission, also the casino game's Nash equilibria (a bimatrix game).
- ``banque``: baccarat banque, one Banker hand against two sides.
- ``macao``: macao and Victoria, the ancestors, with a player's best threshold strategy.

`GAMES` holds one entry per game: its name, title, source, default shoe and solver (each
solver loads only when its game is solved); `solve` returns the game's typed result and
`solve_result` the same with the shoe, rules and commission used (``baccarat solve GAME``),
which `analyzer.present` renders (`analyzer.present.games`, by the result's type).

Modules: ``punto5`` (the Russian rules), ``chemin`` (the zero-sum game, solved through the game
graph of ``chemin_graph``: two-card hands and information sets compiled into a bilinear form),
``chemin_commission`` (every Nash equilibrium of the bimatrix game), ``banque`` and
``banque_table`` (the model, and the Banker's wins and losses tabulated at every information
set; exact on shoes of up to 100 decks, ``--decks inf`` for the limit of larger ones),
``macao`` (macao and Victoria), ``lp`` (a bounded-variable simplex in exact rationals, in
gmpy2's when the ``fast`` extra is installed, with the same results), ``hands`` and ``common``
(the hand vocabulary and checks the solvers share).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.progress import working
from analyzer.core.rules import STANDARD, Rules
from analyzer.core.shoe import Shoe

if TYPE_CHECKING:  # the solvers (networkx, sympy, numpy) load only when a game is solved
    from analyzer.games import banque, chemin, chemin_commission, macao, punto5

__all__ = [
    "GAMES",
    "BanqueResult",
    "CheminResult",
    "Game",
    "GameResult",
    "MacaoResults",
    "SolveResult",
    "clear_caches",
    "default_shoe",
    "macao_results",
    "solve",
    "solve_result",
]


@dataclass(frozen=True)
class CheminResult:
    """Chemin de fer on one shoe: the zero-sum solution (with a commission: the Banker's
    maximin) and, when a commission is given, the bimatrix game's Nash equilibria."""

    solution: chemin.CheminSolution
    equilibria: chemin_commission.CommissionGame | None = None


@dataclass(frozen=True)
class BanqueResult:
    """Baccarat banque on one shoe: the Banker's best reply to custom and the full game."""

    reply: banque.BanqueReply
    solution: banque.BanqueSolution


@dataclass(frozen=True)
class MacaoResults:
    """Macao and Victoria under every variant and counting, on one shoe."""

    results: tuple[macao.MacaoResult, ...]


GameResult: TypeAlias = "CheminResult | punto5.Punto5 | BanqueResult | MacaoResults"


@dataclass(frozen=True)
class Game:
    """A solvable game: its name, a title a reader recognises, the source of its rules, its
    default shoe and the function behind `solve` (of the shoe, the rules and the commission)."""

    name: str
    title: str
    source: str
    default_shoe: Callable[[], Shoe]
    solve: Callable[[Shoe, Rules, Fraction | None], GameResult]


def _punto5(shoe: Shoe, rules: Rules, commission: Fraction | None) -> GameResult:
    from analyzer.games import punto5

    return punto5.solve_punto5(shoe, rules, commission)


def _chemin(shoe: Shoe, rules: Rules, commission: Fraction | None) -> GameResult:
    from analyzer.games import chemin, chemin_commission

    solution = chemin.solve_chemin(shoe, rules, commission or 0)
    if commission is None:
        return CheminResult(solution)
    return CheminResult(solution, chemin_commission.solve_commission(shoe, rules, commission))


def _banque(shoe: Shoe, rules: Rules, commission: Fraction | None) -> GameResult:
    from analyzer.games import banque

    game = banque.banque_game(shoe, rules, Fraction(commission or 0))
    return BanqueResult(banque.banque_reply(game), banque.solve_banque(shoe, rules, game.commission))


def _macao(shoe: Shoe, rules: Rules, commission: Fraction | None) -> GameResult:
    if commission is not None:
        raise AnalyzerError(
            f"commission {commission}: macao takes no commission; leave {mention('commission')} out"
        )
    return macao_results(shoe)


def macao_results(shoe: Shoe) -> MacaoResults:
    """Every variant and counting of macao on `shoe`."""
    from analyzer.games import macao

    return MacaoResults(
        tuple(
            macao.solve_macao(shoe, macao.MacaoModel(variant, counting))
            for variant in macao.VARIANTS
            for counting in macao.COUNTINGS
        )
    )


#: The games `solve` knows, by name: `baccarat list games`, the `solve` help and the
#: renderers (`analyzer.present.games`, by result type) all read them here.
GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game(
            "chemin-de-fer",
            "Chemin de fer",
            "Wikipedia, Baccarat (chemin de fer, 6 decks); Kemeny and Snell (1957); Ethier and Gamez (2013)",
            lambda: Shoe.decks(6),
            _chemin,
        ),
        Game(
            "punto-5",
            "Punto 5 (Russian casino rules)",
            "a Russian gambling dictionary's casino rules (after Lesnoy and Natanson's book PuntoBanco)",
            lambda: Shoe.decks(8),
            _punto5,
        ),
        Game(
            "banque",
            "Baccarat banque",
            "Wikipedia, Baccarat (baccarat banque à deux tableaux, 3 decks)",
            lambda: Shoe.decks(3),
            _banque,
        ),
        Game(
            "macao",
            "Macao and Victoria",
            "Wikipedia, Baccarat (macao and Victoria, the ancestors, 2 decks)",
            lambda: Shoe.decks(2),
            _macao,
        ),
    )
}


def _game(name: str) -> Game:
    if name not in GAMES:
        raise AnalyzerError(f"unknown game {quoted(name)}: use one of {', '.join(GAMES)}")
    return GAMES[name]


def default_shoe(game: str) -> Shoe:
    """The shoe `game` is played with when none is given (chemin de fer 6 decks, banque 3, ...)."""
    return _game(game).default_shoe()


def solve(
    game: str, shoe: Shoe | None = None, rules: Rules = STANDARD, commission: Fraction | None = None
) -> GameResult:
    """Solve `game` on `shoe` (None: the game's default shoe), exactly.

    `commission` is on Banker wins (chemin de fer, banque; default none) or on Banco bets
    (punto-5; default 5%); macao takes none. Bad input raises AnalyzerError.

    >>> from analyzer.games import solve
    >>> five = solve("punto-5")  # 8 decks: Punto bettors draw on 5, as the casino tableau does
    >>> five.better is five.draw, five.draw.edge_banker  # the Banker bet's 1.06%
    (True, Fraction(114753351728, 10847218479825))
    >>> f"{float(five.stand.edge_banker):.2%}"  # when Punto stands on 5
    '0.79%'
    """
    entry = _game(game)
    with working(f"solving {game}"):
        return entry.solve(entry.default_shoe() if shoe is None else shoe, rules, commission)


@dataclass(frozen=True)
class SolveResult:
    """`baccarat solve`: the game solved on `shoe` under `rules` with `commission`, and its result."""

    game: Game
    shoe: Shoe
    rules: Rules
    commission: Fraction | None
    result: GameResult


def solve_result(
    game: str,
    shoe: Shoe | None = None,
    rules: Rules | None = None,
    commission: Fraction | None = None,
    remove: Sequence[str] = (),
) -> SolveResult:
    """`solve` of `game` on `shoe`, by default the game's own shoe less the cards `remove`
    (ranks such as "5", suited cards such as "KH"), keeping what it was solved with."""
    entry = _game(game)
    used = entry.default_shoe().remove(remove) if shoe is None else shoe
    rules = STANDARD if rules is None else rules
    return SolveResult(entry, used, rules, commission, solve(game, used, rules, commission))


def clear_caches() -> None:
    """Drop every game solver's cached results in this process (compiled game graphs and
    trees, tabulated hands, values; up to about 150 MB after chemin de fer) and collect the
    garbage they leave: for a process that goes on to other work after solving games. The
    next solve builds what it needs again, with the same results. Only the caches of
    functions the game modules define are cleared (not those they import)."""
    import gc

    for name, module in list(sys.modules.items()):
        if not name.startswith(f"{__name__}.") or module is None:
            continue
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", None) == name:
                value.cache_clear()
    gc.collect()
