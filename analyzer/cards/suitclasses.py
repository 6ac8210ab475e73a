"""Suit classes for refining coup rows by suit: the card engine's rows carry ranks only, and
a row where a suit condition could change the settlement is expanded into rows whose
positions are classes of card types (one rank with a set of suits).

Each expanded row gives every refined position a representative suit (what the bet's
conditions read) and a suit mask (what the weights count). Classes within a row stay
nested or disjoint, which the engine's weights need (`analyzer.cards.engine`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["ANY_SUIT", "refine_rows", "suit_options"]

#: The suit mask of every suit (bit s for suit s: S, H, D, C).
ANY_SUIT = 0b1111


def suit_options(cols: list[int], related: set[int], named: list[int]) -> list[list[tuple[int, int]]]:
    """The suit classes to enumerate at positions `cols` (a row's positions whose suits
    matter): each option gives every position a (representative suit, suit mask).

    A position whose suit is read only by name (the suits of mask `named[i]` at position
    `cols[i]`) takes each named suit, and the other suits as one class. Positions whose
    suits are compared take each suit, except the last of them: it takes each suit of the
    earlier compared positions or a named suit, and every other suit as one class. Each
    option's suits settle every condition alike, and the classes of a row stay nested or
    disjoint (see the module doc), so each option's weight is the sum of the weights of
    the suits it stands for."""
    compared = [c for c in cols if c in related]
    options: list[list[tuple[int, int]]] = [[]]
    for c, names in zip(cols, named, strict=True):
        grown: list[list[tuple[int, int]]] = []
        for option in options:
            if c in related and c != compared[-1]:
                choices = [(suit, 1 << suit) for suit in range(4)]
            else:
                earlier = {option[cols.index(d)][0] for d in compared if d != c} if c in related else set()
                singles = sorted(earlier | {suit for suit in range(4) if names >> suit & 1})
                rest = [suit for suit in range(4) if suit not in singles]
                choices = [(suit, 1 << suit) for suit in singles]
                if rest:
                    choices.append((rest[0], sum(1 << suit for suit in rest)))
            grown.extend([*option, choice] for choice in choices)
        options = grown
    return options


def refine_rows(
    ranks: np.ndarray, need: np.ndarray, related: np.ndarray, named: np.ndarray, colour: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows with the suits at their `need` positions enumerated by `suit_options`:
    (ranks, representative suits, suit masks, parent row index, colour flag) of every
    expanded row."""
    bits = 1 << np.arange(6)
    names = (named.astype(np.int64) & 15) @ (16 ** np.arange(6))  # 4 bits a position
    compared_bits = related.astype(np.int64) @ bits
    pattern = ((names * 2 + colour) * 64 + compared_bits) * 64 + need.astype(np.int64) @ bits
    out_ranks, out_suits, out_masks, parents = [], [], [], []
    for p in np.unique(pattern).tolist():
        idx = np.flatnonzero(pattern == p)
        cols = [i for i in range(6) if p >> i & 1]
        compared = {i for i in cols if p >> (6 + i) & 1}
        masks_named = [p >> (13 + 4 * i) & 15 for i in cols]
        options = np.array(suit_options(cols, compared, masks_named), dtype=np.int8)
        options = options.reshape(len(options), len(cols), 2)
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
    return np.vstack(out_ranks), np.vstack(out_suits), np.vstack(out_masks), parent, colour[parent]
