"""The rank-level engine: every coup of a shoe, exactly, from the shoe's counts per rank.

Modules:

- ``graph``: the coup as a networkx state graph built from the rules (deal, naturals, Punto's
  decision, Banco's decision, settlement); ``baccarat rules --format dot`` draws it.
- ``tableau``: every way a coup goes on from its two-card totals, read straight from the
  tableau in the graph's order (the card engine's rows, without networkx).
- ``compiler``: the coup compiler: a tableau compiled once into coup classes (integer
  coefficients on monomials of the shoe's counts) and the monomials' values for a shoe.
- ``enumeration``: a tableau's coup classes (compiled, or read from the store) evaluated on a
  shoe (``distribution``, ``compile_rules``).
- ``coupstore``: the compiled classes on disk (shipped files, user cache) and their evaluation
  in plain Python integers.
- ``diskcache``: the user's cache folder (compiled classes, the card engine's plan products):
  files checked by a checksum, keyed by the producing code's version, bounded, cleared.
- ``polynomials``: full-deck shoes as polynomials in the number of decks d.
- ``lines``: a bet settled on every stored coup class: each bet's line per outcome, once per
  group of outcomes alike in the fields it reads, and each line's weight.
- ``polyeval``: exact batch evaluation of integer combinations of the class monomials, from
  ``polyparts`` (the factor tables and parts it takes) and ``polyproducts`` (exact products
  of coefficient blocks with a batch of parts, in float64).
- ``fast``: ``FastEvaluator``, many depleted shoes at once for a set of bets (what
  ``analyzer.analyses.effects`` values every one-card removal with).
- ``kernel``: the compiled valuation kernel (numba, the optional ``fast`` extra): every bet's
  exact numerators for a batch of compositions in one pass, modulo 2**64 (exact within the
  int64 bound checked on the shoe) and beyond it from ``kernel_wide``, to 10**6 decks;
  ``BACCARAT_KERNEL=numpy`` forces the numpy paths.
- ``kernel_wide``: the kernel beyond int64: the numerators modulo a few primes below 2**41
  in float64 (exact products by fused multiply-adds), joined by Garner's mixed radix into
  their exact values.
- ``kernel_modular``: the same with primes below 2**25, for layouts ``kernel_wide``'s
  bounds decline (coefficients past about 8,000).
- ``kernel_pinned``: the kernel on shoes of up to 458 cards: each numerator as a float64
  estimate with a proved error bound and a residue modulo 2**16 (or 2**32), pinned into the
  exact value; the uint64 kernel takes the compositions it cannot pin.
- ``hybrid``: compiled passes inside the numpy paths (their tables, their parts, the
  contraction of their products and the bets' combination), taken once the kernels are
  loaded; the BLAS products stay, over the rows with a nonzero coefficient only.
- ``plain``: a plain nested-loop enumerator over card ranks, the independent slow path.
- ``coups/``: the shipped classes and polynomials, built by ``python scripts/build_coups.py``.

Coup classes. A coup's probability depends only on the multiset of cards it uses. The rules
are compiled into coup classes: integer coefficients on about 7,900 monomials, each a product
of falling factorials of the shoe's per-value counts (with a refinement for pairs of
ten-valued cards, whose ranks can differ). The compile walks the state graph of ``graph``. The
classes of the built-in tableaux ship in ``coups/`` (a test checks each equals a fresh
compile); any other tableau, such as a ``--rules`` file, is compiled on first use (tens of
milliseconds) and cached by its content (natural and drawing sets, not its name) and the
code's version in ``$BACCARAT_CACHE``, else the platform's user cache folder (``diskcache``:
at most 128 files and 256 MiB; a damaged or edited file is recompiled). A shoe is then
a polynomial evaluation in plain Python integers, exact at any size, and one ``Fraction`` at
the end; ``odds`` uses three coefficient rows folded by result, so a cold ``baccarat odds``
loads neither numpy nor networkx (a test checks it). Bets are priced from the same classes:
outcomes alike in the fields a bet reads are settled once, and their weights summed once for
all bets reading the same fields. Weights count ordered 6-card sequences: a coup of k cards
is counted once per ordering of the 6 - k cards that would follow, so a shoe of N cards
totals N(N-1)...(N-5).

Polynomials in d. For d full decks every weight is a polynomial in d of degree at most 6 with
integer coefficients (a coup of k cards weighs a product of k factors m d - r times
(52 d - k)_(6-k)), so seven exact evaluations fix it, and its leading coefficient gives the
infinite deck. ``scripts/build_coups.py`` interpolates, from the general paths at d = 1..7,
each outcome's weight polynomial for the built-in tableaux and each line's for every built-in
bet, card-level ones included; tests check them against a fresh build and, to the unit,
against the coup classes and the card enumeration at d = 1, 2, 3, 6, 8 and 100 and the
infinite deck. ``odds``, ``distribution``, ``punto-table`` and ``edges`` on d decks evaluate
them, so a cold ``edges`` loads neither numpy nor the card-level engine (nor tomllib: the
built-in catalogues ship parsed too). Depleted shoes (``--remove``, ``--counts``, ``--cards``,
``--shown``), other tableaux and bets unlike any built-in (compared by their conditions, not
their names or payouts) take the general paths; a user's card-level bet is enumerated on each
call.

The batch evaluator (``fast.FastEvaluator``). A set of bets is compiled into outcome atoms
and the payouts are folded into the coefficients on as few columns as the bets need: an
integer basis of the lattice of payoff vectors, less the all-ones vector whose weight is the
known total N(N-1)...(N-5) (5 columns for the 8 main and side bets, 13 for all 19 rank-level
built-ins), each bet an integer combination of them. A monomial is a product of a part in the
pair kind and values 0-4, a part in the values 5-9 and a tail in the shoe size
(``polyeval``); each side's parts are computed as grids of half-products, and for each pair of
part degrees the coefficients form a dense block, contracted with the batch over its larger
side by one float64 matrix product (blocks sharing that side stacked into one product), the
smaller side and the tail applied after in int64. ``expectations`` takes batches of 384.

Exactness. Up to 456 cards of a value every part is an integer below 2**53, exact in float64:
a per-batch bound keeps each product's sums below 2**51, where a magic column lets them be
read as int64 without a conversion pass (``MonomialForm._magic_sum``; on 8-deck shoes every
group goes this way), and cuts the values into exact limbs where it does not. Everything after
is int64 arithmetic modulo 2**64, exact because the results are known to lie within 2**63.
More cards of a value, or results beyond int64 (shoes above about 800 cards), take one pass
(``MonomialForm._wide``) that computes each product in float64 and, modulo 2**64, from it and
one exact low limb (the magic column where rigorous bounds show its inputs exact and its sums
small; else the float product, within a bounded error, pins all but the low limb's bits; else
every limb), with float64 estimates of the results and rigorous bounds on their errors. Each
result is then pinned by its residue modulo 2**64 and its estimate while the bound is below
2**61 (about 1,100 decks for the main bets), and beyond that by residues modulo a few odd
moduli below 128 too (``evaluate_modular``: one float64 pass with every value exact, then
mixed radix), up to the 10**6-deck limit. No shoe of the built-in bets falls back to Python
integers; that path remains for payouts too large for the batch forms (or for the moduli, at
about nine times the built-in payouts) and for batches lopsided in different values (one rank
with millions of cards in each) beyond what the moduli pin. The rate falls with the number of
limbs and moduli a shoe needs: half the 8-deck rate holds up to about 100 decks. Tests check
every row against the exact integer path on hypothesis-generated shoes of 1 to 10**6 decks,
with each path (exact floats, limbs, products pinned by one limb, residues pinned by
estimates, small moduli) forced on shoes of every size.

Independent checks: ``plain`` (nested loops over ranks, used by tests and as the benchmark's
in-process reference) and ``analyzer.counting.montecarlo`` (a physical dealer).
"""
