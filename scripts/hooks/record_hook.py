#!/usr/bin/env python3
"""A-3: the hook script agent CLIs run on PreToolUse / PostToolUse = `tribunal hook record`.

Register it as a command hook, e.g. `python3 scripts/hooks/record_hook.py --log
evidence/hooks.ndjson`; it reads the hook JSON on stdin and appends one record with the exit
code and the sha256 of the working tree's diff. C-10: runs from a clone.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from tribunal.launch import launch

launch("hook", "record_hook.py", ["record", *sys.argv[1:]])
