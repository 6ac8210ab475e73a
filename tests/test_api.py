"""The library's API: one signature style for pricing, the package's own errors for wrong
argument types, short reprs in signatures, a clean dir(analyzer), the closed forms' symbol,
labels of full decks given by counts."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
import sympy as sp

import analyzer
from analyzer import (
    BANCO_4_DRAWS_ON_0_1,
    BETS,
    CARD_BETS,
    STANDARD,
    AnalyzerError,
    Rules,
    Shoe,
    analyze,
    analyze_bets,
    analyze_cards,
    distribution,
    effects_of_removal,
    get_rules,
    odds,
    parse_shown,
    player_table,
    shown_analyses,
    shown_odds,
)
from analyzer.analyses.closed_form import D, closed_forms, evaluate
from analyzer.core.shoe import parse_cards, parse_counts

ONE = Shoe.decks(1)
TIE = BETS["tie"]
PAIRS = CARD_BETS["perfect-pairs-v1"]
SHOWN = parse_shown("p1=9")

# -- wrong argument types: AnalyzerError naming the argument and what is allowed ----------

WRONG: dict[str, tuple[Callable[[], Any], str]] = {
    "odds str shoe": (lambda: odds("8 decks"), "odds(): shoe is the str '8 decks'; give a Shoe"),  # type: ignore[arg-type]
    "odds int shoe": (lambda: odds(8), "odds(): shoe is the int 8; give a Shoe"),  # type: ignore[arg-type]
    "odds str rules": (lambda: odds(ONE, "standard"), "odds(): rules is the str 'standard'; give a Rules"),  # type: ignore[arg-type]
    "player_table shoe": (lambda: player_table("8"), "player_table(): shoe is the str"),  # type: ignore[arg-type]
    "distribution shoe": (lambda: distribution([4] * 13), "distribution(): shoe is the list"),  # type: ignore[arg-type]
    "distribution rules": (lambda: distribution(ONE, 8), "distribution(): rules is the int 8"),  # type: ignore[arg-type]
    "analyze_bets one bet": (lambda: analyze_bets(TIE, ONE), "analyze_bets(): bets is the Bet"),  # type: ignore[arg-type]
    "analyze_bets str": (lambda: analyze_bets("tie", ONE), "analyze_bets(): bets is the str 'tie'"),  # type: ignore[arg-type]
    "analyze_bets names": (lambda: analyze_bets(["tie"], ONE), "analyze_bets(): bets[0] is the str 'tie'"),  # type: ignore[list-item]
    "analyze_bets dict": (lambda: analyze_bets(BETS, ONE), "analyze_bets(): bets is the dict"),  # type: ignore[arg-type]
    "analyze_bets shoe": (lambda: analyze_bets([TIE], "1 deck"), "analyze_bets(): shoe is the str"),  # type: ignore[arg-type]
    "analyze_bets swapped": (lambda: analyze_bets(ONE, [TIE]), "analyze_bets(): bets is the Shoe"),  # type: ignore[arg-type]
    "analyze_cards list": (lambda: analyze_cards([PAIRS], ONE), "analyze_cards(): bet is the list"),  # type: ignore[arg-type]
    "analyze_cards name": (lambda: analyze_cards("perfect-pairs-v1", ONE), "bet is the str"),  # type: ignore[arg-type]
    "analyze_cards shoe": (lambda: analyze_cards(PAIRS, 1), "analyze_cards(): shoe is the int 1"),  # type: ignore[arg-type]
    "analyze shoe": (lambda: analyze(TIE, ONE), "analyze(): dist is the Shoe"),  # type: ignore[arg-type]
    "effects_of_removal bet": (lambda: effects_of_removal(TIE, ONE), "effects_of_removal(): bets is the Bet"),  # type: ignore[arg-type]
    "effects_of_removal shoe": (lambda: effects_of_removal([TIE], "8"), "effects_of_removal(): shoe is"),  # type: ignore[arg-type]
    "effects_of_removal pairs": (lambda: effects_of_removal(PAIRS, ONE), "effects_of_removal(): bets is the"),  # type: ignore[arg-type]
    "effects_of_removal rules": (lambda: effects_of_removal([TIE], ONE, "x"), "(): rules is the str"),  # type: ignore[arg-type]
    "shown_odds str shown": (lambda: shown_odds(ONE, "p1=9"), "shown_odds(): shown is the str 'p1=9'"),  # type: ignore[arg-type]
    "shown_odds shoe": (lambda: shown_odds("1", SHOWN), "shown_odds(): shoe is the str '1'"),  # type: ignore[arg-type]
    "shown_analyses bet": (lambda: shown_analyses(TIE, ONE, SHOWN), "shown_analyses(): bets is the Bet"),  # type: ignore[arg-type]
    "closed_forms bet": (lambda: closed_forms(TIE), "closed_forms(): bets is the Bet"),  # type: ignore[arg-type]
    "closed_forms rules": (lambda: closed_forms([TIE], "standard"), "closed_forms(): rules is the str"),  # type: ignore[arg-type]
    "Shoe counts list": (lambda: Shoe([4] * 13), "Shoe(): counts is the list"),  # type: ignore[arg-type]
    "Shoe label": (lambda: Shoe((4,) * 13, label=1), "Shoe(): label is the int 1"),  # type: ignore[arg-type]
    "from_counts int": (lambda: Shoe.from_counts(4), "Shoe.from_counts(): counts is the int 4"),  # type: ignore[arg-type]
    "from_counts str": (lambda: Shoe.from_counts("4" * 13), "Shoe.from_counts(): counts is the str"),  # type: ignore[arg-type]
    "from_counts None": (lambda: Shoe.from_counts(None), "Shoe.from_counts(): counts is the NoneType"),  # type: ignore[arg-type]
    "from_counts label": (lambda: Shoe.from_counts([4] * 13, 5), "from_counts(): label is the int 5"),  # type: ignore[arg-type]
    "from_cards int": (lambda: Shoe.from_cards(1), "Shoe.from_cards(): types is the int 1"),  # type: ignore[arg-type]
    "from_cards str": (lambda: Shoe.from_cards("1" * 52), "Shoe.from_cards(): types is the str"),  # type: ignore[arg-type]
    "decks str": (lambda: Shoe.decks("8"), "decks '8'"),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("case", list(WRONG))
def test_a_wrong_argument_type_is_the_packages_error_naming_the_argument(case: str) -> None:
    call, start = WRONG[case]
    with pytest.raises(AnalyzerError) as raised:
        call()
    message = str(raised.value)
    assert message.startswith(start) or start in message, message
    assert "give " in message or "use " in message, message  # what is allowed
    assert "\n" not in message and len(message) < 200, message


def test_old_call_forms_still_work() -> None:
    """Lists and tuples of bets, rules given positionally or by keyword, generators of counts."""
    [by_list] = analyze_bets([TIE], ONE, STANDARD)
    assert analyze_bets((TIE,), ONE, rules=STANDARD) == [by_list]
    assert analyze(TIE, distribution(ONE)) == by_list
    assert Shoe.from_counts(4 for _ in range(13)) == ONE  # type: ignore[arg-type]
    assert Shoe.from_counts((4,) * 13) == ONE


# -- one signature style for pricing --------------------------------------------------------


def test_pricing_takes_bets_then_a_shoe_then_optional_rules() -> None:
    """analyze_bets(bets, shoe, rules=STANDARD) prices any bets, rank- or card-level;
    analyze_cards(bet, shoe, rules=STANDARD) one card-level bet, in the same order."""
    bets = inspect.signature(analyze_bets).parameters
    cards = inspect.signature(analyze_cards).parameters
    assert list(bets) == ["bets", "shoe", "rules"]
    assert list(cards) == ["bet", "shoe", "rules"]
    assert bets["rules"].default is STANDARD and cards["rules"].default is STANDARD
    tie, pairs = analyze_bets([TIE, PAIRS], ONE)
    assert tie == analyze_bets([TIE], ONE, STANDARD)[0]
    assert pairs == analyze_cards(PAIRS, ONE) == analyze_cards(PAIRS, ONE, STANDARD)
    assert analyze_bets([TIE], ONE, BANCO_4_DRAWS_ON_0_1) != [tie]


# -- short reprs in signatures -------------------------------------------------------------


def test_rules_have_a_short_repr_and_keep_dataclass_equality() -> None:
    assert repr(STANDARD) == "Rules('standard')"
    assert repr(BANCO_4_DRAWS_ON_0_1) == "Rules('banco-4-draws-on-0-1')"
    assert str(inspect.signature(odds)) == "(shoe: 'Shoe', rules: 'Rules' = Rules('standard')) -> 'Odds'"
    for function in (odds, player_table, distribution, analyze_bets, analyze_cards, effects_of_removal):
        assert len(str(inspect.signature(function))) < 120, function
    assert get_rules("standard") == STANDARD
    rebuilt = Rules(
        "standard",
        STANDARD.natural,
        STANDARD.player_draws,
        STANDARD.banker_draws_player_stood,
        STANDARD.banker_draws,
        description="another description",
    )
    assert rebuilt == STANDARD and hash(rebuilt) == hash(STANDARD)
    assert STANDARD.with_player(5, False) != STANDARD


# -- dir(analyzer) -------------------------------------------------------------------------


def test_dir_of_the_package_is_its_public_names_once_each() -> None:
    _ = analyzer.odds, analyzer.Shoe, analyzer.analyze_bets  # loaded names are listed once too
    names = dir(analyzer)
    assert names == sorted(analyzer.__all__)
    assert len(names) == len(set(names))
    for private in ("TYPE_CHECKING", "sys", "import_module", "Any", "annotations", "_HOME", "core"):
        assert private not in names


# -- the closed forms' symbol d -----------------------------------------------------------


def test_a_plain_symbol_d_substitutes_into_the_closed_forms() -> None:
    [pair] = closed_forms([BETS["player-pair"]])
    plain = pair.house_edge.subs(sp.Symbol("d"), 8)
    assert plain == pair.house_edge.subs(D, 8) == sp.Rational(43, 415)
    assert evaluate(pair.house_edge, 8) == Fraction(43, 415)
    assert str(pair.house_edge) == "(4*d + 11)/(52*d - 1)"
    assert sp.Symbol("d") == D


# -- full decks given by counts are labelled as decks --------------------------------------


def test_full_decks_given_by_counts_are_labelled_as_decks() -> None:
    assert str(Shoe.from_counts([4] * 13)) == "1 deck"
    assert str(Shoe.from_cards([1] * 52)) == "1 deck"
    assert str(Shoe.from_counts([32] * 13)) == "8 decks"
    assert str(Shoe.from_cards([6] * 52)) == "6 decks"
    assert str(Shoe.from_counts([4] * 13).remove(["5"])) == "1 deck less 5"
    assert str(Shoe.from_counts([4] * 12 + [3])) == "counts 4,4,4,4,4,4,4,4,4,4,4,4,3"
    assert str(Shoe.from_counts([2] * 13)) == "counts " + ",".join(["2"] * 13)  # half a deck
    uneven = [2] * 13 + [0] * 13 + [3] * 26  # four of each rank, suits uneven: not a deck
    assert str(Shoe.from_cards(uneven)).startswith("cards 2,2")
    assert str(Shoe.from_counts([4] * 13, label="mine")) == "mine"
    # The CLI shows the counts as given (its golden outputs are unchanged).
    assert str(parse_counts(",".join(["4"] * 13))) == "counts " + ",".join(["4"] * 13)
    assert str(parse_cards(",".join(["1"] * 52))) == "cards " + ",".join(["1"] * 52)


# -- old names: deprecated aliases that warn and give the new ones ------------------------


def test_old_punto_banco_names_warn_and_give_the_player_banker_ones() -> None:
    """Outcome, Rules and the Player table keep their punto/banco names as read-only
    aliases; each warns, naming the new name."""
    outcome = next(iter(distribution(ONE).weights))
    with pytest.warns(DeprecationWarning, match=r"^Outcome.punto_total is deprecated: use Outcome.player_"):
        assert outcome.punto_total == outcome.player_total
    with pytest.warns(DeprecationWarning, match="Outcome.banco_pair"):
        assert outcome.banco_pair is outcome.banker_pair
    with pytest.raises(AttributeError):
        outcome.punto_total = 3  # type: ignore[misc]
    with pytest.warns(DeprecationWarning, match="use Rules.banker_draws$"):
        assert STANDARD.banco_draws == STANDARD.banker_draws
    with pytest.warns(DeprecationWarning, match="use Rules.with_player$"):
        assert STANDARD.with_punto(5, False) == STANDARD.with_player(5, False)
    with pytest.warns(DeprecationWarning, match="use Rules.banker_draws_on$"):
        assert STANDARD.banco_draws_on(4, 1) is STANDARD.banker_draws_on(4, 1) is False
    rows = analyzer.player_table(ONE)
    with pytest.warns(DeprecationWarning, match=r"^punto_table\(\) is deprecated: use player_table\(\)$"):
        assert analyzer.punto_table(ONE) == rows
    with pytest.warns(DeprecationWarning, match="use PlayerRow.(banker|tie)$"):
        assert (rows[0].banco, rows[0].egalite) == (rows[0].banker, rows[0].tie)
    with pytest.warns(DeprecationWarning, match="^PuntoRow is deprecated: use PlayerRow$"):
        assert analyzer.PuntoRow is analyzer.PlayerRow
    assert not {"punto_table", "PuntoRow"} & set(dir(analyzer))


def test_an_analysis_builds_its_paytable_rows_on_first_read_and_equals_an_eager_one() -> None:
    """`analysis_from_weights` leaves `lines` unbuilt until read (a house-edge summary reads
    none): read, they are the rows an analysis built with them holds, and equality, hashing,
    pickling (before the rows are built), `replace` and the unknown-attribute error are a
    dataclass's."""
    import dataclasses
    import pickle

    from analyzer.core.analysis import BetAnalysis, LineResult, analysis_from_weights

    banker = BETS["banker"]  # lines: wins (19:20), ties push; no line: loses
    lazy = analysis_from_weights(banker, [45, 10, 45], 100, finite=True)
    assert "lines" not in vars(lazy)
    again = pickle.loads(pickle.dumps(lazy))  # pickled with its rows unbuilt
    rows = (
        LineResult(banker.lines[0].describe(), 45, Fraction(9, 20), Fraction(19, 20), "19/20 to 1"),
        LineResult(banker.lines[1].describe(), 10, Fraction(1, 10), None, "push"),
        LineResult("any other outcome", 45, Fraction(9, 20), Fraction(-1), "loses"),
    )
    eager = BetAnalysis(banker, rows, lazy.expectation, lazy.push, lazy.hit_frequency, lazy.variance)
    assert lazy.expectation == Fraction(9, 20) * Fraction(19, 20) - Fraction(9, 20)
    assert lazy.lines == rows and "lines" in vars(lazy)
    assert again == eager == lazy and hash(again) == hash(eager)
    assert dataclasses.replace(again, push=Fraction(0)).lines == rows
    infinite = analysis_from_weights(banker, [45, 10, 0], 55, finite=False)
    assert [row.combinations for row in infinite.lines] == [None, None]  # no weight: no "other" row
    with pytest.raises(AttributeError, match="'BetAnalysis' object has no attribute 'rows'"):
        _ = lazy.rows  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="2 weights for 2 lines"):
        analysis_from_weights(banker, [45, 55], 100, finite=True)
