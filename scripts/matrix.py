#!/usr/bin/env python3
"""T-1: `python3 scripts/matrix.py --spec S --cases DIR --tiers T --out F` is `tribunal matrix`."""

import sys
from pathlib import Path

# C-10: run from a clone without installing: the package lives in ../src.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tribunal.launch import launch

launch("matrix", "matrix.py")
