"""The long Jacobson study: its one-pass variants agree with `evaluate_systems`, and the
committed data files read back."""

from __future__ import annotations

import importlib.util
import json
import math
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from analyzer import Shoe
from analyzer.core.catalogue import RANK_BETS
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import STANDARD
from analyzer.counting.simulation import Procedure, View, evaluate_systems, evaluate_views
from analyzer.counting.studies import JACOBSON_PUBLISHED, jacobson_variants
from analyzer.counting.summary import ExactSum
from analyzer.counting.systems import SYSTEMS
from analyzer.ranks.fast import FastEvaluator

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "jacobson_study.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("jacobson_study", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("burn", "key", "procedure"),
    [
        (True, "burn, first seen | exact | >= | no extra", {}),
        (True, "burn, all seen | half-deck | > | extra coup", {"extra_coup": True, "burn_seen": "all"}),
        (False, "no burn | deck | >= | extra coup", {"extra_coup": True, "burn": False}),
    ],
)
def test_one_pass_variants_equal_separate_studies(burn: bool, key: str, procedure: dict[str, Any]) -> None:
    study = _script()
    names = study.SYSTEM_NAMES
    state = study._empty([v[0] for v in study.variants(burn)])
    exact: dict[tuple[str, str], ExactSum] = {}
    evaluator = FastEvaluator([RANK_BETS["dragon7"], RANK_BETS["panda8"]])
    study.run_chunk(state, exact, evaluator, burn, 0, 24)
    _, divisor, strict, _ = key.split(" | ")
    systems = [SYSTEMS[n].variant(divisor, strict == ">") for n in names]
    results = evaluate_systems(
        systems, [RANK_BETS["dragon7"], RANK_BETS["panda8"]],
        Procedure(shoe=Shoe.decks(8), cut_card=14, **procedure),
        shoes=24, seed=study.SEED,
    )  # fmt: skip
    for name, result in zip(names, results, strict=True):
        cell = state["variants"][key][name]
        assert cell["bets"] == result.triggers
        assert exact[key, name].value() == result.expectation_triggered
        assert [cell["sum"], cell["squares"]] == result.shoe_moments["expected"]  # the same loop


def test_views_need_what_the_procedure_deals() -> None:
    evaluator = FastEvaluator([RANK_BETS["dragon7"]])
    system = SYSTEMS["dragon7-jacobson"]
    for view, message in (
        (View(system, 0, extra_coup=True), "extra coup"),
        (View(system, 0, "some"), "burn seen"),
    ):
        with pytest.raises(AnalyzerError, match=message):
            evaluate_views([view], evaluator, Procedure(shoe=Shoe.decks(8)), STANDARD, 1, range(2))


def test_committed_study_reads_back() -> None:
    variants = jacobson_variants()
    assert len(variants) == 48
    for variant in variants:
        assert variant.shoes > 0 and set(variant.win) == set(JACOBSON_PUBLISHED)
        for name in JACOBSON_PUBLISHED:
            assert 0 < variant.se[name] < 0.05
            z = float(variant.win[name] - JACOBSON_PUBLISHED[name]) / variant.se[name]
            assert math.isclose(variant.z(name), z)
            assert isinstance(variant.win[name], Fraction)


def test_committed_big_tiger_study_reads_back() -> None:
    """The committed Big Tiger study is the 10^7-shoe run of scripts/big_tiger_study.py's
    command, and its figures are those of its `baccarat count` output."""
    from analyzer.counting.studies import BIG_TIGER_PUBLISHED, big_tiger_study

    spec = importlib.util.spec_from_file_location("big_tiger_study", SCRIPT.with_name("big_tiger_study.py"))
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    study = big_tiger_study()
    assert study is not None and study.shoes == 10**7
    assert study.command == "baccarat " + " ".join(script.arguments(10**7))
    assert 75 < study.coups / study.shoes < 85 and 0 < study.frequency < Fraction(1, 10)
    assert isinstance(study.edge, Fraction) and 0 < study.edge < Fraction(1, 5)
    mean, se = study.win_per_100
    assert 0 < se < 0.01 and math.isclose(study.z(), (mean - float(BIG_TIGER_PUBLISHED["win_per_100"])) / se)
    readings = script.READINGS.values()
    expected = ["baccarat " + " ".join(script.arguments(script.READING, options)) for _, options in readings]
    assert [r.command for r in study.readings] == expected
    assert all(r.shoes == script.READING and 0 < r.frequency < Fraction(1, 10) for r in study.readings)


def test_committed_jacobson_long_run_agrees_with_the_study_of_every_reading() -> None:
    """The committed 10^7-shoe co-count is scripts/jacobson_long_study.py's command; its exact
    win per shoe is the exact sum of its output over the shoes (the output's 6-decimal mean),
    and it agrees with the same procedure's row of scripts/jacobson_study.py, 10^6 shoes dealt
    by another pass, within four combined standard errors."""
    from analyzer.counting.studies import jacobson_long_run, jacobson_variants

    spec = importlib.util.spec_from_file_location("long", SCRIPT.with_name("jacobson_long_study.py"))
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    data = json.loads(script.DATA.read_text(encoding="utf-8"))
    assert data["command"] == "baccarat " + " ".join(script.COMMAND)
    run = jacobson_long_run()
    assert run is not None and run.shoes == 10**7
    (base,) = [v for v in jacobson_variants() if v.procedure == "burn, first seen; exact; >=; no extra"]
    for system in data["output"]["systems"]:
        name = system["system"]
        assert round(float(run.win[name]), 6) == system["win_per_shoe"]["expected"]["mean"]
        assert 0 < run.se[name] < 0.001
        gap = run.gap(base, name)
        assert gap == float(run.win[name] - base.win[name]) / math.hypot(run.se[name], base.se[name])
        assert abs(gap) < 4, (name, gap)
