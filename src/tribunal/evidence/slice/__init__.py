"""The slice the panel court scores (P-1, P-9): its frozen criteria (`criteria`), the
executor's report of what it built (`report`), and the verification commands tribunal runs
itself before any panel member sits (`verification`)."""
