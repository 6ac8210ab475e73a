"""A card-level bet's plan products, cached on disk by the bet's conditions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer.cards import products
from analyzer.cards.batch import CardEvaluator, shoe_line_weights
from analyzer.cards.engine import plan_line_weights
from analyzer.cards.plancache import plan_key
from analyzer.core.bets import bet_from_mapping
from analyzer.core.rules import SEED004, STANDARD
from analyzer.core.shoe import Shoe

LINES = [
    {"when": {"pairs_same_card": True}, "pays": 500},
    {"when": {"p2_suit": "H", "b1_rank": "K"}, "pays": 3},
]
BET = bet_from_mapping("cached", {"lines": LINES})


def test_plans_are_cached_by_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path))
    products.stored_products.cache_clear()
    keys, lines = products.stored_products(BET, STANDARD)
    (cached,) = tmp_path.glob("plans-*.npz")

    def never(*_: object) -> None:
        raise AssertionError("the plan was built again")

    products.stored_products.cache_clear()
    with monkeypatch.context() as patch:
        patch.setattr(products, "plan_products", never)
        again = products.stored_products(BET, STANDARD)
    assert np.array_equal(again[0], keys) and np.array_equal(again[1], lines)
    # the key is the conditions and the tableau: payouts and names do not change it
    repaid = bet_from_mapping("other", {"lines": [{**LINES[0], "pays": 7}, LINES[1]]})
    assert plan_key(repaid, STANDARD) == plan_key(BET, STANDARD) != plan_key(BET, SEED004)
    assert plan_key(bet_from_mapping("one", {"lines": LINES[:1]}), STANDARD) != plan_key(BET, STANDARD)
    cached.write_bytes(b"not an archive")  # a damaged file is rebuilt
    products.stored_products.cache_clear()
    rebuilt = products.stored_products(BET, STANDARD)
    assert np.array_equal(rebuilt[1], lines) and cached.stat().st_size > 100
    products.stored_products.cache_clear()


def test_one_shoe_from_the_products_equals_the_plan() -> None:
    types = [2] * 52
    for t in (0, 13, 13, 26, 40, 51, 7):
        types[t] -= 1
    shoe = Shoe.from_cards(types)
    assert CardEvaluator([BET]).paths == ("plan",)
    assert shoe_line_weights(BET, shoe) == plan_line_weights(BET, shoe)
