"""arbiter."""
