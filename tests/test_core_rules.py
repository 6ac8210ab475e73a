"""The drawing tableau as data: built-ins, TOML files, validation, differences.

Source of the standard tableau: the brief ("Shoes and dealing procedure"), stated
identically by the Wikipedia articles (English, Russian, Hebrew) and the Russian gambling
dictionary; the Russian-language beginner's guide's grid differs only at Banco 4 against a Punto
third card of 0 or 1.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import analyzer.core.rules as rules_module
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, RULES, STANDARD, Rules, get_rules, rules_from_mapping

# The brief's table: Banco total -> Punto's third-card values on which Banco draws.
BRIEF_TABLEAU = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: set(range(10)) - {8},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}


def test_standard_matches_the_brief() -> None:
    assert STANDARD.natural == 8
    assert [t for t in range(10) if STANDARD.is_natural(t)] == [8, 9]
    assert [t for t in range(10) if STANDARD.player_draws_on(t)] == [0, 1, 2, 3, 4, 5]
    assert [t for t in range(10) if STANDARD.banker_draws_on(t, None)] == [0, 1, 2, 3, 4, 5]
    for total, draws_against in BRIEF_TABLEAU.items():
        assert {v for v in range(10) if STANDARD.banker_draws_on(total, v)} == draws_against, total


def test_beginners_guide_differs_only_at_banco_4() -> None:
    for total in range(10):
        for v in range(10):
            differs = STANDARD.banker_draws_on(total, v) != BANCO_4_DRAWS_ON_0_1.banker_draws_on(total, v)
            assert differs == (total == 4 and v in {0, 1}), (total, v)
    assert BANCO_4_DRAWS_ON_0_1.banker_draws_on(4, 0) and BANCO_4_DRAWS_ON_0_1.banker_draws_on(4, 1)
    assert BANCO_4_DRAWS_ON_0_1.player_draws == STANDARD.player_draws
    assert BANCO_4_DRAWS_ON_0_1.banker_draws_player_stood == STANDARD.banker_draws_player_stood


def test_differences() -> None:
    assert STANDARD.differences(BANCO_4_DRAWS_ON_0_1) == [
        "Banco draws on 4 against a third card of 0",
        "Banco draws on 4 against a third card of 1",
    ]
    assert BANCO_4_DRAWS_ON_0_1.differences(STANDARD) == [
        "Banco stands on 4 against a third card of 0",
        "Banco stands on 4 against a third card of 1",
    ]
    assert STANDARD.differences(STANDARD) == []
    assert STANDARD.differences(STANDARD.with_player(5, False)) == ["Punto stands on 5"]
    assert STANDARD.differences(STANDARD.with_player(6, True)) == ["Punto draws on 6"]
    nine = replace(STANDARD, natural=9)
    assert STANDARD.differences(nine) == ["natural threshold 8 -> 9"]


def test_with_punto() -> None:
    stand = STANDARD.with_player(5, False)
    assert not stand.player_draws_on(5)
    assert stand.player_draws == frozenset(range(5))
    assert STANDARD.with_player(5, True) == replace(STANDARD, name=STANDARD.with_player(5, True).name)
    assert STANDARD.player_draws_on(5)  # the original is unchanged


def test_registry() -> None:
    assert set(RULES) == {"standard", "banco-4-draws-on-0-1"}
    assert get_rules("standard") is STANDARD
    assert get_rules("banco-4-draws-on-0-1") is BANCO_4_DRAWS_ON_0_1
    assert get_rules("seed004") is BANCO_4_DRAWS_ON_0_1  # the old name stays an alias
    assert rules_module.SEED004 is BANCO_4_DRAWS_ON_0_1  # and the old Python name
    assert get_rules(BANCO_4_DRAWS_ON_0_1) is BANCO_4_DRAWS_ON_0_1


@pytest.mark.parametrize("rules", [STANDARD, BANCO_4_DRAWS_ON_0_1])
def test_mapping_round_trip(rules: Rules) -> None:
    assert rules_from_mapping(rules.to_mapping()) == rules


README_TOML = """\
name = "banco-4-draws-on-0-1"
base = "standard"
punto_draws = [0, 1, 2, 3, 4, 5]
banco_draws_when_punto_stands = [0, 1, 2, 3, 4, 5]

