"""Nothing lost: every file is written whole or not at all, and `par-sheet --out` writes only
the files it owns (a manifest in the folder lists them)."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import one_line_error, run

from analyzer.core.errors import quoted
from analyzer.core.files import write_atomic, write_files

ROOT = Path(__file__).resolve().parent.parent
TIE = 'lines = [{ when = { winner = "tie" }, pays = 8 }]'
DRAFT = 'title = "Draft"\n[bets.my-tie]\nlines = [{ when = { winner = "tie" }, pays = "?" }]\n'
OLD = "# a table file kept by hand\n" + "# " + "x" * 3000 + "\n"


def _limited(limit: int) -> None:
    """In the child: files may grow to `limit` bytes (a disk that fills up), EFBIG beyond."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def test_design_write_on_a_full_disk_keeps_the_old_file(tmp_path: Path) -> None:
    """`design --write` over an existing file on a disk that fills up: a one-line error, the
    old file whole (it was truncated first, then half-written) and no temporary file left."""
    draft, out = tmp_path / "draft.toml", tmp_path / "designed.toml"
    draft.write_text(DRAFT, encoding="utf-8")
    out.write_text(OLD, encoding="utf-8")
    argv = ["design", "--table", str(draft), "--edge", "4.8%..4.9%", "--write", str(out)]
    done = subprocess.run(
        [sys.executable, "-B", "-m", "analyzer", *argv],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
        preexec_fn=lambda: _limited(200),
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1
    assert f"--write {quoted(str(out))} cannot be written: File too large" in done.stderr
    assert out.read_text(encoding="utf-8") == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["designed.toml", "draft.toml"]


def test_design_write_replaces_a_file_keeping_its_mode(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    draft, out = tmp_path / "draft.toml", tmp_path / "designed.toml"
    draft.write_text(DRAFT, encoding="utf-8")
    out.write_text(OLD, encoding="utf-8")
    out.chmod(0o640)
    code, _, err = run(capsys, "design", "--table", str(draft), "--edge", "4.8%..4.9%", "--write", str(out))
    assert code == 0, err
    assert "[bets.my-tie]" in out.read_text(encoding="utf-8")
    assert out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["designed.toml", "draft.toml"]


def test_write_files_is_all_or_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure while the files are written (here the third) changes none of them."""
    (tmp_path / "a.md").write_text("old a", encoding="utf-8")
    real = os.fdopen
    opened = []

    def failing(fd: int, *args: object, **kwargs: object) -> object:
        opened.append(fd)
        if len(opened) == 3:
            raise OSError(28, "No space left on device")
        return real(fd, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "fdopen", failing)
    with pytest.raises(OSError, match="No space"):
        write_files(tmp_path, {"a.md": "new a", "b.md": "new b", "c.md": "new c"})
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md"]
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == "old a"
    write_atomic(tmp_path / "a.md", "new a")
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == "new a"


# -- par-sheet --out ----------------------------------------------------------------------------

SHEET = ["par-sheet", "--shoes", "5"]


def test_par_sheet_out_refuses_a_folder_of_other_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`--out reports`: the reports (and the bench's speed.md, which cannot be regenerated)
    are not the command's files; the folder is refused and left as it was."""
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "speed.md").write_text("# Speed\n", encoding="utf-8")
    (reports / "par-sheet-dragon7.png").write_bytes(b"\x89PNG screenshot")
    err = one_line_error(capsys, *SHEET, "--bets", "tie", "--out", str(reports))
    assert "holds 'par-sheet-dragon7.png', which `baccarat par-sheet` did not write" in err
    assert sorted(p.name for p in reports.iterdir()) == ["par-sheet-dragon7.png", "speed.md"]
    assert (reports / "speed.md").read_text(encoding="utf-8") == "# Speed\n"


def test_a_second_par_sheet_run_keeps_the_first_runs_sheets(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "sheets"
    code, _, err = run(capsys, *SHEET, "--bets", "player-pair,tie", "--out", str(out))
    assert code == 0, err
    first = (out / "player-pair.md").read_text(encoding="utf-8")
    code, _, err = run(capsys, *SHEET, "--bets", "dragon7", "--out", str(out))
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == [
        ".baccarat-par-sheet.json", "README.md", "dragon7.md", "player-pair.md", "tie.md",
    ]  # fmt: skip
    assert (out / "player-pair.md").read_text(encoding="utf-8") == first
    assert "[dragon7](dragon7.md)" in (out / "README.md").read_text(encoding="utf-8")
    manifest = json.loads((out / ".baccarat-par-sheet.json").read_text(encoding="utf-8"))
    assert manifest["files"] == ["README.md", "dragon7.md", "player-pair.md", "tie.md"]
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    err = one_line_error(capsys, *SHEET, "--bets", "tie", "--out", str(out))
    assert "holds 'notes.txt', which `baccarat par-sheet` did not write" in err
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_report_refuses_a_par_sheet_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, *SHEET, "--bets", "tie", "--out", str(tmp_path / "sheets"))
    assert code == 0, err
    err = one_line_error(capsys, "report", "--out", str(tmp_path / "sheets"))
    assert "holds '.baccarat-par-sheet.json', which `baccarat report` did not write" in err


@pytest.mark.parametrize(
    ("name", "fmt", "words"),
    [
        ("README", "markdown", "bet 'README' would be written to 'README.md', the index"),
        ("readme", "markdown", "bet 'readme' would be written to 'readme.md', the index"),
        ("Index", "html", "bet 'Index' would be written to 'Index.html', the index"),
        ("index", "json", "bet 'index' would be written to 'index.json', the index"),
    ],
)
def test_a_bet_named_like_the_index_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, fmt: str, words: str
) -> None:
    table = tmp_path / "t.toml"
    table.write_text(f"[bets.{name}]\n{TIE}\n", encoding="utf-8")
    err = one_line_error(capsys, *SHEET, "--table", str(table), "--format", fmt, "--out", str(tmp_path / "o"))
    assert words in err and "rename the bet" in err
    assert not (tmp_path / "o").exists()


