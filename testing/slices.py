"""A slice for panel-court tests: its criteria and an executor's report, as a user writes them."""

from __future__ import annotations

CRITERIA = """\
slice_id: rate-limiter-window
request: "Limit each client to 10 requests per 60-second window."
dimensions:
  - {id: correctness, weight: 1, description: "The limit holds at the window's edges."}
  - {id: robustness, weight: 1}
  - {id: clarity, weight: 1}
verification_commands: ["{python} -m pytest -q tests/test_limiter.py"]
"""

REPORT = """\
status: DONE_WITH_CONCERNS
address: abc123
executor: vendor-a/builder-1
context: plan-v2
diff_summary: "window start now advances"
commands: [{command: pytest -q, exit_code: 0, output: "3 passed"}]
concerns:
  - {kind: observation, text: "the window is per process"}
  - {kind: correctness, text: "a burst at the edge may pass twice"}
complexity: 2
"""
