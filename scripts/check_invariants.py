#!/usr/bin/env python3
"""T-1: `python3 scripts/check_invariants.py --metrics M --out O` = `tribunal invariants`.

C-10: runs from a clone — `src/` goes on sys.path; a missing dependency is one line, exit 2.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tribunal.launch import launch

launch("invariants", "check_invariants.py")
