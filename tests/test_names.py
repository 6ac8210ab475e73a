"""Names are data, never HTML or paths: a table file's bet names keep to a safe alphabet, file
names and HTML ids are derived from any name safely, and every user string is escaped in
Markdown, HTML, SVG and DOT. (tests/test_par_browser.py opens the hostile pages in Chromium.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clirun import one_line_error, run
from hostile_names import LABEL, NAMES, RULES_NAME, SOURCE, TITLE, hostile_sheets, hostile_table

from analyzer.core.bets import NAME_RULE, safe_name
from analyzer.counting.par import ParSheet
from analyzer.present.par_documents import par_files, render_par_sheets
from analyzer.present.text import markdown_text, table

TIE = 'lines = [{ when = { winner = "tie" }, pays = 8 }]'
SAFE_FILE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*\.(md|html|json)")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the hostile table file (hostile.toml)."""
    path = tmp_path_factory.mktemp("hostile")
    hostile_table(path)
    return path


@pytest.fixture(scope="module")
def sheets(folder: Path) -> list[ParSheet]:
    return hostile_sheets(folder)


@pytest.mark.parametrize(
    "name",
    ['x\\"><img src=x onerror=alert(1)>', "javascript:alert(1)", "../../x", "/tmp/abs", "a\\u0000b", "", ".",
     ".hidden", "a b", "caf\\u00e9", "x" * 65],
)  # fmt: skip
@pytest.mark.parametrize("command", ["edges", "par-sheet"])
def test_a_table_file_bet_name_outside_the_alphabet_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, command: str
) -> None:
    """A NUL byte was a traceback, `../../x` and an absolute path wrote sheets outside --out,
    `""` and `.` hidden files: each is refused, naming the name and the alphabet."""
    path = tmp_path / "t.toml"
    path.write_text(f'[bets."{name}"]\n{TIE}\n', encoding="utf-8")
    out = ["--shoes", "5", "--out", str(tmp_path / "o")] if command == "par-sheet" else []
    err = one_line_error(capsys, command, "--table", str(path), *out)
    assert f"{path}: bet name " in err and NAME_RULE in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]


