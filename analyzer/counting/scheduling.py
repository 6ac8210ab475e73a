"""How a counting study's chunks are grouped into jobs and the jobs run, in order.

A study's shoes are cut into fixed chunks (`analyzer.counting.simulation`), whose summaries
are merged in chunk order whatever runs them. Jobs group consecutive chunks: with several
processes working, larger jobs first (fewer results shipped and merged) and single chunks
at the end (the processes end together); `in_order` runs them on an executor, this process
taking a share, and hands back their results in job order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from typing import TypeVar

__all__ = ["MOST_CHUNKS", "in_order", "job_sizes"]

#: The most chunks in one job (a job's results are held until merged: bounded memory).
MOST_CHUNKS = 8
#: A job takes at most this fraction of each process's share of the chunks left.
_SHARE_PART = 4

_J = TypeVar("_J")
_R = TypeVar("_R")


def job_sizes(chunks: int, processes: int, most: int = MOST_CHUNKS) -> Iterator[int]:
    """The number of chunks of each job, in order, for `chunks` chunks shared by `processes`
    working processes (their sum is `chunks`): one chunk a job for one process; else each
    job about 1/4 of a process's share of the chunks left, from 1 to `most`, so the sizes
    fall to single chunks at the end."""
    left = chunks
    while left:
        size = 1 if processes <= 1 else max(1, min(most, left // (_SHARE_PART * processes)))
        yield size
        left -= size


def in_order(
    work: Callable[[_J], _R],
    jobs: Iterator[_J],
    executor: Executor | None,
    window: int = 16,
    share: bool = False,
) -> Iterator[_R]:
    """`work(job)` of each job, in job order, run on `executor` (in this process without
    one); at most `window` jobs in flight (bounded memory). With `share`, this process
    also works: while the oldest job is unfinished it takes the oldest job no worker has
    started (the processes meet at the small jobs of the end). On any exception (Ctrl-C included) the jobs not yet started are cancelled."""
    if executor is None:
        yield from map(work, jobs)
        return
    pending: deque[tuple[_J, Future[_R]]] = deque()

    def oldest() -> _R:
        future = pending[0][1]
        while share and not future.done():
            for index in range(len(pending)):  # the oldest not started (the sizes fall)
                if pending[index][1].cancel():
                    here: Future[_R] = Future()
                    here.set_result(work(pending[index][0]))
                    pending[index] = (pending[index][0], here)
                    future = pending[0][1]
                    break
            else:
                break
        pending.popleft()
        return future.result()

    try:
        for job in jobs:
            pending.append((job, executor.submit(work, job)))
            if len(pending) >= window:
                yield oldest()
        while pending:
            yield oldest()
    finally:
        for _, future in pending:
            future.cancel()
