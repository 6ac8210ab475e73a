"""Where a counting study's chunks run: in this process, a local process pool, or Dask.

`evaluate_systems` takes any `concurrent.futures`-style executor (an object with
`submit(fn, *args)` returning futures). `open_executor` builds the ones the CLI names:

- "local": a pool of worker processes (created once, reusable for many studies), forked on
  Linux (started in milliseconds, this process's modules and compiled kernels loaded),
  spawned elsewhere;
- "dask": a `dask.distributed` LocalCluster of `workers` single-threaded worker processes
  (no dashboard; its HTTP server on a free port of 127.0.0.1; its workers' logging off, and
  Dask's in this process while it closes: a run that succeeds prints nothing on stderr);
- "tcp://HOST:PORT": an existing Dask scheduler, the way to run on a cluster (each worker
  needs this package importable); the connection and the Dask handshake are each bounded
  by `connect_timeout`, and a peer that is not a Dask scheduler is named as such.

Ctrl-C is the parent's: local and Dask worker processes are started with SIGINT blocked
(the mask is inherited through fork and exec), so they never see it, while this process
answers it at once, also while the workers start. On Ctrl-C the workers are stopped without
waiting and Dask's logging is silenced: nothing is printed but the caller's one line. SIGTERM
and SIGHUP, when this process handles them with an exception (the `baccarat` command raises
a KeyboardInterrupt subclass), are held while a worker starts in the same way and stop the
workers as Ctrl-C does. Local workers end with this process even when it is killed outright
(Linux: the parent-death signal), and Dask's workers watch their parent process.
"""

from __future__ import annotations

import gc
import importlib
import logging
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

from analyzer.core.errors import AnalyzerError, mention, quoted
from analyzer.core.signals import ENDING

__all__ = [
    "CONNECT_TIMEOUT",
    "EXECUTORS",
    "WORKERS_PER_CORE",
    "check_executor",
    "check_timeout",
    "check_workers",
    "forked",
    "local_pool",
    "max_workers",
    "open_executor",
    "pool_of",
    "stop_pool",
]

EXECUTORS = ("local", "dask", "tcp://HOST:PORT")
WORKERS_PER_CORE = 4  # at most this many worker processes per core
CONNECT_TIMEOUT = 10.0  # seconds, default for connecting to a scheduler and its handshake
MAX_CONNECT_TIMEOUT = 3600.0
_SIGINT = {signal.SIGINT}
#: How local workers start: forked where that is safe and known (Linux), else spawned.
_START = "fork" if sys.platform.startswith("linux") else "spawn"
#: prctl(2) option: the signal a process receives when its parent ends (Linux).
_PR_SET_PDEATHSIG = 1
_TRACKER_QUIET = "ignore::UserWarning:multiprocessing.resource_tracker"
_T = TypeVar("_T")
# tcp://HOST:PORT and nothing else: a host name or IPv4 address, or an IPv6 one in brackets
_ADDRESS = re.compile(r"tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})")


def max_workers() -> int:
    """The most worker processes a study may start: `WORKERS_PER_CORE` per core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_workers(workers: object, option: str = mention("workers")) -> int:
    """`workers` if it is an integer from 1 to `max_workers()`, else AnalyzerError."""
    bound = max_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= bound:
        raise AnalyzerError(
            f"{option} {quoted(workers)}: use an integer from 1 to {bound} "
            f"({WORKERS_PER_CORE} x the {os.cpu_count() or 1} cores)"
        )
    return workers


def check_executor(spec: str) -> str:
    """`spec` if it names an executor: local, dask or tcp://HOST:PORT (a host, a port from
    1 to 65535, nothing else), else AnalyzerError naming the executor and the form."""
    if spec in EXECUTORS[:2]:
        return spec
    if not spec.startswith("tcp://"):
        allowed = f"{', '.join(EXECUTORS[:2])} or {EXECUTORS[2]}"
        raise AnalyzerError(f"{mention('executor')} {quoted(spec)}: use {allowed}")
    match = _ADDRESS.fullmatch(spec)
    if match is None or not 1 <= int(match.group(2)) <= 65535:
        raise AnalyzerError(
            f"{mention('executor')} {quoted(spec)}: use tcp://HOST:PORT "
            "(a host name or address and a port from 1 to 65535)"
        )
    return spec


def check_timeout(seconds: object, shown: str | None = None) -> float:
    """`seconds` if it is a number of seconds above 0 and at most an hour, else AnalyzerError
    naming it as `shown` (default: the connect_timeout argument and the value)."""
    number = seconds if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else None
    if number is None or not 0 < number <= MAX_CONNECT_TIMEOUT:
        raise AnalyzerError(
            f"{shown or mention('connect_timeout') + ' ' + quoted(seconds)}: "
            "use a number of seconds above 0, "
            f"at most {MAX_CONNECT_TIMEOUT:g}"
        )
    return float(number)


def _quiet_worker(parent: int | None = None) -> None:
    """Worker start-up: Ctrl-C is the parent's to handle (ignored, then the SIGINT the worker
    was started with blocked is unblocked: one that came meanwhile is discarded); SIGTERM and
    SIGHUP end it (a forked worker inherits the parent's handlers and had them blocked: set
    back to their default actions first, then unblocked, so one that came meanwhile ends it);
    one BLAS thread per worker. With `parent` (the pid of the process that
    started it from its main thread), the worker is killed when that process ends, however
    it ends (Linux), and ends now if it has ended already."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in ENDING - _SIGINT:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDING)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if parent is not None and sys.platform.startswith("linux"):
        import ctypes

        with suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent ended before the request
            os._exit(1)


