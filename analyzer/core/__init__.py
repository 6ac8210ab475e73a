"""The vocabulary every other subpackage shares: cards, shoes, rules and bets, as validated data.

Modules:

- ``ranks``: the 13 ranks and their point values (A = 1, 2-9 face value, 10/J/Q/K = 0; a
  hand's total is the sum modulo 10).
- ``suits``: suits, colours and the 52 card types, indexed suit-major as ``--cards`` lists them
  (spades A..K, then hearts, diamonds, clubs); hearts and diamonds are red.
- ``shoe``: immutable shoes: d decks, counts per rank or per card type, removals, the infinite
  deck.
- ``rules``: the tableau as a validated ``Rules`` value, the built-ins and TOML files.
- ``bets``: the bet language (paytables of conditions on a coup's outcome), parsed and
  checked (``Bet``; ``analyzer.analyses.pricing`` prices a bet).
- ``fields``: the card-level conditions of the bet language (ranks, suits, colours, pairs,
  counts by position).
- ``catalogue``: the built-in bets and tables (``catalogue.toml``, ``card_catalogue.toml``,
  each bet citing its source, and ``parsed-catalogues.json``, the same parsed and its bets
  read and checked, which a cold ``baccarat edges`` takes without tomllib or checking them
  again) and user table files.
- ``outcome``: a finished coup as a value (``Outcome``, ``Winner``: who won, the totals, the
  cards per hand, naturals and pairs) and its packing into one integer code.
- ``analysis``: ``BetAnalysis``, the exact figures of one bet on one shoe: the result every
  engine returns.
- ``tablefile``: a bet and its tableau written back as the TOML text that ``get_table``
  reads (``baccarat design --write``).
- ``errors``: ``AnalyzerError``, the one exception for bad input (the CLI's exit code 2 and one
  line), and how a message quotes a bad value; ``parsing``: the parsers every module shares
  (numbers and lists given as text, a data file's keys, text and TOML files read within a
  size limit).
- ``checks``, ``conventions``: the argument type checks of the public entry points (a wrong
  type is an ``AnalyzerError`` naming the argument and what is allowed), and the
  conventional arguments (shoe, rules, bet, bets) checked by name.
- ``files``: files written whole or not at all (a temporary file renamed over the old one).
- ``progress``: progress bars on standard error, shown only when the command line turns them
  on (the library is silent); ``signals``: the signals that end a command (Ctrl-C, SIGTERM,
  SIGHUP), named once for the layers that hold them back or handle them.
- ``renames``: old names kept working as deprecated aliases (``Renamed``,
  ``renamed_function``): each warns and gives what its new name gives.
- ``frames``: pandas frames of result rows for notebooks (the optional ``frames`` extra).
- ``values``: ``value_class``, a frozen dataclass built without ``exec`` (the same fields,
  signature, repr, equality, hashing and pickling) for the classes a cold command loads.

Tableaux. A ``Rules`` value holds the natural threshold, the totals on which Punto draws,
Banco's totals when Punto stood, and Banco's matrix (Banco total x point value of Punto's
third card). Built-ins: ``standard`` (every casino source) and ``banco-4-draws-on-0-1`` (the
grid of a Russian-language beginner's guide, where Banco 4 also draws against a third card of
0 or 1). A TOML file defines any other; keys left out keep those of ``base``
(default ``standard``).

Bets. A bet is an ordered list of lines, each a condition (``when``: all of its fields must
hold) and ``pays``: a ratio paid to 1 (1, 0.95, ``"19/20"``), ``"N for 1"`` (net N - 1),
``"push"``, ``"lose"`` or a partial loss (``"lose half"``, ``"lose 1/4"``). The first matching line settles
the bet; an outcome no line matches loses the stake. Rank-level fields: ``winner``,
``player_total``, ``banker_total``, ``player_initial``, ``banker_initial`` (two-card totals),
``player_cards``, ``banker_cards``, ``cards`` (in all), ``natural``, ``player_pair``,
``banker_pair``, ``margin``. Card-level fields (``fields``) make a bet card-level, priced by
``analyzer.cards``: positions p1, b1, p2, b2, p3, b3 in dealing order; ``p1_rank`` ...
``b3_rank`` (a rank, or "none" when not dealt) and ``p1_suit`` ... ``b3_suit`` (S, H, D, C or
"none"); ``player_first_two`` / ``banker_first_two`` (the first two ranks as a set, "A-8");
``player_suited``, ``player_perfect_pair`` (same rank and suit), likewise for banker;
``pairs_same_rank``, ``pairs_same_card`` (both hands' first two cards one rank / one card);
``player_colour``, ``banker_colour``, ``colour`` (the whole coup: red, black or mixed);
``player_highest``, ``banker_highest``, ``highest`` (highest point value, 0-9);
``count_first_four`` and ``count_coup``: tables of how many cards of a rank (``"9"``), a suited
card (``"9D"``) or a point value (``"value 0"``) appear among the first four cards or in the
whole coup. A bet reading suits or colours needs a shoe whose suits are known.

Tables. A table is what a casino offers: a tableau (a rules name, a path or an inline
``[rules]`` table) and bets: built-ins (``offer``), ``banker_commission``, ``tie_pays`` and
bets defined in the file (``[bets.NAME]``).
"""
