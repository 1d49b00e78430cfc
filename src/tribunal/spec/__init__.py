"""The executable spec: loading, the type language and the safe expression evaluator (T-2)."""
