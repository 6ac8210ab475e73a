"""Effects of removal as text: the change in each bet's expectation from removing one card
of each rank (or card type), the identity sum n EoR = 0, and the best linear counts derived
from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from analyzer.core.ranks import RANKS
from analyzer.present.document import Block, Heading, Paragraph, Table, write
from analyzer.present.text import check_format, dumps, exact, signed_decimal, user_text

if TYPE_CHECKING:
    from analyzer.analyses.effects import CardEffects, EffectsOfRemoval, RemovalEffects
    from analyzer.counting.systems import DerivedCount

__all__ = [
    "DERIVED_HEADERS",
    "card_eor_blocks",
    "derived_rows",
    "eor_blocks",
    "removal_effects_blocks",
    "removal_effects_data",
    "render_card_eor",
    "render_eor",
    "render_removal_effects",
]


def _eor_data(eor: EffectsOfRemoval) -> dict[str, Any]:
    return {
        "shoe": str(eor.shoe),
        "rules": eor.rules.name,
        "expectation": {bet: exact(ev) for bet, ev in eor.base.items()},
        "bets": {bet: {rank: exact(v) for rank, v in eff.items()} for bet, eff in eor.effects.items()},
        "identity": {bet: exact(total) for bet, total in eor.identity.items()},
    }


def _eor_blocks(eor: EffectsOfRemoval, fmt: str, places: int = 7) -> list[Block]:
    """Effects of removal: change in each bet's expectation per unit bet from removing one
    card of each rank, and the full-shoe identity sum_r n_r * EoR_r = 0."""
    title = f"Effects of removal: {_shoe_rules(eor, fmt)} rules"
    note = (
        "Change in expectation per unit bet (bettor's view) from removing one card of each rank "
        "off the top of this shoe; ten-valued ranks share one row when their effects are equal. Last "
        "row: sum over ranks of (cards of the rank) x effect, exactly 0 for every bet: removing a "
        "random card leaves the expectation unchanged."
    )
    return [Heading(title), *_eor_by_rank(eor, fmt, places), Paragraph(note)]


#: Bets per block of the effects-of-removal table (ranks as rows), so it fits 120 columns.
_EOR_BETS_PER_BLOCK = 7


def _eor_by_rank(eor: EffectsOfRemoval, fmt: str, places: int) -> list[Block]:
    """Effects of removal with ranks as rows and bets as columns, a table per block of bets."""
    identity = eor.identity
    bets = list(eor.effects)
    ranks = list(next(iter(eor.effects.values())).keys()) if eor.effects else []
    tens = [rank for rank in ranks if rank in ("10", "J", "Q", "K")]
    merge = len(tens) > 1 and all(len({eor.effects[bet][r] for r in tens}) == 1 for bet in bets)
    groups = [[rank] for rank in ranks if not (merge and rank in tens)]
    if merge:
        groups.append(tens)
    blocks: list[Block] = []
    for start in range(0, len(bets), _EOR_BETS_PER_BLOCK):
        chosen = bets[start : start + _EOR_BETS_PER_BLOCK]
        rows = [
            [
                ", ".join(group) + (" (each)" if len(group) > 1 else ""),
                *(signed_decimal(eor.effects[bet][group[0]], places) for bet in chosen),
            ]
            for group in groups
        ]
        rows.append(["sum n_r x effect", *(exact(identity[bet]) for bet in chosen)])
        blocks.append(Table.of(rows, ["rank removed", *(user_text(bet, fmt) for bet in chosen)]))
    return blocks


DERIVED_HEADERS = [
    "bet", "level", "tags A..9, ten", "balanced", "betting correlation", "break-even true count",
]  # fmt: skip


def _shoe_rules(eor: EffectsOfRemoval | CardEffects, fmt: str) -> str:
    """ "SHOE, RULES" of a heading, as `fmt` shows a user's text."""
    return f"{user_text(str(eor.shoe), fmt)}, {user_text(eor.rules.name, fmt)}"


