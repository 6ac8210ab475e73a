"""Progress for long work on standard error, shown only when the command line turns it on;
the library is silent. Bars (tqdm): `baccarat` shows them when standard error is a terminal.
Lines (`lines`): one plain line per finished item of a `Tally`, for a log or a pipe, where a
bar cannot show (`baccarat report --progress`).

>>> list(steps([1, 2, 3], "adding"))  # off: the items, nothing printed
[1, 2, 3]
>>> tally = Tally(2)
>>> tally.done("a.md")  # lines off: nothing printed
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.signals import ENDING

__all__ = ["Bar", "Tally", "bar", "delay", "enable", "enabled", "lines", "steps", "working"]

#: The environment variable of `delay`, its default and its largest value, in seconds (a
#: timer's wait of 1e300 seconds overflows).
DELAY_VARIABLE, DEFAULT_DELAY, MAX_DELAY = "BACCARAT_PROGRESS_DELAY", 2.0, 10**6

T = TypeVar("T")
_STATE = {"on": False}
#: The words starting each line of a `Tally` while lines are on (`lines`); "" when off.
_LINES = {"prefix": ""}


def delay() -> float:
    """Seconds before a bar appears (work that ends sooner shows nothing): the environment's
    BACCARAT_PROGRESS_DELAY, else 2; an AnalyzerError naming it and its value when it is not a
    number of seconds from 0 to MAX_DELAY."""
    text = os.environ.get(DELAY_VARIABLE, "").strip()
    if not text:
        return DEFAULT_DELAY
    try:
        seconds = float(text) if text.isascii() and "_" not in text else math.nan
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MAX_DELAY:  # nan compares false
        raise AnalyzerError(
            f"{DELAY_VARIABLE} {quoted(text)}: use a number of seconds from 0 to {MAX_DELAY:,} "
            f"(default {DEFAULT_DELAY:g})"
        )
    return seconds


def enable(on: bool) -> None:
    """Turn the bars on or off for this process."""
    _STATE["on"] = on


def enabled() -> bool:
    """Whether bars are shown."""
    return _STATE["on"]


@contextmanager
def lines(prefix: str) -> Iterator[None]:
    """While the block runs, no bars, and each finished item of a `Tally` said in one plain
    line on standard error starting with `prefix` (e.g. "baccarat report"); as before after."""
    saved, said = _STATE["on"], _LINES["prefix"]
    _STATE["on"], _LINES["prefix"] = False, prefix
    try:
        yield
    finally:
        _STATE["on"], _LINES["prefix"] = saved, said


class Tally:
    """Counts the finished items of a known number of them. While lines are on (`lines`),
    says each in one line on standard error: `PREFIX: NAME (I/TOTAL, S s)`, S the seconds of
    wall time since the tally's previous item (or since it started); silent otherwise."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.count = 0
        self._since = time.perf_counter()

    def done(self, name: str) -> None:
        """One more item finished: `name` (e.g. the file built)."""
        self.count += 1
        now = time.perf_counter()
        seconds, self._since = now - self._since, now
        prefix = _LINES["prefix"]
        if prefix:
            with contextlib.suppress(OSError, ValueError, AttributeError):  # a closed stream: no line
                print(
                    f"{prefix}: {name} ({self.count}/{self.total}, {seconds:.1f} s)",
                    file=sys.stderr,
                    flush=True,
                )


class Bar:
    """A bar that shows nothing (the bars are off, or tqdm is missing)."""

    def update(self, n: int = 1) -> None:
        """Advance by `n` steps."""

    def describe(self, what: str) -> None:
        """Say what is being done now."""

    def close(self) -> None:
        """Remove the bar."""


class _Shown(Bar):
    def __init__(self, shown: Any) -> None:
        self._shown = shown

    def update(self, n: int = 1) -> None:
        self._shown.update(n)

    def describe(self, what: str) -> None:
        shown = self._shown
        shown.set_description_str(what, refresh=time.time() - shown.start_t >= shown.delay)

    def close(self) -> None:
        self._shown.close()


def bar(total: int, what: str, unit: str = "step") -> Bar:
    """A bar of `total` steps described by `what` (removed when closed)."""
    if not _STATE["on"]:
        return Bar()
    try:
        from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]
    except ImportError:  # the bar is a convenience
        return Bar()
    return _Shown(tqdm(total=total, desc=what, unit=unit, leave=False, dynamic_ncols=True, delay=delay()))


def steps(items: Iterable[T], what: str, total: int | None = None, name: Any = None) -> Iterator[T]:
    """`items`, advancing a bar by one for each; with `name` (a function of the item), the
    bar says `what: name(item)` while each item is worked on."""
    listed = list(items) if total is None else items
    count = len(listed) if total is None else total  # type: ignore[arg-type]
    shown = bar(count, what)
    try:
        for item in listed:
            if name is not None:
                shown.describe(f"{what}: {name(item)}")
            yield item
            shown.update()
    finally:
        shown.close()


@contextmanager
def working(what: str) -> Iterator[None]:
    """A bar saying `what` and the time elapsed while the block runs (for one long step)."""
    if not _STATE["on"]:
        yield
        return
    try:
        from tqdm import tqdm
    except ImportError:
        yield
        return
    wait = delay()
    shown = tqdm(desc=what, leave=False, delay=10**9, bar_format="{desc} ({elapsed})")
    stop = threading.Event()

    def tick() -> None:
        if hasattr(signal, "pthread_sigmask"):  # Ctrl-C, SIGTERM and SIGHUP go to the main thread
            signal.pthread_sigmask(signal.SIG_BLOCK, ENDING)
        if stop.wait(wait):
            return
        shown.delay = 0  # shown once the delay has passed (and so cleared when closed)
        shown.refresh()
        while not stop.wait(0.5):
            shown.refresh()

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        shown.close()
