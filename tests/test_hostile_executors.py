"""Hostile executors: bad addresses, peers that are not Dask schedulers, too many workers,
Ctrl-C while pools and clusters start and run, the local cluster's dashboard. Servers listen
on 127.0.0.1 only."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from clirun import one_line_error, run

from analyzer.counting.executors import max_workers, open_executor

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
COUNT = ["count", "--system", "dragon7-jacobson", "--cut-card", "14"]


# -- addresses ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "tcp://",
        "tcp://127.0.0.1:notaport",
        "tcp://127.0.0.1:8799/extra",
        "tcp://127.0.0.1",
        "tcp://:8786",
        "tcp://127.0.0.1:0",
        "tcp://127.0.0.1:65536",
        "tcp://user@127.0.0.1:8786",
        "tcp://127.0.0.1:8786?x=1",
        "tcp://127.0.0.1: 8786",
    ],
)
def test_a_bad_scheduler_address_is_one_line(capsys: pytest.CaptureFixture[str], address: str) -> None:
    err = one_line_error(capsys, *COUNT, "--shoes", "3", "--executor", address)
    assert f"--executor {address!r}: use tcp://HOST:PORT" in err and "65535" in err


@pytest.mark.parametrize("seconds", ["0", "-1", "soon", "nan", "inf", "3601"])
def test_a_bad_connect_timeout_is_one_line(capsys: pytest.CaptureFixture[str], seconds: str) -> None:
    err = one_line_error(capsys, *COUNT, "--shoes", "3", "--connect-timeout", seconds)
    assert "--connect-timeout " in err and ": use a " in err and "number" in err


# -- peers that are not Dask schedulers -----------------------------------------------------


@contextmanager
def _server(answer: Callable[[socket.socket], None]) -> Iterator[int]:
    """A TCP server on 127.0.0.1 handing each connection to `answer`; yields its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    connections: list[socket.socket] = []

    def serve() -> None:
        with suppress(OSError):
            while True:
                connection, _ = listener.accept()
                connections.append(connection)
                threading.Thread(target=answer, args=(connection,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()
        for connection in connections:
            connection.close()


def _http(connection: socket.socket) -> None:
    with suppress(OSError):
        connection.recv(65536)
        connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        connection.close()


def _silent(connection: socket.socket) -> None:
    """Accepts and never answers (the connection stays open until the server closes)."""


@pytest.mark.parametrize(
    ("answer", "why"),
    [(_http, "its answer is not in the Dask protocol"), (_silent, "no Dask handshake within")],
    ids=["http", "silent"],
)
def test_a_peer_that_is_not_a_dask_scheduler_is_named(
    capsys: pytest.CaptureFixture[str], answer: Callable[[socket.socket], None], why: str
) -> None:
    pytest.importorskip("distributed")
    with _server(answer) as port:
        began = time.monotonic()
        err = one_line_error(
            capsys, *COUNT, "--shoes", "3", "--executor", f"tcp://127.0.0.1:{port}", "--connect-timeout", "1"
        )
        elapsed = time.monotonic() - began
    assert f"--executor tcp://127.0.0.1:{port} is not a Dask scheduler ({why}" in err
    assert elapsed < 10, elapsed  # connect and handshake each bounded by --connect-timeout


def test_a_dask_scheduler_passes(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    argv = [*COUNT, "--shoes", "24", "--format", "json"]
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        code, out, err = run(capsys, *argv, "--executor", cluster.scheduler_address, "--connect-timeout", "5")
        worker = next(iter(cluster.scheduler_info["workers"]))
        not_one = one_line_error(capsys, *argv, "--executor", worker)
    assert code == 0, err
    assert out == run(capsys, *argv)[1]
    assert f"--executor {worker} is not a Dask scheduler (it is a Dask Worker)" in not_one


def test_no_server_at_all_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    with socket.socket() as unused:  # a port nothing listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    err = one_line_error(capsys, *COUNT, "--shoes", "3", "--executor", f"tcp://127.0.0.1:{port}")
    assert f"tcp://127.0.0.1:{port}: no Dask scheduler answers there" in err


# -- workers --------------------------------------------------------------------------------


@pytest.mark.parametrize("above", [1, 0], ids=["one more than the bound", "zero"])
def test_workers_are_bounded(capsys: pytest.CaptureFixture[str], above: int) -> None:
    count = str((max_workers() + 1) * above)  # refused before any worker starts
    err = one_line_error(capsys, *COUNT, "--shoes", "3", "--workers", count)
    bound = f"use an integer from 1 to {max_workers()} (4 x the {os.cpu_count()} cores)"
    assert f"--workers {count}: {bound}" in err


def _interrupt(argv: list[str], ready: str | None, wait: float) -> tuple[int, str, str, float]:
    """Run `argv` in its own process group; once it printed the line `ready` (if given) and
    `wait` seconds more, Ctrl-C it as a terminal does. (exit code, stdout, stderr, seconds
    from Ctrl-C to exit)."""
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT,
        start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None
    if ready is not None:
        assert proc.stdout.readline() == ready + "\n"
    time.sleep(wait)
    os.killpg(proc.pid, signal.SIGINT)
    began = time.monotonic()
    try:
        out, err = proc.communicate(timeout=60)  # never a hang
    except subprocess.TimeoutExpired:  # the Ctrl-C was lost: end it, leave nothing behind
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return proc.returncode, out, err, time.monotonic() - began


SPAWNS = """
import sys, time
from concurrent.futures import process

spawn = process.ProcessPoolExecutor._spawn_process
def spawning(self):  # the pool starts its first worker: said once; optionally slow
    if not getattr(process, "said", False):
        process.said = True
        print("spawning", flush=True)
    time.sleep(float(sys.argv[1]))
    spawn(self)
process.ProcessPoolExecutor._spawn_process = spawning
from analyzer.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_ctrl_c_while_the_pool_starts_exits_at_once() -> None:
    argv = [*COUNT, "--shoes", "400", "--workers", str(max_workers())]  # 0.5 s a worker: a busy machine
    code, out, err, elapsed = _interrupt([sys.executable, "-c", SPAWNS, "0.5", *argv], "spawning", 0.2)
    assert (code, out, err) == (130, "", "baccarat: interrupted\n")
    assert elapsed < 1, elapsed


@pytest.fixture
def kernels_cached() -> None:
    """The compiled kernels in numba's cache on disk (where numba is installed), so that the
    command under test loads them (about 0.4 s) instead of compiling them: a Ctrl-C during
    a kernel's first-ever compile waits for the compile (several seconds) by design, and
    which test compiles first depends on the order, and under xdist on the worker."""
    from analyzer.counting import fastdeal
    from analyzer.ranks import kernel

    kernel.warm()
    fastdeal.warm()


@pytest.mark.usefixtures("kernels_cached")
def test_ctrl_c_with_the_most_workers_exits_at_once() -> None:
    argv = [sys.executable, "-c", SPAWNS, "0", *COUNT, "--shoes", "1000000", "--workers", str(max_workers())]
    # The pool starting, its workers starting: out at once. Working: the kernel call in flight
    # in this process ends first (nogil numba code takes no signal mid-call): under 1 s on an
    # idle machine, up to 2.5 s seen with the suite's other worker and another suite on 2
    # cores; the million shoes it would otherwise wait for take minutes.
    for wait, bound in ((0.05, 1), (0.5, 1), (3, 5)):
        code, out, err, elapsed = _interrupt(argv, "spawning", wait)
        assert (code, out, err) == (130, "", "baccarat: interrupted\n"), wait
        assert elapsed < bound, (wait, elapsed)


# -- Dask -----------------------------------------------------------------------------------


DASK_STARTS = """
import sys
import distributed

start = distributed.LocalCluster.__init__
def starting(self, *args, **kwargs):
    print("starting", flush=True)
    start(self, *args, **kwargs)
distributed.LocalCluster.__init__ = starting
from analyzer.cli import main
if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
"""


def _whole_run(argv: list[str]) -> float:
    """Seconds `argv` takes from its start to its exit (it must succeed)."""
    began = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return time.monotonic() - began


@pytest.mark.usefixtures("kernels_cached")
@pytest.mark.parametrize("wait", [0.3, 6], ids=["starting", "working"])
def test_ctrl_c_under_dask_is_one_line(wait: float) -> None:
    pytest.importorskip("distributed")
    dask = ["--executor", "dask", "--workers", "2"]
    code, out, err, elapsed = _interrupt(
        [sys.executable, "-c", DASK_STARTS, *COUNT, "--shoes", "1000000", *dask], "starting", wait
    )
    assert (code, out, err) == (130, "", "baccarat: interrupted\n")
    # Against a baseline measured now, under the machine's load of the moment: a whole study
    # of 2 shoes on the same local cluster (the process starting, the cluster starting,
    # dealing, the cluster closing). Ctrl-C leaves only the closing (0.9-1.15 s on an idle
    # 2-core machine, against about 5 s for the baseline), so it must take less; waiting for
    # the million shoes, for a chunk in flight or for a close timeout takes far longer.
    baseline = _whole_run([sys.executable, "-c", DASK_STARTS, *COUNT, "--shoes", "2", *dask])
    assert elapsed < baseline, (elapsed, baseline)


LEAKS = """
import os, multiprocessing
from analyzer.counting.executors import _tracker_started
_tracker_started()
lock = multiprocessing.get_context("spawn").Lock()  # what a start cut short leaves behind
print(lock._semlock.name, flush=True)
os._exit(0)
"""


def test_what_a_cut_start_leaves_is_removed_without_warnings() -> None:
    # A Ctrl-C while a cluster starts can leave a semaphore made (CI saw it once): the
    # resource tracker removes it, and says nothing after "baccarat: interrupted".
    # The tracker shares the process's stderr: run() returns once the tracker has ended too.
    done = subprocess.run([sys.executable, "-c", LEAKS], capture_output=True, text=True, env=ENV, timeout=60)
    left = Path("/dev/shm") / ("sem." + done.stdout.strip().lstrip("/"))
    assert done.stdout.startswith("/mp-") and not left.exists()
    assert done.stderr == ""


def test_the_local_cluster_starts_no_dashboard() -> None:
    pytest.importorskip("distributed")
    taken = socket.socket()
    with suppress(OSError):  # port 8787 (Dask's dashboard) taken, by us or by another
        taken.bind(("127.0.0.1", 8787))
        taken.listen()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with open_executor("dask", 1) as executor:
                assert executor is not None and executor.submit(sum, [1, 2]).result() == 3
    finally:
        taken.close()
    assert not [w for w in caught if "already in use" in str(w.message)], [str(w.message) for w in caught]
