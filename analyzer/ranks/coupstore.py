"""Compiled coup classes on disk, and their evaluation in plain Python integers.

Compiling a tableau into coup classes (`analyzer.ranks.enumeration.compile_rules`) needs numpy and
networkx and takes tens of milliseconds; evaluating the classes on a shoe takes a few. So
the classes are stored: files shipped in the package for the built-in tableaux (built by
`scripts/build_coups.py`, checked by a test to equal a fresh compile), and a cache in the
user's cache folder (`analyzer.ranks.diskcache`) for any other tableau, keyed by the
tableau's content (natural and drawing sets; names and descriptions play no part) and the
version of the code that compiles it. A stored file holds its full key and is used only
when the key matches, and a cached one only when its checksum does too, so a damaged,
edited or foreign file is recompiled, never trusted.

`StoredClasses` evaluates the classes with the standard library only (ints, `array`,
`map`), which is what keeps a cold `baccarat odds` cheap: exact Python integers at any
shoe size, one monomial value per basis element, then sums.
"""

from __future__ import annotations

import os
import sys
import zlib
from array import array
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate
from operator import mul, sub
from typing import TYPE_CHECKING

from analyzer.core.rules import Rules

if TYPE_CHECKING:
    from pathlib import Path

    from analyzer.core.outcome import Outcome
    from analyzer.ranks.compiler import CoupClasses

__all__ = [
    "FORMAT",
    "StoredClasses",
    "cache_key",
    "decode_file",
    "encode",
    "rules_key",
    "shipped_path",
    "shipped_rules",
    "split_header",
    "stored_classes",
]

#: Version of the stored layout; part of every key, so a new layout never reads an old file.
FORMAT = 1
#: The folder of the shipped files, a str (pathlib, about 8 ms, is not loaded by a cold command).
_SHIPPED = os.path.join(os.path.dirname(__file__), "coups")
_LITTLE = sys.byteorder == "little"

# Arrays of a stored file, in two sections: what `odds` needs (the monomials and three
# folded coefficient rows), then the per-outcome entries, decompressed on first use.
# Each: name, array typecode, size field of the header, items per unit of that size.
_HEAD = (
    ("a_parts", "B", "a_parts", 6),  # distinct (z, m0..m4)
    ("b_parts", "B", "b_parts", 6),  # distinct (m5..m9, k)
    ("part_a", "H", "basis", 1),  # each monomial's a-part and b-part
    ("part_b", "H", "basis", 1),
    ("winner_coef", "i", "basis", 3),  # coefficient rows of Banker, Player and tie wins
)
_BODY = (
    ("columns", "B", "outcomes", 9),  # the 9 Outcome fields, one column after another
    ("basis", "B", "basis", 11),  # z, m0..m9 of each monomial
    ("entry_outcome", "H", "entries", 1),
    ("outcome_ends", "I", "outcomes", 1),  # where each outcome's run of entries ends
    ("entry_basis", "H", "entries", 1),
    ("entry_coef", "b", "entries", 1),
)
_SIZES = ("a_parts", "b_parts", "basis", "entries", "outcomes")
Arrays = dict[str, "array[int]"]


@lru_cache(maxsize=64)
def rules_key(rules: Rules) -> str:
    """The content of a tableau as a canonical string (stored-layout version included);
    kept per tableau (each built-in bet's key starts with it: about 30 µs a time)."""
    draws = ".".join("".join(map(str, sorted(row))) for row in rules.banker_draws)
    stood = "".join(map(str, sorted(rules.banker_draws_player_stood)))
    player = "".join(map(str, sorted(rules.player_draws)))
    return f"v{FORMAT}-n{rules.natural}-p{player}-s{stood}-b{draws}"


def _file_name(key: str) -> str:
    return f"coups-{zlib.crc32(key.encode()):08x}.bin"


def cache_key(rules: Rules) -> str:
    """The key of the cached classes of `rules`: the tableau's content and the version of
    the code that compiles and encodes them (the core and rank-level layers)."""
    import hashlib

    from analyzer.ranks.diskcache import code_version

    content = repr((rules_key(rules), code_version("core", "ranks")))
    return hashlib.sha256(content.encode()).hexdigest()


