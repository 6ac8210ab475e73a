"""Effects of removal of card-level bets, per card type or per rank, one entry for any bets
(`effects_of_removal`; the old names warn), per-rank effects and best counts of card-level
bets, and eor/count with bets of a table file."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from clirun import run

import analyzer
from analyzer.analyses import effects
from analyzer.analyses.effects import CardEffects, effects_of_removal, estimate_quality
from analyzer.cards.batch import analyze_cards
from analyzer.core.bets import Bet, bet_from_mapping
from analyzer.core.catalogue import CARD_BETS, RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.ranks import RANKS
from analyzer.core.shoe import Shoe
from analyzer.counting.systems import derived_counts


def _card_effects(bets: list[Bet], shoe: Shoe) -> CardEffects:
    """The card-level part of `effects_of_removal`."""
    cards = effects_of_removal(bets, shoe).cards
    assert cards is not None
    return cards


def test_full_shoe_effects_vanish_by_symmetry() -> None:
    """On a full shoe every card type is alike, so the identity makes each effect 0."""
    eor = _card_effects([CARD_BETS["perfect-pairs-v1"]], Shoe.decks(2))
    assert set(eor.effects["perfect-pairs-v1"].values()) == {0}


def test_per_card_type_with_exact_identity() -> None:
    shoe = Shoe.decks(2).remove(["KH"])
    eor = _card_effects([CARD_BETS["perfect-pairs-v2"]], shoe)
    effects = eor.effects["perfect-pairs-v2"]
    assert eor.per["perfect-pairs-v2"] == "card type" and len(effects) == 52
    assert eor.identity["perfect-pairs-v2"] == 0
    assert shoe.types is not None
    assert sum(n * effects[name] for name, n in zip(effects, [n for n in shoe.types if n], strict=True)) == 0
    direct = (
        analyze_cards(CARD_BETS["perfect-pairs-v2"], shoe.remove(["QD"])).expectation
        - eor.base["perfect-pairs-v2"]
    )
    assert effects["QD"] == direct and direct < 0 < effects["KH"]  # a pair of queens of diamonds is lost


def test_per_card_type_on_a_lopsided_shoe() -> None:
    shoe = Shoe.from_cards([(t * 5) % 3 + (t == 8) for t in range(52)])
    eor = _card_effects([CARD_BETS["lucky-nines"]], shoe)
    assert shoe.types is not None and eor.identity["lucky-nines"] == 0
    effects = eor.effects["lucky-nines"]
    assert len(effects) == sum(1 for n in shoe.types if n)
    assert effects["9S"] != effects["9C"]  # two nines of spades left, one of clubs
    base = analyze_cards(CARD_BETS["lucky-nines"], shoe).expectation  # the one-at-a-time path
    assert eor.base["lucky-nines"] == base
    for card in ("9S", "9C", *list(effects)[:2]):
        removed = analyze_cards(CARD_BETS["lucky-nines"], shoe.remove([card])).expectation
        assert effects[card] == removed - base


def test_per_rank_for_bets_without_suits() -> None:
    eor = _card_effects([CARD_BETS["tie-max-high"]], Shoe.decks(1))
    assert eor.per["tie-max-high"] == "rank" and len(eor.effects["tie-max-high"]) == 13
    assert eor.identity["tie-max-high"] == 0
    base = analyze_cards(CARD_BETS["tie-max-high"], Shoe.decks(1)).expectation
    for rank in ("A", "7", "K"):
        removed = analyze_cards(CARD_BETS["tie-max-high"], Shoe.decks(1).remove([rank])).expectation
        assert eor.effects["tie-max-high"][rank] == removed - base


def test_repr_is_one_short_line() -> None:
    eor = _card_effects([CARD_BETS["tie-max-high"]], Shoe.decks(1))
    assert repr(eor) == "CardEffects(tie-max-high: 13 ranks; 1 deck, standard)"


def test_one_entry_for_any_bets_and_the_old_names_warn() -> None:
    """`effects_of_removal` values rank-level and card-level bets alike; the old names give
    the same values with a DeprecationWarning naming the new one."""
    shoe, bets = Shoe.decks(2).remove(["KH"]), [RANK_BETS["tie"], CARD_BETS["perfect-pairs-v2"]]
    both = effects_of_removal(bets, shoe)
    assert both.per == {"tie": "rank", "perfect-pairs-v2": "card type"}
    assert both.identity == {"tie": 0, "perfect-pairs-v2": 0}
    assert both.ranks is not None and both.effects["tie"] == both.ranks.effects["tie"]
    assert both.cards is not None and both.effects["perfect-pairs-v2"]["QD"] < 0
    new = r"is deprecated: use effects_of_removal\(\)"
    with pytest.warns(DeprecationWarning, match=r"^removal_effects\(\) " + new):
        assert effects.removal_effects(bets, shoe) == both
    with pytest.warns(DeprecationWarning, match=r"^card_effects_of_removal\(\) " + new):
        assert effects.card_effects_of_removal(bets[1:], shoe) == both.cards
    with pytest.warns(DeprecationWarning):
        assert analyzer.card_effects_of_removal is effects.card_effects_of_removal
        assert analyzer.card_effects_of_removal(bets[1:], shoe) == both.cards
    assert "card_effects_of_removal" not in dir(analyzer)


def test_per_rank_effects_of_a_bet_per_card_type() -> None:
    """A rank's effect is that of removing a card of the rank at random: its card types'
    effects weighted by their counts, checked one removal at a time; the identity holds."""
    shoe = Shoe.from_cards([(t * 5) % 3 + (t == 8) for t in range(52)])
    bet = CARD_BETS["lucky-nines"]
    eor = effects_of_removal([bet], shoe)
    by_rank = eor.by_rank["lucky-nines"]
    base = analyze_cards(bet, shoe).expectation
    assert shoe.types is not None
    nines = {name: shoe.types[8 + 13 * s] for s, name in enumerate(["9S", "9H", "9D", "9C"])}
    held = [name for name in nines if nines[name]]
    removed = {name: analyze_cards(bet, shoe.remove([name])).expectation - base for name in held}
    assert by_rank["9"] == sum(nines[name] * removed[name] for name in removed) / sum(nines.values())
    assert shoe.counts is not None
    assert sum(n * by_rank[str(rank)] for rank, n in zip(RANKS, shoe.counts, strict=True) if n) == 0
    assert list(eor.to_frame().index) == list(by_rank)


def test_eor_gives_best_counts_for_card_level_bets(capsys: pytest.CaptureFixture[str]) -> None:
    """Super Tie (per card type) gets best counts of ranks from its effects per rank, as
    `derived_counts` gives them; Perfect Pairs, whose ranks all act alike, says why it has none."""
    code, out, err = run(capsys, "eor", "--bets", "tie,super-tie", "--decks", "1", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    cards = data["card_level"]["best_counts"]["super-tie"]
    assert sorted({c["level"] for c in cards}) == [1, 2, 3] and set(data["best_counts"]) == {"tie"}
    eor = effects_of_removal([CARD_BETS["super-tie"]], Shoe.decks(1))
    [level1, *_] = derived_counts(eor, ["super-tie"])
    assert list(cards[0]["tags"].values()) == list(level1.tags) and level1.tags[5] < 0 < level1.tags[9]
    code, out, err = run(capsys, "eor", "--bets", "super-tie,perfect-pairs-v1", "--decks", "8")
    assert code == 0, err
    assert "Best linear counts of card-level bets (from their effects per rank)" in out
    assert "\nsuper-tie        1  " in out
    assert "No linear count for perfect-pairs-v1: removing a card of any rank changes its" in out


def test_suit_bet_needs_known_suits() -> None:
    with pytest.raises(AnalyzerError, match="suits are not known"):
        _card_effects([CARD_BETS["perfect-pairs-v1"]], Shoe.from_counts([8] * 13))


def test_estimate_quality_refuses_a_card_level_bet_naming_the_function_that_values_it() -> None:
    # A KeyError from deep in the rank-level evaluator before; now the function to use.
    bets = [CARD_BETS["tie-max-high"]]
    with pytest.raises(AnalyzerError) as refused:
        estimate_quality(effects_of_removal([RANK_BETS["tie"]], Shoe.decks(1)), bets, np.array([[4] * 13]))
    assert str(refused.value) == (
        "estimate_quality(): bet 'tie-max-high' is card-level (it reads individual cards); "
        "use effects_of_removal() for it"
    )
    assert effects_of_removal(bets, Shoe.decks(1)).identity == {"tie-max-high": 0}  # what it names works


def test_eor_cli_with_table_bets(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text('name = "mine"\nbase = "standard"\n', encoding="utf-8")
    path = tmp_path / "t.toml"
    path.write_text(
        'rules = "mine.toml"\n'
        '[bets.high-tie]\nlines = [{ when = { winner = "tie", highest = [6, 7, 8, 9] }, pays = 10 }]\n'
        '[bets.nat]\nlines = [{ when = { natural = true, winner = "player" }, pays = 2 }]\n',
        encoding="utf-8",
    )
    code, out, err = run(
        capsys, "eor", "--decks", "1", "--table", str(path), "--bets", "nat,high-tie", "--format", "json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["rules"] == "mine" and set(data["bets"]) == {"nat"}
    assert data["card_level"]["per"] == {"high-tie": "rank"} and data["card_level"]["identity"] == {
        "high-tie": "0"
    }


def test_count_with_a_table_bet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[bets.big-tie]\nlines = [{ when = { winner = "tie" }, pays = 9 }]\n', encoding="utf-8")
    argv = [
        "count",
        "--system",
        "banker-eor",
        "--table",
        str(path),
        "--bet",
        "big-tie",
        "--shoes",
        "2",
        "--format",
        "json",
    ]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert json.loads(out)["systems"][0]["bet"] == "big-tie"


def test_count_judges_card_level_bets(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Built-in and table card-level bets in `count`; a suit bet needs a shoe with suits."""
    base = ["count", "--system", "dragon7-jacobson", "--shoes", "2", "--cut-card", "14", "--format", "json"]
    code, out, err = run(capsys, *base, "--bet", "perfect-pairs-v1")
    assert code == 0, err
    system = json.loads(out)["systems"][0]
    assert system["bet"] == "perfect-pairs-v1" and system["coups"] > 100
    assert system["expectation_all"].startswith("-")  # the bet's edge is about 13% on 8 decks
    path = tmp_path / "t.toml"
    suited = "[bets.suited]\nlines = [{ when = { player_suited = true }, pays = 3 }]\n"
    path.write_text(suited, encoding="utf-8")
    code, out, err = run(capsys, *base, "--table", str(path), "--bet", "suited", "--decks", "2")
    assert code == 0, err
    assert json.loads(out)["systems"][0]["bet"] == "suited"
    by_rank = ["--counts", ",".join(["8"] * 13)]
    code, out, err = run(capsys, *base, "--table", str(path), "--bet", "suited", *by_rank)
    assert code == 2 and out == "" and err.count("\n") == 1 and "suited read suits" in err


