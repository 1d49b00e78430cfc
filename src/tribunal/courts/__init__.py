"""Courts decide, as pure functions over evidence records, seat records and precedents handed in
as data: the evidence court of `tribunal judgment` (`judgment`), the arbiter with roles and votes
(`arbiter`), the blind court of eight cross-family jurors (`blind`), and following a precedent
(`following`), which every court may do."""
