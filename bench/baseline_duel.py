"""X-4 baseline: a fixed, bare stdlib loop doing the tutorial's arithmetic over case files.

This is the shape of the tutorial's original scripts — no spec, no schema, no evaluator — and
the yardstick `tribunal duel` is measured against (within 5x). Do not optimise or extend it: a
faster baseline would move the goalposts.

    python3 bench/baseline_duel.py CASES_DIR OUT.json
"""

from __future__ import annotations

import json
import math
import os
import sys


def judge(given: dict, payload: dict) -> tuple[str | None, int]:
    current = given["current_replicas"]
    requested = math.floor(current * payload["scale_up_percent"] / 100)
    quota = math.floor(given["remaining_quota"] / given["pod_cpu"])
    headroom = max(0, given["max_replicas"] - current)
    allowed = min(requested, quota, headroom)
    duplicate = payload.get("duplicate_within_seconds")
    if duplicate is not None and duplicate < given.get("dedup_window_seconds", 0):
        return "DUPLICATE_WEBHOOK_DEDUPED", allowed
    if given.get("clamp_policy", "soft_clamp") == "hard_block" and allowed < requested:
        return "HARD_BLOCK_REQUESTED_OVERSHOOT", allowed
    if requested > quota:
        return "QUOTA_EXCEEDED_AFTER_CLAMP", allowed
    if requested > headroom:
        return "MAX_REPLICAS_REACHED", allowed
    return None, allowed


def main(cases_dir: str, out: str) -> int:
    results = []
    for name in sorted(os.listdir(cases_dir)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(cases_dir, name), encoding="utf-8") as handle:
            case = json.load(handle)
        code, allowed = judge(case["given_snapshot"], case["when_payload"])
        expected = case.get("expected_failure", {})
        ok = expected.get("diagnostic_code", code) == code
        bound = expected.get("executed_delta_upper_bound")
        ok = ok and (bound is None or allowed <= bound)
        results.append({"id": case["counterexample_id"], "verdict": "PASS" if ok else "FAIL"})
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"total": len(results), "results": results}, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
