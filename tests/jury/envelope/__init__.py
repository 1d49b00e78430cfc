"""envelope."""
