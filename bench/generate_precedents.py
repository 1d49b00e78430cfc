"""Generate a precedents.md of N entries (R-2 written form) for X-3, deterministically.

    python3 bench/generate_precedents.py OUT.md [--count 10000] [--seed 3]

The entries read like the ones teams write: an `applies_to` sentence built from a vocabulary of
incident and change words (components, actions, conditions, regions, metrics) naming the service
and the incident ticket it came from, as teams do, scoped by domain,
tier and mode for about half of them; a `next_check` that is prose or `{when, text}` with a T-2
condition over a dispute's fields; one to three evidence refs; about 6% of the entries in
Japanese or Chinese; about 2% superseding an older entry. Words are drawn with a Zipf-like skew
(the first words of each list are the common ones), so common words are in a large share of the
entries and specific terms in few — the shape a real store has.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

DOMAINS = (
    "autoscale", "billing", "auth", "storage", "dns", "search", "payments", "notifications",
    "ingest", "cache", "scheduler", "networking", "observability", "deploy", "identity", "email",
)  # fmt: skip
TIERS = ("C1", "C2", "C3", "C4", "all")
MODES = ("strict_guardrails_prompt", "shadow", "canary", "full_rollout", "dry_run", "all")
ACTIONS = (
    "auto-remediation", "rollback", "scale-up", "scale-down", "config change", "schema migration",
    "restart", "failover", "rate-limit change", "feature flag flip", "dependency upgrade",
    "certificate rotation", "index rebuild", "cache eviction", "quota increase", "traffic shift",
    "secret rotation", "retry policy change", "timeout change", "capacity reservation",
)  # fmt: skip
COMPONENTS = (
    "service", "cluster", "database", "queue", "worker pool", "gateway", "load balancer",
    "cache tier", "webhook consumer", "billing exporter", "search index", "object store",
    "stateful service", "session store", "DNS resolver", "payment processor", "mail relay",
    "metrics pipeline", "cron scheduler", "kafka topic", "redis replica", "postgres primary",
    "TLS terminator", "CDN edge", "feature store", "audit log writer",
)  # fmt: skip
CONDITIONS = (
    "without a full audit trace", "whose backup is not verified", "during a traffic spike",
    "when the error budget is exhausted", "without tenant_id dedup", "with silent P0 alerts",
    "after a failed canary", "while a migration is running", "with rollback flapping",
    "when the quota is nearly exhausted", "with duplicate webhooks in the dedup window",
    "when replicas hit max_replicas", "with a stale read replica", "under memory pressure",
    "when p95 latency exceeds the SLO", "during the monthly invoice run",
    "with an expired certificate", "when the manual review floor is bypassed",
    "after a region evacuation", "with a hot partition", "when disk usage exceeds 90 percent",
    "with retries amplifying load", "when the leader election flaps", "with clock skew",
)  # fmt: skip
REGIONS = (
    "prod-eu-1", "prod-us-east", "prod-us-west", "prod-ap-south", "staging", "prod-eu-2",
    "prod-ap-northeast", "dr-site",
)  # fmt: skip
METRICS = (
    "silent_p0_ratio", "false_escalation_rate", "rollback_flapping_per_hour",
    "audit_trace_coverage", "mttr_p95_minutes", "burst_window_sec", "error_budget_left",
    "p95_latency_ms", "queue_depth", "replica_lag_sec", "disk_used_percent", "retry_rate",
)  # fmt: skip
SERVICES = tuple(
    f"{system}-{role}"
    for system in (
        "checkout", "ledger", "invoice", "session", "media", "notify", "quota", "catalog",
        "profile", "payout", "fraud", "tax", "shipping", "inventory", "pricing", "search",
        "audit", "consent", "billing", "identity", "report", "export", "import", "routing",
    )
    for role in ("api", "writer", "worker", "gateway", "sync", "cache", "relay", "indexer")
)  # fmt: skip
FLAGS = ("backup_verified", "audit_complete", "canary_passed", "dedup_enabled", "owner_on_call")
NEXT_STEPS = (
    "re-examine when {metric} changes", "re-run the duel after the spec adds a diagnostic",
    "check again after the next incident review", "revisit once the runbook is updated",
    "re-examine after the quarterly capacity review", "re-check when the owner team changes",
    "re-run check_invariants.py when the thresholds move",
)  # fmt: skip
CJK = (
    ("東京リージョンのレート制限は確認が必要", "再確認はインシデントレビューの後"),
    ("大阪のキャッシュ層の自動復旧はバックアップ確認が必須", "バックアップ検証後に再確認"),
    ("限流策略需要复核, 北京机房", "负载变化时复核"),
    ("上海集群的自动扩容在配额不足时必须人工审核", "配额调整后重新检查"),
    ("支付服务的回滚需要完整的审计日志", "审计覆盖率达标后复核"),
    ("深夜の証明書ローテーションは手動承認が必要", "証明書更新手順の改訂後に再確認"),
)  # fmt: skip
EVIDENCE = (
    "metrics/validation_metrics.json#/{metric}", "cases/{domain}_{n}.json",
    "judgments/2026-{month:02d}-{domain}.judgment.md", "specs/{domain}_spec.yaml:{line}",
    "fixtures/readiness_{domain}.json",
)  # fmt: skip
VERDICTS = ("DENY", "DEFERRED", "APPROVE")


def skewed(rng: random.Random, words: tuple[str, ...]) -> str:
    """A word of `words` with a Zipf-like skew towards the first ones."""
    weights = [1 / (rank + 1) for rank in range(len(words))]
    return rng.choices(words, weights)[0]


def make_entry(number: int, rng: random.Random) -> str:
    """One entry in the written form (`## PREC-NNN` + a fenced yaml block)."""
    case_id = f"PREC-{number:03d}"
    domain = skewed(rng, DOMAINS)
    if rng.random() < 0.06:
        applies_text, check_text = rng.choice(CJK)
        applies_text = f"{applies_text} ({rng.choice(REGIONS)})"
    else:
        applies_text = (
            f"{skewed(rng, ACTIONS)} of the {domain} {skewed(rng, COMPONENTS)} "
            f"({rng.choice(SERVICES)}) {skewed(rng, CONDITIONS)} in {skewed(rng, REGIONS)}, "
            f"after INC-{rng.randint(10000, 99999)}"
        )
        check_text = skewed(rng, NEXT_STEPS).format(metric=skewed(rng, METRICS))
    lines = [
        f"## {case_id}",
        "",
        "```yaml",
        f"case_id: {case_id}",
        f"verdict: {rng.choices(VERDICTS, (5, 3, 2))[0]}",
    ]
    refs = [
        rng.choice(EVIDENCE).format(
            metric=skewed(rng, METRICS),
            domain=domain,
            n=rng.randint(1, 400),
            month=rng.randint(1, 12),
            line=rng.randint(1, 120),
        )
        for _ in range(rng.choice((1, 1, 2, 3)))
    ]
    if len(refs) == 1:
        lines.append(f"evidence_ref: {refs[0]}")
    else:
        lines.append("evidence_ref:")
        lines.extend(f"- {ref}" for ref in refs)
    if rng.random() < 0.5:
        lines.append(f"applies_to: {_quoted(applies_text)}")
    else:
        lines.append("applies_to:")
        lines.extend(["  domains:", f"  - {domain}"])
        if rng.random() < 0.6:
            lines.extend(["  tiers:", f"  - {skewed(rng, TIERS)}"])
        if rng.random() < 0.4:
            lines.extend(["  modes:", f"  - {skewed(rng, MODES)}"])
        lines.append(f"  text: {_quoted(applies_text)}")
    if rng.random() < 0.5:
        lines.append(f"next_check: {_quoted(check_text)}")
    else:
        if rng.random() < 0.5:
            when = f"{skewed(rng, FLAGS)} == True"
        else:
            metric = skewed(rng, METRICS)
            when = f"{metric} > {rng.randint(1, 100)}"
        lines.extend(["next_check:", f"  when: {_quoted(when)}", f"  text: {_quoted(check_text)}"])
    if number > 10 and rng.random() < 0.02:
        lines.append(f"supersedes: PREC-{rng.randint(1, number - 1):03d}")
    lines.extend(["```", "", ""])
    return "\n".join(lines)


def _quoted(text: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar.
    return json.dumps(text, ensure_ascii=False)


def generate(path: Path, count: int, seed: int = 3) -> None:
    """Write a precedents.md of `count` entries (PREC-001 …) to `path`."""
    rng = random.Random(seed)
    parts = [
        "# Precedents\n\nGenerated for the X-3 benchmark (bench/generate_precedents.py).\n\n",
        *(make_entry(number, rng) for number in range(1, count + 1)),
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(parts), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    generate(args.out, args.count, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
