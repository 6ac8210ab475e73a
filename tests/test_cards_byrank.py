"""Card-level bets given the rank at one of the first four positions, every rank at once:
the same line weights as the card engine's shown card, one rank at a time."""

from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
import pytest

from analyzer.cards import byrank
from analyzer.cards.byrank import rank_line_weights, rank_products
from analyzer.cards.engine import card_line_weights
from analyzer.cards.plancache import plan_key
from analyzer.core.catalogue import get_bet
from analyzer.core.rules import BANCO_4_DRAWS_ON_0_1, STANDARD
from analyzer.core.shoe import Shoe
from analyzer.ranks import diskcache

#: A bet of each plan's shape: rows of the first four cards by rank (Perfect Pairs, Lucky
#: Nines), whole coups by point value with suits read where a ten lies at the position
#: (Super Tie: the rows by rank) and with none read (Tie Max: the tens' shares).
BETS = [get_bet(name) for name in ("perfect-pairs-v1", "lucky-nines", "super-tie", "tie-max-low")]
LOPSIDED = Shoe.from_cards([(t * 7) % 3 + (t % 13 == 11) for t in range(52)])  # queens of a suit apart


@pytest.mark.parametrize(
    ("shoe", "position"),
    [
        (Shoe.decks(1).remove("9H,KS,5D,QC"), 0),
        (LOPSIDED, 3),
        (Shoe.decks(2), 1),
        (Shoe.infinite(), 2),
        (Shoe.decks(1).remove("9H,5D,10S,JS,QS,KS"), 0),  # the tens alike, spades gone
    ],
)
def test_every_rank_is_the_shown_card(shoe: Shoe, position: int) -> None:
    found = rank_line_weights(BETS, shoe, position, STANDARD)
    for bet, by_rank in zip(BETS, found, strict=True):
        for rank, weights in enumerate(by_rank):
            expected = card_line_weights(bet, shoe, STANDARD, {position: (rank, None)})
            assert weights == expected, (bet.name, rank)


def test_a_small_shoe_and_other_rules() -> None:
    """A shoe of fewer than 52 cards (rows it cannot deal left out), ranks missing from it,
    another tableau."""
    shoe = Shoe.from_cards([(t % 3) * (t % 13 not in (1, 3, 6, 11)) for t in range(52)])
    bets = [get_bet(name) for name in ("tie-max-high", "perfect-pairs-v2", "super-tie")]
    found = rank_line_weights(bets, shoe, 0, BANCO_4_DRAWS_ON_0_1)
    for bet, by_rank in zip(bets, found, strict=True):
        for rank, weights in enumerate(by_rank):
            expected = card_line_weights(bet, shoe, BANCO_4_DRAWS_ON_0_1, {0: (rank, None)})
            assert weights == expected, (bet.name, rank)


def test_a_shoe_past_int64_is_weighed_in_python_integers() -> None:
    """30 decks: (N)_6 is above 2**63, so the products are multiplied in Python integers."""
    shoe = Shoe.decks(30).remove("9H,KS")
    bets = [get_bet(name) for name in ("lucky-nines", "tie-max-low")]
    found = rank_line_weights(bets, shoe, 1, STANDARD)
    assert sum(total for _, total in found[0]) == math.perm(shoe.size, 6) > 2**63
    for bet, by_rank in zip(bets, found, strict=True):
        for rank in (8, 12):
            assert by_rank[rank] == card_line_weights(bet, shoe, STANDARD, {1: (rank, None)}), (
                bet.name,
                rank,
            )


def _store(bet_name: str, position: int) -> tuple[str, Path]:
    key = plan_key(get_bet(bet_name), STANDARD, "by rank", position, 0, 13)
    return key, diskcache.cache_path("plans", key)


def test_the_products_are_cached_on_disk_by_bet_and_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path))
    rank_products.cache_clear()
    bet, shoe = get_bet("perfect-pairs-v1"), Shoe.decks(1).remove("9H,KS")
    expected = rank_line_weights([bet], shoe, 0)
    assert _store("perfect-pairs-v1", 0)[1].exists() and not _store("perfect-pairs-v1", 1)[1].exists()
    assert len(list(tmp_path.glob("plans-*.npz"))) == 1

    def never(*_: object) -> None:
        raise AssertionError("the products were built again")

    rank_products.cache_clear()
    with monkeypatch.context() as patch:
        patch.setattr(byrank, "_products_of", never)
        assert rank_line_weights([bet], shoe, 0) == expected  # read from the disk
        assert rank_line_weights([bet], Shoe.decks(6), 0)[0][4] == card_line_weights(
            bet, Shoe.decks(6), STANDARD, {0: (4, None)}
        )  # the same products serve every shoe
    rank_products.cache_clear()


def test_damaged_or_foreign_products_are_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path))
    rank_products.cache_clear()
    bet, shoe = get_bet("perfect-pairs-v1"), Shoe.decks(1).remove("9H,KS")
    expected = rank_line_weights([bet], shoe, 0)
    key, path = _store("perfect-pairs-v1", 0)
    good = path.read_bytes()
    with np.load(io.BytesIO(good[good.index(b"\n") + 1 :])) as data:
        arrays = {name: data[name] for name in data.files}

    def archive(**changed: np.ndarray) -> bytes:
        buffer = io.BytesIO()
        np.savez(buffer, **{**arrays, **changed})
        return buffer.getvalue()

    index, bounds = arrays["index"], arrays["bounds"]
    for wrong in (
        archive(index=index + len(arrays["keys"])),  # a product past the last
        archive(bounds=bounds[:-1]),  # a column too few
        archive(bounds=bounds[::-1]),  # columns out of order
        archive(flags=np.array([2])),
        archive(multiplicity=arrays["multiplicity"].astype(np.int32)),
        b"garbage",
    ):
        diskcache.write_cache_file("plans", key, wrong)  # a right checksum over wrong arrays
        rank_products.cache_clear()
        assert rank_line_weights([bet], shoe, 0) == expected
        assert path.read_bytes() == good
    path.write_bytes(good[: len(good) // 2])  # a truncated file: its checksum fails
    rank_products.cache_clear()
    assert rank_line_weights([bet], shoe, 0) == expected and path.read_bytes() == good
    rank_products.cache_clear()
