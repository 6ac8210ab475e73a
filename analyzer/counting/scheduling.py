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
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any, TypeVar

__all__ = ["MOST_CHUNKS", "in_order", "job_sizes"]

#: The most chunks in one job (a job's results are held until merged: bounded memory).
MOST_CHUNKS = 8
#: A job takes at most 1/this of each process's share of the chunks left.
_SHARE_PART = 2

_J = TypeVar("_J")
_R = TypeVar("_R")


def job_sizes(chunks: int, processes: int, most: int = MOST_CHUNKS) -> Iterator[int]:
    """The number of chunks of each job, in order, for `chunks` chunks shared by `processes`
    working processes (their sum is `chunks`): one chunk a job for one process; else each
    job half a process's share of the chunks left, from 1 to `most`, so the sizes fall to
    single chunks at the end, where the processes meet."""
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
    workers: int = 0,
    share: bool = False,
) -> Iterator[_R]:
    """`work(job)` of each job, in job order, run on `executor` (in this process without
    one); at most `window` jobs in flight (bounded memory), the oldest given first. With
    `workers`, the executor's worker processes: each is given at most two jobs at a time
    (one running, one waiting: what a process pool's worker is given it keeps, so fewer
    make the processes end together). With `share`, this process works too: it takes the
    oldest job not given while the oldest job is unfinished. On any exception (Ctrl-C
    included) the jobs given and not yet started are cancelled."""
    if executor is None:
        yield from map(work, jobs)
        return
    limit = 2 * workers if workers else window
    pending: deque[list[Any]] = deque()  # [job, its future; None until given]

    def give() -> None:
        """The oldest jobs not given, to the executor, while it has fewer than `limit`."""
        busy = sum(1 for _, future in pending if future is not None and not future.done())
        for entry in pending:
            if busy >= limit:
                break
            if entry[1] is None:
                entry[1] = executor.submit(work, entry[0])
                busy += 1

    def oldest() -> _R:
        while True:
            give()
            head: Future[_R] | None = pending[0][1]
            if head is not None and head.done():
                break
            mine = next((entry for entry in pending if entry[1] is None), None) if share else None
            if mine is not None:  # this process's share: the oldest job not given
                here: Future[_R] = Future()
                here.set_result(work(mine[0]))
                mine[1] = here
                continue
            running = [future for _, future in pending if future is not None and not future.done()]
            wait(running, return_when=FIRST_COMPLETED)  # a worker's job done: give it another
        future = pending.popleft()[1]
        value: _R = future.result()
        return value

    try:
        for job in jobs:
            pending.append([job, None])
            give()
            if len(pending) >= window:
                yield oldest()
        while pending:
            yield oldest()
    finally:
        for _, future in pending:
            if future is not None:
                future.cancel()
