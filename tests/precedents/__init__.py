"""precedents."""