def local_pool(workers: int, start: str | None = None) -> ProcessPoolExecutor:
    """A pool of `workers` processes that ignore Ctrl-C, started now: forked where the
    platform forks (Linux: a worker starts in milliseconds with this process's modules,
    compiled kernels included, loaded), else spawned; `start` ("fork" or "spawn") chooses.
    Each is started with SIGINT blocked, so it is deaf to Ctrl-C from its first instruction
    (no worker traceback however early Ctrl-C comes), while this process takes Ctrl-C between
    two starts: the started workers are then stopped and KeyboardInterrupt raised. A forked
    worker is started with SIGTERM and SIGHUP blocked too (it inherits this process's
    handlers, held back meanwhile), its start-up sets them to their default actions."""
    import multiprocessing

    check_workers(workers, "workers")
    method = start or _START
    # The parent-death signal follows the thread that starts a worker: asked for only when
    # that is the main thread, whose end is the process's.
    parent = os.getpid() if threading.current_thread() is threading.main_thread() else None
    pool = ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context(method), initializer=_quiet_worker,
        initargs=(parent,),
    )  # fmt: skip
    try:
        if method == "fork":  # a forking pool starts every worker at its first submit: one at a time here
            for stream in (sys.stdout, sys.stderr):  # a worker would write out its copy of what is buffered
                with suppress(OSError, ValueError, AttributeError):
                    stream.flush()
            gc.freeze()  # the workers' collections leave this process's objects (and pages) alone
            try:
                for _ in range(workers):
                    _held_back(pool._spawn_process, ENDING)  # type: ignore[attr-defined]
                _held_back(lambda: pool.submit(os.getpid), ENDING)
            finally:
                gc.unfreeze()
        else:
            for _ in range(workers):  # each submit to a pool with no idle worker spawns one
                _held_back(lambda: pool.submit(os.getpid))
    except BaseException:
        stop_pool(pool, wait=False)
        raise
    return pool


def forked(pool: object) -> bool:
    """Whether `pool` is a local pool whose workers are forked (`local_pool`): they start
    with a copy of this process's memory as it was then."""
    context = getattr(pool, "_mp_context", None) if isinstance(pool, ProcessPoolExecutor) else None
    return context is not None and context.get_start_method() == "fork"


def _tracker_started() -> None:
    """multiprocessing's resource tracker started now if it is not running: starting it
    unblocks SIGINT in the thread that does (multiprocessing.resource_tracker), which must
    not happen between blocking SIGINT and spawning a worker. The tracker is started with
    its warnings off: what a Ctrl-C leaves half-made (a pool's or a Dask cluster's
    semaphores) it still removes at the end, without two warnings after "interrupted"."""
    from multiprocessing import resource_tracker

    sys.warnoptions.append(_TRACKER_QUIET)  # read once, when the tracker's process starts
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(_TRACKER_QUIET)


def _held_back(call: Callable[[], _T], blocked: AbstractSet[signal.Signals] = _SIGINT) -> _T:
    """`call()` with SIGINT (`blocked`) blocked in this thread (processes it starts inherit
    the block) and, in the main thread, each ending signal (`ENDING`) that has a Python
    handler held back meanwhile: handled (KeyboardInterrupt for Ctrl-C, whatever the handler
    raises for SIGTERM and SIGHUP) once `call` has returned, never inside it. A spawned
    worker's SIGTERM stays unblocked: a worker just started is ended by `stop_pool` at once
    (a forked one unblocks it in its first milliseconds)."""
    _tracker_started()
    if threading.current_thread() is not threading.main_thread():
        signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
        try:
            return call()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, blocked)
    held: list[int] = []
    handled = [number for number in ENDING if callable(signal.getsignal(number))]
    previous = {number: signal.signal(number, lambda n, frame: held.append(n)) for number in handled}
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
        try:
            value = call()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, blocked)  # a pending Ctrl-C is held now
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if held:
        signal.raise_signal(held[0])  # its own handler, now: e.g. KeyboardInterrupt
    return value


