"""Drawing rules (the tableau) as validated data, with a registry of built-ins and TOML files.

A tableau says, for two-card totals that are not naturals, when Punto draws a third card
and when Banco does: on its own total alone if Punto stood, or on its total and the point
value of Punto's third card if Punto drew.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.parsing import check_keys, plain_text, read_toml
from analyzer.core.renames import Renamed

__all__ = [
    "ALIASES",
    "BANCO_4_DRAWS_ON_0_1",
    "RULES",
    "SEED004",
    "STANDARD",
    "Rules",
    "get_rules",
    "rules_from_mapping",
]

_TOTALS = range(10)


def _total_set(values: Iterable[int], what: str) -> frozenset[int]:
    result = set()
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value not in _TOTALS:
            raise AnalyzerError(f"{what}: {quoted(value)} is not a point total; use integers 0-9")
        result.add(value)
    return frozenset(result)


@dataclass(frozen=True, repr=False)
class Rules:
    """A drawing tableau.

    - `natural`: a two-card total >= this on either hand ends the coup (8 in every casino).
    - `player_draws`: the Player's (Punto's) two-card totals on which it draws.
    - `banker_draws_player_stood`: the Banker's (Banco's) totals on which it draws when the
      Player stood.
    - `banker_draws`: for Banker totals 0..9, the values of the Player's third card on which
      the Banker draws (the Player drew).

    The old names (`punto_draws`, `banco_draws_punto_stood`, `banco_draws`,
    `punto_draws_on`, `banco_draws_on`, `with_punto`) read as before, with a
    DeprecationWarning; a table or rules file keeps its keys (`punto_draws`, ...).

    The repr is the name alone, short in signatures and results (equality still compares
    every field but the description):

    >>> from analyzer import STANDARD
    >>> STANDARD, STANDARD.with_player(5, False) == STANDARD
    (Rules('standard'), False)
    """

    name: str
    natural: int
    player_draws: frozenset[int]
    banker_draws_player_stood: frozenset[int]
    banker_draws: tuple[frozenset[int], ...]
    description: str = field(default="", compare=False)

    punto_draws = Renamed("player_draws")
    banco_draws_punto_stood = Renamed("banker_draws_player_stood")
    banco_draws = Renamed("banker_draws")
    punto_draws_on = Renamed("player_draws_on")
    banco_draws_on = Renamed("banker_draws_on")
    with_punto = Renamed("with_player")

    def __post_init__(self) -> None:
        if isinstance(self.natural, bool) or not isinstance(self.natural, int) or not 1 <= self.natural <= 10:
            raise AnalyzerError(f"natural {quoted(self.natural)}: use an integer 1-10 (10 means no naturals)")
        object.__setattr__(self, "player_draws", _total_set(self.player_draws, "punto_draws"))
        object.__setattr__(
            self,
            "banker_draws_player_stood",
            _total_set(self.banker_draws_player_stood, "banco_draws_when_punto_stands"),
        )
        if len(self.banker_draws) != 10:
            raise AnalyzerError(f"banco_draws has {len(self.banker_draws)} rows: give one per total 0-9")
        object.__setattr__(
            self,
            "banker_draws",
            tuple(_total_set(row, f"banco_draws.{t}") for t, row in enumerate(self.banker_draws)),
        )

    def __repr__(self) -> str:
        return f"Rules({self.name!r})"

    def is_natural(self, total: int) -> bool:
        """True when a two-card `total` is a natural."""
        return total >= self.natural

    def player_draws_on(self, total: int) -> bool:
        """Whether the Player draws on the two-card `total`."""
        return total in self.player_draws

    def banker_draws_on(self, total: int, player_third: int | None) -> bool:
        """Whether the Banker draws on `total`; `player_third` is None when the Player stood."""
        if player_third is None:
            return total in self.banker_draws_player_stood
        return player_third in self.banker_draws[total]

    def with_player(self, total: int, draws: bool) -> Rules:
        """These rules with the Player drawing (or standing) on `total`."""
        draws_on = self.player_draws | {total} if draws else self.player_draws - {total}
        action = "draws" if draws else "stands"
        return replace(self, name=f"{self.name}, punto {action} on {total}", player_draws=draws_on)

    def differences(self, other: Rules) -> list[str]:
        """Human-readable list of where `other` departs from these rules."""
        notes = []
        if self.natural != other.natural:
            notes.append(f"natural threshold {self.natural} -> {other.natural}")
        for t in _TOTALS:
            if (t in self.player_draws) != (t in other.player_draws):
                notes.append(f"Punto {'stands' if t in self.player_draws else 'draws'} on {t}")
            if (t in self.banker_draws_player_stood) != (t in other.banker_draws_player_stood):
                verb = "stands" if t in self.banker_draws_player_stood else "draws"
                notes.append(f"Banco {verb} on {t} when Punto stood")
            for v in _TOTALS:
                if (v in self.banker_draws[t]) != (v in other.banker_draws[t]):
                    verb = "stands" if v in self.banker_draws[t] else "draws"
                    notes.append(f"Banco {verb} on {t} against a third card of {v}")
        return notes

    def to_mapping(self) -> dict[str, Any]:
        """The TOML-shaped mapping that `rules_from_mapping` reads back."""
        return {
            "name": self.name,
            "natural": self.natural,
            "punto_draws": sorted(self.player_draws),
            "banco_draws_when_punto_stands": sorted(self.banker_draws_player_stood),
            "banco_draws": {str(t): sorted(row) for t, row in enumerate(self.banker_draws)},
        }


ALL = frozenset(_TOTALS)

STANDARD = Rules(
    name="standard",
    natural=8,
    player_draws=frozenset(range(6)),
    banker_draws_player_stood=frozenset(range(6)),
    banker_draws=(
        ALL,
        ALL,
        ALL,  # 0-2: always draws
        ALL - {8},  # 3: draws unless Punto's third card is 8
        frozenset(range(2, 8)),  # 4: against 2-7
        frozenset(range(4, 8)),  # 5: against 4-7
        frozenset({6, 7}),  # 6: against 6-7
        frozenset(),
        frozenset(),
        frozenset(),  # 7 stands; 8-9 are naturals
    ),
    description="The punto banco tableau of every casino source (Wikipedia, a gambling dictionary).",
)

BANCO_4_DRAWS_ON_0_1 = replace(
    STANDARD,
    name="banco-4-draws-on-0-1",
    banker_draws=(*STANDARD.banker_draws[:4], frozenset(range(8)), *STANDARD.banker_draws[5:]),
    description=(
        "A Russian-language beginner's guide's grid: Banco 4 also draws against a third card of 0 or 1."
    ),
)

#: The old name of BANCO_4_DRAWS_ON_0_1, kept for code that imports it.
SEED004 = BANCO_4_DRAWS_ON_0_1

#: Built-in tableaux by name.
RULES: dict[str, Rules] = {rules.name: rules for rules in (STANDARD, BANCO_4_DRAWS_ON_0_1)}
#: Old names still accepted, no longer listed: alias -> name in RULES.
ALIASES: dict[str, str] = {"seed004": BANCO_4_DRAWS_ON_0_1.name}

_KEYS = {
    "name",
    "base",
    "description",
    "natural",
    "punto_draws",
    "banco_draws_when_punto_stands",
    "banco_draws",
}


def rules_from_mapping(data: Mapping[str, Any], source: str = "rules") -> Rules:
    """Rules from a TOML-shaped mapping; `base` names a built-in to start from (default standard).

    Keys: name, base, description, natural, punto_draws, banco_draws_when_punto_stands,
    and a [banco_draws] table from Banco totals ("0".."9") to lists of Punto's third-card
    values. Banco totals left out of [banco_draws] keep the base's row.
    """
    check_keys(data, _KEYS, source)
    base_name = data.get("base", "standard")
    base_name = ALIASES.get(base_name, base_name) if isinstance(base_name, str) else base_name
    if not isinstance(base_name, str) or base_name not in RULES:
        raise AnalyzerError(
            f"{source}: base {quoted(base_name)} is not a built-in; use one of {', '.join(RULES)}"
        )
    base = RULES[base_name]
    rows = list(base.banker_draws)
    matrix = data.get("banco_draws", {})
    if not isinstance(matrix, Mapping):
        raise AnalyzerError(f"{source}: banco_draws must be a table from Banco totals 0-9 to lists")
    for key, row in matrix.items():
        if str(key) not in {str(t) for t in _TOTALS}:
            raise AnalyzerError(f"{source}: banco_draws key {quoted(key)} is not a Banco total 0-9")
        rows[int(key)] = _as_list(row, f"{source}: banco_draws.{key}")
    try:
        return _build(data, base, rows, source)
    except AnalyzerError as error:
        message = error.template
        raise AnalyzerError(message if message.startswith(source) else f"{source}: {message}") from None


def _build(data: Mapping[str, Any], base: Rules, rows: list[frozenset[int]], source: str) -> Rules:
    from pathlib import Path  # a rules file's: a cold `baccarat odds` loads no pathlib

    return Rules(
        name=_as_str(data.get("name", Path(source).stem), f"{source}: name"),
        natural=data.get("natural", base.natural),
        player_draws=_as_list(data.get("punto_draws", base.player_draws), f"{source}: punto_draws"),
        banker_draws_player_stood=_as_list(
            data.get("banco_draws_when_punto_stands", base.banker_draws_player_stood),
            f"{source}: banco_draws_when_punto_stands",
        ),
        banker_draws=tuple(rows),
        description=_as_str(data.get("description", f"loaded from {source}"), f"{source}: description"),
    )


def _as_list(value: Any, what: str) -> frozenset[int]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise AnalyzerError(f"{what}: {quoted(value)} is not a list of point totals 0-9")
    return _total_set(value, what)


def _as_str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise AnalyzerError(f"{what}: {quoted(value)} is not a string")
    return plain_text(value, what)


def get_rules(spec: str | Rules) -> Rules:
    """A built-in tableau by name, or one loaded from a TOML file path.

    >>> from analyzer import get_rules
    >>> standard = get_rules("standard")
    >>> sorted(standard.banker_draws[4])  # Banco 4 draws against a third card of 2-7
    [2, 3, 4, 5, 6, 7]
    >>> standard.differences(get_rules("banco-4-draws-on-0-1"))
    ['Banco draws on 4 against a third card of 0', 'Banco draws on 4 against a third card of 1']
    """
    if isinstance(spec, Rules):
        return spec
    spec = ALIASES.get(spec, spec)
    if spec in RULES:
        return RULES[spec]
    return rules_from_mapping(read_toml(spec, "rules", RULES), source=str(spec))
