"""Bounded work, said before it starts: every input file is read up to a stated size and no
further."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from analyzer.core.errors import MAX_TOML_BYTES, AnalyzerError
from analyzer.counting.record import MAX_RECORD
from tests.clirun import one_line_error, run

# -- input files -----------------------------------------------------------------------------

FILE_KINDS = {
    "table": (["edges", "--table"], "table"),
    "rules": (["odds", "--rules"], "rules"),
    "systems": (["count", "--shoes", "1", "--system"], "counting system"),
}


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_a_toml_file_over_the_limit_is_refused_unread(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    argv, what = FILE_KINDS[kind]
    path = tmp_path / "big.toml"
    path.write_text("# " + "x" * MAX_TOML_BYTES + "\ntie_pays = 9\n", encoding="utf-8")
    size = path.stat().st_size
    err = one_line_error(capsys, *argv, str(path))
    assert f"{what} file '{path}' is {size:,} bytes, over the limit of {MAX_TOML_BYTES:,} bytes" in err


def test_a_table_at_the_limit_is_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    body = 'title = "T"\r\ntie_pays = 9\r\n'  # CRLF read as text mode reads it
    path = tmp_path / "full.toml"
    path.write_bytes(b"#" * (MAX_TOML_BYTES - len(body) - 1) + b"\n" + body.encode())
    assert path.stat().st_size == MAX_TOML_BYTES
    code, out, err = run(capsys, "edges", "--table", str(path))
    assert code == 0 and "Tie (9:1)" in out, err


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_an_endless_file_is_read_no_further_than_the_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    argv, what = FILE_KINDS[kind]
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    err = one_line_error(capsys, *argv, str(link))
    assert f"{what} file '{link}' is larger than the limit of {MAX_TOML_BYTES:,} bytes" in err


def test_a_pipe_is_read_no_further_than_the_limit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)

    def feed() -> None:
        try:
            with fifo.open("wb") as out:
                for _ in range(3 * MAX_TOML_BYTES // 4096):
                    out.write(b"#" * 4095 + b"\n")
        except BrokenPipeError:  # the reader stopped at the limit
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    err = one_line_error(capsys, "edges", "--table", str(fifo))
    writer.join(10)
    assert f"is larger than the limit of {MAX_TOML_BYTES:,} bytes" in err and not writer.is_alive()


def test_a_record_over_the_limit_is_refused_unread(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "record.txt"
    with path.open("wb") as out:
        out.write(b"9H 9D 9S 9C\n")
        out.truncate(MAX_RECORD + 1)
    err = one_line_error(capsys, "track", str(path))
    assert f"record file '{path}' is {MAX_RECORD + 1:,} bytes, over the limit of {MAX_RECORD:,} bytes" in err


def test_the_library_says_the_same() -> None:
    from analyzer.core.errors import read_text

    with pytest.raises(AnalyzerError, match="larger than the limit of 10 bytes"):
        read_text("/dev/zero", "table", 10)