def stop_pool(pool: Executor, wait: bool = True) -> None:
    """Shut a pool down; without `wait`, cancel queued work and end its processes now."""
    if wait:
        pool.shutdown(wait=True)
        return
    processes: dict[Any, Any] = dict(getattr(pool, "_processes", None) or {})  # shutdown forgets them
    results = getattr(pool, "_result_queue", None)  # and these
    thread = getattr(pool, "_executor_manager_thread", None)
    pending: dict[Any, Any] = getattr(pool, "_pending_work_items", None) or {}
    pool.shutdown(wait=False, cancel_futures=True)
    for process in list(processes.values()):
        process.terminate()
    for process in list(processes.values()):
        process.join(timeout=5)
    # A worker ended while writing a result leaves part of a message in the result pipe, and
    # the pool's thread waits in recv() for the rest, which this process's own copy of the
    # pipe's write end keeps possible: the interpreter's exit would join that thread forever.
    # Closed, the read ends (EOF), the pool is broken, and its thread exits. Only then: a
    # thread that ends by itself is left to (closing would break a pool that is ending well,
    # whose cancelled futures the broken pool would then fail to set, with a traceback).
    if thread is not None:
        thread.join(timeout=0.2)
    writer = getattr(results, "_writer", None)
    if thread is not None and thread.is_alive() and writer is not None:
        for key, item in list(pending.items()):  # the thread is in recv(): not reading these
            if item.future.cancelled():
                pending.pop(key, None)
        with suppress(OSError):
            writer.close()


@contextmanager
def pool_of(processes: int) -> Iterator[Executor]:
    """A local pool of `processes` worker processes (`local_pool`), stopped on leaving, at
    once on an exception."""
    pool = local_pool(processes)
    try:
        yield pool
    except BaseException:
        stop_pool(pool, wait=False)
        raise
    stop_pool(pool)


def _in_deaf_thread(start: Callable[[], _T]) -> _T:
    """`start()` run in a thread with SIGINT blocked (the threads and processes it starts
    inherit the block, so Dask's event loop and workers never see Ctrl-C), waited for here
    so that Ctrl-C interrupts the wait at once; the thread is left to finish alone then."""
    outcome: dict[str, Any] = {}
    done = threading.Event()
    _tracker_started()

    def target() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, _SIGINT)
        try:
            outcome["value"] = start()
        except BaseException as error:  # handed to the waiting thread
            outcome["error"] = error
        finally:
            done.set()

    threading.Thread(target=target, name="baccarat-dask-start", daemon=True).start()
    while not done.wait(0.05):
        pass
    if "error" in outcome:
        raise outcome["error"]
    value: _T = outcome["value"]
    return value


def _probe(spec: str, timeout: float) -> None:
    """Refuse `spec` unless a Dask scheduler answers there within `timeout` seconds: the TCP
    connection first, then the Dask handshake and an identity request."""
    import asyncio
    import socket

    comms: Any = importlib.import_module("distributed.comm")

    host, port = spec[len("tcp://") :].rsplit(":", 1)
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as error:
        within = f"no answer within {mention('connect_timeout', f'{timeout:g}')} s"
        why = within if isinstance(error, TimeoutError) else None
        raise AnalyzerError(
            f"{mention('executor', spec)}: no Dask scheduler answers there ({why or error.strerror or error})"
        ) from None

    async def identity() -> Any:
        comm = await comms.connect(spec, timeout=timeout)
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    why = None
    try:
        reply = asyncio.run(asyncio.wait_for(identity(), timeout))
    except TimeoutError:
        why = f"no Dask handshake within {mention('connect_timeout', f'{timeout:g}')} s"
    except comms.CommClosedError:
        why = "it closed the connection without a Dask handshake"
    except Exception:  # e.g. MemoryError: HTTP bytes read as the length of a Dask message
        why = "its answer is not in the Dask protocol"
    else:
        kind = reply.get("type") if isinstance(reply, dict) else None
        if kind != "Scheduler":
            why = f"it is a Dask {kind}" if isinstance(kind, str) else "it does not answer as one"
    if why is not None:
        raise AnalyzerError(f"{mention('executor', spec)} is not a Dask scheduler ({why})")


def _quiet() -> None:
    """Logging off, in this process (Dask's and tornado's loggers included): on Ctrl-C
    there is nothing to report but the caller's one line."""
    logging.disable(logging.CRITICAL)


