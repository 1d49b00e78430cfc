#!/usr/bin/env python3
"""T-1: `python3 scripts/run_duel.py --spec S --cases DIR --out F` is `tribunal duel`."""

import sys
from pathlib import Path

# C-10: run from a clone without installing: the package lives in ../src.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tribunal.launch import launch

launch("duel", "run_duel.py")
