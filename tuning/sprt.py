#!/usr/bin/env python3
"""Compatibility entry point: `python3 tuning/sprt.py ARGS` = `python3 -m kibitz_tuning sprt ARGS`
See tuning/README.md."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kibitz_tuning.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["sprt", *sys.argv[1:]]))
