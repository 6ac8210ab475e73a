"""Par sheets: a bet's complete mathematics in one result, as a regulator or test lab asks for
it, with a verdict on whether counting beats it.

Each sheet gathers what other modules compute: the exact combinatorial table, house edge,
hit frequency and variance (`analyses.pricing`), the house edge across shoes and tableaux,
the closed form in the number of decks (`analyses.closed_form`, rank-level bets), the
effects of removal (`analyses.effects`), the best linear counts (`counting.systems`, found
exactly by `counting.search`) and a study of those counts judged against the exact value of
every coup (`counting.simulation`, `counting.advantage`).

Verdict, against a materiality threshold M (units per shoe of flat one-unit bets), from the
study's expected win per shoe of the count (mean m, standard error s over shoes):

- beatable: m - 3 s > M;
- not beatable by counting: m + 3 s < M, or the perfect-information bound (betting exactly
  the coups of positive exact value, which no count can pass on any shoe) has p + 3 s_p < M;
- else inconclusive, with the shoes that would settle it: the standard errors scale as
  1/sqrt(N), so N x (3 s / |m - M|)^2 shoes (the fewer of the count's and the bound's).

A verdict rests on evidence only: a one-shoe study has no standard error and decides nothing
(inconclusive, "unmeasured": run more shoes); a count that made no bets, or whose win per
shoe has no standard error, decides nothing either (its study is degenerate), nor does a
bound of zero standard error: the other figure alone may.

The study plays every best count of the sheet (levels 1-3; at each the best count, balanced
or not, and the best balanced one after an unbalanced best). A count's betting correlation
does not rank its win (a highly correlated count whose linear break-even is off bets on
losing coups), so the sheet chooses by what each count won; but the highest of several wins
measured on the same shoes is biased upward, so the count is chosen on one half of the shoes
and judged on the other (`SELECTION`): the counts play the first N // 2 shoes of the seed's
run, the count of the highest win per shoe among those with evidence there is chosen
(`judged_study`; if none has evidence, the best level-1 count), and its verdict rests on its
win over the other shoes of the run (numbers N // 2 to N - 1), which played no part in the
choice. Both figures are on the sheet. The perfect-information bound involves no choice: it
is measured over all N shoes, as is the count of a bet with one count to play (nothing is
chosen). If no count has evidence on the judging shoes, the verdict is inconclusive
("degenerate") with that reason.

A bet whose every rank's removal has the same effect (the pair bets) has no linear count (every
one has betting correlation 0): its study bets on no coup and measures the bound alone.
Exact values are Fractions; the simulated figures and the volatility are display floats.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

from analyzer.analyses.closed_form import ClosedForm, closed_forms
from analyzer.analyses.effects import RemovalEffects, effects_of_removal
from analyzer.analyses.pricing import analyze_bets
from analyzer.core.analysis import BetAnalysis, LineResult
from analyzer.core.bets import Bet
from analyzer.core.errors import AnalyzerError, quoted
from analyzer.core.ranks import RANKS
from analyzer.core.rules import RULES, STANDARD, Rules
from analyzer.core.shoe import BY_N_DECKS, Shoe
from analyzer.counting.advantage import AdvantageFigures, advantage_figures
from analyzer.counting.cover import Cover
from analyzer.counting.simulation import Procedure, evaluate_systems
from analyzer.counting.summary import SystemEvaluation
from analyzer.counting.systems import CountSystem, DerivedCount, derived_counts, derived_system

__all__ = [
    "CONFIDENCE_Z",
    "HOLD_ROUNDS",
    "MATERIAL",
    "RARE_PAYS",
    "RARE_ROUNDS",
    "SELECTION",
    "SIGMAS",
    "STUDY_CUT_CARD",
    "STUDY_SHOES",
    "Award",
    "CountStudy",
    "HoldBand",
    "ParSheet",
    "Verdict",
    "awards",
    "count_name",
    "judge",
    "judged_study",
    "par_sheets",
    "verdict",
]

#: z of the two-sided confidence levels of the volatility index VI = z * sigma.
CONFIDENCE_Z = {"90%": Fraction("1.6449"), "95%": Fraction("1.9600")}
#: Rounds played for the hold bands, expected hold +- z * sigma / sqrt(N).
HOLD_ROUNDS = (10**3, 10**4, 10**5, 10**6, 10**7)
#: A line paying this much or more (to 1) that occurs less often than once in RARE_ROUNDS
#: rounds is flagged (an advertised award should occur at least once in 10^8 games).
RARE_PAYS = 50
RARE_ROUNDS = 10**8
#: Default materiality threshold: units won per shoe of flat one-unit bets.
MATERIAL = Fraction(1, 20)
#: Standard errors a verdict needs between the estimate and the threshold.
SIGMAS = 3
#: The study's default shoes and cut card (cards behind it; the published studies use 14).
STUDY_SHOES = 20_000
STUDY_CUT_CARD = 14

#: How the count judged is chosen, in words (module doc; the sheet states it).
SELECTION = (
    "the counts play the first half of the shoes and the one of the highest win per shoe among "
    "those with evidence there is chosen; the verdict rests on its win over the other half, shoes "
    "that played no part in the choice (the maximum of several wins on the same shoes is biased "
    "upward); the perfect-information bound, which involves no choice, is measured over all the shoes"
)

BEATABLE, NOT_BEATABLE, INCONCLUSIVE = "beatable", "not beatable by counting", "inconclusive"


@dataclass(frozen=True)
class HoldBand:
    """The hold after `rounds` rounds at a confidence level: expected hold +- z sigma / sqrt(N),
    per unit bet (display floats)."""

    rounds: int
    confidence: str
    low: float
    high: float


@dataclass(frozen=True)
class Verdict:
    """Whether counting beats the bet: `kind` is "beatable", "not beatable by counting" or
    "inconclusive", decided by `rule` ("count": the count's win per shoe clears the
    threshold by SIGMAS standard errors; "bound": the perfect-information bound stays below
    it; "open": neither; "unmeasured": a one-shoe study, no standard error; "degenerate": the
    count's study has no bets or no standard error, and the bound does not decide) from the figures
    it rests on: the count's win per shoe and the bound's (mean, standard error; `win` None:
    no linear count), over `shoes` shoes, against `material` units per shoe; `shoes_to_settle`
    (inconclusive only) the shoes after which the same rule would decide, None if more shoes
    cannot (or cannot say: "unmeasured"); `bets` the coups the count bet (None: not known);
    `degenerate` why the count's study decides nothing ("no bets", "no standard error"; ""
    when it has evidence); `count` the count judged, in words ("" when not given); `tried`
    every other count played; `first` why the best level-1 count's study decides nothing
    when another count is judged ("" when it has evidence or is the one judged); `chosen` the
    judged count's win per shoe (mean, standard error) on the `choosing` shoes it was chosen on
    (None, 0: nothing was chosen, `win` is over all `shoes`), `win` then over the other shoes."""

    kind: str
    rule: str
    win: tuple[float, float] | None
    perfect: tuple[float, float]
    material: Fraction
    shoes: int
    shoes_to_settle: int | None = None
    bets: int | None = None
    degenerate: str = ""
    count: str = ""
    tried: tuple[str, ...] = ()
    first: str = ""
    chosen: tuple[float, float] | None = None
    choosing: int = 0

    @property
    def judging(self) -> int:
        """The shoes the count's win (`win`) is measured over."""
        return self.shoes - self.choosing

    @property
    def counted(self) -> bool:
        """Whether the count's win is evidence: some bets and a standard error above zero."""
        return self.win is not None and self.bets != 0 and self.win[1] > 0


