"""Records kept in the repository: judgments, precedents, run directories."""
