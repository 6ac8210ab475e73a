"""A plain pure-Python enumerator of one baccarat coup, the benchmark's whole-process reference.

It walks every sequence of point values a coup can deal (Punto, Banco, Punto, Banco, then
the third cards the standard tableau calls for), multiplying the number of cards of that
value left in the shoe, and adds each sequence's weight to Banker, Player or tie. Weights
follow the ordered 6-card-sequence convention of `baccarat odds`, so it prints the same
counts. Standard library only, integer arithmetic only; written to be as fast as a plain
loop over sequences can be (locals, a precomputed drawing table, no per-sequence calls),
with no algebra or symmetry folding: those are what the project's compiled enumerator adds.

Usage: python scripts/plain_enumerator.py [--decks N] [--remove 9,9,8]
(`--remove`: ranks A, 2..10, J, Q, K taken out of the shoe first: a depleted shoe.)
"""

import sys
from math import perm


def enumerate_coup(decks: int, removed: list[int] | None = None) -> list[int]:
    """Weights of Banker, Player and tie wins for a shoe of `decks` full decks less the
    cards of point values `removed`."""
    left = [16 * decks] + [4 * decks] * 9  # cards of each point value 0..9
    for value in removed or []:
        left[value] -= 1
    size = sum(left)
    tail = [perm(size - k, 6 - k) for k in range(7)]  # orderings of the unused cards
    # Banco draws on total b when Punto's third card has value v (index 10: Punto stood).
    lows = {0: 0, 1: 0, 2: 0, 3: 0, 4: 2, 5: 4, 6: 6}  # Banco total -> lowest third card it draws on
    banker_draws = [[b in lows and lows[b] <= v <= (9 if b <= 3 else 7) and not (b == 3 and v == 8)
                    for v in range(10)] + [b <= 5] for b in range(10)]  # fmt: skip
    counts = [0, 0, 0]  # banker, player, tie
    values = range(10)
    t4, t5, t6 = tail[4], tail[5], tail[6]
    for p1 in values:
        w1 = left[p1]
        left[p1] -= 1
        for b1 in values:
            w2 = w1 * left[b1]
            left[b1] -= 1
            for p2 in values:
                w3 = w2 * left[p2]
                left[p2] -= 1
                p = (p1 + p2) % 10
                for b2 in values:
                    w4 = w3 * left[b2]
                    if not w4:
                        continue
                    b = (b1 + b2) % 10
                    if p >= 8 or b >= 8 or (p >= 6 and not banker_draws[b][10]):  # nobody draws
                        counts[(p > b) + 2 * (p == b)] += w4 * t4
                        continue
                    left[b2] -= 1
                    if p >= 6:  # Punto stands, Banco draws
                        w = w4 * t5
                        for v in values:
                            bf = (b + v) % 10
                            counts[(p > bf) + 2 * (p == bf)] += w * left[v]
                    else:  # Punto draws
                        for v in values:
                            w5 = w4 * left[v]
                            if not w5:
                                continue
                            pf = (p + v) % 10
                            if banker_draws[b][v]:
                                left[v] -= 1
                                w = w5 * t6
                                for u in values:
                                    bf = (b + u) % 10
                                    counts[(pf > bf) + 2 * (pf == bf)] += w * left[u]
                                left[v] += 1
                            else:
                                counts[(pf > b) + 2 * (pf == b)] += w5 * t5
                    left[b2] += 1
                left[p2] += 1
            left[b1] += 1
        left[p1] += 1
    return counts


def main() -> None:
    args = sys.argv[1:]
    decks = int(args[args.index("--decks") + 1]) if "--decks" in args else 8
    ranks = args[args.index("--remove") + 1].split(",") if "--remove" in args else []
    values = {"A": 1, "J": 0, "Q": 0, "K": 0, "10": 0} | {str(v): v for v in range(2, 10)}
    counts = enumerate_coup(decks, [values[rank.strip().upper()] for rank in ranks])
    for name, count in zip(("banker", "player", "tie"), counts, strict=True):
        print(f"{name:<8}{count:>24,}")
    print(f"{'total':<8}{sum(counts):>24,}")


if __name__ == "__main__":
    main()
