"""Ending signals and broken streams: SIGTERM and SIGHUP end a command as Ctrl-C does (its
workers stopped, its staging directory and temporary files removed, one line, exit code
128 + the signal), `track -` prints its summary first; a closed standard input, a reader that
has gone, and exhausted memory are one line each, never a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirun import assert_one_line_error, run

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_SHOE = ROOT / "analyzer" / "counting" / "data" / "sample-shoe.txt"
COUNT = ["count", "--system", "dragon7-jacobson", "--shoes", "100000", "--workers", "2"]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")


def _group(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group `pgid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # ended meanwhile
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def _start(argv: list[str], tmp: Path, **options: object) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp)}
    return subprocess.Popen(
        [sys.executable, "-m", "analyzer", *argv], cwd=ROOT, env=env, text=True, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, **options,  # type: ignore[call-overload]
    )  # fmt: skip


def _when(condition: object, seconds: float = 30) -> None:
    """Wait until `condition()` holds."""
    end = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < end, "never happened"
        time.sleep(0.05)


def _ended(proc: subprocess.Popen[str], number: int) -> tuple[str, str]:
    """Send `number` to `proc` alone (as `kill PID`, `timeout` or a CI runner does), wait for
    it; (stdout, stderr); its process group is empty within 5 s."""
    proc.send_signal(number)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        for pid in _group(proc.pid):  # whatever is left is killed, then reported below
            os.kill(pid, signal.SIGKILL)
    _when(lambda: not _group(proc.pid), 5)
    return out, err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_sigterm_stops_count_and_its_workers(tmp_path: Path) -> None:
    proc = _start(COUNT, tmp_path)
    # The pool has started: this process, its one worker (forked: nothing pickled; this
    # process is the other worker) and the resource tracker.
    _when(lambda: len(_group(proc.pid)) >= 3)
    time.sleep(0.5)
    out, err = _ended(proc, signal.SIGTERM)
    assert (proc.returncode, out, err) == (143, "", "baccarat: stopped by SIGTERM\n")
    assert list(tmp_path.iterdir()) == []  # nothing left behind


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_sighup_stops_report_and_removes_its_staging(tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    proc = _start(["report", "--out", str(out_dir)], tmp_path)
    _when(lambda: len(_group(proc.pid)) >= 3)  # staging made, the pool of 2 started
    time.sleep(0.5)
    out, err = _ended(proc, signal.SIGHUP)
    assert (proc.returncode, out, err) == (129, "", "baccarat: stopped by SIGHUP\n")
    assert list(tmp_path.iterdir()) == []  # no staging directory, no output, no pickle


def test_sigterm_while_the_pool_starts_is_held_until_a_worker_has_started(tmp_path: Path) -> None:
    proc = _start(COUNT, tmp_path)
    _when(lambda: len(_group(proc.pid)) >= 2)  # the first worker is being spawned
    out, err = _ended(proc, signal.SIGTERM)
    assert (proc.returncode, out, err) == (143, "", "baccarat: stopped by SIGTERM\n")
    assert list(tmp_path.iterdir()) == []


def test_track_from_standard_input_prints_its_summary_on_sigterm(tmp_path: Path) -> None:
    proc = _start(["track", "-", "--bets", "banker"], tmp_path, stdin=subprocess.PIPE, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("5C JD 5C 6H 10C\n")  # dealt p1 b1 p2 b2 p3: Player 5 5 10 (0), Banker J 6 (6)
    proc.stdin.flush()
    coup = "Coup 1: player 5C 5C 10C (0), banker JD 6H (6): banker wins; 411 cards left\n"
    assert proc.stdout.readline() == coup
    out, err = _ended(proc, signal.SIGTERM)
    assert proc.returncode == 143 and err == "baccarat: stopped by SIGTERM\n"
    assert "Summary" in out and "banker" in out


NOHUP = """
import os, signal, sys, threading
signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup starts a command
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGHUP)).start()
from analyzer.cli import main
sys.exit(main(["count", "--system", "dragon7-jacobson", "--shoes", "300", "--format", "json"]))
"""


def test_a_command_started_ignoring_sighup_keeps_ignoring_it() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", NOHUP], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "") and '"triggers"' in done.stdout


def test_main_leaves_the_signal_handlers_as_they_were(capsys: pytest.CaptureFixture[str]) -> None:
    before = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGHUP)}
    assert run(capsys, "odds", "--decks", "1")[0] == 0
    assert {number: signal.getsignal(number) for number in before} == before


# -- closed and broken streams, memory --------------------------------------------------------


def test_track_with_standard_input_closed_is_one_line() -> None:
    # `baccarat track - <&-`: Python starts with sys.stdin None.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", "track", "-"], cwd=ROOT, env=env, preexec_fn=lambda: os.close(0),
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert_one_line_error(done.returncode, done.stdout, done.stderr)
    assert done.stderr == (
        "baccarat: error: track -: standard input is closed: give the record on it, or a record file\n"
    )


def test_track_into_a_reader_that_has_gone_exits_quietly(tmp_path: Path) -> None:
    # `baccarat track - < shoe | head -1`: head reads one line and goes; no traceback, 141.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    reader, writer = os.pipe()
    with SAMPLE_SHOE.open() as shoe:
        proc = subprocess.Popen(
            [sys.executable, "-m", "analyzer", "track", "-"], cwd=ROOT, env=env, stdin=shoe, stdout=writer,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        os.close(writer)
        with os.fdopen(reader) as lines:
            assert lines.readline().startswith("Coup 1: ")
        _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (141, "")


def test_an_output_into_a_reader_that_has_gone_exits_quietly() -> None:
    # The reader of the pipe has gone before the output is written: nothing on stderr, 141.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    reader, writer = os.pipe()
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "odds", "--decks", "1"], cwd=ROOT, env=env,
                            stdout=writer, stderr=subprocess.PIPE, text=True)  # fmt: skip
    os.close(writer)
    os.close(reader)
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (141, "")


def test_memory_exhausted_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import analyzer.cli.commands as commands

    def exhausted(*args: object) -> str:
        raise MemoryError

    monkeypatch.setitem(commands.COMMANDS, "odds", (exhausted, *commands.COMMANDS["odds"][1:]))
    code, out, err = run(capsys, "odds", "--decks", "2")
    assert (code, out) == (1, "")
    assert err == (
        "baccarat: error: out of memory while running `baccarat odds`: ask for less (fewer shoes, bets or "
        "workers, smaller shoes) or free some memory\n"
    )
