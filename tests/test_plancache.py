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
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD
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
    assert plan_key(repaid, STANDARD) == plan_key(BET, STANDARD) != plan_key(BET, BANCO_4_DRAWS_ON_0_1)
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


def test_the_sorting_network_sorts_every_row() -> None:
    # By the 0-1 principle, a network that sorts every row of 0s and 1s sorts every row.
    for bits in range(64):
        values = [(bits >> i) & 1 for i in range(6)]
        for i, j in products._SORT_SIX:
            values[i], values[j] = min(values[i], values[j]), max(values[i], values[j])
        assert values == sorted(values), bits


def test_a_product_key_is_its_factors_in_any_order() -> None:
    rng = np.random.default_rng(7)
    ranks = rng.integers(-1, 13, (2000, 6)).astype(np.int8)
    masks = rng.integers(1, 16, (2000, 6)).astype(np.int8)
    offsets = rng.integers(0, 6, (2000, 6)).astype(np.int8)
    keys = products._product_keys(ranks, masks, offsets, by_value=False)
    order = rng.permuted(np.tile(np.arange(6), (2000, 1)), axis=1)
    moved = [np.take_along_axis(a, order, axis=1) for a in (ranks, masks, offsets)]
    assert np.array_equal(keys, products._product_keys(*moved, by_value=False))
    factors = [
        tuple(sorted((r, m, o) if r >= 0 else (-1, 0, 0) for r, m, o in zip(*row, strict=True)))
        for row in zip(ranks.tolist(), masks.tolist(), offsets.tolist(), strict=True)
    ]
    assert len(set(keys.tolist())) == len(set(factors))  # equal keys only for equal factors