@contextmanager
def _quiet_on_ctrl_c() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt as always, and SIGTERM or SIGHUP what their Python
    handlers raise, logging turned off first (`_quiet`): Dask logs from its own threads while
    its work is cancelled and its workers stopped."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}

    def interrupted(number: int, frame: Any) -> None:
        _quiet()
        previous[number](number, frame)  # Ctrl-C: signal.default_int_handler, KeyboardInterrupt

    for number in ENDING:
        if callable(signal.getsignal(number)):
            previous[number] = signal.signal(number, interrupted)
    try:
        yield
    finally:
        for taken, handler in previous.items():
            signal.signal(taken, handler)


def _stop_quietly(client: Any, cluster: Any, interrupted: bool) -> None:
    """Stop a Dask client (and its local cluster) on an exception: the cluster's worker
    processes killed at once, logging off meanwhile (Dask has nothing to report); after
    Ctrl-C (or SIGTERM, SIGHUP) it stays off (the program is ending: nothing but its one
    line). A close that fails is let go: the exception being handled is the one to report."""
    previous = logging.root.manager.disable
    _quiet()
    try:
        for nanny in list(getattr(cluster, "workers", {}).values()):
            pid = getattr(nanny, "pid", None)
            if isinstance(pid, int):
                with suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        for closing in (client, cluster):
            if closing is None:
                continue
            try:
                closing.close(timeout=2)
            except Exception:  # e.g. TimeoutError on a busy machine: the error being raised stands
                if closing is cluster:
                    cluster.shutdown_on_close = False  # killed already: Dask's closing at exit skipped
    finally:
        if not interrupted:
            logging.disable(previous)


def _local_cluster(distributed: Any, workers: int) -> Any:
    """A LocalCluster of `workers` single-threaded worker processes, without a dashboard
    (its HTTP server on a free port of 127.0.0.1), started deaf to Ctrl-C. On Ctrl-C while
    it starts, it is left half-started to the end of the process, which is near: Dask's
    own closing at exit (seconds) is skipped, its worker processes are daemonic and end
    with this one."""
    spec_cluster: Any = importlib.import_module("distributed.deploy.spec").SpecCluster
    before = set(spec_cluster._instances)
    options = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}
    try:
        return _in_deaf_thread(
            lambda: distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, scheduler_kwargs=options
            )
        )
    except KeyboardInterrupt:
        _quiet()
        for cluster in set(spec_cluster._instances) - before:
            cluster.shutdown_on_close = False
        raise


@contextmanager
def open_executor(
    spec: str, workers: int, connect_timeout: float = CONNECT_TIMEOUT
) -> Iterator[Executor | None]:
    """The executor named by `spec` (see module doc); None for "local" with one worker
    (the study runs in this process). Stops it on exit, at once on an exception."""
    check_executor(spec)
    check_workers(workers)
    if spec == "local":
        if workers <= 1:
            yield None
            return
        with pool_of(workers) as pool:
            yield pool
        return
    timeout = check_timeout(connect_timeout)
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise AnalyzerError(
            f"{mention('executor', spec)}: dask.distributed is not installed; install the dask extra "
            "(pip install '.[dask]' in the project)"
        ) from None
    with _quiet_on_ctrl_c():
        yield from _dask_executor(distributed, spec, workers, timeout)


def _dask_executor(distributed: Any, spec: str, workers: int, timeout: float) -> Iterator[Executor]:
    """`open_executor` for "dask" and "tcp://HOST:PORT"."""
    cluster: Any = None
    client: Any = None
    try:
        if spec == "dask":
            cluster = _local_cluster(distributed, workers)
            client = _in_deaf_thread(lambda: distributed.Client(cluster))
            client.run(_quiet)  # its workers log nothing (a heartbeat racing the close: CommClosedError)
        else:
            _probe(spec, timeout)
            try:
                client = _in_deaf_thread(lambda: distributed.Client(spec, timeout=timeout))
            except OSError as error:
                raise AnalyzerError(
                    f"{mention('executor', spec)}: no Dask scheduler answers there ({error})"
                ) from None
        executor = client.get_executor(pure=False)
    except BaseException as error:
        _stop_quietly(client, cluster, isinstance(error, KeyboardInterrupt))
        raise
    try:
        yield executor
    except BaseException as error:
        _stop_quietly(client, cluster, isinstance(error, KeyboardInterrupt))
        raise
    previous = logging.root.manager.disable
    _quiet()  # closing, Dask may log a connection it closes itself: nothing to report
    try:
        client.close()
        if cluster is not None:
            cluster.close()
    finally:
        logging.disable(previous)
