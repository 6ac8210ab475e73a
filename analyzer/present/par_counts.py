"""The countability section of a par sheet: the best counts, how they were found, every count
played, the cover bet, and the verdict with the figures it rests on (blocks of the document
model, as `analyzer.present.par` writes the rest of a sheet)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analyzer.present.counting import (
    COVER_HEADERS,
    NO_BETS,
    cover_rows,
    cover_values,
    estimate,
    plus_minus,
    tags_text,
)
from analyzer.present.document import Block, Heading, Paragraph, Table, Value
from analyzer.present.effects import DERIVED_HEADERS, derived_rows
from analyzer.present.text import markdown_text, short_float

if TYPE_CHECKING:
    from analyzer.counting.par import ParSheet, Verdict

__all__ = [
    "countability_blocks",
    "cover_table_blocks",
    "search_text",
    "shoes_text",
    "study_json",
    "verdict_reason",
    "verdict_text",
]


def _pm(mean: float, se: float) -> str:
    return plus_minus(mean, se, 4)


def verdict_text(verdict: Verdict) -> str:
    """The verdict as a sheet states it, e.g. "inconclusive at 2,000 shoes"."""
    from analyzer.counting.par import INCONCLUSIVE

    return f"{verdict.kind} at {shoes_text(verdict.shoes)}" if verdict.kind == INCONCLUSIVE else verdict.kind


def verdict_reason(verdict: Verdict) -> str:
    """The figures a verdict rests on and the rule that decided it, in one sentence."""
    from analyzer.counting.par import BEATABLE, SIGMAS

    limit = float(verdict.material)
    threshold = f"the threshold of {limit:g} units per shoe"
    ceiling = _bound(verdict.perfect)
    played = len(verdict.tried) + 1
    if verdict.win is None:
        figures = "no linear count reads this bet (every rank's removal has the same effect)"
    elif verdict.degenerate and verdict.tried and verdict.chosen is not None:
        figures = (
            f"the count chosen on the first {shoes_text(verdict.choosing)}, {verdict.count}, "
            f"{_degenerate(verdict)} (the other shoes, which played no part in the choice)"
        )
    elif verdict.degenerate and verdict.tried:
        figures = (
            f"no count of the {played} played has evidence in {shoes_text(verdict.shoes)} (each made no "
            "bets or won the same on every shoe)"
        )
    elif verdict.degenerate:
        figures = f"the count {_degenerate(verdict)}"
    elif verdict.tried:
        wins = f"wins {_pm(*verdict.win)} units per shoe"
        figures = f"the best of the {played} counts played, {verdict.count}, {wins}"
        if verdict.chosen is not None:
            figures = (
                f"the best of the {played} counts played on the first {shoes_text(verdict.choosing)}, "
                f"{verdict.count}, won {_pm(*verdict.chosen)} units per shoe there (the highest of "
                f"{played} wins on the same shoes, biased upward); on the other "
                f"{shoes_text(verdict.judging)}, which played no part in the choice, it {wins}"
            )
        if verdict.first:
            why = replace_first(verdict)
            figures = f"the best level-1 count {why}, so it decides nothing; {figures}"
    else:
        figures = f"the count wins {_pm(*verdict.win)} units per shoe"
    if verdict.rule == "unmeasured":
        shoes = shoes_text(verdict.shoes)
        if verdict.win is not None and verdict.bets != 0:
            figures = f"the count wins {short_float(verdict.win[0], '+.4f')} units in {shoes}"
        return f"{figures}: a study of {shoes} has no standard error and decides nothing; run more shoes"
    if verdict.rule == "count":
        side = "above" if verdict.kind == BEATABLE else "below"
        reason = f"{figures}: more than {SIGMAS} standard errors {side} {threshold}"
        if verdict.kind != BEATABLE and verdict.perfect[0] > limit:  # the bound leaves room
            reason += (
                f" (the perfect-information bound, {ceiling}, is above the threshold: the verdict is "
                "that of the linear counts played, not of every way to choose the coups bet)"
            )
        return reason
    if verdict.rule == "bound":
        reason = f"{figures}, and the perfect-information bound, {ceiling}, which no count can pass,"
        return f"{reason} is more than {SIGMAS} standard errors below {threshold}"
    if verdict.counted:
        where = f"within {SIGMAS} standard errors of {threshold} (the perfect-information bound: {ceiling})"
    elif verdict.perfect[1] <= 0:
        where = f"and the perfect-information bound, {ceiling}, has no standard error: it decides nothing"
    else:
        side = "above" if verdict.perfect[0] > limit else "not below"
        where = f"and the perfect-information bound, {ceiling}, is {side} {threshold}"
        if verdict.win is None:
            where += ": a count made for this bet would need a study of its own"
        elif verdict.degenerate:
            where += ": a count that bets more often may beat it"
    if verdict.degenerate and not verdict.counted:
        figures += ", so no count's study decides"
    needed = verdict.shoes_to_settle
    unsettled = "more shoes of this study cannot settle it"
    more = f"about {needed:,} shoes would settle it" if needed else unsettled
    return f"{figures}, {where}; {more}"


def replace_first(verdict: Verdict) -> str:
    """Why the best level-1 count decides nothing, e.g. "made no bets in 400 shoes"."""
    from dataclasses import replace

    return _degenerate(replace(verdict, degenerate=verdict.first), verdict.choosing or verdict.shoes)


def _degenerate(verdict: Verdict, shoes: int = 0) -> str:
    """Why the count's study decides nothing, e.g. "made no bets in 400 shoes" (`shoes`: the
    shoes it was played on; default those the count judged was measured over)."""
    where = shoes_text(shoes or verdict.judging)
    if verdict.degenerate == "no bets":
        return f"made no bets in {where}"
    return f"has no standard error in {where} (its win per shoe never varied)"


def _bound(perfect: tuple[float, float]) -> str:
    """The perfect-information bound per shoe, without a "± 0" where it never varied."""
    mean, se = perfect
    if se > 0:
        return f"{_pm(mean, se)} units per shoe"
    return f"{short_float(mean, '+.4f')} units per shoe on every shoe"


def shoes_text(count: int) -> str:
    """A number of shoes in words, e.g. "1 shoe", "2,000 shoes"."""
    return f"{count:,} shoe{'' if count == 1 else 's'}"


def search_text(sheet: ParSheet) -> str:
    """How the sheet's best counts were found, in one sentence ("" for no count)."""
    if not sheet.best_counts:
        return ""
    tens = (
        "one tag for the ten-valued ranks, whose effects agree"
        if sheet.best_counts[0].tens == "tied"
        else "a tag for each ten-valued rank, as their effects differ"
    )
    vectors = ", ".join(f"{(2 * level + 1) ** (10 if sheet.best_counts[0].tens == 'tied' else 13):,}"
                        for level in (1, 2, 3))  # fmt: skip
    return (
        f"Each level's count is the best of every tag vector of the level ({vectors} vectors at "
        f"levels 1, 2 and 3; {tens}), balanced or not, found exactly: the ranks are searched one "
        "by one keeping, for each sum of the tags and sum of their squares, the tags of the highest "
        "covariance with the effects, and the correlations are compared in exact integers. Where "
        "an unbalanced count is best, the best balanced count of its level follows it."
    )