def test_bets_whose_files_differ_only_in_case_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table = tmp_path / "t.toml"
    table.write_text(f"[bets.Lucky]\n{TIE}\n[bets.lucky]\n{TIE}\n", encoding="utf-8")
    err = one_line_error(capsys, *SHEET, "--table", str(table), "--out", str(tmp_path / "o"))
    assert "bets 'Lucky' and 'lucky' would both be written to 'lucky.md'" in err


# -- what --out / --write may replace -----------------------------------------------------------

EDGES = ["edges", "--bets", "tie", "--format", "csv"]
TABLE = f'title = "Mine"\n[bets.mine]\n{TIE}\n'
SYSTEM = '[systems.never]\ntags = [0,0,0,0,0,0,0,0,0,0,0,0,0]\nbet = "tie"\nthreshold = 100\n'
RULES = 'name = "mine"\nbase = "standard"\n'


def _special(tmp_path: Path, kind: str) -> Path:
    """A FIFO or a bound Unix socket at tmp_path/KIND."""
    path = tmp_path / kind
    if kind == "fifo":
        os.mkfifo(path)
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        server.close()  # the socket file stays
    return path


@pytest.mark.parametrize(("kind", "words"), [("fifo", "a FIFO (named pipe)"), ("sock", "a socket")])
def test_out_refuses_a_fifo_or_a_socket(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, words: str
) -> None:
    path = _special(tmp_path, kind)
    err = one_line_error(capsys, *EDGES, "--out", str(path))
    assert f"--out {quoted(str(path))} is {words}, not a regular file: give a file name" in err
    assert not path.is_file() and (path.is_fifo() if kind == "fifo" else path.is_socket())
    assert sorted(p.name for p in tmp_path.iterdir()) == [kind]


@pytest.mark.parametrize("target", ["real.csv", "missing.csv", "fifo"])
def test_out_refuses_a_symlink(capsys: pytest.CaptureFixture[str], tmp_path: Path, target: str) -> None:
    """A link is not written through (anyone who can plant one in a shared folder would
    choose the file replaced, or created) nor replaced (the link would be lost)."""
    real, link = tmp_path / "real.csv", tmp_path / "link.csv"
    real.write_text("old", encoding="utf-8")
    if target == "fifo":
        _special(tmp_path, "fifo")
    link.symlink_to(target)
    err = one_line_error(capsys, *EDGES, "--out", str(link))
    assert f"--out {quoted(str(link))} is a symbolic link: give the file itself" in err
    assert link.is_symlink() and os.readlink(link) == target and real.read_text(encoding="utf-8") == "old"
    assert not (tmp_path / "missing.csv").exists()


@pytest.mark.parametrize("name", ["nodir/x.csv", "x.csv/"])
def test_out_refuses_a_missing_folder_or_a_folder_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """Refused before computing: no folder to write in, or a name ending in a separator
    (it wrote a file named x.csv)."""
    err = one_line_error(capsys, *EDGES, "--out", f"{tmp_path}/{name}")
    assert quoted(f"{tmp_path}/{name}") in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only file")
def test_out_refuses_a_read_only_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "kept.csv"
    path.write_text("kept", encoding="utf-8")
    path.chmod(0o444)
    err = one_line_error(capsys, *EDGES, "--out", str(path))
    assert "cannot be written: permission denied" in err and path.read_text(encoding="utf-8") == "kept"


