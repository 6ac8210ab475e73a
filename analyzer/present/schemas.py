"""The JSON Schemas (draft 2020-12) of every command's JSON output and of the files the
package reads (table, rules and systems files, TOML read as JSON would be), shipped as
package data in `analyzer/schemas/` (`SCHEMAS`: what each describes, by name; `schema`:
one, parsed; `schema_path`: its file).

A schema pins the contract: the keys every document has (`required`), their types, and
exact values as "p/q" text; it allows keys it does not name, since outputs may gain keys.
`validate` checks a document with jsonschema (the test extra) when it is installed.

>>> sorted(schema("odds")["required"])[:3]
['banker', 'player', 'rules']
>>> SCHEMAS["rules-file"]
'a rules file (TOML): a drawing tableau'
"""

from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from analyzer.core.errors import AnalyzerError, quoted

__all__ = ["COMMAND_SCHEMAS", "SCHEMAS", "schema", "schema_path", "validate"]

#: Each command's schema of its JSON (par-sheet's --out DIR writes two more: its index and
#: what it prints).
COMMAND_SCHEMAS = {
    "odds": "odds", "punto-table": "punto-table", "rules": "rules", "edges": "edges",
    "compare": "compare", "eor": "eor", "count": "count", "solve": "solve", "closed-form": "closed-form",
    "design": "design", "known": "known", "par-sheet": "par-sheet", "track": "track", "list": "list",
    "cache": "cache",
}  # fmt: skip

#: Every schema shipped, by name (its file: NAME.schema.json), and what it describes.
SCHEMAS = {
    **{name: f"the JSON of `baccarat {command} --format json`" for command, name in COMMAND_SCHEMAS.items()},
    "par-sheet-index": "the index.json of `baccarat par-sheet --format json --out DIR`",
    "par-sheet-written": "what `baccarat par-sheet --format json --out DIR` prints",
    "table-file": "a table file (TOML): a casino's tableau and the bets it offers",
    "rules-file": "a rules file (TOML): a drawing tableau",
    "systems-file": "a counting systems file (TOML)",
}


def schema_path(name: str) -> Traversable:
    """The shipped file of the schema `name` (one of `SCHEMAS`)."""
    if name not in SCHEMAS:
        raise AnalyzerError(f"schema {quoted(name)}: use one of {', '.join(SCHEMAS)}", argument="name")
    return resources.files("analyzer").joinpath("schemas", f"{name}.schema.json")


def schema(name: str) -> dict[str, Any]:
    """The schema `name` (one of `SCHEMAS`), parsed."""
    data: dict[str, Any] = json.loads(schema_path(name).read_text(encoding="utf-8"))
    return data


def validate(document: Any, name: str) -> None:
    """Check `document` against the schema `name`: jsonschema's ValidationError if it does
    not conform; an AnalyzerError if jsonschema is not installed."""
    try:
        import jsonschema
    except ImportError:
        raise AnalyzerError("validating needs jsonschema: pip install jsonschema") from None
    jsonschema.validate(document, schema(name), cls=jsonschema.Draft202012Validator)
