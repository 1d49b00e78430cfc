"""The panel court (SPEC §9): criteria frozen before the work, an independent panel of
verifier lenses scoring each dimension with checked citations, consensus in exact arithmetic,
and SHIP, SHIP_WITH_CAVEATS, ITERATE, BLOCK or ESCALATE — or no panel at all (`convening`)."""