@dataclass(frozen=True)
class CountStudy:
    """One best count (None: the bet has no linear count; the study then bets on no coup)
    played over simulated shoes by `procedure`, judged against exact values."""

    system: CountSystem | None
    procedure: Procedure
    seed: int
    evaluation: SystemEvaluation
    count: DerivedCount | None = None  # the best count played (its level, its row)
    chosen_on: SystemEvaluation | None = None  # the count on the shoes it was chosen on (SELECTION)

    @property
    def shoes(self) -> int:
        """The shoes of the study: those the count was chosen on and those it was judged on."""
        return self.evaluation.shoes + self.choosing

    @property
    def choosing(self) -> int:
        """The shoes the count was chosen on (0: not chosen; `evaluation` covers every shoe)."""
        return 0 if self.chosen_on is None else self.chosen_on.shoes

    @property
    def chosen_win(self) -> tuple[float, float] | None:
        """Mean and standard error of the count's win per shoe on the shoes it was chosen on
        (biased upward by the choice; None when not chosen)."""
        return None if self.chosen_on is None else self.chosen_on.per_shoe("expected")

    @cached_property
    def figures(self) -> AdvantageFigures:
        """The study's advantage figures (win per shoe and per 100 coups, N0, ...)."""
        return advantage_figures(self.evaluation)

    @property
    def win_per_shoe(self) -> tuple[float, float]:
        """Mean and standard error of the count's expected win per shoe (units)."""
        return self.evaluation.per_shoe("expected")

    @cached_property
    def perfect(self) -> tuple[float, float]:
        """Mean and standard error per shoe of the perfect-information bound (units), over
        every shoe of the study (the bound involves no choice)."""
        if self.chosen_on is None:
            return self.evaluation.per_shoe("perfect")
        whole = copy.deepcopy(self.chosen_on)
        whole.merge(self.evaluation)
        return whole.per_shoe("perfect")


