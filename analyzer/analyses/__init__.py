"""Analyses built on the engines: what the commands compute, as typed results.

Each module takes shoes, rules and bets (``analyzer.core``), calls the rank-level engine
(``analyzer.ranks``) or the card-level one (``analyzer.cards``), and returns exact results
(``Fraction``s) that ``analyzer.present`` renders.

- ``pricing``: the exact figures of any bet, rank-level or card-level, on any shoe, by the
  fastest exact path (``analyze``, ``analyze_bets``; ``baccarat edges``).
- ``results``: each analysis command (``odds``, ``punto-table``, ``rules``, ``edges``,
  ``compare``, ``closed-form``, ``design``) as a function of typed arguments returning a typed
  result holding the shoe, rules and shown cards it used (``edges_result``, ``EdgesResult``,
  ...); design's defaults and the paytable file it writes.
- ``choice``: which bets a command values and under which rules (``choose_bets``): a table's
  bets, named ones (the table's own or built-ins), a Banker bet of a given commission, or
  every built-in the shoe can price; the rules given, else the table's, else standard.
- ``odds``: outcome probabilities and the 6-card-sequence counts (``odds``, ``baccarat odds``),
  and the table after the Player's (Punto's) two-card total with draw and stand rows for 5
  (``player_table``; ``punto_table`` is its old, deprecated name).
- ``shown``: odds and bet values given cards lying at dealt positions (``--shown p1=9,b1=KH``,
  as during the squeeze); a shown p3 or b3 also says that card was dealt. Probabilities are
  ratios of card-level weights, for any shoe.
- ``known``: known cards and edge sorting (``known_cards``, ``known_result``; ``baccarat
  known``): the exact value of knowing, before betting, the cards at shoe positions 1-6, or
  only whether each is in a sorted class; every information state's probability, every bet's
  expectation and the best action (sitting out when no bet is positive), and the value per
  coup, per bet made and the fraction of coups bet. ``known_tensor``: each rank-level bet's
  integer numerator for every assignment of ranks to the known positions, from every 6-card
  sequence of the shoe; ``known_shown``: card-level bets there from the card engine's shown
  cards (positions 1-4); ``known_sorts``: the best sort, every split of the point values (or
  ranks) valued from those numerators at once.
- ``effects``: effects of removal, one entry and one result for any bets
  (``effects_of_removal``; ``card_effects_of_removal`` and ``removal_effects`` are its old,
  deprecated names): rank-level bets per rank (the rank-level batch evaluator values the
  shoe and every one-card removal together), card-level bets per card type for bets reading
  suits or colours and per rank otherwise, and every bet per rank (``by_rank``: a rank's card
  types weighted by their counts), which the best linear counts are derived from; the
  identity sum_t n_t EoR_t = 0 holds exactly.
- ``compare``: tables side by side across shoes, the Banker commission whose edge equals each
  bet's (Super 6: 5.8727%), and how a tableau variant moves every bet (``baccarat compare``).
- ``closed_form``: each bet's result probabilities and house edge as exact rational functions
  of the number of decks d, from the compiled coup classes with sympy (``baccarat
  closed-form``). With d decks each basis monomial is a polynomial in d of degree 6, so an
  outcome's probability is an integer polynomial in d over (52d)_6; the infinite-deck limits
  are the ratios of leading coefficients.
- ``design``: paytable design (``baccarat design``): every assignment of whole payouts to a
  bet's unknown lines whose exact house edge lies in a window on every shoe asked for;
  ``paysearch``: the exact search of whole-number points in bands behind it.
- ``shipped``: builds the polynomial files shipped in ``analyzer/ranks/coups`` (run by
  ``scripts/build_coups.py``): each outcome's and each built-in bet line's weight as a
  polynomial in the number of decks, interpolated from the general paths.

House edges are per unit bet, positive when the house wins, pushes counted as bets; the edge
per resolved bet divides by the probability that the bet does not push.
"""
