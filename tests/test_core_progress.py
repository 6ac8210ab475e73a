"""Progress bars: on a terminal a long command says what it is doing; piped, nothing extra."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-m", "analyzer", "eor", "--bets", "perfect-pairs-v1,tie-max-high", "--decks", "2"]


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "BACCARAT_PROGRESS_DELAY": "0", "COLUMNS": "100"}


def _on_a_terminal(command: list[str]) -> tuple[subprocess.CompletedProcess[bytes], bytes]:
    """`command` run with its stderr on a 100-column pseudo-terminal: (the run, what the
    terminal was sent)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a 100-column terminal
    proc = subprocess.run(command, cwd=ROOT, env=_environment(), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=follower, timeout=120)  # fmt: skip
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    return proc, shown


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_terminal_shows_what_is_being_done() -> None:
    proc, shown = _on_a_terminal(COMMAND)
    assert proc.returncode == 0
    assert b"effects of removal: tie-max-high" in shown  # the bar names the bet being done
    assert b"effects of removal" not in proc.stdout  # the output itself is unchanged


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize(
    "argv",
    [
        ["closed-form"],
        ["odds", "--shown", "p1=9,b1=KH"],
        ["solve", "punto-5"],
        ["par-sheet", "--bets", "tie", "--shoes", "4"],
    ],
    ids=["closed-form", "odds --shown", "solve punto-5", "par-sheet"],
)
def test_every_command_shows_a_bar_past_the_delay(argv: list[str]) -> None:
    # These showed nothing however long they ran (2-3 s on a busy machine): now every
    # command says itself and its time once it has run BACCARAT_PROGRESS_DELAY seconds (0
    # here), and clears the line when it ends.
    proc, shown = _on_a_terminal([sys.executable, "-m", "analyzer", *argv])
    assert proc.returncode == 0
    line = f"\rbaccarat {argv[0]} (00:00)".encode()
    assert shown.startswith(line) and shown.endswith(b"\r" + b" " * (len(line) - 1) + b"\r")


def test_piped_output_has_no_bar() -> None:
    proc = subprocess.run(COMMAND, cwd=ROOT, env=_environment(), capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == b""


BAD_DELAY = "BACCARAT_PROGRESS_DELAY '{value}': use a number of seconds from 0 to 1,000,000 (default 2)"


@pytest.mark.parametrize("value", ["x", "-1", "nan", "inf", "1e300", "\uff11", "1_0"])
def test_a_bad_delay_is_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    from tests.clirun import one_line_error

    monkeypatch.setenv("BACCARAT_PROGRESS_DELAY", value)
    err = one_line_error(capsys, "odds", "--decks", "1")
    assert BAD_DELAY.format(value=value) in err


@pytest.mark.parametrize(("value", "seconds"), [("", 2.0), (" 0 ", 0.0), ("1.5", 1.5), ("1000000", 1e6)])
def test_a_delay_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, value: str, seconds: float
) -> None:
    from analyzer.core.progress import delay

    monkeypatch.setenv("BACCARAT_PROGRESS_DELAY", value)
    assert delay() == seconds


def test_a_bad_delay_is_refused_at_startup_not_at_import() -> None:
    """It was read when the module was imported: a ValueError traceback before any command."""
    environment = {**_environment(), "BACCARAT_PROGRESS_DELAY": "x"}
    command = [sys.executable, "-m", "analyzer", "odds", "--decks", "1"]
    proc = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == f"baccarat: error: {BAD_DELAY.format(value='x')}\n"


def test_bare_baccarat_prints_its_help_whatever_the_delay(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`baccarat` alone runs no command, so shows no bar: its help, not the delay's error."""
    from tests.clirun import run

    monkeypatch.setenv("BACCARAT_PROGRESS_DELAY", "x")
    code, out, err = run(capsys)
    assert code == 0 and out.startswith("usage: baccarat") and err == ""
