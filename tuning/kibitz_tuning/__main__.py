"""`python3 -m kibitz_tuning ...`."""

import sys

from .cli import main

sys.exit(main())