@dataclass(frozen=True)
class ParSheet:
    """One bet's par sheet on one shoe under one tableau (see the module doc).

    - `analysis`: the exact table and figures (per unit bet).
    - `by_decks`: house edge at 1 to 8 decks and the infinite deck ("inf"), same tableau.
    - `by_rules`: house edge under each other built-in tableau, on the same shoe.
    - `closed_form`: the figures as functions of the number of decks (rank-level bets).
    - `effects`: exact effect of removing one card of each rank, or each card type for a bet
      that reads suits (`per`), on the bettor's expectation per unit bet.
    - `best_counts`: the best linear counts of levels 1 to 3 (none for the pair bets).
    - `study`: the study of the count judged (`judged_study`); `tried`: the other best
      counts' studies on the same shoes.
    """

    analysis: BetAnalysis
    shoe: Shoe
    rules: Rules
    by_decks: tuple[tuple[str, Fraction], ...]
    by_rules: tuple[tuple[str, Fraction], ...]
    closed_form: ClosedForm | None
    effects: dict[str, Fraction]
    per: str
    best_counts: tuple[DerivedCount, ...]
    study: CountStudy
    material: Fraction
    tried: tuple[CountStudy, ...] = ()

    @property
    def bet(self) -> Bet:
        return self.analysis.bet

    @property
    def verdict(self) -> Verdict:
        """Whether counting beats the bet: `judge` of the study (and the counts tried) against
        `material`."""
        return judge(self.study, self.material, self.tried)

    @property
    def volatility_index(self) -> dict[str, float]:
        """VI = z * sigma per unit bet at each confidence level (display floats)."""
        return {level: float(z) * self.analysis.std_dev for level, z in CONFIDENCE_Z.items()}

    @property
    def hold_bands(self) -> tuple[HoldBand, ...]:
        """Expected hold (the house edge) +- VI / sqrt(N) for each N of HOLD_ROUNDS."""
        hold = float(self.analysis.house_edge)
        return tuple(
            HoldBand(n, level, hold - vi / math.sqrt(n), hold + vi / math.sqrt(n))
            for n in HOLD_ROUNDS
            for level, vi in self.volatility_index.items()
        )

    @property
    def awards(self) -> tuple[Award, ...]:
        """The paying awards, highest first: lines paying the same amount are one award."""
        return awards(self.analysis.lines)

    @property
    def top_award(self) -> Award | None:
        """The highest-paying award (every line paying that much), None if no line pays."""
        return self.awards[0] if self.awards else None

    @property
    def rare_awards(self) -> tuple[Award, ...]:
        """Awards paying RARE_PAYS to 1 or more that occur less often than once in RARE_ROUNDS
        (an award's probability: the sum of its lines')."""
        return tuple(
            award for award in self.awards if award.pays >= RARE_PAYS and award.probability * RARE_ROUNDS < 1
        )


@dataclass(frozen=True)
class Award:
    """One award of a pay table: what it pays (to 1), its probability (the sum of its
    lines') and the labels of the lines paying it, in pay-table order."""

    pays: Fraction
    probability: Fraction
    lines: tuple[str, ...]

    @property
    def label(self) -> str:
        """The award's lines in words, e.g. "tie, all red or tie, all black"."""
        return " or ".join(self.lines)


def awards(lines: Sequence[LineResult]) -> tuple[Award, ...]:
    """The paying awards of `lines`, highest first: lines paying the same amount (above 0)
    are one award, its probability the sum of theirs."""
    by_pays: dict[Fraction, list[LineResult]] = {}
    for line in lines:
        if line.pays is not None and line.pays > 0:
            by_pays.setdefault(line.pays, []).append(line)
    return tuple(
        Award(pays, sum((x.probability for x in group), Fraction(0)), tuple(x.label for x in group))
        for pays, group in sorted(by_pays.items(), key=lambda item: -item[0])
    )


