"""Jobs of consecutive chunks (`job_sizes`), run in order with this process sharing the
work (`in_order`): the same results as chunk by chunk in this process."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from itertools import pairwise
from typing import Any

import pytest

from analyzer import Shoe
from analyzer.core.catalogue import RANK_BETS
from analyzer.counting import scheduling, simulation
from analyzer.counting.scheduling import in_order, job_sizes
from analyzer.counting.simulation import Procedure, evaluate_systems
from analyzer.counting.systems import SYSTEMS
from analyzer.present import render as fmt


def test_job_sizes_fall_to_single_chunks_and_cover_every_chunk() -> None:
    assert list(job_sizes(50, 2)) == [8, 8, 8, 6, 5, 3, 3, 2] + [1] * 7
    assert list(job_sizes(500, 2))[:3] == [8, 8, 8]  # at most MOST_CHUNKS
    assert list(job_sizes(7, 1)) == [1] * 7  # one process: a chunk a job
    assert list(job_sizes(0, 2)) == []
    for chunks, processes in ((1, 2), (50, 4), (1000, 3), (37, 16)):
        sizes = list(job_sizes(chunks, processes))
        assert sum(sizes) == chunks and sizes[-1] == 1
        assert all(a >= b for a, b in pairwise(sizes))


class _Counting(Executor):
    """A thread pool that notes how many of its jobs were unfinished at once."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(1)
        self.lock = threading.Lock()
        self.open = self.most = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self.lock:
            self.open += 1
            self.most = max(self.most, self.open)
        future = self.pool.submit(fn, *args)
        future.add_done_callback(lambda _: self._closed())
        return future

    def _closed(self) -> None:
        with self.lock:
            self.open -= 1


def test_in_order_shares_the_work_and_gives_a_worker_at_most_two_jobs() -> None:
    here: list[int] = []

    def work(job: int) -> int:
        if threading.current_thread() is threading.main_thread():
            here.append(job)
        threading.Event().wait(0.002)
        return job * job

    executor = _Counting()
    try:
        assert list(in_order(work, iter(range(40)), executor, window=8, workers=1, share=True)) == [
            n * n for n in range(40)
        ]
    finally:
        executor.pool.shutdown()
    assert 0 < executor.most <= 2
    assert here and len(here) < 40  # both worked
    here.clear()
    waiting = _Counting()  # without share: this process only waits
    try:
        assert list(in_order(work, iter(range(12)), waiting, workers=1)) == [n * n for n in range(12)]
    finally:
        waiting.pool.shutdown()
    assert waiting.most == 2 and not here
    with ThreadPoolExecutor(2) as pool:  # workers unknown: the window's jobs all given
        assert list(in_order(work, iter(range(10)), pool, window=4)) == [n * n for n in range(10)]


def test_in_order_raises_a_jobs_error_and_cancels_the_rest() -> None:
    def work(job: int) -> int:
        if job == 3:
            raise ValueError("job 3")
        return job

    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="job 3"):
        list(in_order(work, iter(range(20)), pool, workers=1, share=True))
    ran: list[int] = []

    def slow(job: int) -> int:  # the jobs after the failing one still queued when it fails
        ran.append(job)
        if job > 3:
            time.sleep(0.05)
        return work(job)

    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="job 3"):
        list(in_order(slow, iter(range(20)), pool, window=16))
    assert len(ran) < 16  # the window's queued jobs were cancelled, not worked through


def test_jobs_of_several_chunks_give_the_chunk_by_chunk_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs of several chunks (6, 4, ... with two processes; 5 forced), their exact sums
    summed in the job: the same JSON and exact values as a chunk a job, and the floats bit
    for bit (merged chunk by chunk)."""
    systems = [SYSTEMS["dragon7-jacobson"], SYSTEMS["panda8-jacobson"]]
    bets = [RANK_BETS["dragon7"], RANK_BETS["panda8"]]

    def study(workers: int) -> tuple[str, list[Any]]:
        results = evaluate_systems(
            systems,
            bets,
            Procedure(shoe=Shoe.decks(2), cut_card=14),
            shoes=97,
            seed=4,
            chunk=4,
            workers=workers,
        )
        exact = [(r.sums["all"].value(), r.perfect, r.realized_squares, r.by_count_values) for r in results]
        floats = [(r.shoe_moments, r.moments, r.by_count) for r in results]
        return fmt.render_count(results, "json", "2 decks"), exact + floats

    sizes: list[int] = []
    real = scheduling.job_sizes

    def noted(chunks: int, processes: int) -> Any:
        for size in real(chunks, processes):
            sizes.append(size)
            yield size

    alone = study(1)
    monkeypatch.setattr(simulation, "job_sizes", noted)
    assert study(2) == alone
    assert max(sizes) == 6 and sum(sizes) == 25
    monkeypatch.setattr(simulation, "job_sizes", lambda chunks, processes: iter([5] * 5))
    assert study(1) == alone  # in this process too
