"""dispute."""