class StoredClasses:
    """The coup classes of one tableau as flat arrays, evaluated with Python integers."""

    def __init__(self, rules: Rules, head: Arrays, body: bytes, sizes: dict[str, int]) -> None:
        self.rules = rules
        self.size = sizes["outcomes"]
        self._head = head
        self._packed_body: bytes | None = body
        self._sizes = sizes
        self._body: Arrays | None = None
        self.ends: list[int] = []  # filled with the per-outcome section
        self.a_parts = list(zip(*[iter(head["a_parts"])] * 6, strict=True))
        self.b_parts = list(zip(*[iter(head["b_parts"])] * 6, strict=True))
        basis = sizes["basis"]
        winner = head["winner_coef"]
        self.winner_rows = [winner[i * basis : (i + 1) * basis].tolist() for i in range(3)]

    @property
    def arrays(self) -> Arrays:
        """Every stored array by name (the per-outcome section is decompressed on first use)."""
        if self._body is None:
            body = _unpack_arrays(self._packed_body or b"", _BODY, self._sizes)
            if body is None:  # a damaged file: compile afresh rather than trust it
                from analyzer.ranks.compiler import compile_fresh

                fresh = _decode(encode(compile_fresh(self.rules)), self.rules)
                assert fresh is not None
                body = fresh.arrays
            self._body, self._packed_body = body, None
            self.ends = body["outcome_ends"].tolist()
        return {**self._head, **self._body}

    # -- decoding ----------------------------------------------------------------------

    def column(self, index: int) -> bytes:
        """Column `index` of the outcome fields (Outcome's field order), one byte per outcome."""
        return self.arrays["columns"][index * self.size : (index + 1) * self.size].tobytes()

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """The distinct outcomes, in stored order."""
        return _outcomes(self)

    # -- evaluation --------------------------------------------------------------------

    def monomial_values(self, ff: Sequence[Sequence[int]], zero: Sequence[Sequence[int]],
                        tail: Sequence[int]) -> list[int]:  # fmt: skip
        """Each basis monomial's exact value from the falling-factorial tables of a shoe."""
        f1, f2, f3, f4, f5, f6, f7, f8, f9 = ff[1:10]
        va = [zero[z][m0] * f1[m1] * f2[m2] * f3[m3] * f4[m4] for z, m0, m1, m2, m3, m4 in self.a_parts]
        vb = [f5[m5] * f6[m6] * f7[m7] * f8[m8] * f9[m9] * tail[k] for m5, m6, m7, m8, m9, k in self.b_parts]
        head = self._head
        return list(map(mul, map(va.__getitem__, head["part_a"]), map(vb.__getitem__, head["part_b"])))

    def outcome_weights(self, values: Sequence[int]) -> list[int]:
        """Each outcome's weight: its coefficients times the monomial values, summed."""
        arrays = self.arrays
        terms = map(mul, arrays["entry_coef"], map(values.__getitem__, arrays["entry_basis"]))
        running = [0, *accumulate(terms)]
        ends = self.ends
        return list(map(sub, map(running.__getitem__, ends), map(running.__getitem__, [0, *ends[:-1]])))

    def winner_weights(self, values: Sequence[int]) -> tuple[int, int, int]:
        """Weights of a Banker win, a Player win and a tie."""
        banker, player, tie = (sum(map(mul, row, values)) for row in self.winner_rows)
        return banker, player, tie


@lru_cache(maxsize=64)
def _outcomes(stored: StoredClasses) -> tuple[Outcome, ...]:
    from analyzer.core.outcome import Outcome

    ints = [stored.column(i) for i in range(6)]
    flags = [list(map(bool, stored.column(i))) for i in range(6, 9)]
    return tuple(map(Outcome, *ints, *flags))


def encode(classes: CoupClasses) -> bytes:
    """The stored file of compiled `classes` (needs numpy)."""
    import numpy as np

    from analyzer.core.outcome import Winner

    outcomes = np.array([tuple(o) for o in classes.outcomes], dtype=np.int64).reshape(-1, 9)
    basis = np.column_stack([classes.basis_zero_kind, classes.basis])
    cards = classes.basis_cards
    a_parts, part_a = np.unique(np.column_stack([basis[:, :6]]), axis=0, return_inverse=True)
    b_parts, part_b = np.unique(np.column_stack([basis[:, 6:], cards]), axis=0, return_inverse=True)
    winners = np.array([[Winner.BANKER, Winner.PLAYER, Winner.TIE].index(o.winner) for o in classes.outcomes])
    winner_coef = np.zeros((3, len(basis)), dtype=np.int64)
    np.add.at(winner_coef, (winners[classes.entry_outcome], classes.entry_basis), classes.entry_coef)
    values = {
        "outcome_ends": np.flatnonzero(np.diff(classes.entry_outcome, append=len(outcomes))) + 1,
        "columns": outcomes.T,
        "basis": basis,
        "entry_outcome": classes.entry_outcome,
        "entry_basis": classes.entry_basis,
        "entry_coef": classes.entry_coef,
        "a_parts": a_parts,
        "b_parts": b_parts,
        "part_a": part_a.ravel(),
        "part_b": part_b.ravel(),
        "winner_coef": winner_coef,
    }
    sizes = {
        "outcomes": len(outcomes),
        "basis": len(basis),
        "entries": len(classes.entry_coef),
        "a_parts": len(a_parts),
        "b_parts": len(b_parts),
    }
    sections = []
    for layout in (_HEAD, _BODY):
        chunks = []
        for name, code, length, times in layout:
            flat = np.ascontiguousarray(values[name]).ravel()
            if len(flat) != sizes[length] * times:
                raise ValueError(f"stored classes: {name} has {len(flat)} items, not {sizes[length] * times}")
            packed = array(code, flat.tolist())  # raises OverflowError if a value does not fit
            if not _LITTLE:
                packed.byteswap()
            chunks.append(packed.tobytes())
        sections.append(zlib.compress(b"".join(chunks), 9))
    sizes["head"] = len(sections[0])
    header = " ".join([rules_key(classes.rules), *(f"{k}={v}" for k, v in sorted(sizes.items()))])
    return header.encode() + b"\n" + b"".join(sections)