def judge(study: CountStudy, material: Fraction, tried: Sequence[CountStudy] = ()) -> Verdict:
    """The verdict of the module doc on `study` (the count judged, `judged_study`) against
    `material` units per shoe; `tried`: the other counts played on the same shoes."""
    if study.system is None:
        return verdict(None, study.perfect, material, study.shoes)
    found = verdict(study.win_per_shoe, study.perfect, material, study.shoes, study.evaluation.triggers)
    found = replace(found, chosen=study.chosen_win, choosing=study.choosing)
    names = tuple(count_name(other.system) for other in tried if other.system is not None)
    level1 = [other for other in (study, *tried) if other.count is not None and other.count.level == 1]
    best = max(level1, key=lambda other: other.count.correlation if other.count else 0.0, default=study)
    first = ""
    if best is not study and best.system is not None:
        triggers = best.evaluation.triggers
        first = verdict(best.win_per_shoe, best.perfect, material, best.shoes, triggers).degenerate
    return replace(found, count=count_name(study.system), tried=names, first=first)


def count_name(system: CountSystem | None) -> str:
    """A derived count in words, e.g. "the level-2 count (balanced, tags ...)"."""
    if system is None:
        return "no linear count"
    tens = system.tags[:10] if len(set(system.tags[9:])) == 1 else system.tags
    tags = " ".join(f"{t:+d}" for t in tens)
    kind = "balanced" if system.balanced else f"unbalanced, starting at {system.initial:+d}"
    return f"the level-{system.level} count ({kind}; tags {tags}; bets when its {system.rule})"


def verdict(
    win: tuple[float, float] | None,
    perfect: tuple[float, float],
    material: Fraction,
    shoes: int,
    bets: int | None = None,
) -> Verdict:
    """The verdict from the count's win per shoe (mean, standard error; None: no linear
    count) and the perfect-information bound's, over `shoes` shoes, against `material`;
    `bets`: the coups the count bet. A figure without evidence decides nothing: a count that
    made no bets (`bets` 0) or whose win has no standard error, a bound of no standard error."""
    p, sp = perfect
    limit = float(material)
    degenerate = ""
    if win is not None:
        degenerate = "no bets" if bets == 0 else "no standard error" if win[1] <= 0 else ""

    def found(kind: str, rule: str, settle: int | None = None) -> Verdict:
        return Verdict(kind, rule, win, perfect, material, shoes, settle, bets, degenerate)

    if shoes < 2:
        return found(INCONCLUSIVE, "unmeasured")
    counted = win is not None and not degenerate
    if win is not None and counted:
        m, s = win
        if m - SIGMAS * s > limit:
            return found(BEATABLE, "count")
        if m + SIGMAS * s < limit:
            return found(NOT_BEATABLE, "count")
    if sp > 0 and p + SIGMAS * sp < limit:
        return found(NOT_BEATABLE, "bound")
    settle = [_shoes_to_settle(p, sp, limit, shoes)] if p < limit else []
    if win is not None and counted:
        settle.append(_shoes_to_settle(*win, limit, shoes))
    needed = min((k for k in settle if k is not None), default=None)
    return found(INCONCLUSIVE, "degenerate" if degenerate else "open", needed)


def _shoes_to_settle(mean: float, se: float, limit: float, shoes: int) -> int | None:
    """Shoes after which |mean - limit| is SIGMAS standard errors (SE ~ 1/sqrt(N)); None if
    the mean is the threshold or nothing varies."""
    gap = abs(mean - limit)
    if gap == 0 or se == 0:
        return None
    return max(math.ceil(shoes * (SIGMAS * se / gap) ** 2), shoes + 1)


def _never(bet: Bet) -> CountSystem:
    """A system that bets on no coup: a count of 0 never reaches 1."""
    return CountSystem("no-count", "no linear count", bet.name, (0,) * len(RANKS), Fraction(1))


