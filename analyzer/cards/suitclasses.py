"""Suit classes for refining coup rows by suit: the card engine's rows carry ranks only, and
a row where a suit condition could change the settlement is expanded into rows whose
positions are classes of card types (one rank with a set of suits).

Each expanded row gives every refined position a representative suit (what the bet's
conditions read) and a suit mask (what the weights count). Classes within a row stay
nested or disjoint, which the engine's weights need (`analyzer.cards.engine`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["ANY_SUIT", "refine_rows", "refined_counts", "suit_options"]

#: The suit mask of every suit (bit s for suit s: S, H, D, C).
ANY_SUIT = 0b1111


def suit_options(
    cols: list[int], components: list[int | None], lumped: set[int], named: list[int]
) -> list[list[tuple[int, int]]]:
    """The suit classes to enumerate at positions `cols` (a row's positions whose suits
    matter): each option gives every position a (representative suit, suit mask).

    A position whose suit is read only by name (`components[i]` is None, the suits of mask
    `named[i]` are named at position `cols[i]`) takes each named suit, and the other suits
    as one class. Positions whose suits are compared (`components[i]`: the positions compared
    with one another, directly or through others, share one) take each suit, except the
    positions in `lumped` (the last of a component, where no other lumped position has its
    rank): each takes each suit of its component's earlier positions or a named suit, and
    every other suit as one class. Each option's suits settle every condition alike, and
    the classes of a row stay nested or disjoint (see the module doc), so each option's
    weight is the sum of the weights of the suits it stands for."""
    options: list[list[tuple[int, int]]] = [[]]
    for at, (c, component, names) in enumerate(zip(cols, components, named, strict=True)):
        grown: list[list[tuple[int, int]]] = []
        for option in options:
            if component is not None and c not in lumped:
                choices = [(suit, 1 << suit) for suit in range(4)]
            else:
                same = [d for d in range(at) if component is not None and components[d] == component]
                earlier = {option[d][0] for d in same}
                singles = sorted(earlier | {suit for suit in range(4) if names >> suit & 1})
                rest = [suit for suit in range(4) if suit not in singles]
                choices = [(suit, 1 << suit) for suit in singles]
                if rest:
                    choices.append((rest[0], sum(1 << suit for suit in rest)))
            grown.extend([*option, choice] for choice in choices)
        options = grown
    return options


def _components(ranks: np.ndarray, linked: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each position's component ((R, 6) its smallest position, 7: not compared) and which
    positions are lumped ((R, 6) bool; see `suit_options`)."""
    reach = linked.astype(np.int64)
    for k in range(6):  # Warshall: a position reaching k reaches what k reaches
        for i in range(6):
            reach[:, i] |= np.where(reach[:, i] >> k & 1, reach[:, k], 0)
    lowest = np.array([(m & -m).bit_length() - 1 if m else 7 for m in range(64)], dtype=np.int64)
    component = lowest[reach]
    last = (reach != 0) & (reach >> np.arange(1, 7) == 0)  # no later position in its component
    lumped = last.copy()
    for i in range(6):  # two lumped classes of one rank could overlap: the later one is not lumped
        for j in range(i):
            lumped[:, i] &= ~(last[:, j] & (ranks[:, j] == ranks[:, i]))
    return component, lumped


def _patterns(
    ranks: np.ndarray, need: np.ndarray, linked: np.ndarray, named: np.ndarray, colour: np.ndarray
) -> np.ndarray:
    """(R,) each row's refinement pattern: the positions whose suits matter, the lumped ones,
    the components, the colour flag and the named suits, in one integer (`_options` reads it)."""
    bits = 1 << np.arange(6)
    component, lumped = _components(ranks, linked)
    names = (named.astype(np.int64) & 15) @ (16 ** np.arange(6))  # 4 bits a position
    components = component @ (8 ** np.arange(6))  # 3 bits a position
    pattern: np.ndarray = need.astype(np.int64) @ bits + 64 * (lumped.astype(np.int64) @ bits)
    pattern += 2**12 * components + 2**30 * colour + 2**31 * names
    return pattern


@lru_cache(maxsize=256)
def _options(p: int) -> tuple[list[int], np.ndarray]:
    """The refined positions of pattern `p` and its `suit_options` ((O, positions, 2) int8)."""
    cols = [i for i in range(6) if p >> i & 1]
    labels = [p >> (12 + 3 * i) & 7 for i in cols]
    options = np.array(
        suit_options(
            cols,
            [None if label == 7 else label for label in labels],
            {i for i in cols if p >> (6 + i) & 1},
            [p >> (31 + 4 * i) & 15 for i in cols],
        ),
        dtype=np.int8,
    )
    return cols, options.reshape(len(options), len(cols), 2)


def refined_counts(
    ranks: np.ndarray, need: np.ndarray, linked: np.ndarray, named: np.ndarray, colour: np.ndarray
) -> np.ndarray:
    """(R,) how many rows `refine_rows` expands each row into, without expanding them."""
    pattern = _patterns(ranks, need, linked, named, colour)
    distinct, inverse = np.unique(pattern, return_inverse=True)
    sizes = np.array([len(_options(p)[1]) for p in distinct.tolist()], dtype=np.int64)
    counts: np.ndarray = sizes[inverse.ravel()]
    return counts


def refine_rows(
    ranks: np.ndarray, need: np.ndarray, linked: np.ndarray, named: np.ndarray, colour: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows with the suits at their `need` positions enumerated by `suit_options`, `linked`
    (R, 6) each position's mask of the positions its suit is compared with (0: none):
    (ranks, representative suits, suit masks, parent row index, colour flag) of every
    expanded row (`refined_counts` of each row)."""
    pattern = _patterns(ranks, need, linked, named, colour)
    out_ranks, out_suits, out_masks, parents = [], [], [], []
    # grouped through the inverse: a plain np.unique would import numpy.ma (about 25 ms)
    distinct, inverse = np.unique(pattern, return_inverse=True)
    inverse = inverse.ravel()
    for k, p in enumerate(distinct.tolist()):
        idx = np.flatnonzero(inverse == k)
        cols, options = _options(p)
        suits = np.full((len(idx), len(options), 6), -1, dtype=np.int8)
        suits[:, :, cols] = options[None, :, :, 0]
        masks = np.full((len(idx), len(options), 6), ANY_SUIT, dtype=np.int8)
        masks[:, :, cols] = options[None, :, :, 1]
        out_suits.append(suits.reshape(-1, 6))
        out_masks.append(masks.reshape(-1, 6))
        out_ranks.append(np.repeat(ranks[idx], len(options), axis=0))
        parents.append(np.repeat(idx, len(options)))
    if not parents:
        empty = np.zeros((0, 6), dtype=np.int8)
        return empty, empty, empty, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    parent = np.concatenate(parents)
    ranks, masks = np.vstack(out_ranks), np.vstack(out_masks)
    _check_nested(ranks, masks)
    return ranks, np.vstack(out_suits), masks, parent, colour[parent]


def _check_nested(ranks: np.ndarray, masks: np.ndarray) -> None:
    """The weights' premise: two classes of one rank in a row are nested or disjoint."""
    for i in range(6):
        for j in range(i + 1, 6):
            at = np.flatnonzero((ranks[:, i] == ranks[:, j]) & (ranks[:, i] >= 0))
            mi, mj = masks[at, i], masks[at, j]
            apart = ((mi & mj) == 0) | ((mi & ~mj) == 0) | ((mj & ~mi) == 0)
            assert apart.all(), "suit classes of one rank overlap"
