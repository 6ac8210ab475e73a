"""Weights of full-deck shoes as polynomials in the number of decks: the shipped files equal
a fresh build, and their values equal the general paths (coup classes, card enumeration)
to the unit at several deck counts and in the infinite-deck limit; other shoes and bets
keep the general paths."""

from __future__ import annotations

import json
from collections.abc import Callable
from math import perm
from pathlib import Path
from typing import Any

import pytest

from analyzer.analyses.pricing import analyze, analyze_bets
from analyzer.analyses.shipped import encode_bet_polynomials, encode_outcome_polynomials
from analyzer.cards.batch import analyze_cards
from analyzer.cards.engine import card_line_weights
from analyzer.core.bets import bet_from_mapping
from analyzer.core.catalogue import ALL_BETS, CARD_BETS, RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import RULES, STANDARD, Rules
from analyzer.core.shoe import Shoe
from analyzer.ranks import polynomials as deckpoly
from analyzer.ranks.coupstore import shipped_rules
from analyzer.ranks.enumeration import class_distribution, distribution, winner_weights
from analyzer.ranks.lines import line_indexes


def test_interpolate_recovers_integer_polynomials() -> None:
    assert deckpoly.interpolate([perm(52 * d, 6) for d in deckpoly.SAMPLE_DECKS]) == [
        0, -6240, 740896, -31636800, 621487360, -5703060480, 19770609664,
    ]  # fmt: skip
    coefs = [7, -3, 0, 11, -2, 0, 5]
    assert deckpoly.interpolate([deckpoly.evaluate(coefs, d) for d in deckpoly.SAMPLE_DECKS]) == coefs


def test_interpolate_refuses_what_is_not_an_integer_polynomial() -> None:
    with pytest.raises(ValueError, match="not an integer polynomial"):
        deckpoly.interpolate([1, 2, 3, 4, 5, 6, 8])  # d**6 / 720 + ...
    with pytest.raises(ValueError, match="give one for each"):
        deckpoly.interpolate([1, 2, 3])


@pytest.mark.parametrize(
    ("shoe", "decks"),
    [(Shoe.decks(8), 8), (Shoe.from_counts([12] * 13), 3), (Shoe.decks(8).remove(["5"]), None),
     (Shoe.infinite(), None), (Shoe.from_counts([2] * 13), None), (Shoe.from_counts([4] * 12 + [8]), None)],
    ids=str,
)  # fmt: skip
def test_full_decks(shoe: Shoe, decks: int | None) -> None:
    assert deckpoly.full_decks(shoe) == decks


# -- rank level ----------------------------------------------------------------------------


def test_shipped_outcome_polynomials_equal_a_fresh_build() -> None:
    assert deckpoly.outcome_polynomials_path(STANDARD).read_bytes() == encode_outcome_polynomials(STANDARD)


@pytest.mark.parametrize("rules", shipped_rules(), ids=lambda r: r.name)
def test_every_shipped_tableau_has_outcome_polynomials(rules: Rules) -> None:
    polys = deckpoly.outcome_polynomials(rules)
    assert polys is not None
    assert polys.matches(class_distribution(Shoe.decks(1), rules).classes)  # type: ignore[arg-type]


@pytest.mark.parametrize("decks", [1, 2, 6, 8, 100])
@pytest.mark.parametrize("rules", shipped_rules(), ids=lambda r: r.name)
def test_distribution_from_polynomials_equals_the_coup_classes(rules: Rules, decks: int) -> None:
    shoe = Shoe.decks(decks)
    fast, classes = distribution(shoe, rules), class_distribution(shoe, rules)
    assert fast.weights == classes.weights and fast.total == classes.total == perm(52 * decks, 6)
    assert fast.weight_list == classes.weight_list
    assert winner_weights(shoe, rules) == (classes.winner_counts(), classes.total)


