"""The card-level engine: exact values of bets that look at individual cards.

Side bets such as Perfect Pairs, Lucky Nines, Super Tie and Tie Max read a position's rank or
suit, the colours of a hand or of the coup, or how many cards of a rank, suited card or point
value were dealt (the fields of ``analyzer.core.fields``). They are priced here, on shoes of
13 rank counts or of 52 card-type counts (``Shoe.from_cards``, ``--cards``).

Modules:

- ``rows``: every rank sequence of a coup under a tableau, unrolled from the coup graph.
- ``engine``: one shoe at a time (``analyze_cards``, ``card_line_weights``, ``settle_cards``);
  the path of ``baccarat edges``, of ``--shown`` (``analyzer.analyses.shown``) and of the
  card-level effects of removal (``analyzer.analyses.effects``).
- ``batch``: ``CardEvaluator``, many 52-card-type compositions at once (counting studies).
- ``plain``: a plain card-by-card enumerator over card types, the independent slow check.

How ``engine`` works. It is independent of the rank-level coup classes of ``analyzer.ranks``:
the rules' coup graph is unrolled into every rank sequence of a coup (about 1.7 million under
the standard tableau; only the 13**4 first-four deals when the chosen bets look no further).
A bet's lines are tried on each row with what the ranks decide; only rows where a suit or
colour condition could change the settlement are refined, by enumerating the suits of just
the positions those conditions read, and the hands' colours through signed colour-restricted
terms. Weights are exact integers in the ordered 6-card-sequence convention of
``analyzer.ranks``: a row of k cards, each a class of card types (a rank with all its suits,
one colour or one suit), counts the ordered ways to deal distinct cards of those classes,
times (N-k)_(6-k) for the cards that would follow. A bet's plan (its rows, refined by suit)
is cached, so a shoe costs one weighing of the plan. Built-in card-level bets on full-deck
shoes are read from the polynomials in d of ``analyzer.ranks.polynomials`` instead; a user's
card-level bet is enumerated on each call. A bet reading suits or colours on a shoe whose
suits are unknown (``--counts``) is an error.

How ``batch`` works. A row's weight is a product of at most six factors size(class) - offset
and the tail; rows with the same factors weigh the same on every shoe. ``CardEvaluator``
groups the rows of each bet's plan by their factors once (36,213 products for the 8 built-in
card-level bets), each with its signed multiplicity on every line of every bet; a batch of
shoes then costs one gather-and-multiply per product and one integer multiply-add per product
and bet. Everything is int64 arithmetic, exact while a bet's numerator bound, (largest net
payout) x N(N-1)...(N-5), stays below 2**63; shoes above about 1,450 cards (28 decks), whose
6-card sequence counts pass 2**63, are valued exactly by the one-shoe engine, a few shoes per
second. Against ``analyze_cards`` shoe by shoe the batch is several hundred times faster (see
``reports/speed.md``).

``plain`` shares nothing with ``engine`` but the rules, the Outcome type and the bet's lines:
it deals every sequence of card types card by card, plays the coup with the rules' own
drawing methods and reads each field from the dealt cards; tests check ``engine`` and
``batch`` against it on small shoes.
"""
