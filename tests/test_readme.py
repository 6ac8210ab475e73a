"""The examples of the README and of every docs/*.md page: every `$ baccarat ...` command is run
and each output line shown must appear in the real output, in order (`...` stands for lines
left out); every TOML block loads; the pages stay findable and name what they document. (The
pages' Python examples are doctests: pytest collects README.md and docs/*.md.)"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import analyzer
from analyzer.cli import COMMANDS
from analyzer.core.bets import FIELDS
from analyzer.core.fields import card_field_names

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def examples(page: Path) -> list[tuple[str, list[str]]]:
    """(command, output lines shown) for every `$ ` line of the page's sh blocks."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
        current: list[str] | None = None  # the output lines of this block's last command
        for line in block.splitlines():
            if line.startswith("$ "):
                current = []
                found.append((line[2:], current))
            elif current is not None:
                current.append(line.rstrip())
    return found


EXAMPLES = [(_name(page), command, shown) for page in PAGES for command, shown in examples(page)]


def test_the_examples_cover_every_command() -> None:
    commands = {command.split()[1] for _, command, _ in EXAMPLES}
    expected = (set(COMMANDS) | {"list"}) - {"report"}  # every command the CLI has
    assert expected <= commands, expected - commands  # `report` is run by tests/test_report.py
    assert len(examples(README)) >= 5  # the README's own
    assert {page for page, _, _ in EXAMPLES} >= {"README.md", "docs/cli.md", "docs/counting.md"}


