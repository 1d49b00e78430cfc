"""The shared core under every model seat: envelope, fleet and ladder, transports, verdicts."""
