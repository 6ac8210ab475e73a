"""The compiled dealer (analyzer.counting.fastdeal) deals the numpy dealer's batches, field
by field and dtype by dtype (skipped without numba)."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from analyzer.core.rules import get_rules
from analyzer.counting import fastdeal
from analyzer.counting.dealer import deal_batch


@pytest.mark.parametrize(
    ("counts", "cut_card", "extra_coup", "burn", "rules"),
    [
        ((32,) * 13, 14, False, True, "standard"),
        ((32,) * 13, 14, True, True, "standard"),
        ((24,) * 13, 16, True, False, "standard"),
        ((4,) * 13, 7, True, True, "standard"),
        ((8,) * 13, 0, False, True, "seed004"),
        ((4,) * 13, 46, True, True, "standard"),
        ((1, 0, 3, 0, 0, 2, 9, 0, 0, 4, 0, 0, 1), 2, True, True, "standard"),  # a tiny lopsided shoe
        ((2,) * 52, 14, True, True, "standard"),  # 2 decks as 52 card types: a SuitedBatch
    ],
)
def test_the_compiled_dealer_deals_the_numpy_dealers_batches(
    counts: tuple[int, ...], cut_card: int, extra_coup: bool, burn: bool, rules: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    pytest.importorskip("numba")
    monkeypatch.delenv("BACCARAT_KERNEL", raising=False)  # on, even in the suite's numpy run
    ruleset = get_rules(rules)
    fastdeal.warm()
    assert fastdeal.ready()
    fast = deal_batch(counts, ruleset, 11, range(5, 60), cut_card, extra_coup, burn)
    monkeypatch.setenv("BACCARAT_KERNEL", "numpy")
    assert not fastdeal.ready()
    slow = deal_batch(counts, ruleset, 11, range(5, 60), cut_card, extra_coup, burn)
    assert type(fast) is type(slow)
    for item in fields(slow):
        a, b = getattr(fast, item.name), getattr(slow, item.name)
        if isinstance(b, np.ndarray):
            assert a.dtype == b.dtype and a.shape == b.shape, item.name
            assert (a == b).all(), item.name
        else:
            assert a == b, item.name
