"""Every renderer of the commands' results under one name, as the CLI's ``from
analyzer.present import render as fmt`` reads them. Each is defined in the module of its
subject; this module only re-exports them:

- `analyzer.present.text`: output formats, exact numbers as text, tables, headings, JSON;
- `analyzer.present.odds`: outcome probabilities, the table after Punto's two cards;
- `analyzer.present.rules`: the drawing tableau;
- `analyzer.present.edges`: house edges and paytables;
- `analyzer.present.compare`: payout rules and tableaux compared;
- `analyzer.present.effects`: effects of removal and the best linear counts;
- `analyzer.present.counting`: counting systems and advantage-play figures;
- `analyzer.present.closed_form`: closed forms in the number of decks;
- `analyzer.present.design`: designed paytables;
- `analyzer.present.metadata`: the shoe as JSON, the built-in names of `baccarat list`;
- `analyzer.present.track`: a recorded shoe replayed coup by coup.

The games' results are rendered by `analyzer.present.games`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analyzer.present.closed_form import render_closed_forms
from analyzer.present.compare import render_compare
from analyzer.present.counting import (
    ADVANTAGE_HEADERS,
    COUNT_HEADERS,
    advantage_json,
    advantage_rows,
    count_json,
    count_rows,
    render_count,
    tags_text,
)
from analyzer.present.edges import EDGE_HEADERS, bet_json, bet_table, edges_rows, render_edges
from analyzer.present.effects import (
    DERIVED_HEADERS,
    derived_rows,
    render_card_eor,
    render_eor,
    render_removal_effects,
)
from analyzer.present.metadata import render_list, shoe_json
from analyzer.present.odds import render_odds, render_player_table
from analyzer.present.rules import render_rules
from analyzer.present.text import (
    DOCUMENT_FORMATS,
    FORMATS,
    WIDTH,
    OutputFormat,
    check_format,
    decimal,
    dumps,
    exact,
    percent,
    table,
    wrap_prose,
    written_list,
)
from analyzer.present.track import (
    render_coup,
    render_taken_back,
    render_track,
    render_track_summary,
    track_json,
    track_line,
)

if TYPE_CHECKING:
    from analyzer.present.design import design_comment, render_design, shoes_json, written_paytable

#: Loaded on first use, so a command that designs nothing never imports the design modules.
_LAZY = {"design_comment", "render_design", "shoes_json", "written_paytable"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from analyzer.present import design

        return getattr(design, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ADVANTAGE_HEADERS",
    "COUNT_HEADERS",
    "DERIVED_HEADERS",
    "DOCUMENT_FORMATS",
    "EDGE_HEADERS",
    "FORMATS",
    "WIDTH",
    "OutputFormat",
    "advantage_json",
    "advantage_rows",
    "bet_json",
    "bet_table",
    "check_format",
    "count_json",
    "count_rows",
    "decimal",
    "derived_rows",
    "design_comment",
    "dumps",
    "edges_rows",
    "exact",
    "percent",
    "render_card_eor",
    "render_closed_forms",
    "render_compare",
    "render_count",
    "render_coup",
    "render_design",
    "render_edges",
    "render_eor",
    "render_list",
    "render_odds",
    "render_player_table",
    "render_removal_effects",
    "render_rules",
    "render_taken_back",
    "render_track",
    "render_track_summary",
    "shoe_json",
    "shoes_json",
    "table",
    "tags_text",
    "track_json",
    "track_line",
    "wrap_prose",
    "written_list",
    "written_paytable",
]
