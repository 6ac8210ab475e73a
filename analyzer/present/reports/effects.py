"""The effects-of-removal report: exact effects on 8 and 6 decks, how well the linear
estimate predicts depleted shoes, the best linear counts, and the plot of the effects."""

from __future__ import annotations

from pathlib import Path

from analyzer.analyses.effects import effects_of_removal, estimate_quality
from analyzer.core.catalogue import BETS, RANK_BETS
from analyzer.core.rules import STANDARD
from analyzer.core.shoe import Shoe
from analyzer.counting.simulation import Procedure, deal_chunk
from analyzer.counting.systems import derived_counts
from analyzer.present.document import Block, Heading, Paragraph, Table
from analyzer.present.effects import DERIVED_HEADERS, derived_rows, removal_effects_blocks
from analyzer.present.reports.shared import figure, put_title, report, save_png

__all__ = ["eor_plot", "eor_report"]


_EOR_SHOES = 200


def eor_report() -> str:
    """effects-of-removal.md: exact effects, the linear estimate's quality and the best linear counts."""
    bets = list(RANK_BETS.values())
    blocks: list[Block] = [
        Paragraph(
            "Exact change in each bet's expectation (bettor's view, per unit bet) from removing one card "
            "of each rank off the top of a full shoe, standard tableau. Published 8-deck values (Wizard of "
            "Odds) include Banker A +0.0000440, 4 +0.0001157, 6 -0.0001132 and Tie 6 -0.0011595, 8 "
            "+0.0006543. The ten-valued ranks 10, J, Q and K act alike, so they share one row."
        ),
        Paragraph("![Effects of removal, 8 decks](effects-of-removal.png)"),
    ]
    eight, six = (effects_of_removal(bets, Shoe.decks(decks)) for decks in (8, 6))
    for eor in (eight, six):
        blocks += removal_effects_blocks(eor, "markdown")
    # How well the linear estimate predicts exact expectations of depleted shoes.
    procedure = Procedure(shoe=Shoe.decks(8), cut_card=14)
    left = deal_chunk(procedure, STANDARD, 7, range(_EOR_SHOES)).left  # one batch: as shoe by shoe, 5x faster
    main = [BETS[name] for name in ("banker", "player", "tie", "dragon7", "panda8")]
    rows = []
    for label, chosen in (("every coup", left), ("coups with 52+ cards left", left[left.sum(axis=1) >= 52])):
        for q in estimate_quality(eight, main, chosen):
            figures = [
                f"{q.compositions:,}",
                f"{q.correlation:.4f}",
                f"{q.worst_error:.5f}",
                f"{q.rms_error:.6f}",
            ]
            rows.append([q.bet, label, *figures])
    blocks += [
        Heading("The linear estimate against exact values"),
        Paragraph(
            f"Every coup of {_EOR_SHOES} simulated 8-deck shoes (cut card 14 cards from the end, seed 7): "
            "the estimate EV0 - (N0-1) * sum_r (n_r/N - n0_r/N0) * EoR_r from the full-shoe effects against "
            "the exact expectation of the cards left. Errors are in units of the bet."
        ),
        Table.of(rows, ["bet", "coups", "compositions", "correlation", "worst error", "RMS error"]),
    ]
    # Best linear counts at levels 1-3.
    blocks += [
        Heading("Best linear counts"),
        Paragraph(
            "For each bet and level, the integer tags (A..9, then every ten-valued rank) of the highest "
            "betting correlation with the 8-deck effects over every tag vector of the level, found exactly "
            "(`analyzer.counting.search`), and the true count at which the linear estimate breaks even. "
            "Each level's best count comes first, balanced or not; when it is unbalanced, the best balanced "
            "count of the level (a full deck counts to zero) follows it."
        ),
        Table.of(derived_rows(derived_counts(eight, [bet.name for bet in bets])), DERIVED_HEADERS),
    ]
    return report("Effects of removal", blocks)


def eor_plot(path: Path) -> None:
    """Bar charts of the 8-deck effects of removal, ranks A..9 and the ten-valued ranks."""
    names = ("banker", "player", "tie", "dragon7", "panda8", "super6-banker")
    eor = effects_of_removal([BETS[name] for name in names], Shoe.decks(8))
    labels = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10-K"]
    fig = figure(11, 6)
    axes = fig.subplots(2, 3)
    for ax, name in zip(axes.flat, names, strict=True):
        values = [100 * float(eor.effects[name][rank]) for rank in [*labels[:9], "10"]]
        ax.bar(labels, values, color=["tab:green" if v > 0 else "tab:red" for v in values])
        ax.axhline(0, color="black", lw=0.6)
        put_title(ax, BETS[name].title)
        ax.set_xlabel("rank removed")
        ax.set_ylabel("change in expectation (% of a bet)")
    fig.suptitle("Effects of removing one card off the top of a full 8-deck shoe")
    fig.tight_layout()
    save_png(fig, path)
