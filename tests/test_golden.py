"""The CLI's outputs, pinned: every command in golden/commands.txt gives, byte for byte,
the output recorded in golden/NAME.out (and, for a failing command, golden/NAME.err).

The outputs were recorded from the code before its modules moved into subpackages; a
change in any of them is a change the CLI's users see. `GOLDEN_RECORD=1 pytest
tests/test_golden.py` records them anew (only for a deliberate, announced change).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest
from clirun import run

HERE = Path(__file__).resolve().parent / "golden"
RECORD = os.environ.get("GOLDEN_RECORD") == "1"


def _commands() -> dict[str, list[str]]:
    commands: dict[str, list[str]] = {}
    for line in (HERE / "commands.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, argv = line.partition("|")
            commands[name.strip()] = shlex.split(argv.replace("{here}", str(HERE)))
    return commands


COMMANDS = _commands()


def test_enough_commands() -> None:
    commands = {argv[0] if argv else "" for argv in COMMANDS.values()}
    assert len(COMMANDS) >= 40
    every = {"odds", "punto-table", "rules", "edges", "compare", "eor", "count", "solve", "closed-form"}
    every.add("list")
    assert every <= commands


@pytest.mark.parametrize("name", list(COMMANDS))
def test_golden(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    code, out, err = run(capsys, *COMMANDS[name])
    err_text = f"exit {code}\n{err}" if code or err else ""
    out_path, err_path = HERE / f"{name}.out", HERE / f"{name}.err"
    if RECORD:
        out_path.write_text(out, encoding="utf-8")
        if err_text:
            err_path.write_text(err_text, encoding="utf-8")
        else:
            err_path.unlink(missing_ok=True)
    assert out == out_path.read_text(encoding="utf-8")
    assert err_text == (err_path.read_text(encoding="utf-8") if err_path.exists() else "")
