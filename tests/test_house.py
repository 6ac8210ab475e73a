"""The house rules of the package, checked: no import loop between modules (imports in
functions and type-only imports count), no module over 600 lines, no module named like a
builtin, one spelling of each module name, player and banker in identifiers, and no issue
numbers in the code. The layers are checked by import-linter
(`lint-imports`, contracts in pyproject.toml)."""

from __future__ import annotations

import ast
import builtins
import io
import re
import sys
import tokenize
from pathlib import Path

import grimp
import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "analyzer"
MODULES = sorted(PACKAGE.rglob("*.py"))


def test_no_import_loop() -> None:
    graph = grimp.build_graph("analyzer", exclude_type_checking_imports=False)
    edges = nx.DiGraph()
    for module in graph.modules:
        edges.add_node(module)
        imported = graph.find_modules_directly_imported_by(module)
        edges.add_edges_from((module, other) for other in imported)
    loops = [sorted(loop) for loop in nx.simple_cycles(edges)]
    assert loops == []


def test_modules_are_rooms_of_a_readable_size() -> None:
    sizes = {path.relative_to(PACKAGE): len(path.read_text("utf-8").splitlines()) for path in MODULES}
    assert {path: n for path, n in sizes.items() if n > 600} == {}


def test_no_module_shadows_a_builtin_or_a_standard_module() -> None:
    names = set(dir(builtins)) | set(sys.stdlib_module_names)
    shadows = [path for path in MODULES if path.stem in names and path.stem not in {"__init__", "__main__"}]
    assert shadows == []


def test_no_issue_numbers_in_the_code() -> None:
    pattern = re.compile(r"\bissue[ #]*\d+|\bseed 0\d\d\b", re.IGNORECASE)
    found = [
        f"{path.relative_to(PACKAGE)}:{i}: {line.strip()}"
        for path in MODULES
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


def test_one_spelling_of_each_module_name() -> None:
    """No module is named both in the singular and in the plural (closed_form, closed_forms)."""
    stems = {path.stem for path in MODULES}
    assert sorted(stem for stem in stems if stem + "s" in stems) == []


#: Identifiers that may say punto or banco: the built-in tableau and the game named so in
#: user text (banco-4-draws-on-0-1, punto-5), and the old names kept as deprecated aliases.
_PUNTO_BANCO_NAMES = {
    "BANCO_4_DRAWS_ON_0_1",
    *("Punto5", "punto5", "solve_punto5", "render_punto5", "punto5_text", "punto5_json"),
    "punto5_blocks",
    *("PUNTO5_MODEL_TEXT", "_punto5", "_punto5_report"),
    *("punto_initial", "banco_initial", "punto_total", "banco_total", "punto_cards", "banco_cards"),
    *("punto_pair", "banco_pair", "punto_action", "punto", "banco", "punto_table", "PuntoRow"),
    *("punto_draws", "banco_draws_punto_stood", "banco_draws", "punto_draws_on", "banco_draws_on"),
    "with_punto",
}


def test_identifiers_say_player_and_banker() -> None:
    """Code names the hands player and banker; punto and banco stay in user text (strings,
    comments), in the names of the built-ins named so, and in the deprecated aliases."""
    found = []
    for path in MODULES:
        text = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            name = token.string
            said = token.type == tokenize.NAME and re.search("punto|banco", name, re.IGNORECASE)
            if said and name not in _PUNTO_BANCO_NAMES:
                found.append(f"{path.relative_to(PACKAGE)}:{token.start[0]}: {name}")
    assert found == []


def test_every_package_docstring_names_each_of_its_modules() -> None:
    """A package's docstring says what each of its modules and subpackages holds, naming it
    as code (`name` or ``name``); the architecture page shows these docstrings."""
    missing = []
    for init in sorted(PACKAGE.rglob("__init__.py")):
        folder = init.parent
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        named = set(re.findall(r"`+([\w.]+?)/?`+", doc))
        parts = [path.stem for path in folder.glob("*.py") if path.name != "__init__.py"]
        parts += [path.name for path in folder.iterdir() if (path / "__init__.py").is_file()]
        where = folder.relative_to(PACKAGE.parent)
        missing += [f"{where}: {part}" for part in sorted(parts) if part not in named]
    assert missing == []


#: Tests of the command or of the package as a whole, named for their topic.
TOPICS = {
    *("test_api", "test_bounds", "test_card_sizes", "test_cli", "test_cli_bets", "test_cli_count"),
    *("test_contract", "test_fuzz_cli", "test_games_solve", "test_golden", "test_hostile"),
    *("test_hostile_executors", "test_house", "test_init", "test_names", "test_par_browser"),
    *("test_readme", "test_report", "test_seam", "test_signals", "test_track"),
}


def test_test_files_are_named_after_the_modules_they_test() -> None:
    """tests/test_PACKAGE_MODULE.py (with a word more for a second file of one module), or a
    topic of TOPICS."""
    modules = {f"{path.parent.name}_{path.stem}" for path in MODULES if path.parent != PACKAGE}
    odd = []
    for path in sorted((PACKAGE.parent / "tests").glob("test_*.py")):
        name = path.stem.removeprefix("test_")
        if path.stem not in TOPICS and not any(name == m or name.startswith(m + "_") for m in modules):
            odd.append(path.name)
    assert odd == []