def test_out_and_write_refuse_a_rules_file_a_table_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A file the command reads because another names it (a table's rules file) is an input too."""
    rules, table = tmp_path / "r.toml", tmp_path / "t.toml"
    rules.write_text(RULES, encoding="utf-8")
    table.write_text('rules = "r.toml"\n' + TABLE, encoding="utf-8")
    err = one_line_error(capsys, "edges", "--table", str(table), "--format", "csv", "--out", str(rules))
    assert f"is the input file {quoted(str(rules))}" in err and rules.read_text(encoding="utf-8") == RULES
    draft = tmp_path / "d.toml"
    draft.write_text('rules = "r.toml"\n' + DRAFT, encoding="utf-8")
    err = one_line_error(
        capsys, "design", "--table", str(draft), "--edge", "4.8%..4.9%", "--write", str(rules)
    )
    assert f"is the input file {quoted(str(rules))}" in err and rules.read_text(encoding="utf-8") == RULES


@pytest.mark.parametrize("argv", [EDGES, ["design", "--table", "t.toml", "--edge", "4.8%..4.9%"]])
def test_a_dash_is_no_file_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.toml").write_text(DRAFT, encoding="utf-8")
    option = "--write" if argv[0] == "design" else "--out"
    err = one_line_error(capsys, *argv, option, "-")
    assert f"{option} '-': give a file name" in err and "'-' is not standard output here" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]


def test_a_name_of_255_characters_is_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The temporary file's name does not grow with the target's: the longest legal name is written."""
    out = tmp_path / ("e" * 251 + ".csv")
    code, printed, err = run(capsys, *EDGES)
    assert code == 0, err
    code, _, err = run(capsys, *EDGES, "--out", str(out))
    assert code == 0, err
    assert out.read_text(encoding="utf-8") == printed
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


@pytest.mark.parametrize(
    ("argv", "option", "name", "text"),
    [
        pytest.param(*(["edges", "--table", "{}"], "--table", "t.toml", TABLE), id="edges-table"),
        pytest.param(
            *(["eor", "--bets", "mine", "--table", "{}"], "--table", "t.toml", TABLE), id="eor-table"
        ),
        pytest.param(
            *(["compare", "--shoes", "8", "--tables", "uk,{}"], "--tables", "t.toml", TABLE),
            id="compare-tables",
        ),
        pytest.param(
            *(["count", "--shoes", "2", "--system", "{}"], "--system", "s.toml", SYSTEM), id="count-system"
        ),
        pytest.param(
            *(["count", "--shoes", "2", "--bet", "mine", "--table", "{}"], "--table", "t.toml", TABLE),
            id="count-table",
        ),
        pytest.param(
            *(["edges", "--bets", "tie", "--rules", "{}"], "--rules", "r.toml", RULES), id="edges-rules"
        ),
    ],
)
def test_out_refuses_the_commands_own_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], option: str, name: str, text: str
) -> None:
    """--out naming a file the command reads (here through a hard link) is refused, both named."""
    path, link = tmp_path / name, tmp_path / f"link-{name}"
    path.write_text(text, encoding="utf-8")
    os.link(path, link)
    argv = [item.replace("{}", str(path)) for item in argv]
    err = one_line_error(capsys, *argv, "--out", str(link))
    assert f"--out {quoted(str(link))} is the {option} file {quoted(str(path))}: write another file" in err
    assert path.read_text(encoding="utf-8") == text and link.read_text(encoding="utf-8") == text


def test_design_write_refuses_the_rules_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    draft, rules = tmp_path / "draft.toml", tmp_path / "r.toml"
    draft.write_text(DRAFT, encoding="utf-8")
    rules.write_text(RULES, encoding="utf-8")
    argv = ["design", "--table", str(draft), "--rules", str(rules), "--edge", "4.8%..4.9%"]
    err = one_line_error(capsys, *argv, "--write", str(rules))
    assert f"--write {quoted(str(rules))} is the --rules file {quoted(str(rules))}" in err
    assert rules.read_text(encoding="utf-8") == RULES


def test_the_writers_replace_only_regular_files(tmp_path: Path) -> None:
    """write_atomic refuses a FIFO and a link; write_files refuses a FIFO among its files
    (all or none: the others are not written either) and a link."""
    fifo = _special(tmp_path, "fifo")
    with pytest.raises(OSError, match="it is a FIFO"):
        write_atomic(fifo, "x")
    (tmp_path / "a.md").write_text("old a", encoding="utf-8")
    (tmp_path / "b.md").symlink_to("a.md")
    with pytest.raises(OSError, match="it is a FIFO"):
        write_files(tmp_path, {"c.md": "new", "fifo": "x"})
    assert not (tmp_path / "c.md").exists()
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == "old a" and fifo.is_fifo()
    with pytest.raises(OSError, match="symbolic link"):
        write_files(tmp_path, {"b.md": "new"})
    with pytest.raises(OSError, match="symbolic link"):
        write_atomic(tmp_path / "b.md", "new")
    assert (tmp_path / "b.md").is_symlink() and (tmp_path / "a.md").read_text(encoding="utf-8") == "old a"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "b.md", "fifo"]