[banco_draws]   # Banco total -> values of Punto's third card on which Banco draws
4 = [0, 1, 2, 3, 4, 5, 6, 7]
"""


def test_readme_toml_is_the_beginners_guide_rules(tmp_path: Path) -> None:
    path = tmp_path / "variant.toml"
    path.write_text(README_TOML, encoding="utf-8")
    loaded = get_rules(str(path))
    assert loaded.name == "banco-4-draws-on-0-1"
    assert loaded == replace(BANCO_4_DRAWS_ON_0_1, name="banco-4-draws-on-0-1")
    assert STANDARD.differences(loaded) == STANDARD.differences(BANCO_4_DRAWS_ON_0_1)


def test_toml_defaults(tmp_path: Path) -> None:
    path = tmp_path / "my-rules.toml"
    path.write_text('base = "seed004"\nnatural = 9\n', encoding="utf-8")
    loaded = get_rules(str(path))
    assert loaded.name == "my-rules"  # the file's stem
    assert loaded == replace(BANCO_4_DRAWS_ON_0_1, name="my-rules", natural=9)
    assert not loaded.is_natural(8)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("colour = 1", "unknown key 'colour'"),
        ("punto_draws = [0, 1, 10]", "10"),
        ("punto_draws = [0, -1]", "-1"),
        ('punto_draws = ["5"]', "'5'"),
        ("punto_draws = [true]", "True"),
        ("punto_draws = 5", "not a list"),
        ('punto_draws = "012345"', "not a list"),
        ("banco_draws_when_punto_stands = [1.5]", "1.5"),
        ("natural = 0", "natural 0"),
        ("natural = 11", "natural 11"),
        ('natural = "8"', "natural '8'"),
        ("natural = true", "natural True"),
        ('base = "baccarat"', "base 'baccarat'"),
        ("name = 3", "name"),
        ("description = []", "description"),
        ("banco_draws = [1, 2]", "banco_draws must be a table"),
        ("[banco_draws]\n10 = [1]", "'10'"),
        ("[banco_draws]\n4 = [12]", "banco_draws.4"),
        ("[banco_draws]\n4 = 3", "banco_draws.4"),
    ],
)
def test_bad_rule_files(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(AnalyzerError) as info:
        get_rules(str(path))
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message


def test_invalid_toml(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("name = [unclosed\n", encoding="utf-8")
    with pytest.raises(AnalyzerError, match="not valid TOML"):
        get_rules(str(path))


def test_missing_and_unknown(tmp_path: Path) -> None:
    with pytest.raises(AnalyzerError, match="not found"):
        get_rules(str(tmp_path / "absent.toml"))
    with pytest.raises(AnalyzerError, match="unknown rules 'macao'"):
        get_rules("macao")
    with pytest.raises(AnalyzerError, match="unknown rules"):
        get_rules(str(tmp_path))  # a path without .toml is not a rules file
    directory = tmp_path / "dir.toml"
    directory.mkdir()
    with pytest.raises(AnalyzerError, match="cannot be read"):
        get_rules(str(directory))


def test_undecodable_file(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(b'name = "\xe9"\n')
    with pytest.raises(AnalyzerError, match="cannot be read"):
        get_rules(str(path))


def test_direct_construction_is_validated() -> None:
    with pytest.raises(AnalyzerError, match="rows"):
        replace(STANDARD, banker_draws=STANDARD.banker_draws[:9])
    with pytest.raises(AnalyzerError, match="punto_draws"):
        replace(STANDARD, player_draws=frozenset({10}))


def test_unhashable_base_is_a_clean_error() -> None:
    with pytest.raises(AnalyzerError):
        rules_from_mapping({"base": []})


def test_table_instead_of_list_is_rejected() -> None:
    with pytest.raises(AnalyzerError):
        rules_from_mapping({"punto_draws": {}})
