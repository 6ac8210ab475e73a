"""Seed 003's Russian rules: on a two-card Punto 5 the Punto bettors draw or stand.

Banco's cards stay closed while the largest Punto bettor chooses; with no Punto bets Punto
draws. If Punto stands on 5, Banco wins at once with 6 or 7 and draws on 0-5 (the tableau's
rule when Punto stood); a Banco natural wins as usual whatever the choice. So each choice is
the tableau with Punto drawing or standing on 5, and the engine's `distribution` gives both
exactly. The choice is made knowing only Punto's total (not its cards), so it is one
decision for the whole shoe; Punto bettors take whichever gives Punto the higher expectation.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter
from typing import Any

from analyzer.enumerate import Distribution, Winner, distribution
from analyzer.errors import AnalyzerError
from analyzer.games.common import check_format, decimal, dumps, exact, heading, percent, signed_percent, table
from analyzer.rules import STANDARD, Rules
from analyzer.shoe import Shoe

__all__ = ["CHOICE_TOTAL", "Choice", "Punto5", "render_punto5", "solve_punto5"]

CHOICE_TOTAL = 5
DEFAULT_COMMISSION = Fraction(1, 20)
TIE_PAYS = 8


@dataclass(frozen=True)
class Choice:
    """One choice on a two-card 5: what follows, exactly.

    `punto`, `banco`, `egalite`: P(result | Punto's two-card total is 5). `probability_five`:
    P(two-card 5). Edges are per unit bet over the whole coup, positive for the house.
    """

    action: str
    punto: Fraction
    banco: Fraction
    egalite: Fraction
    probability_five: Fraction
    edge_punto: Fraction
    edge_banco: Fraction
    edge_egalite: Fraction

    @property
    def punto_expectation(self) -> Fraction:
        """A Punto bettor's expectation per unit, given the two-card 5."""
        return self.punto - self.banco

    @property
    def contribution(self) -> Fraction:
        """The same per coup: expectation given 5 times P(5)."""
        return self.punto_expectation * self.probability_five


@dataclass(frozen=True)
class Punto5:
    """Both choices on one shoe; `better` is the one Punto bettors take (draw on a tie)."""

    shoe: Shoe
    rules: Rules
    commission: Fraction
    draw: Choice
    stand: Choice

    @property
    def better(self) -> Choice:
        return self.draw if self.draw.punto_expectation >= self.stand.punto_expectation else self.stand

    @property
    def gain(self) -> Fraction:
        """What the better choice is worth to a Punto bettor per coup over the other."""
        return abs(self.draw.contribution - self.stand.contribution)


def _choice(dist: Distribution, action: str, commission: Fraction) -> Choice:
    counts = dist.group(lambda o: (o.punto_initial == CHOICE_TOTAL, o.winner))
    five = sum(w for (hit, _), w in counts.items() if hit)
    if five == 0:
        raise AnalyzerError(f"shoe {dist.shoe}: Punto can never hold a two-card {CHOICE_TOTAL}")
    probs = dist.winner_probabilities()
    p, b, t = probs[Winner.PLAYER], probs[Winner.BANKER], probs[Winner.TIE]
    return Choice(
        action=action,
        punto=Fraction(counts.get((True, Winner.PLAYER), 0), five),
        banco=Fraction(counts.get((True, Winner.BANKER), 0), five),
        egalite=Fraction(counts.get((True, Winner.TIE), 0), five),
        probability_five=Fraction(five, dist.total),
        edge_punto=b - p,
        edge_banco=p - (1 - commission) * b,
        edge_egalite=(1 - t) - TIE_PAYS * t,
    )


def solve_punto5(
    shoe: Shoe | None = None, rules: Rules = STANDARD, commission: Fraction | None = None
) -> Punto5:
    """Both choices on a two-card 5 (default: 8 decks, 5% commission on Banco, égalité 8:1)."""
    shoe = Shoe.decks(8) if shoe is None else shoe
    if rules.is_natural(CHOICE_TOTAL):
        raise AnalyzerError(f"rules {rules.name!r}: {CHOICE_TOTAL} is a natural, so there is no choice")
    return _solve(shoe, rules, DEFAULT_COMMISSION if commission is None else Fraction(commission))


@lru_cache(maxsize=16)
def _solve(shoe: Shoe, rules: Rules, commission: Fraction) -> Punto5:
    choices = {
        action: _choice(
            distribution(shoe, rules.with_punto(CHOICE_TOTAL, action == "draw")), action, commission
        )
        for action in ("draw", "stand")
    }
    return Punto5(shoe=shoe, rules=rules, commission=commission, draw=choices["draw"], stand=choices["stand"])


def punto5_json(result: Punto5) -> dict[str, Any]:
    def choice(c: Choice) -> dict[str, str]:
        return {
            "punto": exact(c.punto),
            "banco": exact(c.banco),
            "egalite": exact(c.egalite),
            "punto_expectation_given_5": exact(c.punto_expectation),
            "punto_contribution_per_coup": exact(c.contribution),
            "house_edge_punto": exact(c.edge_punto),
            "house_edge_banco": exact(c.edge_banco),
            "house_edge_egalite": exact(c.edge_egalite),
        }

    return {
        "game": "punto-5",
        "shoe": str(result.shoe),
        "rules": result.rules.name,
        "banco_commission": exact(result.commission),
        "egalite_pays": f"{TIE_PAYS}:1",
        "probability_two_card_5": exact(result.draw.probability_five),
        "draw": choice(result.draw),
        "stand": choice(result.stand),
        "better": result.better.action,
        "gain_per_coup": exact(result.gain),
        "house_edges": {
            "punto": exact(result.better.edge_punto),
            "banco": exact(result.better.edge_banco),
            "egalite": exact(result.better.edge_egalite),
        },
    }


def render_punto5(result: Punto5, fmt: str = "table") -> str:
    check_format(fmt)
    if fmt == "json":
        return dumps(punto5_json(result))
    return punto5_text(result, fmt)


def _totals(values: frozenset[int]) -> str:
    return ", ".join(map(str, sorted(values))) or "no total"


def punto5_text(result: Punto5, fmt: str, level: int = 2) -> str:
    r = result
    parts = [heading(f"Punto 5 (seed 003's Russian rules): {r.shoe}, {r.rules.name} rules", fmt, level)]
    parts.append(
        f"P(Punto's two cards total 5) = {exact(r.draw.probability_five)} "
        f"({percent(r.draw.probability_five)}). Given that 5, the result of each choice (when Punto "
        f"stands Banco draws on {_totals(r.rules.banco_draws_punto_stood)} and stands otherwise; when "
        "Punto draws Banco follows the tableau):\n\n"
    )
    rows = [
        [
            c.action,
            decimal(c.punto),
            decimal(c.banco),
            decimal(c.egalite),
            signed_percent(c.punto_expectation),
            exact(c.punto_expectation),
            signed_percent(c.contribution),
            exact(c.contribution),
        ]
        for c in (r.draw, r.stand)
    ]
    headers = ["Punto on 5", "Punto", "Banco", "Égalité", "Punto bet, given 5", "exact", "per coup", "exact"]
    parts.append(table(rows, headers, fmt) + "\n\n")
    parts.append(
        f"Better for Punto bettors: {r.better.action} (worth {signed_percent(r.gain)} of a Punto stake per "
        f"coup, exactly {exact(r.gain)}). House edges when they always {r.better.action} on 5 "
        f"(Banco pays 1 less {percent(r.commission, 2)} commission, égalité {TIE_PAYS}:1), with the other "
        "choice for comparison:\n\n"
    )
    rows = [
        [name, percent(get(r.better)), exact(get(r.better)), percent(get(other))]
        for name, get in (
            ("Punto 1:1", attrgetter("edge_punto")),
            (f"Banco, {percent(r.commission, 2)} commission", attrgetter("edge_banco")),
            (f"Égalité {TIE_PAYS}:1", attrgetter("edge_egalite")),
        )
        for other in [r.stand if r.better is r.draw else r.draw]
    ]
    parts.append(
        table(
            rows,
            [
                "bet",
                f"house edge ({r.better.action})",
                "exact",
                f"if they {'stand' if r.better is r.draw else 'draw'}",
            ],
            fmt,
        )
        + "\n"
    )
    return "".join(parts)