def _measured(mean: float, se: float, shoes: int, bets: int | None = None) -> str:
    """A simulated figure and its standard error; no "± 0" for a figure from no data."""
    if bets == 0:
        return NO_BETS
    if shoes < 2:
        return f"{short_float(mean, '+.4f')} (no standard error)"
    if se <= 0:
        return f"{short_float(mean, '+.4f')} on every shoe (no standard error)"
    return _pm(mean, se)


def _figure(mean: float, se: float, shoes: int, bets: int | None = None) -> tuple[str, Value]:
    """A simulated figure's text (`_measured`) and its typed value for the spreadsheets."""
    return _measured(mean, se, shoes, bets), estimate(mean, se, shoes, bets)


def _cover(sheet: ParSheet) -> list[Block]:
    """The cover bet staked with the judged count's bets: side bet alone, cover, net."""
    evaluation = sheet.study.evaluation
    if evaluation.cover is None or sheet.study.system is None:
        return []
    from analyzer.counting.par import SIGMAS

    shoes, bets = evaluation.shoes, evaluation.triggers
    side, cover, net = (_measured(*evaluation.per_shoe(k), shoes, bets) for k in ("expected", "cover", "net"))
    (m, s), limit = evaluation.per_shoe("net"), float(sheet.material)
    if not bets or s <= 0 or shoes < 2:
        clears = "no evidence either way"
    elif m - SIGMAS * s > limit:
        clears = f"more than {SIGMAS} standard errors above the threshold"
    elif m + SIGMAS * s < limit:
        clears = f"more than {SIGMAS} standard errors below the threshold"
    else:
        clears = f"within {SIGMAS} standard errors of the threshold"
    return [
        Paragraph(
            f"Cover bet: {markdown_text(evaluation.cover.text)} on every coup the count bets, valued "
            f"exactly for the cards left. Per shoe: the side bet alone {side}, the cover {cover} "
            f"(negative: its cost), net {net} units ({clears}). The verdict is the side bet's alone."
        )
    ]


