"""Where a counting study's chunks run: in this process, a local process pool, or Dask.

`evaluate_systems` takes any `concurrent.futures`-style executor (an object with
`submit(fn, *args)` returning futures). `open_executor` builds the ones the CLI names:

- "local": a pool of spawned worker processes (created once, reusable for many studies);
- "dask": a `dask.distributed` LocalCluster of `workers` single-threaded worker processes;
- "tcp://HOST:PORT": an existing Dask scheduler, the way to run on a cluster (each worker
  needs this package importable).

Workers ignore Ctrl-C; when it reaches the parent, the pool is stopped without waiting.
"""

from __future__ import annotations

import importlib
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from analyzer.core.errors import AnalyzerError

__all__ = ["EXECUTORS", "local_pool", "open_executor", "pool_of", "stop_pool"]

EXECUTORS = ("local", "dask", "tcp://HOST:PORT")


def _quiet_worker() -> None:
    """Worker start-up: Ctrl-C is the parent's to handle; one BLAS thread per worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def local_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` spawned processes that ignore Ctrl-C, started now: they are
    spawned while this process ignores Ctrl-C, so they inherit that from their first
    instruction (no worker traceback however early Ctrl-C comes)."""
    import multiprocessing

    pool = ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=_quiet_worker
    )
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        for _ in range(workers):  # each submit to a pool with no idle worker spawns one
            pool.submit(os.getpid)
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
    return pool


def stop_pool(pool: Executor, wait: bool = True) -> None:
    """Shut a pool down; without `wait`, cancel queued work and end its processes now."""
    if wait:
        pool.shutdown(wait=True)
        return
    processes: dict[Any, Any] = dict(getattr(pool, "_processes", None) or {})  # shutdown forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in list(processes.values()):
        process.terminate()
    for process in list(processes.values()):
        process.join(timeout=5)


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


@contextmanager
def open_executor(spec: str, workers: int) -> Iterator[Executor | None]:
    """The executor named by `spec` (see module doc); None for "local" with one worker
    (the study runs in this process). Stops it on exit, at once on an exception."""
    if spec == "local":
        if workers <= 1:
            yield None
            return
        with pool_of(workers) as pool:
            yield pool
        return
    if spec != "dask" and not spec.startswith("tcp://"):
        raise AnalyzerError(f"--executor {spec!r}: use local, dask or tcp://HOST:PORT")
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise AnalyzerError(
            f"--executor {spec}: dask.distributed is not installed; install the dask extra "
            '(pip install "baccarat-analyzer[dask]")'
        ) from None
    if spec == "dask":
        cluster = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = distributed.Client(cluster)
    else:
        cluster = None
        try:
            client = distributed.Client(spec, timeout=10)
        except OSError as error:
            raise AnalyzerError(f"--executor {spec}: no Dask scheduler answers there ({error})") from None
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