def _unpack_arrays(packed: bytes, layout: tuple[tuple[str, str, str, int], ...],
                   sizes: dict[str, int]) -> Arrays | None:  # fmt: skip
    """The arrays of one compressed section, or None if it is damaged."""
    try:
        raw = zlib.decompress(packed)
    except zlib.error:
        return None
    arrays = {}
    offset = 0
    for name, code, length, times in layout:
        values = array(code)
        size = sizes[length] * times * values.itemsize
        values.frombytes(raw[offset : offset + size])
        if not _LITTLE:
            values.byteswap()
        arrays[name] = values
        offset += size
    return arrays if offset == len(raw) else None


def split_header(data: bytes, key: str) -> tuple[dict[str, int], int] | None:
    """A shipped file's header line `KEY name=int ...`: its sizes and where the rest starts,
    or None if the file is for another key. Raises ValueError (or UnicodeDecodeError) if
    the header is malformed."""
    newline = data.index(b"\n")
    found, *fields = data[:newline].decode().split(" ")
    if found != key:
        return None
    return {name: int(value) for name, value in (f.split("=") for f in fields)}, newline + 1


def _decode(data: bytes, rules: Rules) -> StoredClasses | None:
    """Stored classes from a file's bytes, or None if the file is not for `rules` or is damaged."""
    try:
        header = split_header(data, rules_key(rules))
        if header is None:
            return None
        sizes, start = header
        head = _unpack_arrays(data[start : start + sizes["head"]], _HEAD, sizes)
        if head is None or set(sizes) != {*_SIZES, "head"}:
            return None
        return StoredClasses(rules, head, data[start + sizes["head"] :], sizes)
    except (ValueError, KeyError, UnicodeDecodeError):
        return None


def decode_file(path: Path, rules: Rules) -> StoredClasses | None:
    """The stored classes of `rules` in the file at `path`, or None (missing, damaged, foreign)."""
    return _read(path, rules)


def _read(path: str | Path, rules: Rules) -> StoredClasses | None:
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        return None
    return _decode(data, rules)


def shipped_rules() -> list[Rules]:
    """The tableaux whose classes ship with the package: the built-ins, each also with Punto
    drawing and standing on 5 (the two rows of the table after Punto's two cards)."""
    from analyzer.core.rules import RULES

    chosen: dict[str, Rules] = {}
    for rules in RULES.values():
        for variant in (rules, rules.with_player(5, True), rules.with_player(5, False)):
            chosen.setdefault(rules_key(variant), variant)
    return list(chosen.values())


def shipped_path(rules: Rules) -> Path:
    """Where the shipped file of `rules` lives (whether or not it exists)."""
    from pathlib import Path

    return Path(_SHIPPED, _file_name(rules_key(rules)))


@lru_cache(maxsize=64)
def _stored(key: str, rules: Rules) -> StoredClasses:
    found = _read(os.path.join(_SHIPPED, _file_name(key)), rules)
    if found is not None:
        return found
    from analyzer.ranks.diskcache import read_cache_file, write_cache_file  # a tableau not shipped

    cached = read_cache_file("coups", cache_key(rules))
    found = None if cached is None else _decode(cached, rules)
    if found is not None:
        return found
    from analyzer.ranks.compiler import compile_fresh

    data = encode(compile_fresh(rules))
    write_cache_file("coups", cache_key(rules), data)
    result = _decode(data, rules)
    assert result is not None
    return result


def stored_classes(rules: Rules) -> StoredClasses:
    """The compiled classes of `rules`: shipped, cached, or compiled now (and cached)."""
    key = rules_key(rules)
    return _stored(key, rules)
