"""jury."""
