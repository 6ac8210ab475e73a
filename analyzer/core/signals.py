"""The signals that end a command, named once for every layer that holds or handles them."""

from __future__ import annotations

import signal

__all__ = ["ENDING", "TERMINATING"]

#: SIGTERM and SIGHUP where the platform has them: they end a command as Ctrl-C does
#: (exit code 128 + the signal's number).
TERMINATING: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
#: Every signal that ends a command: Ctrl-C (SIGINT) and `TERMINATING`.
ENDING: frozenset[signal.Signals] = frozenset({signal.SIGINT, *TERMINATING})
