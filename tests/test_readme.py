"""The README's worked examples: every `$ baccarat ...` command is run and each output line
the README shows must appear in the real output, in order (`...` stands for lines left out)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def examples() -> list[tuple[str, list[str]]]:
    """(command, output lines shown) for every `$ ` line of the README's sh blocks."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        current: list[str] | None = None  # the output lines of this block's last command
        for line in block.splitlines():
            if line.startswith("$ "):
                current = []
                found.append((line[2:], current))
            elif current is not None:
                current.append(line.rstrip())
    return found


EXAMPLES = examples()


def test_the_examples_cover_every_command() -> None:
    commands = {command.split()[1] for command, _ in EXAMPLES}
    expected = (set(COMMANDS) | {"list"}) - {"report"}  # every command the CLI has
    assert expected <= commands, expected - commands  # `report` is run by tests/test_report.py
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(("command", "shown"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_example_output(command: str, shown: list[str]) -> None:
    assert command.startswith("baccarat ")
    line = f'"{sys.executable}" -m analyzer' + command[len("baccarat") :]
    line = line.replace("| python ", f'| "{sys.executable}" ')
    env = {**os.environ, "COLUMNS": "120", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(line, shell=True, cwd=ROOT, env=env, capture_output=True, text=True)
    output = [text.rstrip() for text in (proc.stdout + proc.stderr).splitlines()]
    position = 0
    for expected in shown:
        if expected in ("...", ""):
            continue
        assert expected in output[position:], f"{command}: line not in the output (in order): {expected!r}"
        position = output.index(expected, position) + 1
    if "error" in "".join(shown):
        assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    else:
        assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("index", range(2))
def test_toml_examples_load(tmp_path: Path, index: int) -> None:
    """The README's tableau file loads with `--rules`, its table file with `--table`."""
    blocks = re.findall(r"```toml\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    path = tmp_path / "example.toml"
    path.write_text(blocks[index], encoding="utf-8")
    command = ["rules", "--rules"] if "[banco_draws]" in blocks[index] else ["edges", "--table"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "analyzer", *command, str(path)]
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_readme_is_for_users() -> None:
    """At most 450 lines, the two quick-start commands, the glossary's words."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 450
    quick = re.search(r"## Quick start\n\n```sh\n(.*?)```", text, re.S)
    assert quick is not None and quick.group(1).splitlines() == [
        "python -m pip install . && baccarat report",
        'python -m pip install -e ".[test]" && python -m pytest',
    ]
    glossary = text[text.index("## Glossary") : text.index("## Commands")]
    for word in ("Coup", "Player and Banker", "punto", "banco", "Tableau", "Natural", "House edge",
                 "resolved bet", "Effect of removal", "Running count", "True count", "Cut card"):  # fmt: skip
        assert word in glossary, word
