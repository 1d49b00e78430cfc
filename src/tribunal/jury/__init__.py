"""The shared seat core under every model seat, whatever court it sits for: the blind envelope
(`envelope`), the fleet, its lenses and ladders (`fleet`, `lenses`, `floor`), the builder and the
routing (`builder`, `routing`, `routing_table`), a seat's prompt and its size (`prompt`,
`prompt_size`), one seat walked down its ladder (`seat`), the transports that reach a model
(`transports`), and strict verdicts and their citations (`verdict`, `citations`, `redaction`)."""
