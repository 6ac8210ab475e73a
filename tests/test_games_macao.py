"""Macao and Victoria (analyzer.games.macao): the player's best threshold, exact.

The rules are the brief's digest of the English and Russian Wikipedia articles: two decks,
one card each to start for macao and two for Victoria, naturals 9 (pays 3x) and 8 (2x), fewer
cards win equal values, equal value and card count go to the banker, ten-valued cards may be
refused.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from analyzer.core.errors import AnalyzerError
from analyzer.core.shoe import Shoe
from analyzer.games.macao import COUNTINGS, VARIANTS, MacaoModel, _solve, _Solver, solve_macao


def _brute(counts: tuple[int, ...], model: MacaoModel, t: int) -> Fraction:
    """The player's expectation by dealing card by card from the real deck, tens included:
    a drawn ten is refused and discarded and the next card taken (independent of the solver's
    shortcut that only the cards of value 1-9 matter after the deal)."""

    def value(cards: tuple[int, ...]) -> int:
        if model.counting == "modulo":
            return sum(cards) % 10
        return sum(cards) if sum(cards) <= 9 else 10

    @cache
    def draw(deck: tuple[int, ...]) -> tuple[tuple[int, Fraction, tuple[int, ...]], ...]:
        """(value 1-9, probability, deck after) of the next card kept, refusing tens."""
        out: dict[tuple[int, tuple[int, ...]], Fraction] = {}
        n = sum(deck)
        if n == deck[0]:
            return ()
        for v in range(10):
            if not deck[v]:
                continue
            after = (*deck[:v], deck[v] - 1, *deck[v + 1 :])
            p = Fraction(deck[v], n)
            if v == 0:
                for w, q, rest in draw(after):
                    out[(w, rest)] = out.get((w, rest), Fraction(0)) + p * q
            else:
                out[(v, after)] = out.get((v, after), Fraction(0)) + p
        return tuple((w, p, rest) for (w, rest), p in out.items())

    @cache
    def banker(deck: tuple[int, ...], pcards: tuple[int, ...], bcards: tuple[int, ...]) -> Fraction:
        bv = value(bcards)
        options = draw(deck)
        if bv <= model.banker_draws_to and len(bcards) < model.max_cards and options:
            return sum((p * banker(rest, pcards, (*bcards, w)) for w, p, rest in options), Fraction(0))
        pv = value(pcards)
        if bv == 10 or pv > bv:
            return Fraction(1)
        if pv < bv:
            return Fraction(-1)
        return Fraction(1 if len(pcards) < len(bcards) else -1)

    @cache
    def player(deck: tuple[int, ...], pcards: tuple[int, ...], bcards: tuple[int, ...]) -> Fraction:
        pv = value(pcards)
        if pv == 10:
            return Fraction(-1)
        options = draw(deck)
        if pv <= t and len(pcards) < model.max_cards and options:
            return sum((p * player(rest, (*pcards, w), bcards) for w, p, rest in options), Fraction(0))
        return banker(deck, pcards, bcards)

    def deal(deck: tuple[int, ...], cards: tuple[int, ...]) -> Fraction:
        if len(cards) == 2 * model.start:
            pc, bc = cards[: model.start], cards[model.start :]
            pv, bv = value(pc), value(bc)
            if pv == 10:
                return Fraction(-1)
            if pv in (8, 9) and not (bv in (8, 9) and bv >= pv):
                return Fraction(3 if pv == 9 else 2)
            if pv in (8, 9) or bv in (8, 9):
                return Fraction(-1)
            return player(deck, pc, bc)
        n = sum(deck)
        total = Fraction(0)
        for v in range(10):
            if deck[v]:
                total += Fraction(deck[v], n) * deal((*deck[:v], deck[v] - 1, *deck[v + 1 :]), (*cards, v))
        return total

    return deal(counts, ())


@pytest.mark.parametrize(
    "model",
    [MacaoModel("macao", "modulo"), MacaoModel("macao", "bust"), MacaoModel("victoria", "bust", max_cards=3)],
    ids=lambda m: f"{m.variant}-{m.counting}",
)
def test_solver_matches_card_by_card_dealing(model: MacaoModel) -> None:
    shoe = Shoe.from_counts([2, 1, 1, 1, 1, 1, 1, 1, 2, 1, 2, 0, 0])  # 14 cards, three of them tens
    result = solve_macao(shoe, model)
    for t in (-1, 2, 5):
        assert result.expectations[t] == _brute(shoe.value_counts(), model, t), t


def test_two_decks_best_thresholds() -> None:
    """Regression values on the default 2-deck shoe (banker draws on 0-5, at most 3 cards)."""
    macao = solve_macao(Shoe.decks(2), MacaoModel("macao", "modulo"))
    assert macao.best == 6
    assert macao.value == Fraction(74023346963, 470708770077)
    assert macao.value == max(macao.expectations.values())
    victoria = solve_macao(Shoe.decks(2), MacaoModel("victoria", "modulo"))
    assert victoria.best == 4
    assert victoria.value == Fraction(244428046139881, 1347011597037015)


def test_naturals_on_the_infinite_deck() -> None:
    """One card each, with replacement: 9 vs not 9 pays 3, 8 vs not 8 or 9 pays 2, a matching
    or higher banker natural wins, a banker natural beats no natural:
    (3*12 - 1 + 2*11 - 2 - 11*2) / 169 = 33/169."""
    result = solve_macao(Shoe.infinite(), MacaoModel("macao", "modulo"))
    assert result.naturals == Fraction(33, 169)


def test_no_draws_makes_thresholds_irrelevant() -> None:
    result = solve_macao(Shoe.decks(2), MacaoModel("victoria", "modulo", max_cards=2))
    assert len(set(result.expectations.values())) == 1


def test_bad_models_and_shoes() -> None:
    with pytest.raises(AnalyzerError, match="variant 'poker'"):
        MacaoModel("poker")
    with pytest.raises(AnalyzerError, match="counting 'mod'"):
        MacaoModel("macao", "mod")
    with pytest.raises(AnalyzerError, match="max_cards 1"):
        MacaoModel("victoria", max_cards=1)
    tens = Shoe.from_counts([1, 1, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8])
    with pytest.raises(AnalyzerError, match="cards of value 1-9") as error:
        solve_macao(tens)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("max_cards", [3, 4])
def test_shared_thresholds_match_the_plain_recursion(max_cards: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """`_Solver.threshold` lets thresholds share a node's cached value where it cannot depend
    on them; every expectation must be the one of the recursion keyed by each threshold."""
    shoe = Shoe.decks(1)
    models = [MacaoModel(v, c, max_cards) for v in VARIANTS for c in COUNTINGS]
    shared = [_solve.__wrapped__(shoe, m) for m in models]
    monkeypatch.setattr(_Solver, "threshold", lambda self, pc, pv, t: t)
    plain = [_solve.__wrapped__(shoe, m) for m in models]
    assert [r.expectations for r in shared] == [r.expectations for r in plain]
    assert [r.naturals for r in shared] == [r.naturals for r in plain]
    assert len({r.expectations[0] for r in shared}) == len(models)
