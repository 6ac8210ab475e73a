"""Fixtures shared by several test files."""

from __future__ import annotations

import pytest

from analyzer.counting.executors import open_executor
from analyzer.present.reports import build_reports


@pytest.fixture(scope="session")
def report_texts() -> dict[str, str]:
    """Every report's text, built once per test session as `baccarat report` builds it."""
    with open_executor("local", 2) as pool:
        return build_reports(executor=pool)