def par_sheets(
    bets: Sequence[Bet],
    shoe: Shoe,
    rules: Rules = STANDARD,
    shoes: int = STUDY_SHOES,
    seed: int = 1,
    cut_card: int = STUDY_CUT_CARD,
    material: Fraction = MATERIAL,
    workers: int = 1,
    executor: Executor | None = None,
    cover: Cover | None = None,
) -> list[ParSheet]:
    """The par sheet of each of `bets` on the finite `shoe` under `rules`; the counting study
    deals `shoes` shoes of `shoe` (seed `seed`, cut card `cut_card`) by the casino procedure
    of `counting.simulation` (burn, the face-up burn card seen, no extra coup). The rank-level
    bets' studies share one run, the card-level bets' another; a bet's sheet is the same
    whatever other bets are asked with it. With `cover`, each count also stakes that main bet
    on every coup it bets (`counting.cover`): the sheet shows the side bet alone, the cover
    and the net; the verdict stays the side bet's."""
    if shoe.counts is None:
        raise AnalyzerError(
            f"a par sheet needs a finite shoe (its effects of removal and study): use {BY_N_DECKS}"
        )
    if isinstance(material, bool) or not isinstance(material, (int, Fraction)) or material < 0:
        raise AnalyzerError(f"material {quoted(material)}: use a number of units per shoe, 0 or more")
    procedure = Procedure(shoe=shoe, cut_card=cut_card)
    analyses = analyze_bets(bets, shoe, rules)
    decks = [(str(n), Shoe.decks(n)) for n in range(1, 9)] + [("inf", Shoe.infinite())]
    by_decks = [analyze_bets(bets, other, rules) for _, other in decks]
    tableaux = [other for other in RULES.values() if other.name != rules.name]
    by_rules = [analyze_bets(bets, shoe, other) for other in tableaux]
    ranked = [bet for bet in bets if not bet.card_level]
    forms = dict(zip([b.name for b in ranked], closed_forms(ranked, rules) if ranked else [], strict=True))
    removal = effects_of_removal(bets, shoe, rules)
    effects, per = removal.effects, removal.per
    best = _best_counts(removal, bets)
    played: dict[str, tuple[CountStudy, tuple[CountStudy, ...]]] = {}

    def play(systems: list[CountSystem], group: list[Bet], count: int, start: int) -> list[SystemEvaluation]:
        results = evaluate_systems(
            systems, group, procedure, rules, shoes=count, seed=seed, workers=workers, executor=executor,
            covers=[cover] * len(systems) if cover else (), start=start, exact_bins=False,
        )  # fmt: skip
        if any(result.coups == 0 for result in results):
            raise AnalyzerError(f"no coup can be dealt from {shoe} with cut card {cut_card} after the burn")
        return results

    for group in (ranked, [bet for bet in bets if bet.card_level]):
        plan = _Plan.of(group, best, shoe, shoes)
        if not plan.pairs:
            continue
        pairs, keys, run, several, choosing = plan.pairs, plan.keys, plan.run, plan.several, plan.choosing
        results = play(*plan.first_play, choosing, 0)
        by_key = {keys[i]: result for i, result in zip(run, results, strict=True)}
        studies: dict[str, list[CountStudy]] = {}
        for (bet, system, count), key in zip(pairs, keys, strict=True):
            studies.setdefault(bet.name, []).append(CountStudy(system, procedure, seed, by_key[key], count))
        chosen = {bet.name: judged_study(studies[bet.name]) for bet in group}
        if choosing == shoes:
            played.update(chosen)
            continue
        judged = [chosen[bet.name][0] for bet in group]
        later = play([c.system or _never(bet) for c, bet in zip(judged, group, strict=True)], group,
                     shoes - choosing, choosing)  # fmt: skip
        for bet, study, result in zip(group, judged, later, strict=True):
            if bet.name in several:
                study = replace(study, evaluation=result, chosen_on=study.evaluation)
            else:  # nothing chosen: the one count over every shoe
                whole = copy.deepcopy(study.evaluation)
                whole.merge(result)
                study = replace(study, evaluation=whole)
            played[bet.name] = (study, chosen[bet.name][1])
    sheets = []
    for i, (bet, analysis) in enumerate(zip(bets, analyses, strict=True)):
        study, others = played[bet.name]
        sheets.append(
            ParSheet(
                analysis=analysis,
                shoe=shoe,
                rules=rules,
                by_decks=tuple(
                    (label, found[i].house_edge) for (label, _), found in zip(decks, by_decks, strict=True)
                ),
                by_rules=tuple(
                    (t.name, found[i].house_edge) for t, found in zip(tableaux, by_rules, strict=True)
                ),
                closed_form=forms.get(bet.name),
                effects=effects[bet.name],
                per=per[bet.name],
                best_counts=best[bet.name],
                study=study,
                material=Fraction(material),
                tried=others,
            )
        )
    return sheets