def cover_table_blocks(sheet: ParSheet) -> list[Block]:
    """The cover bet's figures as a table under a heading of its own, for the spreadsheets
    (the other formats say them in a sentence, `_cover`): per shoe of the judged count's
    study, the side bet alone, the cover and the net, as `baccarat count` tables them (none
    without a cover or a count)."""
    evaluation = sheet.study.evaluation
    if evaluation.cover is None or sheet.study.system is None:
        return []
    rows, values = cover_rows([evaluation], "markdown"), cover_values([evaluation])
    return [Heading("7. Countability: cover bet"), Table.of(rows, COVER_HEADERS, values)]


def _played(sheet: ParSheet) -> list[Block]:
    """Every count played, in the order of the best counts' table, the judged one marked."""
    if not sheet.tried:
        return []
    study = sheet.study
    studies = sorted((study, *sheet.tried), key=_order(sheet))

    def figures(other: Any) -> tuple[str, tuple[str, Value]]:
        """Bets per shoe and win per shoe (its text and typed value) on the shoes every count played."""
        found = other.chosen_on if other is study and other.chosen_on is not None else other.evaluation
        from analyzer.counting.advantage import advantage_figures

        per_shoe = advantage_figures(found).bets_per_shoe
        mean, se = found.per_shoe("expected")
        return f"{per_shoe:.2f}", _figure(mean, se, found.shoes, found.triggers)

    rows, values = [], []
    for other in studies:
        per_shoe, (win, typed) = figures(other)
        rows.append(
            [
                str(other.count.level) if other.count else "",
                "yes" if other.system and other.system.balanced else "no",
                f"{other.system.rule}{f' (start {other.system.initial:+d})' if other.system.initial else ''}"
                if other.system else "",
                per_shoe, win, "yes" if other is study else "",
            ]
        )  # fmt: skip
        values.append([None, None, None, None, typed, None])  # the text is the value but for the win
    return [
        Paragraph(
            f"Every count of the table played on the same {shoes_text(study.choosing or study.shoes)}"
            f"{' (the shoes the count judged was chosen on)' if study.choosing else ''}:"
        ),
        Table.of(
            rows,
            ["level", "balanced", "bets when", "bets per shoe", "win per shoe (units)", "judged"],
            values,
        ),
    ]


def _order(sheet: ParSheet) -> Any:
    """Sort key of a count's study: its place in the best counts' table."""
    counts = list(sheet.best_counts)

    def place(study: Any) -> int:
        return next((i for i, c in enumerate(counts) if c is study.count), len(counts))

    return place


