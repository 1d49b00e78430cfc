"""The evidence court (T-6): a verdict, a reason and its evidence_refs over Evidence records
alone — no votes."""

from tribunal.courts.judgment.decide import Decision, decide, reason_kind

__all__ = ["Decision", "decide", "reason_kind"]
