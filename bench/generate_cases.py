"""Generate N counterexample cases (T-3 format) for the X-4 benchmarks, deterministically.

    python3 bench/generate_cases.py OUT_DIR [--count 10000] [--seed 7]

Values stay within the shipped spec's declared types; expected codes follow the tutorial's
arithmetic so that the duel does all of its work (every case is judged, most PASS).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline_duel import judge  # the one copy of the tutorial's arithmetic


def make_case(index: int, rng: random.Random) -> dict[str, object]:
    given: dict[str, object] = {
        "cluster_id": f"bench-{index % 17}",
        "current_replicas": rng.randint(0, 60),
        "pod_cpu": rng.choice([0.5, 1, 2, 4]),
        "remaining_quota": rng.randint(0, 40),
        "max_replicas": rng.randint(1, 80),
        "max_actions_per_window": rng.randint(1, 6),
        "clamp_policy": rng.choice(["soft_clamp", "hard_block"]),
        "dedup_window_seconds": rng.choice([0, 2, 30]),
    }
    payload: dict[str, object] = {
        "source_service": rng.choice(["pagerduty", "grafana"]),
        "scale_up_percent": rng.randint(1, 1000),
    }
    if rng.random() < 0.3:
        payload["duplicate_within_seconds"] = rng.choice([0.5, 1, 5, 60])
    code, allowed = judge(given, payload)  # type: ignore[arg-type]
    return {
        "counterexample_id": f"bench_{index:06d}",
        "assertion_id": "allowed_delta_within_quota",
        "given_snapshot": given,
        "when_payload": payload,
        "minimality_trace": ["generated for the X-4 benchmark"],
        "expected_failure": {"diagnostic_code": code, "executed_delta_upper_bound": allowed},
    }


def generate(out_dir: Path, count: int, seed: int = 7) -> None:
    """Write `count` case files `bench_NNNNNN.json` into `out_dir`."""
    rng = random.Random(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    for index in range(count):
        case = make_case(index, rng)
        path = out_dir / f"{case['counterexample_id']}.json"
        path.write_text(json.dumps(case, indent=1) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    generate(args.out_dir, args.count, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
