"""The cold-start rows of scripts/bench.py: whole processes (a cold `baccarat odds`, `edges`,
the JSON odds, a depleted shoe, the plain enumerator and the interpreter floors) interleaved
round by round, run from a package installed as a user installs it (a venv with a
non-editable install, run from outside the checkout) or from this checkout (`ColdStart`).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PLAIN = ROOT / "scripts" / "plain_enumerator.py"

__all__ = ["ColdStart", "from_install", "from_tree", "whole_processes"]


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def _summary(values: Sequence[float]) -> dict[str, float]:
    """Median, quartiles, min and max (as bench.summary)."""
    q1, _, q3 = statistics.quantiles(values, n=4) if len(values) > 1 else (values[0],) * 3
    return {"median": statistics.median(values), "q1": q1, "q3": q3, "min": min(values), "max": max(values)}


class ColdStart:
    """How the cold-start rows run the package: `python`, in `env`, from the directory `cwd`;
    `how` says it in words (printed with the figures)."""

    def __init__(self, python: str, env: dict[str, str], cwd: Path, how: str) -> None:
        self.python, self.env, self.cwd, self.how = python, env, cwd, how


def from_tree(reason: str = "") -> ColdStart:
    """The package of this checkout (PYTHONPATH), the interpreter running the bench."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    how = "this checkout on PYTHONPATH, the bench's interpreter" + (f" ({reason})" if reason else "")
    return ColdStart(sys.executable, env, ROOT, how)


def from_install(venv: Path) -> ColdStart:
    """The package as a user installs it: a virtual environment `venv` (made, and the package
    installed with `pip install ROOT`, not editable, if it holds no Python yet), run with no
    PYTHONPATH from a directory outside the checkout (so `-m analyzer` cannot find the tree).
    Falls back to `from_tree` (and says why) if the environment cannot be built, e.g. offline."""
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    if not python.exists():
        try:
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
            pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(ROOT)]
            subprocess.run(pip, check=True, capture_output=True, timeout=900)
        except (OSError, subprocess.SubprocessError) as error:
            return from_tree(f"a virtual environment with the package installed could not be built: {error}")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    outside = venv / "run"
    outside.mkdir(exist_ok=True)
    how = "the package installed as a user installs it (`pip install .`, not editable) in a venv"
    return ColdStart(str(python), env, outside, how)