def derived_rows(counts: Sequence[DerivedCount], fmt: str = "table") -> list[list[str]]:
    """Rows of best linear counts: tags shown for A..9 and the ten-valued ranks, or for each
    rank A..K when the ten-valued ranks' tags differ (the bet's name as `fmt` shows a user's
    text)."""
    return [
        [
            user_text(c.bet, fmt),
            str(c.level),
            " ".join(f"{t:+d}" for t in c.tags[:10])
            if len(set(c.tags[9:])) == 1
            else "A..K: " + " ".join(f"{t:+d}" for t in c.tags),
            "yes" if c.balanced else "no",
            f"{c.correlation:.4f}",
            f"{c.break_even:.1f}",
        ]
        for c in counts
    ]


def _counts_data(counts: Sequence[DerivedCount]) -> dict[str, list[dict[str, Any]]]:
    """The JSON of best linear counts, by bet."""
    data: dict[str, list[dict[str, Any]]] = {c.bet: [] for c in counts}
    for c in counts:
        data[c.bet].append(
            {
                "level": c.level,
                "tags": dict(zip(map(str, RANKS), c.tags, strict=True)),
                "balanced": c.balanced,
                "betting_correlation": round(c.correlation, 6),
                "break_even_true_count": round(c.break_even, 3),
            }
        )
    return data


def _eor_counts_data(eor: EffectsOfRemoval, counts: Sequence[DerivedCount]) -> dict[str, Any]:
    """The JSON of rank-level effects of removal with the best counts derived from them."""
    data = _eor_data(eor)
    data["best_counts"] = _counts_data(counts)
    return data


def eor_blocks(
    eor: EffectsOfRemoval, fmt: str, counts: Sequence[DerivedCount] = (), places: int = 7
) -> list[Block]:
    """The blocks of `render_eor` (a user's text as `fmt` shows it)."""
    blocks = _eor_blocks(eor, fmt, places)
    if counts:
        title = "Best linear counts (from these effects)"
        blocks += [Heading(title), Table.of(derived_rows(counts, fmt), DERIVED_HEADERS)]
    return blocks


def render_eor(eor: EffectsOfRemoval, fmt: str, counts: Sequence[DerivedCount] = (), places: int = 7) -> str:
    """Effects of removal and the identity they satisfy; with `counts`, the best linear
    counts derived from them."""
    check_format(fmt)
    if fmt == "json":
        return dumps(_eor_counts_data(eor, counts))
    return write(eor_blocks(eor, fmt, counts, places), fmt)


def _card_eor_data(eor: CardEffects) -> dict[str, Any]:
    return {
        "shoe": str(eor.shoe),
        "rules": eor.rules.name,
        "expectation": {bet: exact(ev) for bet, ev in eor.base.items()},
        "per": eor.per,
        "bets": {bet: {k: exact(v) for k, v in eff.items()} for bet, eff in eor.effects.items()},
        "identity": {bet: exact(total) for bet, total in eor.identity.items()},
    }


def card_eor_blocks(
    eor: CardEffects, fmt: str, places: int = 7, counts: Sequence[DerivedCount] | None = None
) -> list[Block]:
    """The blocks of `render_card_eor` (a user's text as `fmt` shows it)."""
    blocks: list[Block] = []
    for per in ("card type", "rank"):
        bets = [bet for bet, p in eor.per.items() if p == per]
        if not bets:
            continue
        keys = list(eor.effects[bets[0]])
        rows = [[key, *(signed_decimal(eor.effects[b][key], places) for b in bets)] for key in keys]
        rows.append(["sum n EoR", *(exact(eor.identity[b]) for b in bets)])
        title = f"Effects of removal per {per}, card-level bets: {_shoe_rules(eor, fmt)} rules"
        blocks += [Heading(title), Table.of(rows, [per, *(user_text(b, fmt) for b in bets)])]
    note = (
        "Change in expectation per unit bet (bettor's view) from removing one card of each type or rank. "
        "Last row: sum over the shoe of (cards of the type or rank) x effect, exactly 0."
    )
    blocks.append(Paragraph(note))
    return blocks if counts is None else blocks + _card_counts(eor, counts, fmt)