def test_payouts_beyond_int64(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """eor prices a card-level bet paying 1e300 exactly (one shoe at a time); count refuses
    it in one line, naming the bet."""
    path = tmp_path / "t.toml"
    path.write_text(
        '[bets.huge]\nlines = [{ when = { player_suited = true }, pays = "1e300" }]\n', encoding="utf-8"
    )
    types = [1] * 13 + [1, 1, 1] + [0] * 36  # spades A-K and hearts A-3: a small shoe, quick
    cards = ",".join(map(str, types))
    argv = ["eor", "--cards", cards, "--table", str(path), "--bets", "huge", "--format", "json"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    data = json.loads(out)
    assert data["per"] == {"huge": "card type"}
    huge = bet_from_mapping("huge", {"lines": [{"when": {"player_suited": True}, "pays": "1e300"}]})
    deck = Shoe.from_cards(types)
    base = analyze_cards(huge, deck).expectation
    assert base > 10**298 and data["expectation"] == {"huge": str(base)}
    without = analyze_cards(huge, deck.remove(["AS"])).expectation
    assert Fraction(data["bets"]["huge"]["AS"]) == without - base
    code, out, err = run(capsys, "count", "--table", str(path), "--bet", "huge", "--shoes", "2")
    assert code == 2 and out == "" and err.count("\n") == 1 and "'huge'" in err
