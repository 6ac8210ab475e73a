"""Counting studies: shoes dealt as a casino deals them, each coup valued exactly for the cards
left, and counting systems judged against those exact values (``baccarat count``).

Modules:

- ``results``: the ``eor``, ``count`` and ``par-sheet`` commands as functions of typed
  arguments returning typed results that hold the shoe and rules they used (``eor_result``,
  ``count_result``, ``par_result``).
- ``tracking``: the ``track`` command: what is valued, fixed before any card (``track_setup``:
  the bets, the table's rules unless others, the systems, the sizing), a record file replayed
  (``track_result``) and, for live entry, what a new line changed (``coup_changes``).
- ``systems``: counting systems (integer tags per rank, running and true counts, triggers),
  the built-ins of ``counting.toml`` and user files, and the best linear counts derived from
  effects of removal.
- ``cover``: cover bets (``--cover BET[:UNITS]``): a main bet staked on every coup a count bets
  its side bet, valued exactly like it (``Cover``, ``parse_cover``).
- ``search``: the exact search for the count of highest betting correlation over every tag
  vector of a level (a dynamic programme over the sums of the tags and of their squares),
  and the brute force it is checked against.
- ``simulation``: the casino procedure (``Procedure``), ``evaluate_systems`` and the study's
  chunked, parallel run.
- ``dealer``: many shoes dealt at once, vectorised, each shoe shuffled from (seed, index) alone.
- ``fastdeal``: the same dealing compiled (numba, the ``fast`` extra): one loop shoe by shoe, the
  same batches.
- ``suited``: the same shoes with every card's suit, for card-level bets.
- ``summary``: the fixed-size, mergeable summary of a study.
- ``choice``: what exact knowledge of every coup could gain on Banker and Player.
- ``advantage``: the advantage-play figures (win per shoe and per 100 coups, SD, N0, risk of
  ruin, per hour) from a summary.
- ``executors``: where the chunks run (this process, a local process pool, Dask).
- ``scheduling``: the study's chunks grouped into jobs (larger first, single chunks at the
  end) and run in order, this process sharing the work (``job_sizes``, ``in_order``).
- ``shared``: studies run once for several callers (``baccarat report``'s counting report and
  its par sheets deal the same shoes): each gets its results as if run alone.
- ``studies``: the long studies' results committed under ``data/``, read by the counting
  report: ``jacobson-burn.json`` and ``jacobson-no-burn.json`` (``scripts/jacobson_study.py``,
  checkpointed and resumable), ``jacobson-long.json`` (``scripts/jacobson_long_study.py``) and
  ``big-tiger.json`` (``scripts/big_tiger_study.py``).
- ``par``: par sheets: a bet's exact figures, volatility, sensitivity, effects of removal, best
  counts and a counting study with its verdict, in one result (``baccarat par-sheet``).
- ``record``: recorded shoes as text (cards in the order they left the shoe, burn, cut, undo),
  each card with its line and position; the sample record under ``data/``.
- ``replay``: a recorded shoe replayed coup by coup (``baccarat track``): the coups dealt by the
  tableau, every bet's exact expectation before each coup, counts, Kelly stakes, the summary.
- ``sorting``: edge sorting through a shoe (``track --sort``, ``count --sort``): before each
  coup the class of the cards at the known positions is known, and the coup is valued exactly
  on the cards left given it (``analyzer.analyses.known``): the best bet or none, its
  expectation and result, the win per shoe of a record or of simulated shoes.
- ``montecarlo``: a physical Monte Carlo dealer, the statistical cross-check of the exact
  enumerators (it shares no code with them).

Procedure. Shuffle; burn (turn the first card face up, burn as many cards as its value,
ten-valued = 10); deal coups until the cut card, ``cut_card`` cards from the end, comes out;
finish that coup and, optionally (``--extra-coup``), play one more. A coup is started only with
at least 6 cards left. The counter sees every card dealt and, by default, the face-up burn card
(``--burn-seen none|first|all``). The true count divides the running count by the decks left,
exactly (cards left / 52) or rounded to the half deck or deck (``--true-count``); a system bets
when its count reaches its threshold, or exceeds it with ``--strict``. The trigger is defined
once (``CountSystem.fires``, in integer arithmetic) for the one-composition and the vectorised
paths. Each coup's exact expectation comes from ``analyzer.ranks.fast.FastEvaluator`` (about 80
compositions per shoe), which takes most of a study's time; dealing takes most of the rest.

Summaries and determinism. A study's result never holds a value per shoe: counts, exact integer
sums per shoe size, float sums and sums of squares of the per-shoe wins, and per-count bins.
Memory does not grow with the number of shoes (up to 10**8), and the summaries of chunks of 200
shoes merged in order give identical output for any ``--workers`` and any executor (a test
checks that local and Dask runs print byte-identical JSON).

Card-level bets (``--bet perfect-pairs-v1``, or a card-level bet of a systems file or of
``--table``). Shoes are then dealt with suits: the same shuffle keys as the rank dealer, on a
suited shoe listed rank by rank, give the same rank sequence for the same seed and shoe index,
so the coups, the counts (which tag ranks) and every rank-level bet's results are those of a
study without the card-level bets. Each coup is valued exactly on the card types left by
``analyzer.cards.batch.CardEvaluator`` and settled on the cards dealt. A shoe whose suits are
unknown (rank counts) is dealt as if every card were a spade, which only bets reading no suits
may use. It is slower than the rank-level path: on one core, 8 decks, cut card 14, 2,374
shoes/s with Perfect Pairs and 381 with all 8 card-level built-ins at once, against 4,706 for
Dragon 7 alone in the same run (``reports/speed.md``, 2026-12-06). Beyond int64 (shoes of about
1,450 cards, 28 decks, and more) the batch sums Python integers.

Executors. ``--executor local`` (default) with ``--workers K``: the calling process is one of
the K workers, a pool of K - 1 processes takes the others: forked on Linux (each starts in
milliseconds with the evaluator and the compiled kernels already loaded), spawned elsewhere.
The shoes go out in jobs of consecutive 200-shoe chunks, larger jobs first and single chunks
at the end (``scheduling``); the caller takes the oldest job not given while the oldest is
unfinished. Two workers against one on a quiet 2-core machine: 1.80x (1.78-1.81; CPU
efficiency 0.94, ``reports/speed.md``, 2026-12-06). ``baccarat report`` starts one pool for all
its studies. ``--executor dask`` starts a local ``dask.distributed`` cluster of K
single-threaded workers; ``--executor tcp://HOST:PORT`` uses a running scheduler (each worker
needs this package importable; ``pip install ".[dask]"``). Workers ignore Ctrl-C; when it
reaches the caller the pool is stopped without waiting. The same study (Jacobson's Dragon 7 and
Panda 8 counts, cut card 14, 2,000 shoes, two workers) run locally and on Dask prints the same
figures: Dragon 7 7.91 bets and +0.532 ± 0.025 units per shoe, Panda 8 4.16 and +0.193 ±
0.013; wall times on a shared 2-core machine (load average about 10) were 96 s with the local
pool and 226 s with the Dask cluster, its start included.
"""