@pytest.mark.parametrize("rules", list(RULES.values()), ids=lambda r: r.name)
def test_leading_coefficients_are_the_infinite_deck(rules: Rules) -> None:
    polys = deckpoly.outcome_polynomials(rules)
    assert polys is not None
    infinite = class_distribution(Shoe.infinite(), rules)
    assert list(polys.powers[deckpoly.DEGREE]) == [4**6 * w for w in infinite.weight_list or []]
    assert polys.results[3][deckpoly.DEGREE] == 4**6 * infinite.total


def test_damaged_outcome_files_are_not_used() -> None:
    good = deckpoly.outcome_polynomials_path(STANDARD).read_bytes()
    other = deckpoly.outcome_polynomials_path(STANDARD.with_player(5, False)).read_bytes()
    stored = class_distribution(Shoe.decks(1)).classes
    assert stored is not None
    whole = deckpoly._decode_outcomes(good, STANDARD)
    assert whole is not None and whole.matches(stored)
    flipped = good[:-300] + bytes(b ^ 0x5A for b in good[-300:-200]) + good[-200:]
    for damaged in (b"", b"garbage\n", other, good[:-50], flipped, good[:30] + b"7" + good[31:]):
        decoded = deckpoly._decode_outcomes(damaged, STANDARD)
        assert decoded is None or not decoded.matches(stored)


# -- bets --------------------------------------------------------------------------------------


def test_shipped_bet_polynomials_cover_every_builtin_bet_and_tableau() -> None:
    shipped = deckpoly.bet_polynomials()
    expected = {deckpoly.bet_key(bet, rules) for bet in ALL_BETS.values() for rules in RULES.values()}
    assert set(shipped) == expected


@pytest.mark.parametrize("name", ["perfect-9-bonus", "dragon7"])
def test_shipped_bet_polynomials_equal_a_fresh_build(name: str) -> None:
    fresh = json.loads(encode_bet_polynomials([ALL_BETS[name]], [STANDARD]))["entries"][0]
    assert deckpoly.bet_polynomials()[fresh["key"]] == (fresh["lines"], fresh["total"])


@pytest.mark.parametrize("decks", [3, 8])
@pytest.mark.parametrize("name", list(CARD_BETS))
def test_card_bets_from_polynomials_equal_the_enumeration(name: str, decks: int) -> None:
    bet, shoe = CARD_BETS[name], Shoe.decks(decks)
    assert deckpoly.line_weights(bet, shoe, STANDARD) == card_line_weights(bet, shoe, STANDARD)


@pytest.mark.parametrize("rules", [r for r in RULES.values() if r != STANDARD], ids=lambda r: r.name)
def test_card_bets_under_other_tableaux_equal_the_enumeration(rules: Rules) -> None:
    shoe = Shoe.decks(8)
    for bet in CARD_BETS.values():
        assert deckpoly.line_weights(bet, shoe, rules) == card_line_weights(bet, shoe, rules)


@pytest.mark.parametrize("rules", list(RULES.values()), ids=lambda r: r.name)
def test_rank_bets_from_polynomials_equal_the_coup_classes(rules: Rules) -> None:
    for decks in (2, 8):
        shoe = Shoe.decks(decks)
        dist = class_distribution(shoe, rules)
        assert dist.classes is not None and dist.weight_list is not None
        for bet in RANK_BETS.values():
            weights = [0] * (len(bet.lines) + 1)
            for line, w in zip(line_indexes(bet, dist.classes), dist.weight_list, strict=True):
                weights[line] += w
            assert deckpoly.line_weights(bet, shoe, rules) == (weights, dist.total)


def test_card_leading_coefficients_are_the_infinite_deck() -> None:
    for name in ("perfect-pairs-v2", "lucky-nines"):
        lines, total = deckpoly.bet_polynomials()[deckpoly.bet_key(CARD_BETS[name], STANDARD)]
        weights, infinite_total = card_line_weights(CARD_BETS[name], Shoe.infinite(), STANDARD)
        assert [line[deckpoly.DEGREE] for line in lines] == weights
        assert total[deckpoly.DEGREE] == infinite_total == 52**6


