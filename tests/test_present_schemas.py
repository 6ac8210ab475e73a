"""The shipped JSON Schemas: each is a valid draft 2020-12 schema; every golden JSON output
(tests/golden) conforms to its command's schema, and so do the commands without a golden
JSON (par-sheet and its files, track, design, list, cache); the shipped table, rules and
systems files conform to theirs; and a document that breaks the contract is refused."""

from __future__ import annotations

import copy
import json
import shlex
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from clirun import run

from analyzer.core.rules import RULES
from analyzer.present.schemas import COMMAND_SCHEMAS, SCHEMAS, schema, validate

jsonschema = pytest.importorskip("jsonschema")

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
PACKAGE = resources.files("analyzer")


def _golden_json() -> dict[str, tuple[str, Any]]:
    """Each golden output that is JSON, by name: its command and document."""
    found = {}
    for line in (GOLDEN / "commands.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, _, argv = (part.strip() for part in line.partition("|"))
        words = shlex.split(argv)
        if "json" in words and (GOLDEN / f"{name}.out").exists():
            found[name] = (words[0], json.loads((GOLDEN / f"{name}.out").read_text(encoding="utf-8")))
    return found


GOLDEN_JSON = _golden_json()


def test_every_schema_is_shipped_and_valid() -> None:
    files = {path.name for path in PACKAGE.joinpath("schemas").iterdir()}
    assert files == {f"{name}.schema.json" for name in SCHEMAS}
    for name in SCHEMAS:
        jsonschema.Draft202012Validator.check_schema(schema(name))


def test_golden_outputs_cover_the_commands() -> None:
    assert len(GOLDEN_JSON) >= 15 and "count-card-bet" in GOLDEN_JSON
    assert {command for command, _ in GOLDEN_JSON.values()} >= {
        "odds", "punto-table", "rules", "edges", "compare", "eor", "count", "solve", "closed-form", "list"
    }  # fmt: skip


@pytest.mark.parametrize("name", list(GOLDEN_JSON))
def test_golden_json_conforms(name: str) -> None:
    command, document = GOLDEN_JSON[name]
    validate(document, COMMAND_SCHEMAS[command])


@pytest.mark.parametrize(
    "argv",
    [
        ["list", "tables"],
        ["list", "systems"],
        ["list", "games"],
        ["cache"],
        ["odds", "--decks", "inf"],
        ["edges", "--bets", "tie", "--decks", "inf"],
        ["design", "--table", "{sevens}", "--edge", "4%..6%"],
        ["track", "{sample}", "--bets", "dragon7"],
        ["track", "{sample}", "--bets", "banker"],
        [
            "track",
            "{sample}",
            "--bets",
            "banker,perfect-pairs-v1",
            "--system",
            "banker-eor",
            "--bankroll",
            "1000",
        ],
        ["track", "{sample}", "--sort", "6,7,8,9"],
        ["track", "{sample}", "--sort", "A,K"],
        ["edges", "--decks", "8", "--remove", "5"],
        ["count", "--sort", "6,7,8,9", "--shoes", "2"],
        ["count", "--sort", "10,J,Q,K", "--shoes", "2"],
        ["par-sheet", "--bets", "dragon7,perfect-pairs-v1", "--shoes", "3"],
        ["par-sheet", "--bets", "tie", "--shoes", "1"],
        ["known", "--positions", "1", "--best-sort"],
    ],
    ids=lambda argv: "-".join(a for a in argv[:4] if not a.startswith("{")),
)
def test_commands_without_a_golden_conform(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    from analyzer.counting.record import sample_path

    sevens = str(PACKAGE.joinpath("examples", "sevens.toml"))
    argv = [a.replace("{sevens}", sevens).replace("{sample}", str(sample_path())) for a in argv]
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code == 0, err
    validate(json.loads(out), COMMAND_SCHEMAS[argv[0]])


def test_outputs_the_schemas_once_refused_conform(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A design line of fixed payout 1/2, a partial loss and a push (their pays as a table
    file writes them: "1/2", "lose 1/2", "push"), an infinite shoe among its decks, and a
    track of an incomplete last coup: each once failed its schema (pays items integers only,
    decks integers only, incomplete null only)."""
    from analyzer.counting.record import sample_path

    table = tmp_path / "d.toml"
    table.write_text(
        "[bets.d]\nlines = [\n"
        '  { when = { winner = "tie" }, pays = "?" },\n'
        '  { when = { winner = "player", player_total = 9 }, pays = "1/2" },\n'
        '  { when = { winner = "banker", banker_total = 9 }, pays = "lose half" },\n'
        '  { when = { winner = "banker", banker_total = 8 }, pays = "push" },\n'
        "]\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "design", "--table", str(table), "--edge", "1%..50%", "--max-pay", "100",
                         "--decks", "8,inf", "--format", "json")  # fmt: skip
    assert code == 0, err
    document = json.loads(out)
    assert document["decks"] == [8, "inf"] and document["solutions"][0]["pays"] == [
        3,
        "1/2",
        "lose 1/2",
        "push",
    ]
    validate(document, "design")
    cards = [
        line
        for line in Path(sample_path()).read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
    ]
    record = tmp_path / "incomplete.txt"
    record.write_text("\n".join([*cards[:4], "5H 6C"]) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "track", str(record), "--bets", "banker", "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert document["summary"]["incomplete"] == ["5H", "6C"]
    validate(document, "track")


def test_par_sheet_files_conform(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "sheets"
    code, printed, err = run(capsys, "par-sheet", "--bets", "banker,tie", "--shoes", "2", "--format", "json",
                             "--out", str(out))  # fmt: skip
    assert code == 0, err
    validate(json.loads(printed), "par-sheet-written")
    validate(json.loads((out / "index.json").read_text(encoding="utf-8")), "par-sheet-index")
    for bet in ("banker", "tie"):
        validate(json.loads((out / f"{bet}.json").read_text(encoding="utf-8")), "par-sheet")


def test_a_broken_contract_is_refused() -> None:
    """The schemas are not vacuous: a float for an exact value, a missing key, a renamed
    key and a wrong game are each refused."""
    _, odds = GOLDEN_JSON["odds-json"]
    _, edges = GOLDEN_JSON["edges-json"]
    _, chemin = GOLDEN_JSON["solve-chemin-json"]
    broken: list[tuple[Any, str]] = []
    doc = copy.deepcopy(odds)
    doc["banker"] = 0.4586
    broken.append((doc, "odds"))
    doc = copy.deepcopy(odds)
    del doc["version"]
    broken.append((doc, "odds"))
    doc = copy.deepcopy(edges)
    bet = doc["bets"]["tie"]
    bet["edge"] = bet.pop("house_edge")
    broken.append((doc, "edges"))
    doc = copy.deepcopy(edges)
    doc["bets"]["tie"]["lines"][0]["probability"] = "0.0952"
    broken.append((doc, "edges"))
    doc = copy.deepcopy(chemin)
    doc["game"] = "punto-5"
    broken.append((doc, "solve"))
    for document, name in broken:
        with pytest.raises(jsonschema.ValidationError):
            validate(document, name)


def _toml(path: Path | Any) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_shipped_files_conform() -> None:
    validate(_toml(PACKAGE.joinpath("examples", "sevens.toml")), "table-file")
    validate(_toml(GOLDEN / "table.toml"), "table-file")
    validate(_toml(PACKAGE.joinpath("examples", "counts.toml")), "systems-file")
    validate(_toml(PACKAGE.joinpath("counting", "counting.toml")), "systems-file")
    for catalogue in ("catalogue.toml", "card_catalogue.toml"):  # the built-ins, in the table files' words
        data = _toml(PACKAGE.joinpath("core", catalogue))
        validate({"bets": data["bets"]}, "table-file")
        for table in data.get("tables", {}).values():
            validate(table, "table-file")
    for rules in RULES.values():  # what rules_from_mapping reads back
        validate(rules.to_mapping(), "rules-file")


def test_a_bad_file_is_refused() -> None:
    table = _toml(GOLDEN / "table.toml")
    for key, value in (("offers", ["tie"]), ("tie_pays", "nine")):
        bad = {**table, key: value}
        with pytest.raises(jsonschema.ValidationError):
            validate(bad, "table-file")
    systems = _toml(PACKAGE.joinpath("examples", "counts.toml"))
    system = next(iter(systems["systems"].values()))
    for change in ({"trigger": "sometimes"}, {"tags": [1, 2, 3]}):
        with pytest.raises(jsonschema.ValidationError):
            validate({"systems": {"x": {**system, **change}}}, "systems-file")
    with pytest.raises(jsonschema.ValidationError):
        validate({**RULES["standard"].to_mapping(), "natural": 11}, "rules-file")
