"""Executors: a Dask cluster gives the local pool's results; Ctrl-C stops the workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from analyzer import Shoe
from analyzer.core.catalogue import RANK_BETS
from analyzer.counting.executors import open_executor
from analyzer.counting.simulation import Procedure, evaluate_systems
from analyzer.counting.systems import SYSTEMS
from analyzer.present import render as fmt

ROOT = Path(__file__).resolve().parents[1]


def _study(spec: str) -> str:
    systems = [SYSTEMS["dragon7-jacobson"], SYSTEMS["panda8-jacobson"]]
    bets = [RANK_BETS["dragon7"], RANK_BETS["panda8"]]
    with open_executor(spec, 2) as executor:
        results = evaluate_systems(
            systems, bets, Procedure(shoe=Shoe.decks(2), cut_card=14), shoes=36, seed=5, chunk=12,
            workers=2, executor=executor,
        )  # fmt: skip
    return fmt.render_count(results, "json", "2 decks")


def test_dask_cluster_and_local_pool_give_identical_json() -> None:
    pytest.importorskip("distributed")
    local = _study("local")
    assert _study("dask") == local
    assert '"triggers"' in local


def _disabled_logging() -> int:
    import logging

    return logging.root.manager.disable


def test_the_local_clusters_workers_log_nothing() -> None:
    # A worker's heartbeat racing the cluster's close logged a CommClosedError traceback on
    # stderr after a successful run (once in 7-15 runs): the workers of our own cluster are
    # quiet, and so is this process while it closes the cluster (and after, as before).
    pytest.importorskip("distributed")
    import logging

    with open_executor("dask", 2) as executor:
        assert executor is not None
        levels = {executor.submit(_disabled_logging).result() for _ in range(4)}
        assert levels == {logging.CRITICAL}
        assert logging.root.manager.disable == logging.NOTSET
    assert logging.root.manager.disable == logging.NOTSET


def test_ctrl_c_stops_the_workers_without_tracebacks() -> None:
    script = (
        "import sys\n"
        "from analyzer.core.catalogue import RANK_BETS\n"
        "from analyzer.counting.systems import SYSTEMS\n"
        "from analyzer.counting.executors import open_executor\n"
        "from analyzer.counting.simulation import Procedure, evaluate_systems\n"
        "try:\n"
        "    with open_executor('local', 2) as pool:  # as `count --workers 2` runs\n"
        "        print('started', flush=True)\n"
        "        evaluate_systems([SYSTEMS['dragon7-jacobson']], [RANK_BETS['dragon7']],\n"
        "                         Procedure(cut_card=14),\n"
        "                         shoes=10**6, workers=2, executor=pool)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(130)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline() == "started\n"
    time.sleep(2)  # the workers are busy
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: every process of the group
    began = time.monotonic()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in out
    assert time.monotonic() - began < 20
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_a_stopped_pool_lets_the_interpreter_exit_though_a_result_was_cut_short() -> None:
    """A worker ended while writing its result leaves half a message in the result pipe; the
    pool's thread, waiting for the rest, must still end once the pool is stopped (else the
    interpreter's exit joins it forever: a Ctrl-C that hangs, one run in about 50)."""
    import struct

    from analyzer.counting.executors import local_pool, stop_pool

    pool = local_pool(2)
    thread = pool._executor_manager_thread  # type: ignore[attr-defined]
    writer = pool._result_queue._writer  # type: ignore[attr-defined]
    os.write(writer.fileno(), struct.pack("!i", 1000) + b"part")  # 1,000 bytes announced, 4 sent
    time.sleep(0.2)  # the pool's thread is now in recv(), waiting for 996 more
    stop_pool(pool, wait=False)
    assert thread is not None
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_forked_and_spawned_workers_and_one_process_give_identical_results(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Workers forked from this process (the evaluator inherited, not shipped; the compiled
    kernels too, loaded here first when numba is installed), spawned workers (its pickle
    read from a file; the numpy paths, these studies being too short to load the kernels)
    and this process alone: the same summaries."""
    from analyzer.counting import executors, fastdeal, simulation
    from analyzer.ranks import kernel

    kernel.warm()
    fastdeal.warm()

    systems = [SYSTEMS["dragon7-jacobson"], SYSTEMS["panda8-jacobson"]]
    bets = [RANK_BETS["dragon7"], RANK_BETS["panda8"]]

    def study(workers: int) -> str:
        results = evaluate_systems(
            systems, bets, Procedure(shoe=Shoe.decks(2), cut_card=14), shoes=48, seed=9, chunk=6,
            workers=workers,
        )  # fmt: skip
        return fmt.render_count(results, "json", "2 decks")

    alone = study(1)
    shipped: list[object] = []
    original = simulation.write_temporary
    monkeypatch.setattr(simulation, "write_temporary", lambda *a: shipped.append(a) or original(*a))
    if sys.platform.startswith("linux"):
        assert executors._START == "fork"
        assert study(3) == alone and not shipped  # forked: nothing pickled for the workers
    monkeypatch.setattr(executors, "_START", "spawn")
    assert study(3) == alone and shipped


def test_an_executors_workers_load_the_kernels_for_a_long_study(monkeypatch: pytest.MonkeyPatch) -> None:
    """A study long enough to repay the compiled kernels (here: any, LOAD_WORTH 1) has an
    executor's workers load them (`_Job.kernels`); the same summaries as the numpy paths."""
    from analyzer.counting import simulation
    from analyzer.ranks import kernel

    pytest.importorskip("numba")
    systems, bets = [SYSTEMS["dragon7-jacobson"]], [RANK_BETS["dragon7"]]

    def study() -> str:
        with open_executor("local", 2) as executor:
            results = evaluate_systems(
                systems, bets, Procedure(shoe=Shoe.decks(2), cut_card=14), shoes=40, seed=3, chunk=8,
                workers=2, executor=executor,
            )  # fmt: skip
        return fmt.render_count(results, "json", "2 decks")

    monkeypatch.setenv("BACCARAT_KERNEL", "numpy")
    plain = study()
    monkeypatch.delenv("BACCARAT_KERNEL")
    monkeypatch.setattr(kernel, "LOAD_WORTH", 1)
    flags: list[bool] = []
    run = simulation._run

    def noted(jobs: Iterator[Any], *args: Any, **kwargs: Any) -> Any:
        return run((flags.append(job.kernels) or job for job in jobs), *args, **kwargs)

    monkeypatch.setattr(simulation, "_run", noted)
    assert study() == plain
    assert flags and all(flags)