@pytest.mark.parametrize("rules", list(RULES.values()), ids=lambda r: r.name)
def test_the_infinite_deck_from_leading_coefficients_equals_the_general_paths(rules: Rules) -> None:
    infinite = Shoe.infinite()
    dist = distribution(infinite, rules)
    for bet in ALL_BETS.values():
        assert deckpoly.line_weights(bet, infinite, rules) is not None, bet.name
        [priced] = analyze_bets([bet], infinite, rules)
        general = analyze_cards(bet, infinite, rules) if bet.card_level else analyze(bet, dist)
        assert priced == general, bet.name
        assert all(line.combinations is None for line in priced.lines)


def test_a_bet_like_a_builtin_in_content_uses_its_polynomials() -> None:
    spec = {"lines": [{"when": {"winner": "tie"}, "pays": 10}]}  # the tie bet, paying more
    mine = bet_from_mapping("my-tie", spec)
    assert deckpoly.line_weights(mine, Shoe.decks(6), STANDARD) == deckpoly.line_weights(
        RANK_BETS["tie"], Shoe.decks(6), STANDARD
    )
    [priced] = analyze_bets([mine], Shoe.decks(6), STANDARD)  # its own payouts applied
    assert priced == analyze(mine, class_distribution(Shoe.decks(6), STANDARD))
    assert priced.expectation != analyze_bets([RANK_BETS["tie"]], Shoe.decks(6), STANDARD)[0].expectation
    other = bet_from_mapping("my-bet", {"lines": [{"when": {"winner": "tie", "cards": 6}, "pays": 10}]})
    assert deckpoly.line_weights(other, Shoe.decks(6), STANDARD) is None
    [analysis] = analyze_bets([other], Shoe.decks(6), STANDARD)  # the general path
    assert analysis == analyze(other, class_distribution(Shoe.decks(6), STANDARD))


def test_other_shoes_and_tableaux_keep_the_general_paths() -> None:
    suited = CARD_BETS["perfect-pairs-v1"]
    depleted = Shoe.decks(8).remove(["5H"])
    assert deckpoly.line_weights(suited, depleted, STANDARD) is None
    assert deckpoly.line_weights(RANK_BETS["tie"], depleted, STANDARD) is None
    assert deckpoly.line_weights(RANK_BETS["tie"], Shoe.decks(8), STANDARD.with_player(6, True)) is None
    # full decks by rank whose suits are uneven: suit-reading bets are enumerated
    uneven = Shoe.from_cards([2] * 13 + [0] * 13 + [1] * 26)
    assert deckpoly.full_decks(uneven) == 1
    assert deckpoly.line_weights(suited, uneven, STANDARD) is None
    [analysis] = analyze_bets([suited], uneven, STANDARD)
    assert analysis == analyze_cards(suited, uneven, STANDARD)
    assert analysis != analyze_cards(suited, Shoe.decks(1), STANDARD)
    # suits unknown: a bet that reads them is refused as before, one that does not is priced
    unsuited = Shoe.from_counts([8] * 13)
    with pytest.raises(AnalyzerError, match="suits are not known"):
        analyze_bets([suited], unsuited, STANDARD)
    nines = CARD_BETS["perfect-9-bonus"]
    assert deckpoly.line_weights(CARD_BETS["tie-max-high"], unsuited, STANDARD) == card_line_weights(
        CARD_BETS["tie-max-high"], Shoe.decks(2), STANDARD
    )
    assert deckpoly.line_weights(nines, unsuited, STANDARD) is None  # reads suits (suited A-8)


def test_a_missing_bet_file_falls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deckpoly, "BET_FILE", tmp_path / "missing.json")
    deckpoly.bet_polynomials.cache_clear()
    try:
        assert deckpoly.line_weights(RANK_BETS["tie"], Shoe.decks(8), STANDARD) is None
        shoe = Shoe.decks(8)
        tie = RANK_BETS["tie"]
        assert analyze_bets([tie], shoe, STANDARD) == [analyze(tie, class_distribution(shoe))]
    finally:
        deckpoly.bet_polynomials.cache_clear()


# -- parsed copies of the built-in catalogues -------------------------------------------------


