"""A card-level bet's plan products, cached on disk by the bet's conditions and the code's
version, each file checked by its checksum: an edited, truncated or foreign file is rebuilt."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from clirun import run

from analyzer.cards import batch, plancache, products
from analyzer.cards.batch import CardEvaluator, shoe_line_weights
from analyzer.cards.engine import plan_line_weights
from analyzer.cards.plancache import plan_key
from analyzer.core.bets import bet_from_mapping
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD
from analyzer.core.shoe import Shoe
from analyzer.ranks import diskcache

LINES = [
    {"when": {"pairs_same_card": True}, "pays": 500},
    {"when": {"p2_suit": "H", "b1_rank": "K"}, "pays": 3},
]
BET = bet_from_mapping("cached", {"lines": LINES})


def test_plans_are_cached_by_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path))
    products.stored_products.cache_clear()
    keys, lines = products.stored_products(BET, STANDARD)
    assert len(list(tmp_path.glob("plans-*.npz"))) == 1

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
    products.stored_products.cache_clear()


def _fresh() -> None:
    """Forget the plans held in memory, so the next evaluation reads the disk cache."""
    products.stored_products.cache_clear()
    batch.card_evaluator.cache_clear()


def _archive(keys: np.ndarray, lines: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, keys=keys, lines=lines)
    return buffer.getvalue()


def test_edited_truncated_or_foreign_plans_are_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path))
    shoe = Shoe.decks(1)
    expected = plan_line_weights(BET, shoe)  # the card engine's plan, no products, no cache
    _fresh()
    assert shoe_line_weights(BET, shoe) == expected
    path = diskcache.cache_path("plans", plan_key(BET, STANDARD))
    good = path.read_bytes()
    header, payload = good[: good.index(b"\n") + 1], good[good.index(b"\n") + 1 :]
    with np.load(io.BytesIO(payload)) as data:
        keys, lines = data["keys"], data["lines"].copy()
    lines[:, -1] += 1  # other numbers in the same shapes: a different "exact" weight if read
    edited = _archive(keys, lines)
    assert diskcache.read_cache_file("plans", plan_key(BET, STANDARD)) == payload
    for damaged in (header + edited, edited, good[: len(good) // 2], good[:-1], header, b"", b"\x00" * 500,
                    header + payload[:1000] + bytes(200) + payload[1200:]):  # fmt: skip
        path.write_bytes(damaged)
        _fresh()
        assert shoe_line_weights(BET, shoe) == expected
        assert path.read_bytes() == good  # replaced by a good file
    # a right checksum over what is not the products (a truncated archive, one of pickles,
    # other arrays, other types): still rebuilt
    pickled = io.BytesIO()
    np.savez(pickled, keys=keys, lines=np.array([object()] * len(keys)))
    for wrong in (payload[:-50], pickled.getvalue(), _archive(keys, lines[:-1]),
                  _archive(keys, lines[:, :1].ravel()), _archive(keys.astype(np.int32), lines),
                  b"garbage"):  # fmt: skip
        diskcache.write_cache_file("plans", plan_key(BET, STANDARD), wrong)
        _fresh()
        assert plancache.read_products(plan_key(BET, STANDARD)) is None
        assert shoe_line_weights(BET, shoe) == expected and path.read_bytes() == good
    _fresh()


def test_a_damaged_plan_is_rebuilt_by_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path / "cache"))
    table = tmp_path / "t.toml"
    table.write_text(
        "[bets.cached]\nlines = [\n  { when = { pairs_same_card = true }, pays = 500 },\n"
        '  { when = { p2_suit = "H", b1_rank = "K" }, pays = 3 },\n]\n',
        encoding="utf-8",
    )
    argv = ["edges", "--table", str(table), "--decks", "1", "--format", "json"]
    _fresh()
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    assert "cached" in json.loads(out)["bets"]
    (path,) = (tmp_path / "cache").glob("plans-*.npz")
    good = path.read_bytes()
    header = good[: good.index(b"\n") + 1]
    with np.load(io.BytesIO(good[len(header) :])) as data:
        edited = _archive(data["keys"], data["lines"] * 2)
    for damaged in (header + edited, good[: len(good) // 3]):
        path.write_bytes(damaged)
        _fresh()
        assert run(capsys, *argv) == (0, out, "")  # the same exact edge, no traceback
        assert path.read_bytes() == good
    _fresh()


def test_the_key_holds_the_code_version(monkeypatch: pytest.MonkeyPatch) -> None:
    before = plan_key(BET, STANDARD)
    monkeypatch.setattr(plancache, "code_version", lambda *packages: "0.1.0-other")
    assert plan_key(BET, STANDARD) != before


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
