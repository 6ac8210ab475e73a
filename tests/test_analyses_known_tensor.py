"""The known-cards tensor's tables: the outcome of every key and each field read from it
agree with the tableau played key by key and with the field readers of FIELDS."""

from __future__ import annotations

from itertools import product

import pytest

from analyzer.analyses.known_tensor import KEY_SHAPE, _column, _outcomes, outcome_of_key
from analyzer.core.bets import FIELDS
from analyzer.core.outcome import unpack_outcomes
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD, Rules


@pytest.mark.parametrize("rules", [STANDARD, BANCO_4_DRAWS_ON_0_1])
def test_every_key_settles_into_its_coup(rules: Rules) -> None:
    """The vectorized table of outcomes is `outcome_of_key`, key by key."""
    codes, index = _outcomes(rules)
    outcomes = unpack_outcomes(codes)
    keys = list(product(*(range(size) for size in KEY_SHAPE)))
    assert len(index) == len(keys)
    for key, at in zip(keys, index.tolist(), strict=True):
        assert outcomes[at] == outcome_of_key(rules, key), key


@pytest.mark.parametrize("name", list(FIELDS))
@pytest.mark.parametrize("rules", [STANDARD, BANCO_4_DRAWS_ON_0_1])
def test_each_field_is_read_as_its_reader_reads_it(rules: Rules, name: str) -> None:
    codes, values = _column(rules, name)
    read = FIELDS[name][0]
    got = [values[code] for code in codes.tolist()]
    expected = [read(outcome) for outcome in unpack_outcomes(_outcomes(rules)[0])]
    assert got == expected
    assert [type(v) for v in got] == [type(v) for v in expected]


def test_a_tensor_asked_again_is_the_kept_one_and_read_only() -> None:
    """`known_tensor` keeps the last few tensors (the known-cards report asks for some several
    times): the same arguments in another order or form give the same object, whose arrays
    no caller can change; other bets give another tensor."""
    import numpy as np

    from analyzer.analyses.known_tensor import known_tensor
    from analyzer.core.catalogue import BETS
    from analyzer.core.shoe import Shoe

    main = [BETS["player"], BETS["banker"]]
    first = known_tensor(Shoe.decks(2), STANDARD, main, (2, 1))
    assert known_tensor(Shoe.decks(2), STANDARD, tuple(main), [1, 2]) is first
    assert first.positions == (1, 2)
    for array in (*first.nums, first.weights):
        with pytest.raises(ValueError, match="read-only"):
            array[0, 0] = 1
    other = known_tensor(Shoe.decks(2), STANDARD, main[:1], (1, 2))
    assert other is not first and np.array_equal(other.nums[0], first.nums[0])


def test_a_payout_past_int64_is_priced_exactly() -> None:
    """A bet whose scaled net reaches 2**63 (a tie paying 2**63 - 1, a Banker line at 19/20)
    is priced in Python integers: its numerators are those of the same bet paying 1 on the
    tie plus 20 * (X - 1) times the tie's weight, read from an int64 bet. (It raised
    OverflowError building the nets.)"""
    from analyzer.analyses.known_tensor import known_tensor
    from analyzer.core.bets import Bet, bet_from_mapping
    from analyzer.core.shoe import Shoe

    big = 2**63 - 1

    def bet(name: str, tie: int, banker: str | None) -> Bet:
        lines: list[dict[str, object]] = [{"when": {"winner": "tie"}, "pays": tie}]
        if banker is not None:
            lines.append({"when": {"winner": "banker"}, "pays": banker})
        return bet_from_mapping(name, {"lines": lines})

    huge, small, tie = bet("huge", big, "19/20"), bet("small", 1, "19/20"), bet("tie", 1, None)
    tensor = known_tensor(Shoe.decks(1), STANDARD, [huge, small, tie], (1,))
    assert tensor.scales == (20, 20, 1)
    assert tensor.nums[0].dtype == object
    tie_weight = (tensor.nums[2] + tensor.weights) // 2
    expected = tensor.nums[1] + 20 * (big - 1) * tie_weight
    assert [int(v) for v in tensor.nums[0]] == [int(v) for v in expected]
    assert int(tensor.nums[0][0]) > 2**63
