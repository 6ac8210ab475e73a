"""Presentation: results turned into text tables, Markdown, JSON, dot and the reports.

Exact values stay exact here: fractions print as "p/q" (strings in JSON) and decimals are
rounded from the exact values, never from floats. Terminal tables fit 120 columns.

- ``outputs``: every command's result turned into data, then into a document: one registry by
  result type (``OUTPUTS``, by its qualified name, each renderer loaded when first used: its
  JSON document, ``to_data``, and its text), the envelope every
  command's JSON carries (``envelope``: shown, shoe, shoe_spec, rules, version), added to the
  data before it is serialised once, and ``render``, what a command prints.
- ``render``: the renderers of every command but ``solve`` (``render_odds``, ``render_edges``,
  ``render_compare``, ``render_eor``, ``render_count``, ``render_closed_forms``, ...), each
  defined in the module of its subject and gathered here: ``odds`` (odds, the Player table),
  ``edges`` (house edges, paytables), ``compare``, ``effects`` (effects of removal, best
  counts), ``counting`` (counting studies), ``closed_form``, ``design`` (designed
  paytables), ``rules`` (the tableau, its graph) and ``track`` (a recorded shoe replayed);
  ``text``: the output formats and the helpers ``exact``, ``decimal``, ``percent``;
  ``metadata``: the JSON shoe fields (``shoe``, ``shoe_spec``).
- ``document``: the document model every renderer and report writes (``Heading``,
  ``Paragraph``, ``Bullets``, ``Table``, ``Figure``, ``Code``) and one writer per format
  (``WRITERS``: text, Markdown, HTML).
- ``games``: the renderers of the games' results (``render_game``: ``baccarat solve GAME``).
- ``known``: known cards and edge sorting (``baccarat known``): the value, the information
  states and the best sorts, as JSON data and as a document.
- ``sorting``: edge sorting through a shoe (``track --sort``, ``count --sort``): each coup's
  known classes, best bet, expectation and result, and the win per shoe.
- ``listing``: what ``baccarat list`` shows: every built-in name with its title and source.
- ``cache``: what ``baccarat cache`` shows: the disk cache's folder, files and bounds.
- ``par``, ``par_html``, ``par_documents``: par sheets in Markdown, JSON and self-contained HTML
  (and CSV, XLSX and PDF); ``identity``: the identification block of a sheet (software,
  date, SHA-256 of the table file, the bet and the rules, the shoe and procedure); ``pdf``: an
  HTML page printed to PDF by headless Chromium; ``par_counts``: their countability section
  (best counts, counts played, cover bet, verdict).
- ``spreadsheet``: the document's tables as CSV and XLSX (numbers as numbers, the exact value
  "p/q" beside); ``effects_tables``: effects of removal as typed tables for them.
- ``schemas``: the JSON Schemas of every command's JSON and of the table, rules and systems
  files, shipped as package data (``schema``, ``SCHEMAS``).
- ``plots``: matplotlib for every chart, by its object API (a ``Figure`` each, never pyplot:
  no backend switched), loaded only when one is drawn.
- ``notebook``: the renderers registered with IPython and Jupyter by result type (Markdown
  tables; a par sheet as HTML), so no result type imports a renderer.
- ``reports``: the Markdown reports of ``reports/`` and their plots (``baccarat report``).
- ``folders``: the folders ``baccarat report`` and ``baccarat par-sheet --out`` write: which
  files each wrote, the check of an output folder, writing its files all or none.

Reports. ``build_reports`` gives every report's text by file name; ``write_reports`` writes
them all or none: into a new sibling directory, which then replaces the output directory.
``check_output_dir`` refuses, before any computing, the root or home directory, a project root,
a directory that cannot be written, or one holding files ``baccarat report`` did not write (a
path it does not write, whatever the content, or a report of its names without the generated
preamble); ``write_reports`` checks again right before the swap and deletes only its own
files. ``baccarat report`` solves the games where hands choose (chemin de fer, banque, macao,
punto 5: about 2 s of CPU) in two worker processes while the main process writes the other
reports, then runs the counting studies on the same two workers; the texts are identical to a
single-process run (a test builds them that way and compares them with ``reports/``).
"""
