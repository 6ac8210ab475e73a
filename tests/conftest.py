"""Fixtures shared by several test files."""

from __future__ import annotations

import signal

import pytest

from analyzer.counting.executors import open_executor
from analyzer.present.reports import build_reports

# The Ctrl-C tests interrupt commands as a terminal does. A suite started in the background by
# a shell without job control inherits SIGINT ignored, and so would every command it starts
# (an ignored signal stays ignored across exec): the commands are started as from a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that take `report_texts` run on one pytest-xdist worker (`--dist loadgroup`),
    which builds the reports once, not once a worker."""
    for item in items:
        if "report_texts" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("report_texts"))


@pytest.fixture(scope="session")
def report_texts() -> dict[str, str]:
    """Every report's text, built once per test session as `baccarat report` builds it."""
    with open_executor("local", 2) as pool:
        return build_reports(executor=pool)