@pytest.mark.parametrize("name", ["catalogue.toml", "card_catalogue.toml"])
def test_parsed_catalogues_are_current_and_equal_the_toml(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib
    import zlib

    from analyzer.core import catalogue

    text = (Path(catalogue.__file__).parent / name).read_text(encoding="utf-8")
    copy = json.loads((Path(catalogue.__file__).parent / catalogue.PARSED).read_text(encoding="utf-8"))[name]
    assert copy["crc32"] == zlib.crc32(text.encode())  # built from this text: rebuild if not
    assert catalogue.builtin_toml(name) == tomllib.loads(text) == copy["data"]
    monkeypatch.setattr(catalogue, "PARSED", "coups/missing.json")
    assert catalogue.builtin_toml(name) == tomllib.loads(text)


def test_the_shipped_read_bets_are_those_checked_from_the_toml(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parsed copies hold each built-in bet as `bet_from_mapping` reads and checks it from
    the TOML text (the file is exactly what `parsed_copies` writes now: rebuild it if not), and
    the bets taken from them equal those, with what they read; without them (a copy of other
    text, or none), the bets are read and checked from the TOML."""
    import tomllib

    from analyzer.core import catalogue
    from analyzer.core.bets import bet_from_mapping

    shipped = (Path(catalogue.__file__).parent / catalogue.PARSED).read_text(encoding="utf-8")
    assert shipped == json.dumps(catalogue.parsed_copies(), indent=1) + "\n"

    def checked(name: str) -> dict[str, Any]:
        data = tomllib.loads((Path(catalogue.__file__).parent / name).read_text(encoding="utf-8"))
        return {bet: bet_from_mapping(bet, spec, "catalogue") for bet, spec in data["bets"].items()}

    for name in ("catalogue.toml", "card_catalogue.toml"):
        expected = checked(name)
        for bets in (
            catalogue.builtin_bets(name)[1],
            {b.name: b for b in catalogue.ALL_BETS.values() if b.name in expected},
        ):
            assert list(bets) == list(expected)
            assert [(repr(b), b.reads) for b in bets.values()] == [
                (repr(b), b.reads) for b in expected.values()
            ]
            assert all("reads" in b.__dict__ for b in bets.values())  # taken as shipped, not computed
    assert any(b.card_level for b in catalogue.CARD_BETS.values())
    monkeypatch.setattr(catalogue, "PARSED", "coups/missing.json")
    fresh = catalogue.builtin_bets("card_catalogue.toml")[1]
    assert [repr(b) for b in fresh.values()] == [repr(b) for b in checked("card_catalogue.toml").values()]
    assert not any("reads" in b.__dict__ for b in fresh.values())  # read and checked now


def test_a_damaged_bet_file_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def changed(edit: Callable[[dict[str, Any]], None]) -> str:
        data = json.loads(Path(deckpoly.BET_FILE).read_text(encoding="utf-8"))
        edit(data["entries"][3])
        return json.dumps(data)

    def bump(entry: dict[str, Any]) -> None:
        entry["lines"][0][2] += 1  # one coefficient changed

    def extra(entry: dict[str, Any]) -> None:
        entry["lines"].append([0] * 7)  # a line too many (sums still hold)

    def fraction(entry: dict[str, Any]) -> None:
        entry["lines"][0][2] += 0.5

    shoe = Shoe.decks(8)
    for edit in (bump, extra, fraction):
        (tmp_path / "bets.json").write_text(changed(edit), encoding="utf-8")
        monkeypatch.setattr(deckpoly, "BET_FILE", tmp_path / "bets.json")
        deckpoly.bet_polynomials.cache_clear()
        try:
            found = deckpoly.bet_polynomials()
            assert found == {} or edit is extra, edit.__name__
            assert analyze_bets([*RANK_BETS.values()], shoe, STANDARD) == [
                analyze(bet, class_distribution(shoe)) for bet in RANK_BETS.values()
            ]
        finally:
            deckpoly.bet_polynomials.cache_clear()
