"""`python -m analyzer` runs the `baccarat` command."""

import sys

from analyzer.cli import main

sys.exit(main())