def test_names_in_the_alphabet_are_kept(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(f'[bets."A_b-1.2"]\n{TIE}\n[bets.{"x" * 64}]\n{TIE}\n', encoding="utf-8")
    code, out, err = run(capsys, "edges", "--table", str(path), "--format", "json")
    assert code == 0, err
    assert '"A_b-1.2"' in out and f'"{"x" * 64}"' in out


def test_file_names_and_ids_are_derived_safely(sheets: list[ParSheet]) -> None:
    """A library caller's names (paths, markup, a link, "" and "."): every file is a plain
    name inside the folder, distinct names give distinct files, and every HTML id keeps to
    the safe alphabet (a sheet's: its safe name; a chart's element's: NAME:CHART:ID)."""
    kept = ["dragon7", "ez-banker", "A_b-1.2"]
    assert [safe_name(name) for name in kept] == kept
    assert len({safe_name(name) for name in NAMES}) == len(NAMES)
    for fmt in ("markdown", "html", "json"):
        files = par_files(sheets, fmt)
        assert len(files) == len(sheets) + 1
        assert all(SAFE_FILE.fullmatch(name) for name in files), list(files)
    page = render_par_sheets(sheets, "html")
    ids = re.findall(r'\bid="([^"]*)"', page)
    assert ids and all(re.fullmatch(r"[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+)?", i) for i in ids)
    assert len(set(re.findall(r'<article id="([^"]*)"', page))) == len(sheets)


def test_html_escapes_every_user_string(sheets: list[ParSheet]) -> None:
    """No user text becomes a tag, an attribute or a link in a page or the index (nor in the
    SVG: chart titles are text, and a `$...$` in them is no mathtext)."""
    files = par_files(sheets, "html")
    for name, page in [("all", render_par_sheets(sheets, "html")), *files.items()]:
        assert not re.search(r"<\s*(img|script|b)\b", page), name
        assert not re.search(r"<[^>]*\bon(error|mouseover)\b", page), name
        hrefs = re.findall(r"\bhref=\"([^\"]*)\"", page)  # links to sheets; the SVG's own #ids
        assert all(SAFE_FILE.fullmatch(h) or re.fullmatch(r"#[A-Za-z0-9_.:-]+", h) for h in hrefs), hrefs
    page = files["lucky.html"]
    assert '<h1>Par sheet: x"&gt;&lt;img src=x onerror=' in page
    charts = page[page.index("<svg") :]
    assert 'x"&gt;&lt;img src=x onerror=' in charts and "**bold**" in charts
    assert "$\\frac{1}{0}$" in charts  # as written: no mathtext


def _cells(line: str) -> int:
    """The cells of a Markdown table row: its `|` not escaped, less one."""
    return len(re.findall(r"(?<!\\)\|", line.replace("\\\\", ""))) - 1


def _rows_hold(text: str) -> None:
    """Every table row has as many cells as its header, and no raw tag, link or heading
    mark comes from user text."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and i + 1 < len(lines) and re.fullmatch(r"\|[:\- |]+\|", lines[i + 1]):
            width = _cells(line)
            j = i + 1
            while j < len(lines) and lines[j].startswith("|"):
                assert _cells(lines[j]) == width, (lines[j], width)
                j += 1
    prose = re.sub(r"`[^`]*`", "", text)  # a code span's inside is literal
    assert not re.search(r"(?<!\\)<(img|script|b)\b", prose)
    assert not re.search(r"(?<!\\)\]\(\s*javascript:", prose)
    assert not any(line.startswith(("# heading", "- list")) for line in lines)


def test_markdown_escapes_every_user_string(
    sheets: list[ParSheet], folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Line breaks in titles and labels broke Markdown tables; markup and links went through."""
    for text in par_files(sheets, "markdown").values():
        _rows_hold(text)
    table_file = str(folder / "hostile.toml")
    rules = folder / "rules.toml"
    rules.write_text(f"name = {_json(RULES_NAME)}\ndescription = {_json(SOURCE)}\n", encoding="utf-8")
    runs = [
        ["edges", "--details", "--table", table_file],
        ["eor", "--table", table_file],
        ["compare", "--tables", table_file, "--shoes", "8"],
        ["rules", "--rules", str(rules)],
    ]
    for argv in runs:
        code, out, err = run(capsys, *argv, "--format", "markdown")
        assert code == 0, err
        _rows_hold(out)
        assert 'x"\\>\\<img src=x' in out or argv[0] in ("eor", "rules"), argv  # the title, escaped
        assert markdown_text(RULES_NAME) in out or argv[0] == "compare", argv


def test_markdown_text_and_tables() -> None:
    cell = markdown_text(TITLE)
    rendered = table([[cell, "1"]], ["title", "n"], "markdown")
    assert rendered.count("\n") == 2 and _cells(rendered.splitlines()[2]) == 2
    assert markdown_text(LABEL).startswith("\\<script\\>") and "`code`" in markdown_text(LABEL)
    assert markdown_text(SOURCE) == "\\<img src=x onerror=document.title='pwned'\\> - list | item"
    assert markdown_text("- a") == "\\- a" and markdown_text("12. b") == "12\\. b"


def test_dot_quotes_every_user_string(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A tableau's name with a line break, a quote and braces stays one DOT string."""
    rules = tmp_path / "r.toml"
    rules.write_text(f"name = {_json(RULES_NAME)}\n", encoding="utf-8")
    code, out, err = run(capsys, "rules", "--rules", str(rules), "--format", "dot")
    assert code == 0, err
    first, *body, last = out.splitlines()
    assert first == 'digraph "tab\\"leau\\n}; digraph x { <b onmouseover=document.title=\'pwned\'>" {'
    assert last == "}" and all(line.endswith(";") for line in body)


def _json(text: str) -> str:
    import json

    return json.dumps(text)