def countability_blocks(sheet: ParSheet) -> list[Block]:
    from analyzer.counting.par import SIGMAS

    study, figures, verdict = sheet.study, sheet.study.figures, sheet.verdict
    (m, s), (p, sp) = study.win_per_shoe, study.perfect
    blocks: list[Block] = [Heading("7. Countability")]
    if sheet.best_counts:
        blocks += [
            Paragraph("Best linear counts (tags per rank, from the effects of removal of each rank):"),
            Table.of(derived_rows(sheet.best_counts, "markdown"), DERIVED_HEADERS),
            Paragraph(search_text(sheet)),
        ]
        system = study.system
        assert system is not None
        start = f", starting at {system.initial:+d}" if system.initial else ""
        played = (
            f"The study plays each count of the table on the same shoes, betting at its linear "
            "break-even rounded up (an unbalanced count starting at minus its shoe's tag sum), and "
            f"{_selection(study)}: the level-{system.level} count (tags A..9, ten: "
            f"{tags_text(system.tags)}{start}), betting when its {system.rule}."
        )
    else:
        played = (
            "No linear count: removing a card of any rank has the same effect, so every linear count "
            "has betting correlation 0. The study bets on no coup and measures the perfect-information "
            "bound alone."
        )
    n0 = "n/a" if figures.n0 is None else short_float(figures.n0, ",.0f")
    bets = study.evaluation.triggers if study.system is not None else 0
    per_100 = _figure(figures.win_per_100_coups, figures.win_per_100_coups_se, study.shoes, bets)
    judging = study.evaluation.shoes
    found: list[tuple[str, tuple[str, Value]]] = [  # each figure's text, and its typed value (None: the text)
        ("win per shoe (units)", _figure(m, s, judging, bets)),
        ("win per 100 coups dealt (units)", per_100),
        ("bets per shoe", (f"{figures.bets_per_shoe:.2f}", None)),
        ("coups per shoe", (f"{figures.coups_per_shoe:.2f}", None)),
        ("N0 (coups bet)", (n0, None)),
        ("perfect-information bound per shoe (units)", _figure(p, sp, study.shoes)),
    ]
    if study.chosen_win is not None and study.chosen_on is not None:
        chosen = _figure(*study.chosen_win, study.choosing, study.chosen_on.triggers)
        found.insert(
            1, (f"win per shoe on the {shoes_text(study.choosing)} it was chosen on (biased)", chosen)
        )
    rows = [[label, text] for label, (text, _) in found]
    values: list[list[Value]] = [[None, value] for _, (_, value) in found]
    material = float(sheet.material)
    resolution = (
        f"Resolution: at {_judged_on(study)} the standard error of the count's win per shoe is "
        f"{s:.4f} units (the bound's {sp:.4f}): a win within {SIGMAS * s:.4f} units of the threshold "
        "is inconclusive."
    )
    if verdict.rule == "unmeasured":
        resolution = "Resolution: a study of one shoe has no standard error: run more shoes."
    elif bets == 0 or s <= 0:
        why = "made no bets" if bets == 0 else "has no standard error"
        who = f"the count {why}, so its win decides nothing" if study.system else "no count is played"
        bound = f"{sp:.4f} units" if sp > 0 else "none (it never varied)"
        resolution = (
            f"Resolution: at {_judged_on(study)} {who}; the standard error of the bound per shoe is {bound}."
        )
    blocks += [
        Paragraph(
            f"{played} {shoes_text(study.shoes)}, each coup valued exactly for the cards left; the "
            f"figures of the count judged{_figures_over(study)}:"
        ),
        Table.of(rows, ["figure", "mean ± standard error"], values),
        *_cover(sheet),
        *_played(sheet),
        Paragraph(
            f"**Verdict: {verdict_text(verdict)}.** Against a materiality threshold of {material:g} units "
            f"per shoe of flat one-unit bets: {verdict_reason(verdict)}. The perfect-information bound "
            f"(betting exactly the coups of positive exact value) is the ceiling no count can pass.",
            role="verdict",
        ),
        Paragraph(
            f"{resolution} Rule: beatable when the win exceeds the threshold by more than {SIGMAS} "
            f"standard errors, not beatable by counting when the win (or the bound) plus {SIGMAS} "
            "standard errors stays below it; a figure with no evidence (a count that made no bets, "
            "a standard error of zero, a study of one shoe) decides nothing; "
            f"{_procedure(study)}."
        ),
    ]
    return blocks


def _selection(study: Any) -> str:
    """How the count judged was chosen and where it was judged, for the sheet's account."""
    if not study.choosing:
        return "judges the bet by the count that wins most per shoe among those with evidence"
    return (
        f"chooses the count that wins most per shoe among those with evidence on the first "
        f"{shoes_text(study.choosing)}, then judges the bet by it on the other "
        f"{shoes_text(study.evaluation.shoes)}, which played no part in the choice"
    )


def _judged_on(study: Any) -> str:
    """The shoes the count's win is measured over, e.g. "10,000 judging shoes"."""
    if study.choosing:
        return f"{study.evaluation.shoes:,} judging shoes"
    return f"{study.shoes:,} shoes"


def _figures_over(study: Any) -> str:
    """Which shoes the judged count's figures are over, "" when over every shoe."""
    if not study.choosing:
        return ""
    return (
        f" (over the {study.evaluation.shoes:,} judging shoes; the perfect-information bound over "
        f"all {study.shoes:,})"
    )


def _procedure(study: Any) -> str:
    """How the count judged is chosen, as the rule states it."""
    from analyzer.counting.par import SELECTION

    if study.choosing:
        return f"the count judged: {SELECTION}"
    return (
        "the count judged is the one of the highest win per shoe among the counts played that have evidence"
    )


def study_json(study: Any) -> dict[str, Any]:
    """A count played: its name, tags, start, rule, bets and win per shoe."""
    from analyzer.counting.par import count_name
    from analyzer.present.counting import mean_se

    system = study.system
    return {
        "count": count_name(system),
        "tags": list(system.tags),
        "initial": system.initial,
        "rule": system.rule,
        "bets": study.evaluation.triggers,
        "bets_per_shoe": round(study.figures.bets_per_shoe, 6),
        "win_per_shoe": mean_se(*study.win_per_shoe),
    }
