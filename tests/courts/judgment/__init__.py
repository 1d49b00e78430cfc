"""judgment."""