_Key = tuple[str, object]  # a bet's name and its count's tags, threshold and start (None: no count)


@dataclass(frozen=True)
class _Plan:
    """A group's counts to play (`par_sheets`): each tried count (bet, system or None, the
    derived count), its key, the pairs played (`run`: a count found at two levels once), the
    bets with several counts to choose from and the shoes they are chosen on."""

    pairs: list[tuple[Bet, CountSystem | None, DerivedCount | None]]
    keys: list[_Key]
    run: list[int]
    several: set[str]
    choosing: int

    @classmethod
    def of(
        cls, group: Sequence[Bet], best: dict[str, tuple[DerivedCount, ...]], shoe: Shoe, shoes: int
    ) -> _Plan:
        pairs: list[tuple[Bet, CountSystem | None, DerivedCount | None]] = [
            (bet, derived_system(c, shoe.counts or (), f"{bet.name}-level-{c.level}{_kind(c)}"), c)
            for bet in group
            for c in best[bet.name]
        ] + [(bet, None, None) for bet in group if not best[bet.name]]
        keys: list[_Key] = [
            (bet.name, system and (system.tags, system.threshold, system.initial)) for bet, system, _ in pairs
        ]  # fmt: skip
        # a count found at two levels is played once
        first = {key: i for i, key in reversed(list(enumerate(keys)))}
        several = {bet.name for bet in group if sum(key[0] == bet.name for key in first) > 1}
        # SELECTION: counts are chosen on the first half of the shoes, judged on the other half
        choosing = shoes // 2 if several and shoes >= 2 else shoes
        return cls(pairs, keys, sorted(first.values()), several, choosing)

    @property
    def first_play(self) -> tuple[list[CountSystem], list[Bet]]:
        """The systems played on the choosing shoes and their bets."""
        pairs = self.pairs
        return [pairs[i][1] or _never(pairs[i][0]) for i in self.run], [pairs[i][0] for i in self.run]


def first_study(
    bets: Sequence[Bet], shoe: Shoe, rules: Rules = STANDARD, shoes: int = STUDY_SHOES,
    cut_card: int = STUDY_CUT_CARD,
) -> tuple[list[CountSystem], list[Bet], Procedure, int]:  # fmt: skip
    """The first counting study `par_sheets` runs for the rank-level ones of `bets` (the same
    arguments): its systems, their bets, its procedure and its shoes, from the first (of the
    seed's shoes); for a caller that runs other systems on the same shoes with them
    (`analyzer.counting.shared`). No systems when `bets` has no rank-level bet."""
    ranked = [bet for bet in bets if not bet.card_level]
    procedure = Procedure(shoe=shoe, cut_card=cut_card)
    if not ranked or shoe.counts is None:
        return [], [], procedure, 0
    plan = _Plan.of(ranked, _best_counts(effects_of_removal(ranked, shoe, rules), ranked), shoe, shoes)
    return *plan.first_play, procedure, plan.choosing


def _best_counts(removal: RemovalEffects, bets: Sequence[Bet]) -> dict[str, tuple[DerivedCount, ...]]:
    """The counts derived from `removal` (`effects_of_removal`) for each bet, by name."""
    counts = derived_counts(removal, [b.name for b in bets])
    return {bet.name: tuple(c for c in counts if c.bet == bet.name) for bet in bets}


def judged_study(studies: Sequence[CountStudy]) -> tuple[CountStudy, tuple[CountStudy, ...]]:
    """The study chosen to be judged and the others: of the studies whose count bet and whose
    win per shoe has a standard error, the one of the highest mean win (the first of equals);
    if none, the first (the best level-1 count's). The studies are those of the choosing shoes
    (`SELECTION`): the chosen count is then judged on other shoes."""
    evidence = [
        study for study in studies if study.system is not None and study.evaluation.triggers
        and study.win_per_shoe[1] > 0
    ]  # fmt: skip
    chosen = max(evidence, key=lambda study: study.win_per_shoe[0]) if evidence else studies[0]
    return chosen, tuple(study for study in studies if study is not chosen)


def _kind(count: DerivedCount) -> str:
    """The suffix of a tried count's name: "" (balanced) or "-unbalanced"."""
    return "" if count.balanced else "-unbalanced"
