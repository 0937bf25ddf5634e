"""Run the command line with ``python -m mustamaija``."""

import sys

from mustamaija.cli import main

sys.exit(main())
