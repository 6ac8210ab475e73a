"""The built-in catalogue and user tables in TOML."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from analyzer import BANCO_4_DRAWS_ON_0_1, STANDARD, Shoe, distribution
from analyzer.analyses.pricing import analyze
from analyzer.core.catalogue import RANK_BETS, TABLES, get_bet, get_bets, get_table, parse_commission
from analyzer.core.errors import AnalyzerError

REQUIRED = [
    "player", "banker", "banker-4pct", "tie", "tie-9to1", "super6-banker", "ez-banker",
    "dragon7", "panda8", "player-pair", "banker-pair",
]  # fmt: skip


def test_required_json_names_exist_and_cite_a_source() -> None:
    for name in REQUIRED:
        assert get_bet(name).name == name
    for bet in RANK_BETS.values():
        assert bet.source, bet.name


def test_main_bet_kinds() -> None:
    assert {b.name for b in RANK_BETS.values() if b.kind == "banker"} == {
        "banker",
        "banker-4pct",
        "super6-banker",
        "ez-banker",
    }
    assert TABLES["ez-baccarat"].rules == STANDARD


def test_get_bets_and_errors() -> None:
    assert [b.name for b in get_bets("banker, tie")] == ["banker", "tie"]
    with pytest.raises(AnalyzerError, match="unknown bet 'bank'"):
        get_bets("bank")
    with pytest.raises(AnalyzerError, match="unknown table 'vegas'"):
        get_table("vegas")


@pytest.mark.parametrize(
    ("text", "rate"), [("5%", Fraction(1, 20)), ("0.04", Fraction(1, 25)), ("1/20", Fraction(1, 20))]
)
def test_parse_commission(text: str, rate: Fraction) -> None:
    assert parse_commission(text) == rate


@pytest.mark.parametrize("text", ["100%", "-1%", "abc", "1.5"])
def test_bad_commission(text: str) -> None:
    with pytest.raises(AnalyzerError, match="is not a commission"):
        parse_commission(text)


def test_user_table_file(tmp_path: Path) -> None:
    path = tmp_path / "casino.toml"
    path.write_text(
        """
title = "Casino X"
offer = ["player", "dragon7"]
banker_commission = "4%"
tie_pays = 9

[rules]
base = "standard"
[rules.banco_draws]
4 = [0, 1, 2, 3, 4, 5, 6, 7]

[bets.lucky-tie]
title = "Natural tie"
lines = [{ when = { winner = "tie", natural = true }, pays = 30 }]
""",
        encoding="utf-8",
    )
    table = get_table(str(path))
    assert [b.name for b in table.bets] == ["player", "dragon7", "banker-4pct", "tie-9to1", "lucky-tie"]
    assert table.rules.banker_draws == BANCO_4_DRAWS_ON_0_1.banker_draws
    dist = distribution(Shoe.decks(8), table.rules)
    by_name = {b.name: analyze(b, dist) for b in table.bets}
    assert by_name["banker-4pct"].expectation == analyze(RANK_BETS["banker-4pct"], dist).expectation
    assert by_name["tie-9to1"].expectation == analyze(RANK_BETS["tie-9to1"], dist).expectation
    natural_tie = dist.probability(lambda o: o.winner == "tie" and o.natural)
    assert by_name["lucky-tie"].expectation == 31 * natural_tie - 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('offer = ["banker", "ghost"]', "unknown bet 'ghost'"),
        ('offer = ["banker"]\ncolour = "red"', "unknown key 'colour'"),
        ('banker_commission = "150%"', "is not a commission"),
        ("tie_pays = -8", "is not a payout ratio"),
        ('offer = ["banker"]\nrules = "vegas"', "unknown rules 'vegas'"),
        ("title = 'empty'", "offers no bets"),
        ('offer = ["banker"]\n[rules]\nnatural = 11', "natural 11"),
        ("offer = [", "not valid TOML"),
    ],
)
def test_bad_table_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AnalyzerError, match=message) as error:
        get_table(str(path))
    assert "\n" not in str(error.value)


def test_offer_items_must_be_names(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('offer = [["banker"]]', encoding="utf-8")
    with pytest.raises(AnalyzerError, match="offer must be a list of bet names"):
        get_table(str(path))


def test_bets_holds_every_built_in_with_what_it_reads() -> None:
    from analyzer.core.catalogue import BETS, CARD_BETS

    assert list(BETS) == [*RANK_BETS, *CARD_BETS]
    assert all(bet.reads == ("outcome",) and not bet.card_level for bet in RANK_BETS.values())
    assert all(bet.card_level and bet.reads != ("outcome",) for bet in CARD_BETS.values())
    names = ("perfect-pairs-v1", "super-tie", "tie-max-high", "lucky-nines")
    reads = {name: BETS[name].reads for name in names}
    assert reads == {
        "perfect-pairs-v1": ("ranks", "suits"),
        "super-tie": ("outcome", "colours"),
        "tie-max-high": ("outcome", "values"),
        "lucky-nines": ("values", "suits"),
    }
    assert [bet.name for bet in BETS.values() if bet.needs_suits] == [
        "perfect-pairs-v1", "perfect-pairs-v2", "lucky-nines", "perfect-9-bonus", "super-tie", "super-tie-20"
    ]  # fmt: skip


def test_list_bets_shows_every_built_in_and_what_it_reads(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from analyzer.cli import main
    from analyzer.core.catalogue import BETS

    assert main(["list", "bets", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)["bets"]
    assert list(listed) == list(BETS)
    assert {name: tuple(entry["reads"]) for name, entry in listed.items()} == {
        name: bet.reads for name, bet in BETS.items()
    }
    assert main(["list", "bets"]) == 0
    table = capsys.readouterr().out
    assert "reads" in table.splitlines()[2] and "ranks, suits" in table
    assert max(map(len, table.splitlines())) <= 120
