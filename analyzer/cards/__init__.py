"""The card-level engine: exact values of bets that look at individual cards.

Side bets such as Perfect Pairs, Lucky Nines, Super Tie and Tie Max read a position's rank or
suit, the colours of a hand or of the coup, or how many cards of a rank, suited card or point
value were dealt (the fields of ``analyzer.core.fields``). They are priced here, on shoes of
13 rank counts or of 52 card-type counts (``Shoe.from_cards``, ``--cards``).

Modules:

- ``conditions``: a bet's lines as conditions on arrays of coup rows, and its payouts.
- ``factored``: bets valued from the cards they read (the fields say which): *hand pairs*
  (every condition reads one hand's first two cards: Perfect Pairs, Perfect 9 Bonus) as
  quadratic forms in the 52 card-type counts; *first-four counts* (Lucky Nines) by classes of
  card types.
- ``restrictions``: *coup restrictions*, rank-level outcome conditions with the coup's colour
  or highest value (Super Tie, Tie Max): the rank-level coup classes on sub-shoes (the red
  cards, the cards of value at most h) with the whole shoe's tails.
- ``rows``: every rank sequence of a coup under a tableau, unrolled from the coup graph.
- ``suitclasses``: the classes of suits a row is refined into where a condition reads suits.
- ``budget``: the bound on a plan's work, said before it starts (the rows refined by suit,
  counted first; a plan over the limit refused, the rest refined in parts of bounded size).
- ``engine``: a bet's *plan* (its rows, refined by suit where a condition reads suits) and its
  weighing on one shoe (``card_line_weights``, ``plan_line_weights``, ``settle_cards``): the
  path of any other bet, of ``--shown`` (``analyzer.analyses.shown``), and the reference the
  factored forms are checked against.
- ``byrank``: a bet's line weights given the rank of the card at one of the first four
  positions, for every rank from one plan (``baccarat known``; the shown card of ``engine``,
  13 ranks at once), its products cached on disk like the plans' (``plancache``).
- ``products``: a plan's rows grouped by their factors (products), for batches of shoes;
  ``plancache``: those products cached on disk by the bet's conditions and the code's version.
- ``batch``: ``CardEvaluator`` (many 52-card-type compositions at once: counting studies,
  effects of removal; ``paths`` names each bet's path) and ``analyze_cards`` (one shoe, by the
  fastest exact path: a factored form, the cached products, else the engine).
- ``plain``: a plain card-by-card enumerator over card types, the independent slow check.

How the plans work. They are independent of the rank-level coup classes of ``analyzer.ranks``:
the rules' coup graph is unrolled into every rank sequence of a coup (about 1.7 million under
the standard tableau; only the 13**4 first-four deals when the chosen bets look no further). A
bet's lines are tried on each row with what the ranks decide; only rows where a suit or colour
condition could change the settlement are refined, by enumerating the suits of just the
positions those conditions read (by class: a suit read by name as itself or as one of the
others, the last of each group of compared suits as an earlier one or one of the others), and the hands'
colours through signed colour-restricted terms. Weights are exact integers in the ordered
6-card-sequence convention of ``analyzer.ranks``: a row of k cards, each a class of card types
(a rank with all its suits, one colour or one suit), counts the ordered ways to deal distinct
cards of those classes, times (N-k)_(6-k) for the cards that would follow. A row's weight is a
product of at most six factors size(class) - offset and the tail; rows with the same factors
weigh the same on every shoe, so ``products`` groups them once (each product with its signed
multiplicity on every line), and a batch costs one gather-and-multiply per product. Everything
there is int64 arithmetic, exact while a bet's numerator bound stays below 2**63; larger shoes
take Python integers. A bet reading suits or colours on a shoe whose suits are unknown
(``--counts``) is an error.

``plain`` shares nothing with the others but the rules, the Outcome type and the bet's lines:
it deals every sequence of card types card by card, plays the coup with the rules' own
drawing methods and reads each field from the dealt cards; tests check every path against
it on small shoes.
"""
