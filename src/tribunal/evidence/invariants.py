"""Anti-Goodhart invariants (T-5): every declared threshold checked against the metrics.

The thresholds are data: each key of `thresholds` is `<metric>_max` or `<metric>_min`, checked in
the order written. There is no fixed list of metrics here — a metric that is missing or not a
number fails its check (`missing_metric`), so omitting a metric never passes. With a baseline and a
target metric, an improvement of the target bought by breaching any guard is `metric_corruption`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, TypeGuard

from tribunal.documents import Document, validate
from tribunal.enums import CaseVerdict, InvariantReason, ThresholdBound
from tribunal.jsontext import printable

# T-5: top-level keys of a metrics file that are not metric values.
RESERVED_KEYS = ("session_id", "window", "thresholds")

Number = int | float


@dataclass(frozen=True)
class Threshold:
    """One declared threshold: `<metric>_<bound>: limit`."""

    key: str
    metric: str
    bound: ThresholdBound
    limit: Number

    def holds(self, value: Number) -> bool:
        """True when `value` satisfies this threshold."""
        if self.bound is ThresholdBound.MAX:
            return value <= self.limit
        return value >= self.limit


def is_number(value: Any) -> TypeGuard[Number]:
    """T-5: ints and finite floats are numbers; booleans, NaN and the infinities are not."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return not isinstance(value, float) or math.isfinite(value)


def thresholds_of(metrics: Document) -> list[Threshold]:
    """The declared thresholds in the order of the `thresholds` keys (T-5).

    Raises BadInput when the document fails the `metrics` schema (a threshold that is not a
    finite number among others). A metric value is not checked here: one that is not a finite
    number fails its threshold's check (`missing_metric`).
    """
    if not isinstance(metrics.data, dict):
        raise metrics.bad("metrics must be a JSON object")
    validate(metrics, "metrics")
    result: list[Threshold] = []
    for key, limit in metrics.data["thresholds"].items():
        # The schema admits only keys ending in `_max` or `_min`.
        is_max = key.endswith(ThresholdBound.MAX.suffix)
        bound = ThresholdBound.MAX if is_max else ThresholdBound.MIN
        metric = key[: -len(bound.suffix)]
        result.append(Threshold(key=key, metric=metric, bound=bound, limit=limit))
    return result


def check_invariants(
    metrics: Document,
    *,
    baseline: Document | None = None,
    target: str | None = None,
) -> dict[str, Any]:
    """Check every threshold of `metrics`; return the `invariants.json` document (T-5).

    `baseline` and `target` go together: the corruption block compares the target metric with
    the baseline's. Raises BadInput (nothing checked) when the metrics or baseline are unusable,
    or the target has no threshold.
    """
    thresholds = thresholds_of(metrics)
    data: dict[str, Any] = metrics.data
    target_threshold = _target_threshold(metrics, thresholds, target) if target else None
    baseline_value = _baseline_value(baseline, target) if baseline and target else None

    checks = [_check(threshold, data) for threshold in thresholds]
    with_threshold = {threshold.metric for threshold in thresholds}
    unchecked = [key for key in data if key not in RESERVED_KEYS and key not in with_threshold]
    failed = sum(1 for check in checks if not check["ok"])

    corruption = None
    if target_threshold is not None and baseline_value is not None:
        corruption = _corruption(target_threshold, baseline_value, data, checks)
    corrupted = corruption is not None and corruption["improved"] and bool(corruption["breached"])

    report: dict[str, Any] = {
        "session_id": data.get("session_id"),
        "window": data.get("window"),
        "metrics": metrics.label,
    }
    if baseline is not None:
        report["baseline"] = baseline.label
    report["checks"] = checks
    report["unchecked"] = unchecked
    report["failed"] = failed
    report["verdict"] = CaseVerdict.FAIL.value if failed or corrupted else CaseVerdict.PASS.value
    if corrupted:
        # T-5: a faster plan bought with a breached guard fails regardless of the gain.
        report["reason"] = InvariantReason.METRIC_CORRUPTION.value
    report["corruption"] = corruption
    return report


def _check(threshold: Threshold, data: dict[str, Any]) -> dict[str, Any]:
    value = data.get(threshold.metric)
    check: dict[str, Any] = {
        "metric": threshold.metric,
        "value": _shown(value),
        "threshold": printable(threshold.limit),
        "op": threshold.bound.op,
    }
    if not is_number(value):
        # T-5: omitting a metric (or giving it a non-number, NaN or an infinity) never passes.
        check["ok"] = False
        check["reason"] = InvariantReason.MISSING_METRIC.value
    elif threshold.holds(value):
        check["ok"] = True
    else:
        check["ok"] = False
        check["reason"] = (
            InvariantReason.ABOVE_MAX.value
            if threshold.bound is ThresholdBound.MAX
            else InvariantReason.BELOW_MIN.value
        )
    return check


def _corruption(
    target: Threshold,
    baseline_value: Number,
    data: dict[str, Any],
    checks: list[dict[str, Any]],
) -> dict[str, Any]:
    value = data.get(target.metric)
    improved = False  # a missing target fails its own check with missing_metric
    if is_number(value):
        # T-5: "improved" follows the target's suffix: `_max` downwards, `_min` upwards.
        if target.bound is ThresholdBound.MAX:
            improved = value < baseline_value
        else:
            improved = value > baseline_value
    breached: list[str] = []
    for check in checks:
        if not check["ok"] and check["metric"] != target.metric and check["metric"] not in breached:
            breached.append(check["metric"])
    return {
        "target": target.metric,
        "baseline_value": printable(baseline_value),
        "value": _shown(value),
        "improved": improved,
        "breached": breached,
    }


def _target_threshold(metrics: Document, thresholds: list[Threshold], target: str) -> Threshold:
    own = [threshold for threshold in thresholds if threshold.metric == target]
    if not own:
        raise metrics.bad(
            f"--target {target!r} has no threshold ({target}_max or {target}_min)", ("thresholds",)
        )
    if len(own) > 1:
        raise metrics.bad(
            f"--target {target!r} has both a _max and a _min threshold; "
            "the direction of improvement is ambiguous",
            ("thresholds",),
        )
    return own[0]


def _baseline_value(baseline: Document, target: str) -> Number:
    if not isinstance(baseline.data, dict):
        raise baseline.bad("metrics must be a JSON object")
    value = baseline.data.get(target)
    if is_number(value):
        return value
    if target not in baseline.data:
        found = "missing"
    elif isinstance(value, float):
        found = f"not a finite number: {value!r}"
    else:
        found = f"not a number: {value!r}"
    raise baseline.bad(f"the --target metric is {found}", (target,))


def _shown(value: Any) -> Any:
    """A metric value as invariants.json shows it: as given, NaN and the infinities as the text
    the metrics file wrote (`"NaN"`, `"Infinity"`): invariants.json stays standard JSON (C-7)."""
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps(value)
    return printable(value)
