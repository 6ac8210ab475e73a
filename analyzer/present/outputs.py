"""Every command's result turned into data, then into a document: one registry by result type.

`OUTPUTS` gives each result type (the typed results of `analyzer.analyses.results`,
`analyzer.counting.results`, `analyzer.counting.tracking`, `analyzer.games`, the listing and
the disk cache's status), keyed by its qualified name, its JSON document (`to_data`, keys
exactly as they always were) and its text (table, Markdown, and the command's other formats);
each renderer module loads when a result it renders is first shown. The JSON of every command then carries one
envelope, added to the data before it is serialised once (`envelope`): `shown` (the cards
shown, if any), `shoe` (the shoe's display text), `shoe_spec` (the same shoe, structured),
`rules` (unless the data names them) and `version`. `render` is what a command prints.

A result with tables also gives its document (`Output.blocks`: Markdown-marked blocks of the
document model, typed values beside the tables' cells), which the spreadsheet writers write:
CSV text (`render(result, "csv")`) and an XLSX workbook (`render_file`, bytes).

>>> import json
>>> from analyzer import Shoe
>>> from analyzer.analyses.results import odds_result
>>> data = json.loads(render(odds_result(Shoe.decks(1)), "json"))
>>> data["banker"], data["shoe_spec"], data["rules"]
('10526926/22903335', {'decks': 1, 'cards': 52, 'label': '1 deck'}, 'standard')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from analyzer.core.errors import AnalyzerError, quoted
from analyzer.present.text import dumps, wrap_prose
from analyzer.version import __version__

if TYPE_CHECKING:  # the checker reads the renderers' own signatures; they load when used
    from datetime import datetime

    from analyzer.analyses.known import KnownResult
    from analyzer.analyses.results import ClosedFormResult, DesignResult, PlayerTableResult
    from analyzer.counting.results import CountResult, EorResult, ParResult
    from analyzer.counting.tracking import TrackResult
    from analyzer.games import SolveResult
    from analyzer.present import cache, compare, counting, edges, effects, metadata, odds, rules, track
    from analyzer.present.document import Block
else:

    class _Renderers:
        """A renderer module, imported when one of its functions is first used, so that a
        command loads the renderer of its own result only (a cold `baccarat odds` loads
        neither the counting, tracking nor cache renderers nor their result types)."""

        def __init__(self, name: str) -> None:
            self._name = name

        def __getattr__(self, attr: str) -> Any:
            return getattr(import_module(self._name), attr)

    cache, compare, counting, edges, effects, metadata, odds, rules, track = (
        _Renderers(f"analyzer.present.{name}")
        for name in ("cache", "compare", "counting", "edges", "effects", "metadata", "odds", "rules", "track")
    )

__all__ = [
    "BINARY_FORMATS",
    "OUTPUTS",
    "Output",
    "blocks",
    "envelope",
    "enveloped",
    "render",
    "render_file",
    "sheet_formats",
    "to_data",
]


@dataclass(frozen=True)
class Output:
    """How one result type is shown: its JSON document (`data`), its text in a format
    (`text`), its `shoe_spec` from the cards removed (default: its `shoe`'s, `shoe_json`);
    `inputs`: whether its JSON says what it was computed on (shoe, rules), else only the
    version; `wrap`: whether its table text wraps prose lines (`wrap_prose`); `blocks`: its
    document for the spreadsheet writers (Markdown-marked, typed values), if it has tables;
    `xlsx`: whether it is written as an XLSX workbook too."""

    data: Callable[[Any], dict[str, Any]]
    text: Callable[[Any, str], str]
    shoe_spec: Callable[[Any, Sequence[str]], dict[str, Any]] | None = None
    inputs: bool = True
    wrap: bool = True
    blocks: Callable[[Any], Sequence[Block]] | None = None
    xlsx: bool = False


def _player_table_title(result: PlayerTableResult) -> str:
    return f"Probabilities after Punto's two cards: {result.shoe}, {result.rules.name} rules"


def _player_table_text(result: PlayerTableResult, fmt: str) -> str:
    return odds.render_player_table(result.rows, fmt, title=_player_table_title(result))


def _eor_blocks(result: EorResult) -> list[Block]:
    from analyzer.present.effects_tables import removal_effects_blocks

    return removal_effects_blocks(result.effects, result.counts)


# The renderers of design, closed forms and par sheets (and the engines their modules name)
# load only when such a result is shown: a cold `baccarat odds` loads none of them.


def _design_data(result: DesignResult) -> dict[str, Any]:
    from analyzer.present.design import design_data

    return design_data(result.design)


def _design_text(result: DesignResult, fmt: str) -> str:
    from analyzer.present.design import render_design, written_paytable

    text = render_design(result.design, fmt)
    return text if result.written is None else f"{text}\n{written_paytable(result.pick, result.written)}\n"


def _design_blocks(result: DesignResult) -> list[Block]:
    from analyzer.present.design import design_blocks

    return design_blocks(result.design, "markdown")


def _closed_forms_blocks(result: ClosedFormResult) -> list[Block]:
    from analyzer.present.closed_form import closed_forms_blocks

    return closed_forms_blocks(result.forms, "markdown")


def _known_blocks(result: KnownResult) -> list[Block]:
    from analyzer.present.known import known_blocks

    return known_blocks(result, "markdown")


def _design_shoes(result: DesignResult, removed: Sequence[str]) -> dict[str, Any]:
    from analyzer.present.design import shoes_json

    return shoes_json(result.shoes)


def _closed_forms_data(result: ClosedFormResult) -> dict[str, Any]:
    from analyzer.present.closed_form import closed_forms_data

    return closed_forms_data(result.forms)


def _closed_forms_text(result: ClosedFormResult, fmt: str) -> str:
    from analyzer.present.closed_form import render_closed_forms

    return render_closed_forms(result.forms, fmt)


def _par_data(result: ParResult) -> dict[str, Any]:
    from analyzer.present.par_documents import par_sheets_data, provenance

    return par_sheets_data(result.sheets, provenance(result))


def _par_text(result: ParResult, fmt: str) -> str:
    from analyzer.present.par_documents import provenance, render_par_sheets

    return render_par_sheets(result.sheets, fmt, provenance(result))


def _known_data(result: KnownResult) -> dict[str, Any]:
    from analyzer.present.known import known_data

    return known_data(result)


def _known_text(result: KnownResult, fmt: str) -> str:
    from analyzer.present.known import render_known

    return render_known(result, fmt)


def _sorting(name: str) -> Callable[..., Any]:
    """A renderer of `analyzer.present.sorting`, loaded when an edge-sorting result is shown."""
    from analyzer.present import sorting

    return getattr(sorting, name)  # type: ignore[no-any-return]


def _count_text(result: CountResult, fmt: str) -> str:
    described = counting.procedure_text(result.procedure, result.shoes, result.seed)
    return counting.render_count(result.evaluations, fmt, described, result.figures)


def _count_blocks(result: CountResult) -> list[Block]:
    described = counting.procedure_text(result.procedure, result.shoes, result.seed)
    return counting.count_blocks(result.evaluations, "markdown", described, result.figures)


def _par_blocks(result: ParResult) -> list[Block]:
    from analyzer.present.par_documents import par_sheets_blocks

    return par_sheets_blocks(result)


def _count_data(result: CountResult) -> dict[str, Any]:
    described = counting.procedure_text(result.procedure, result.shoes, result.seed)
    return counting.count_data(result.evaluations, described, result.figures)


def _track_text(result: TrackResult, fmt: str) -> str:
    if result.live:  # its coups were written as they came: the summary remains
        return track.render_track_summary(result.replay, fmt, result.record)
    return track.render_track(result.replay, fmt, result.record)


def _solve_data(result: SolveResult) -> dict[str, Any]:
    from analyzer.present.games import game_data  # the game solvers' types load only when asked

    return game_data(result.result)


def _solve_blocks(result: SolveResult) -> list[Block]:
    from analyzer.present.games import game_blocks

    return game_blocks(result.result, "markdown")


def _solve_text(result: SolveResult, fmt: str) -> str:
    from analyzer.present.games import render_game

    return render_game(result.result, fmt)


#: Each result type, by its qualified name (so that the result modules need not load), and
#: how it is shown.
OUTPUTS: dict[str, Output] = {
    "analyzer.analyses.results.OddsResult": Output(
        lambda r: odds.odds_data(r.odds),
        lambda r, fmt: odds.render_odds(r.odds, fmt),
        blocks=lambda r: odds.odds_blocks(r.odds, "markdown"),
    ),
    "analyzer.analyses.results.PlayerTableResult": Output(
        lambda r: odds.player_table_data(r.rows),
        _player_table_text,
        blocks=lambda r: odds.player_table_blocks(r.rows, _player_table_title(r)),
    ),
    "analyzer.analyses.results.RulesResult": Output(
        lambda r: r.rules.to_mapping(),
        lambda r, fmt: rules.render_rules(r.rules, fmt),
        blocks=lambda r: rules.rules_blocks(r.rules, "markdown"),
    ),
    "analyzer.analyses.results.EdgesResult": Output(
        lambda r: edges.edges_data(r.analyses, r.label, r.rules, r.left_out),
        lambda r, fmt: edges.render_edges(r.analyses, fmt, r.label, r.rules, r.details),
        blocks=lambda r: edges.edges_blocks(r.analyses, "markdown", r.label, r.rules, r.details),
        xlsx=True,
    ),
    "analyzer.analyses.results.CompareResult": Output(
        lambda r: compare.compare_data(r.comparison),
        lambda r, fmt: compare.render_compare(r.comparison, fmt),
        blocks=lambda r: compare.compare_blocks(r.comparison, "markdown"),
        xlsx=True,
    ),
    "analyzer.counting.results.EorResult": Output(
        lambda r: effects.removal_effects_data(r.effects, r.counts),
        lambda r, fmt: effects.render_removal_effects(r.effects, fmt, r.counts),
        blocks=_eor_blocks,
        xlsx=True,
    ),
    "analyzer.counting.results.CountResult": Output(
        _count_data, _count_text, blocks=_count_blocks, xlsx=True
    ),
    "analyzer.analyses.results.ClosedFormResult": Output(
        _closed_forms_data,
        _closed_forms_text,
        shoe_spec=lambda r, removed: {"decks": "d"},
        blocks=_closed_forms_blocks,
    ),
    "analyzer.analyses.results.DesignResult": Output(
        _design_data, _design_text, shoe_spec=_design_shoes, blocks=_design_blocks
    ),
    "analyzer.counting.tracking.TrackResult": Output(
        lambda r: track.track_json(r.replay, r.record),
        _track_text,
        blocks=lambda r: track.track_blocks(r.replay, "markdown", r.record),
    ),
    "analyzer.counting.results.ParResult": Output(_par_data, _par_text, blocks=_par_blocks, xlsx=True),
    "analyzer.analyses.known.KnownResult": Output(_known_data, _known_text, blocks=_known_blocks),
    "analyzer.counting.sorting.SortTrackResult": Output(
        lambda r: _sorting("sort_track_data")(r), lambda r, fmt: _sorting("render_sort_track")(r, fmt)
    ),
    "analyzer.counting.sorting.SortCountResult": Output(
        lambda r: _sorting("sort_count_data")(r), lambda r, fmt: _sorting("render_sort_count")(r, fmt)
    ),
    "analyzer.games.SolveResult": Output(_solve_data, _solve_text, blocks=_solve_blocks),
    "analyzer.present.listing.ListResult": Output(
        lambda r: metadata.list_data(r.kind, r.entries),
        lambda r, fmt: metadata.render_list(r.kind, r.entries, fmt),
        inputs=False,
        wrap=False,
        blocks=lambda r: metadata.list_blocks(r.kind, r.entries, "markdown"),
    ),
    "analyzer.ranks.diskcache.CacheStatus": Output(
        lambda r: cache.cache_data(r), lambda r, fmt: cache.render_cache(r, fmt), inputs=False, wrap=False
    ),
}


def _name(kind: type) -> str:
    """A result type's key in OUTPUTS: its qualified name."""
    return f"{kind.__module__}.{kind.__qualname__}"


def _output(result: object) -> Output:
    output = OUTPUTS.get(_name(type(result)))
    if output is None:
        raise TypeError(f"no output for {type(result).__name__}")
    return output


def to_data(result: object) -> dict[str, Any]:
    """The result's JSON document, without the envelope (JSON-ready values: exact numbers
    as "p/q" strings)."""
    return _output(result).data(result)


def envelope(result: Any, removed: Sequence[str] = ()) -> dict[str, Any]:
    """What the result's JSON says about its inputs, in key order: `shown`, `shoe`,
    `shoe_spec`, `rules`, `version` (`removed`: the cards taken out of the shoe as given,
    which `shoe_spec` states)."""
    output = _output(result)
    if not output.inputs:
        return {"version": __version__}
    extra: dict[str, Any] = {}
    shown = getattr(result, "shown", None)
    if shown is not None:
        extra["shown"] = shown.as_dict()
    spec = output.shoe_spec(result, removed) if output.shoe_spec else metadata.shoe_json(result.shoe, removed)
    extra["shoe"] = spec.get("label", "d decks")
    extra["shoe_spec"] = spec
    extra["rules"] = result.rules.name
    extra["version"] = __version__
    return extra


def enveloped(data: dict[str, Any], result: Any, removed: Sequence[str] = ()) -> dict[str, Any]:
    """`data` with the envelope's keys: a key the data has keeps its place (and, for
    `rules`, its value); the others follow in the envelope's order."""
    out = dict(data)
    for key, value in envelope(result, removed).items():
        if key != "rules" or key not in out:
            out[key] = value
    return out


#: The formats written as bytes (to a file, never to a terminal).
BINARY_FORMATS = ("xlsx", "pdf")


def sheet_formats(kind: type) -> tuple[str, ...]:
    """The spreadsheet formats a result type is written in: csv if it has tables, xlsx too
    for those `Output.xlsx` names."""
    output = OUTPUTS[_name(kind)]
    if output.blocks is None:
        return ()
    return ("csv", "xlsx") if output.xlsx else ("csv",)


def blocks(result: Any) -> Sequence[Block]:
    """The result's document for the spreadsheet writers; an AnalyzerError if it has none."""
    output = _output(result)
    if output.blocks is None:
        raise AnalyzerError("this output has no tables to write as a spreadsheet: use table, markdown, json")
    return output.blocks(result)


def render_file(result: Any, fmt: str, date: datetime | None = None) -> bytes:
    """The result in a binary format (`BINARY_FORMATS`): an XLSX workbook of its tables
    dated `date` (default: `analyzer.present.identity.document_date`), or a par sheet's PDF."""
    from analyzer.present.identity import document_date

    when = document_date() if date is None else date
    if fmt == "xlsx" and "xlsx" in sheet_formats(type(result)):
        from analyzer.present.spreadsheet import write_xlsx

        return write_xlsx(blocks(result), when)
    if fmt == "pdf" and _name(type(result)) == "analyzer.counting.results.ParResult":
        from analyzer.present.par_documents import par_sheets_pdf

        return par_sheets_pdf(result, when)
    raise AnalyzerError(f"format {quoted(fmt)}: {type(result).__name__} is not written in it")


def render(result: Any, fmt: str, removed: Sequence[str] = ()) -> str:
    """What a command prints of `result` in `fmt`: JSON (the data and the envelope,
    serialised once), CSV (its tables), else the result's text (a table's prose lines wrapped)."""
    output = _output(result)
    if fmt == "json":
        return dumps(enveloped(output.data(result), result, removed))
    if fmt == "csv":
        from analyzer.present.spreadsheet import write_csv

        return write_csv(blocks(result))
    text = output.text(result, fmt)
    return wrap_prose(text) if fmt == "table" and output.wrap else text
