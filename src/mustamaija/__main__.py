"""Run the command line with ``python -m mustamaija``."""

import sys

from .cli import main

sys.exit(main())