def render_card_eor(
    eor: CardEffects, fmt: str, places: int = 7, counts: Sequence[DerivedCount] | None = None
) -> str:
    """Effects of removal of card-level bets: one row per card type (bets that read suits)
    or rank, one column per bet, and the identity sum n EoR = 0; with `counts` (those of
    these bets), the best linear counts derived from their effects per rank (in JSON under
    "best_counts"), and why a bet has none."""
    check_format(fmt)
    if fmt == "json":
        data = _card_eor_data(eor)
        if counts is not None:
            data["best_counts"] = _counts_data(counts)
        return dumps(data)
    return write(card_eor_blocks(eor, fmt, places, counts), fmt)


def _card_counts(eor: CardEffects, counts: Sequence[DerivedCount], fmt: str) -> list[Block]:
    """The best linear counts of card-level bets, from their effects per rank, and a line for
    each bet with none."""
    blocks: list[Block] = []
    if counts:
        title = "Best linear counts of card-level bets (from their effects per rank)"
        blocks += [Heading(title), Table.of(derived_rows(counts, fmt), DERIVED_HEADERS)]
    if any(per == "card type" for per in eor.per.values()):
        blocks.append(
            Paragraph(
                "A bet per card type is counted by rank: a rank's effect is its card types' effects "
                "weighted by their counts (the change from removing a card of that rank at random)."
            )
        )
    counted = {c.bet for c in counts}
    for bet in eor.effects:
        if bet not in counted:
            blocks.append(
                Paragraph(
                    f"No linear count for {user_text(bet, fmt)}: removing a card of any rank changes its "
                    "expectation alike, so no count of ranks follows it."
                )
            )
    return blocks


def removal_effects_data(result: RemovalEffects, counts: Sequence[DerivedCount] = ()) -> dict[str, Any]:
    """The JSON document of `render_removal_effects`: the rank-level keys (with the counts
    derived for rank-level bets), the card-level document (with its bets' counts under
    "best_counts") under "card_level", alone if no bet is rank-level."""
    ranked = [c for c in counts if result.ranks is not None and c.bet in result.ranks.effects]
    carded = [c for c in counts if result.cards is not None and c.bet in result.cards.effects]
    card_level: dict[str, Any] | None = None
    if result.cards is not None:
        card_level = _card_eor_data(result.cards)
        card_level["best_counts"] = _counts_data(carded)
    if result.ranks is None:
        return card_level if card_level is not None else {}
    data = _eor_counts_data(result.ranks, ranked)
    if card_level is not None:
        data["card_level"] = card_level
    return data


def removal_effects_blocks(
    result: RemovalEffects, fmt: str, counts: Sequence[DerivedCount] = (), places: int = 7
) -> list[Block]:
    """The blocks of `render_removal_effects` (a user's text as `fmt` shows it)."""
    ranked = [c for c in counts if result.ranks is not None and c.bet in result.ranks.effects]
    carded = [c for c in counts if result.cards is not None and c.bet in result.cards.effects]
    blocks = eor_blocks(result.ranks, fmt, ranked, places) if result.ranks is not None else []
    if result.cards is not None:
        blocks += card_eor_blocks(result.cards, fmt, places, carded)
    return blocks


def render_removal_effects(
    result: RemovalEffects, fmt: str, counts: Sequence[DerivedCount] = (), places: int = 7
) -> str:
    """Effects of removal of rank-level and card-level bets as one document: the rank-level
    table (with the best linear counts of `counts` derived from it) then the card-level one
    (with theirs); in JSON the rank-level keys with the card-level document under
    "card_level" (the whole document when every bet is card-level)."""
    check_format(fmt)
    if fmt == "json":
        return dumps(removal_effects_data(result, counts))
    return write(removal_effects_blocks(result, fmt, counts, places), fmt)
