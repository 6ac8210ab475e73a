"""Counting systems: bookkeeping, built-ins rederived from effects of removal, TOML files."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer import Shoe
from analyzer.analyses.effects import effects_of_removal
from analyzer.core.catalogue import RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.ranks import RANKS
from analyzer.counting.systems import (
    SYSTEMS,
    CountSystem,
    best_linear_count,
    betting_correlation,
    get_system,
    linear_break_even,
)

EOR8 = effects_of_removal(
    [RANK_BETS[n] for n in ("banker", "player", "tie", "dragon7", "panda8")], Shoe.decks(8)
)


def effects(bet: str) -> list[Fraction]:
    return [EOR8.effects[bet][str(rank)] for rank in RANKS]


def test_running_and_true_count() -> None:
    jacobson = SYSTEMS["dragon7-jacobson"]
    seen = [0] * 13
    seen[RANKS.index("8")] = 3  # +6
    seen[RANKS.index("5")] = 2  # -2
    seen[RANKS.index("K")] = 9  # 0
    assert jacobson.running_count(seen) == 4
    assert jacobson.count(seen, cards_left=104) == 2  # two decks left
    assert not jacobson.bets(seen, 104) and jacobson.bets(seen, 52)
    how = SYSTEMS["dragon7-how"]
    assert how.running_count([0] * 13) == -32 and how.count([0] * 13, 400) == -32
    assert not how.balanced and jacobson.balanced


def test_builtin_tags() -> None:
    """Tags as the sources give them (A..9, ten-valued)."""
    assert SYSTEMS["dragon7-jacobson"].tags[:10] == (0, 0, 0, -1, -1, -1, -1, 2, 2, 0)
    assert SYSTEMS["panda8-jacobson"].tags[:10] == (1, 1, -2, -2, -2, -1, -1, -2, 4, 1)
    assert SYSTEMS["dragon7-how"].tags[:10] == (1, 0, 0, -1, -1, -1, -1, 2, 2, 0)
    assert SYSTEMS["natural9-thorp"].tags == (1,) * 8 + (-12,) + (1,) * 4
    for system in SYSTEMS.values():
        assert system.bet in RANK_BETS and system.source


@pytest.mark.parametrize("name", ["banker-eor", "player-eor", "tie-eor"])
def test_derived_systems_are_rederived(name: str) -> None:
    system = SYSTEMS[name]
    tags, _ = best_linear_count(effects(system.bet), 1)
    assert system.tags == tags
    even = linear_break_even(tags, effects(system.bet), EOR8.base[system.bet], 416)
    assert system.threshold == math.ceil(even)


def test_jacobson_dragon_count_is_the_best_balanced_level_2_count() -> None:
    tags, corr = best_linear_count(effects("dragon7"), 2)
    assert tags == SYSTEMS["dragon7-jacobson"].tags
    assert 0.96 < corr < 0.97
    # Jacobson's triggers sit at the linear break-even, rounded up.
    for name, bet in (("dragon7-jacobson", "dragon7"), ("panda8-jacobson", "panda8")):
        system = SYSTEMS[name]
        assert system.threshold == math.ceil(
            linear_break_even(system.tags, effects(bet), EOR8.base[bet], 416)
        )


def test_betting_correlation_bounds() -> None:
    e = effects("banker")
    scaled = [int(v * 10**7) for v in e]
    assert betting_correlation(scaled, e) > 0.9999
    assert betting_correlation([-t for t in scaled], e) < -0.9999
    assert betting_correlation([0] * 13, e) == 0.0
    for level in (1, 2, 3):
        tags, corr = best_linear_count(e, level)
        assert max(map(abs, tags)) <= level and sum(tags) == 0 and corr > 0.9


def test_user_systems_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        """
[systems.sevens]
bet = "dragon7"
tags = { 7 = -1, 8 = 1, 9 = 1, K = 0 }
threshold = "3/2"
[systems.plain]
bet = "tie"
tags = [0, 0, 0, 0, 0, -1, -1, 1, 1, 0, 0, 0, 0]
trigger = "running"
initial = -4
threshold = 2
""",
        encoding="utf-8",
    )
    sevens, plain = get_system(str(path))
    assert sevens.tags[RANKS.index("7")] == -1 and sevens.threshold == Fraction(3, 2)
    assert plain.trigger == "running" and plain.initial == -4 and plain.level == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[systems.x]\nbet = "tie"\ntags = [1, 2]\nthreshold = 1', "give 13 integers"),
        ('[systems.x]\nbet = "tie"\ntags = { Z = 1 }\nthreshold = 1', "unknown rank 'Z'"),
        ('[systems.x]\nbet = "tie"\ntags = [0,0,0,0,0,0,0,0,0,1.5]\nthreshold = 1', "1.5 is not an integer"),
        (
            '[systems.x]\nbet = "tie"\ntags = [0,0,0,0,0,0,0,0,0,1]\nthreshold = "lots"',
            "'lots' is not a number",
        ),
        ('[systems.x]\nbet = "tie"\ntags = [0,0,0,0,0,0,0,0,0,1]', "missing threshold"),
        ('[systems.x]\nbet = "tie"\ntags = [0,0,0,0,0,0,0,0,0,1]\nthreshold = 1\ntrigger = "gut"', "'gut'"),
        ('[systems.x]\nbet = "tie"\ntags = [0,0,0,0,0,0,0,0,0,1]\nthreshold = 1\ncolour = 1', "unknown key"),
        ("title = 1", "has no .systems.NAME. tables"),
        (
            '[systems.x]\nbet = "tie"\ntags = [0,0,0,0,0,0,0,0,0,1]\nthreshold = "1/0"',
            "'1/0' is not a number",
        ),
        ('[systems.x]\nbet = "tie"\ntags = [0,0,0,0,0,0,0,0,0,1]\nthreshold = "1e-30"', "out of range"),
        ('[systems.x]\nbet = "tie"\ntags = [0,0,0,0,0,0,0,0,0,10000000]\nthreshold = 1', "out of range"),
        ("[systems]\nx = 1", "must be a table"),
    ],
)
def test_bad_system_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AnalyzerError, match=message) as error:
        get_system(str(path))
    assert "\n" not in str(error.value)


def test_unknown_system() -> None:
    with pytest.raises(AnalyzerError, match="unknown counting system 'hilo'"):
        get_system("hilo")
    assert isinstance(SYSTEMS["banker-eor"], CountSystem)


def test_big_tiger_example_files_give_jacobsons_figures() -> None:
    """The Big Tiger example (a bet of a table file) at the precision Jacobson published
    (2024: house edge 15.2533%, standard deviation 6.519, hit 1.662% on 8 decks), and its
    count's own bet found in that table file (no --bet needed)."""
    from analyzer.analyses.results import edges_result
    from analyzer.counting.results import count_result
    from analyzer.present.text import percent

    examples = Path(__file__).resolve().parents[1] / "analyzer" / "examples"
    table, system = str(examples / "big-tiger.toml"), str(examples / "big-tiger-count.toml")
    (tiger,) = edges_result(Shoe.decks(8), bets=["big-tiger"], table=table).analyses
    assert tiger.house_edge == Fraction(141819481097, 929761583985)
    assert percent(tiger.house_edge) == "15.2533%"
    assert f"{math.sqrt(tiger.variance):.3f}" == "6.519" and f"{float(tiger.hit_frequency):.3%}" == "1.662%"
    (jacobson,) = get_system(system)
    assert jacobson.tags == (0, 0, -1, -1, -1, -2, 1, 2, 2, 0, 0, 0, 0) and jacobson.threshold == 8
    result = count_result(Shoe.decks(8), systems=[system], table=table, shoes=3, cut_card=14)
    assert [evaluation.bet.name for evaluation in result.evaluations] == ["big-tiger"]