@cache
def _run(command: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `command` (a page's `baccarat ...` line), run once
    however many pages show it."""
    line = f'"{sys.executable}" -m analyzer' + command[len("baccarat") :]
    line = line.replace("| python ", f'| "{sys.executable}" ')
    env = {**os.environ, "COLUMNS": "120", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(line, shell=True, cwd=ROOT, env=env, capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize(("page", "command", "shown"), EXAMPLES, ids=[f"{p}: {c}" for p, c, _ in EXAMPLES])
def test_example_output(page: str, command: str, shown: list[str]) -> None:
    assert command.startswith("baccarat ")
    code, stdout, stderr = _run(command)
    output = [text.rstrip() for text in (stdout + stderr).splitlines()]
    position = 0
    for expected in shown:
        if expected in ("...", ""):
            continue
        assert expected in output[position:], f"{page}: {command}: not in the output (in order): {expected!r}"
        position = output.index(expected, position) + 1
    if "error" in "".join(shown):
        assert code == 2 and len(stderr.splitlines()) == 1
    else:
        assert code == 0, stderr


TOML_BLOCKS = [
    (_name(page), block)
    for page in PAGES
    for block in re.findall(r"```toml\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
]


def _load_command(block: str, path: Path) -> list[str]:
    """The command that reads a TOML block of the pages, by what it defines."""
    if "[systems." in block:  # a system may be judged on a bet of the example table
        table = str(ROOT / "analyzer" / "examples" / "big-tiger.toml")
        return ["count", "--system", str(path), "--table", table, "--shoes", "10", "--seed", "1"]
    if "[banco_draws]" in block:
        return ["rules", "--rules", str(path)]
    draft = re.search(r"\[bets\.([\w-]+)\]", block)
    if '"?"' in block and draft:  # a paytable draft: only `design` reads it
        return ["design", "--table", str(path), "--bet", draft.group(1), "--edge", "4%..6%", "--limit", "1"]
    return ["edges", "--table", str(path)]


TOML_IDS = [f"{page}: toml {i}" for i, (page, _) in enumerate(TOML_BLOCKS)]


@pytest.mark.parametrize(("page", "block"), TOML_BLOCKS, ids=TOML_IDS)
def test_toml_examples_load(tmp_path: Path, page: str, block: str) -> None:
    """Each tableau file loads with `--rules`, each table file with `--table`, each draft with
    `design`, each counting-system file with `count --system`."""
    path = tmp_path / "example.toml"
    path.write_text(block, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "analyzer", *_load_command(block, path)]
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, f"{page}: {proc.stderr}"


def test_the_toml_examples_cover_every_kind() -> None:
    kinds = {_load_command(block, Path("x"))[0] for _, block in TOML_BLOCKS}
    assert kinds == {"count", "rules", "design", "edges"}


EXAMPLE_FILES = sorted((ROOT / "analyzer" / "examples").glob("*.toml"))


def test_the_example_files_are_found() -> None:
    names = ["big-tiger-count.toml", "big-tiger.toml", "counts.toml", "sevens.toml"]
    assert [path.name for path in EXAMPLE_FILES] == names


@pytest.mark.parametrize("example", EXAMPLE_FILES, ids=lambda p: p.name)
def test_the_pages_show_each_example_file(example: Path) -> None:
    """The files of analyzer/examples/ that the pages' commands read are shown on a page as they are."""
    text = example.read_text(encoding="utf-8")
    assert any(block in text for _, block in TOML_BLOCKS), example.name


def test_readme_is_for_users() -> None:
    """At most 200 lines: the two quick-start commands, the import package, a link to every page."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    quick = re.search(r"## Quick start\n\n```sh\n(.*?)```", text, re.S)
    assert quick is not None and quick.group(1).splitlines() == [
        "python -m pip install . && baccarat report",
        'python -m pip install -e ".[test]" && python -m pytest',
    ]
    assert "import package is `analyzer`" in text
    for page in sorted(DOCS.glob("*.md")):
        assert f"(docs/{page.name})" in text or f"(docs/{page.name}#" in text, page.name
    for other in ("CONTRIBUTING.md", "CHANGELOG.md"):
        assert f"({other})" in text, other


def test_the_glossary_defines_the_words() -> None:
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    glossary = text[text.index("## Glossary") :]
    for word in ("Coup", "Player and Banker", "punto", "banco", "Tableau", "Natural", "House edge",
                 "resolved bet", "Effect of removal", "Running count", "True count", "Cut card"):  # fmt: skip
        assert word in glossary, word


def test_the_pages_use_names_a_reader_can_look_up() -> None:
    """The banco-4-draws-on-0-1 tableau goes by that name alone (its old alias lives in CHANGELOG.md)."""
    for page in PAGES:
        assert "seed004" not in page.read_text(encoding="utf-8").lower(), _name(page)


def test_the_commands_tables_list_every_command() -> None:
    for page in (README, DOCS / "cli.md"):
        rows = re.findall(r"^\| `baccarat ([\w-]+)", page.read_text(encoding="utf-8"), re.M)
        assert sorted(rows) == sorted({*COMMANDS, "list", "cache"}), _name(page)


def test_the_bet_language_page_names_every_field() -> None:
    text = (DOCS / "bets.md").read_text(encoding="utf-8")
    fields = [*FIELDS, *(name.split(".")[0] for name in card_field_names())]
    positions = {name for name in fields if re.fullmatch(r"[pb][123]_(rank|suit)", name)}
    missing = [name for name in fields if name not in positions and f"`{name}`" not in text]
    assert not missing, missing
    assert "`p1_rank` ... `b3_rank`" in text and "`p1_suit` ... `b3_suit`" in text
    assert len(positions) == 12


def test_the_api_page_documents_every_public_name() -> None:
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    top = text.split("::: analyzer\n", 1)[1].split("\n#", 1)[0]  # the `::: analyzer` block
    reference = set(re.findall(r"^        - (\w+)$", top, re.M))  # its members
    data = set(re.findall(r"^\| `(\w+)` \|", text, re.M))  # the built-in data table
    public = set(analyzer.__all__) - {"SEED004"}  # the old name of BANCO_4_DRAWS_ON_0_1
    assert reference | data == public, (reference | data) ^ public
    assert not reference & data


def test_the_paths_the_pages_name_exist() -> None:
    """Every file or folder of the repository a page or CONTRIBUTING.md names in backticks
    exists (the reports are named by path, not linked, so the site builds strictly)."""
    missing = []
    for page in [*PAGES, ROOT / "CONTRIBUTING.md"]:
        text = page.read_text(encoding="utf-8")
        for path in re.findall(r"`((?:analyzer|tests|scripts|reports|examples|docs)/[^`\s]*)`", text):
            if "NAME" in path or "*" in path:  # a placeholder or a pattern
                continue
            if not (ROOT / path).exists():
                missing.append(f"{_name(page)}: {path}")
    assert not missing, missing
