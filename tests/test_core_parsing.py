"""The parsers every module shares (analyzer.core.parsing), apart from the error type and its
quoting (analyzer.core.errors)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.core import errors, parsing
from analyzer.core.errors import AnalyzerError


def test_errors_holds_the_error_its_quoting_and_its_mentions_only() -> None:
    words = ["library_words", "mention", "quoted", "word_mentions"]
    assert errors.__all__ == ["QUOTE_LIMIT", "AnalyzerError", *words]
    parsers = {"check_keys", "list_items", "read_fraction", "read_int", "read_text", "read_toml"}
    assert parsers <= set(parsing.__all__) and not parsers & set(dir(errors))


def test_the_parsers_read_exact_values_and_refuse_in_one_line() -> None:
    assert parsing.read_fraction(" 19/20 ", "a payout") == Fraction(19, 20)
    assert parsing.read_fraction("1.5e2", "a payout") == 150
    assert parsing.read_fraction("1/0", "a payout") is None
    assert parsing.read_int("-7", "a count", 10) == -7 and parsing.read_int("٣", "a count", 10) is None
    with pytest.raises(AnalyzerError, match=r"^a count '11' is too large: use at most 10$"):
        parsing.read_int("11", "a count", 10)
    assert parsing.list_items(" a, b ", "--bets") == ["a", "b"]
    with pytest.raises(AnalyzerError, match=r"^--bets 'a,': give a comma-separated list"):
        parsing.list_items("a,", "--bets", "tie,banker")


def test_the_digest_is_of_the_bytes_read_and_parsed(tmp_path: Path) -> None:
    """read_digest: the SHA-256 of the very bytes read (a byte-order mark and CRLF newlines
    included), kept when the file changes after; None for a path never read."""
    import hashlib

    from analyzer.core.parsing import read_digest, read_text

    path = tmp_path / "house.toml"
    data = b'\xef\xbb\xbfoffer = ["tie"]\r\n'
    path.write_bytes(data)
    assert read_text(str(path), "table") == 'offer = ["tie"]\n'
    assert read_digest(str(path)) == hashlib.sha256(data).hexdigest()
    path.write_bytes(b'offer = ["dragon7"]\n')  # changed after the read: the digest stays the read's
    assert read_digest(str(path)) == hashlib.sha256(data).hexdigest()
    assert read_digest(str(tmp_path / "never.toml")) is None


def test_a_bulk_load_runs_without_the_collector_and_leaves_it_as_found() -> None:
    """`bulk_loaded` pauses the cyclic collector for the build only (its result returned,
    an error passed on) and leaves it as it was, also when it was off already."""
    import gc

    seen: list[bool] = []

    def build() -> str:
        seen.append(gc.isenabled())
        return "built"

    def fail() -> None:
        seen.append(gc.isenabled())
        raise ValueError("damaged")

    assert gc.isenabled()
    assert parsing.bulk_loaded(build) == "built" and gc.isenabled()
    with pytest.raises(ValueError, match="damaged"):
        parsing.bulk_loaded(fail)
    assert gc.isenabled()
    gc.disable()
    try:
        assert parsing.bulk_loaded(build) == "built" and not gc.isenabled()
    finally:
        gc.enable()
    assert seen == [False, False, False]
