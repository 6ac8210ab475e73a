"""`python -m analyzer` runs the `baccarat` command."""

import sys

try:
    from analyzer.cli import main
except KeyboardInterrupt:  # Ctrl-C while the libraries load: one line, as in main
    print("baccarat: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
