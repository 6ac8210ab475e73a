"""`solve_text` (what `baccarat solve GAME` prints) and the game reports (analyzer.games)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from analyzer.cli import main
from analyzer.errors import AnalyzerError
from analyzer.games import GAMES, games_report, solve_text
from analyzer.rules import SEED004, STANDARD
from analyzer.shoe import Shoe

FAST_SHOES = {
    "chemin-de-fer": Shoe.infinite(),
    "punto-5": Shoe.infinite(),
    "banque": Shoe.infinite(),
    "macao": Shoe.infinite(),
}


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("fmt", ["table", "markdown", "json"])
def test_every_game_in_every_format(game: str, fmt: str) -> None:
    text = solve_text(game, FAST_SHOES[game], STANDARD, None, fmt)
    assert text.endswith("\n")
    if fmt == "json":
        data = json.loads(text)
        assert data["game"] == game
    else:
        assert "infinite deck" in text
        assert ("|---" in text) == (fmt == "markdown")


def test_chemin_de_fer_json_keys() -> None:
    """Kemeny and Snell's model for --decks inf: the Player draws on 5 with probability 9/11."""
    data = json.loads(solve_text("chemin-de-fer", Shoe.infinite(), STANDARD, None, "json"))
    assert data["value"] == "679568/53094899"
    assert data["player_draw_probability"] == {
        "0": "1", "1": "1", "2": "1", "3": "1", "4": "1", "5": "9/11", "6": "0", "7": "0",
    }  # fmt: skip
    assert data["banker_strategy"]["6"]["stood"] == "859/2288"
    assert data["banker_strategy"]["3"]["8"] == "0"
    assert data["banker_mixed"] == {"(6, stood)": "859/2288"}
    assert data["custom"]["both_follow_custom"] == "4560/371293"


def test_chemin_de_fer_defaults_to_six_decks_and_takes_the_commission() -> None:
    data = json.loads(solve_text("chemin-de-fer", None, STANDARD, Fraction(1, 20), "json"))
    assert data["shoe"] == "6 decks"
    assert data["model"] == "hands"
    assert data["commission"] == "1/20"
    assert set(data["player_draw_probability_by_hand"]) == {"0+5", "1+4", "2+3", "6+9", "7+8"}
    assert Fraction(data["value"]) < 0


def test_seed004_tableau_changes_only_the_customary_comparison() -> None:
    """The Banker is free, so seed 004's tableau changes the game only through 'banker follows
    the tableau' and 'both follow custom'."""
    standard = json.loads(solve_text("chemin-de-fer", Shoe.infinite(), STANDARD, None, "json"))
    seed004 = json.loads(solve_text("chemin-de-fer", Shoe.infinite(), SEED004, None, "json"))
    assert standard["value"] == seed004["value"]
    assert standard["custom"]["both_follow_custom"] != seed004["custom"]["both_follow_custom"]


@pytest.mark.parametrize(
    ("game", "shoe", "commission", "fmt", "message"),
    [
        (
            "baccara",
            None,
            None,
            "table",
            "unknown game 'baccara': use one of chemin-de-fer, punto-5, banque, macao",
        ),
        ("chemin-de-fer", Shoe.infinite(), None, "html", "format 'html': use one of table, markdown, json"),
        ("macao", None, Fraction(1, 20), "table", "macao takes no commission"),
        (
            "banque",
            Shoe.from_counts([1] * 5 + [0] * 4 + [1, 1, 1, 0]),
            None,
            "table",
            "needs at least 9 cards",
        ),
        ("chemin-de-fer", Shoe.from_counts([4] + [0] * 8 + [4] * 4), None, "json", "never holds 5"),
    ],
)
def test_bad_input_is_one_line(
    game: str, shoe: Shoe | None, commission: Fraction | None, fmt: str, message: str
) -> None:
    with pytest.raises(AnalyzerError, match=message) as error:
        solve_text(game, shoe, STANDARD, commission, fmt)
    assert "\n" not in str(error.value)


def test_cli_solve(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "chemin-de-fer", "--decks", "inf", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["player_draw_probability"]["5"] == "9/11"
    assert main(["solve", "whist"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "unknown game 'whist'" in err


def test_games_report() -> None:
    reports = games_report()
    assert list(reports) == ["chemin-de-fer.md", "punto-5.md", "banque.md", "macao.md"]
    for name, text in reports.items():
        assert text.startswith("# ") and text.endswith("\n"), name
        assert "Generated from the code" in text
        assert "|---" in text  # tables through tabulate's Markdown
    assert "9/11" in reports["chemin-de-fer.md"] and "6 decks" in reports["chemin-de-fer.md"]
    assert "859/2288" in reports["chemin-de-fer.md"]
    assert "8 decks, standard rules" in reports["punto-5.md"]
    assert "3 decks" in reports["banque.md"] and "infinite deck" in reports["banque.md"]
    assert "2 decks" in reports["macao.md"]
    assert games_report() == reports  # deterministic


def test_remove_alone_applies_to_the_games_own_shoe(capsys) -> None:
    """`solve chemin-de-fer --remove 5` starts from 6 decks, not the 8 of other commands."""
    import json

    from analyzer.cli import main

    assert main(["solve", "chemin-de-fer", "--remove", "5", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shoe"] == "6 decks less 5"
    assert data["shoe_spec"] == {"decks": 6, "removed": ["5"], "cards": 311, "label": "6 decks less 5"}


def test_commission_solution_is_labelled_a_maximin(capsys) -> None:
    from analyzer.cli import main

    assert main(["solve", "chemin-de-fer", "--decks", "inf", "--commission", "5%"]) == 0
    out = capsys.readouterr().out
    assert "Banker's maximin (net)" in out and "not a Nash equilibrium" in out
