"""Running the CLI in process, shared by the CLI test files."""

from __future__ import annotations

import pytest

from analyzer.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`baccarat *argv` in process: (exit code, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, out: str, err: str) -> None:
    """Exit code 2, nothing on stdout, one `baccarat: error:` line on stderr, no traceback."""
    assert code == 2, (code, out)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("baccarat: error: ")
    assert "Traceback" not in err


def one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one-line error `baccarat *argv` must give (see `assert_one_line_error`)."""
    code, out, err = run(capsys, *argv)
    assert_one_line_error(code, out, err)
    return err