def whole_processes(rounds: int, cold: ColdStart, bytecode: bool = True) -> dict[str, Any]:
    """Cold CLI odds, cold CLI edges, the plain enumerator, the interpreter floor and a cold
    depleted-shoe odds, interleaved round by round, each run as `cold` says (the plain
    enumerator and the floors by the same interpreter): wall-clock and CPU (user + system)
    seconds of each process.

    `bytecode`: let Python cache compiled modules (as after `pip install`, which compiles
    them); without it every process compiles the package from source (an empty, unwritten
    PYTHONPYCACHEPREFIX: the compiled files beside the sources are not read either; the plain
    enumerator, a script, is compiled every time either way)."""
    env = dict(cold.env)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPYCACHEPREFIX", None)
    if not bytecode:
        import tempfile

        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="bench-no-pyc-")  # stays empty
    python = cold.python
    commands = {
        "plain": [python, str(PLAIN), "--decks", "8"],
        "odds": [python, "-m", "analyzer", "odds", "--decks", "8"],
        "edges": [python, "-m", "analyzer", "edges", "--decks", "8"],
        # the same odds as JSON: no table, so no table renderer loaded
        "json": [python, "-m", "analyzer", "odds", "--decks", "8", "--format", "json"],
        # the interpreter floor (start-up with site, same environment), and with the table renderer loaded
        "pass": [python, "-c", "pass"],
        "tabulate": [python, "-c", "import tabulate"],
        # the standard-library modules any typed CLI of exact results loads (no project code)
        "stdlib": [python, "-c", "import argparse, dataclasses, fractions"],
        # a depleted shoe: no polynomial in the number of decks, the coup classes are evaluated
        "depleted": [python, "-m", "analyzer", "odds", "--decks", "8", "--remove", "5"],
    }
    outputs = {}
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    run = partial(subprocess.run, capture_output=True, env=env, cwd=cold.cwd)
    for i in range(rounds + 1):  # round 0 warms the file and bytecode caches and is not counted
        order = list(commands) if i % 2 else list(reversed(commands))  # alternate who goes first
        for name in order:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            seconds, proc = _timed(partial(run, commands[name]))
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if proc.returncode != 0:
                raise SystemExit(f"bench: {name} failed: {proc.stderr.decode().strip()}")
            outputs[name] = proc.stdout.decode()
            if i:
                wall[name].append(seconds)
                cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    plain_counts = [line.split()[1] for line in outputs["plain"].splitlines()[:3]]
    cli_counts = [line.split()[1] for line in outputs["odds"].splitlines()[4:7]]
    if plain_counts != cli_counts:
        raise SystemExit(f"bench: plain enumerator {plain_counts} and CLI {cli_counts} disagree")

    def ratios(times: dict[str, list[float]], top: str, bottom: str) -> list[float]:
        return [t / b for t, b in zip(times[top], times[bottom], strict=True)]

    suffix = "" if bytecode else "_no_bytecode_cache"
    if not bytecode:
        import shutil

        shutil.rmtree(env["PYTHONPYCACHEPREFIX"], ignore_errors=True)
    figures = {
        "cold_cli_vs_plain": statistics.median(ratios(wall, "odds", "plain")),
        "edges_vs_odds": statistics.median(ratios(wall, "edges", "odds")),
        "cold_cli_vs_plain_cpu": statistics.median(ratios(cpu, "odds", "plain")),
        "edges_vs_odds_cpu": statistics.median(ratios(cpu, "edges", "odds")),
        "cold_cli_vs_plain_spread": _summary(ratios(wall, "odds", "plain")),
        "edges_vs_odds_spread": _summary(ratios(wall, "edges", "odds")),
        "cold_cli_vs_plain_cpu_spread": _summary(ratios(cpu, "odds", "plain")),
        "edges_vs_odds_cpu_spread": _summary(ratios(cpu, "edges", "odds")),
        "cold_cli": _summary(wall["odds"]),
        "cold_edges": _summary(wall["edges"]),
        "plain_process": _summary(wall["plain"]),
        "cold_cli_cpu": _summary(cpu["odds"]),
        "cold_edges_cpu": _summary(cpu["edges"]),
        "plain_process_cpu": _summary(cpu["plain"]),
        "cold_cli_seconds": statistics.median(wall["odds"]),
        "interpreter_vs_plain": statistics.median(ratios(wall, "pass", "plain")),
        "interpreter_vs_plain_spread": _summary(ratios(wall, "pass", "plain")),
        "interpreter_tabulate_vs_plain": statistics.median(ratios(wall, "tabulate", "plain")),
        "interpreter_stdlib_vs_plain": statistics.median(ratios(wall, "stdlib", "plain")),
        "cold_depleted_vs_plain": statistics.median(ratios(wall, "depleted", "plain")),
        "cold_depleted_vs_plain_spread": _summary(ratios(wall, "depleted", "plain")),
        "cold_edges_vs_plain": statistics.median(ratios(wall, "edges", "plain")),
        "cold_cli_json_vs_plain": statistics.median(ratios(wall, "json", "plain")),
        "cold_cli_json_vs_plain_spread": _summary(ratios(wall, "json", "plain")),
        "interpreter_process": _summary(wall["pass"]),
        "interpreter_tabulate_process": _summary(wall["tabulate"]),
        "interpreter_stdlib_process": _summary(wall["stdlib"]),
        "cold_depleted": _summary(wall["depleted"]),
    }
    figures = {key + suffix: value for key, value in figures.items()}
    figures["cold_start_from"] = cold.how
    return figures
