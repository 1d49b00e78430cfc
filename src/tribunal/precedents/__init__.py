"""Precedents: recurring disputes kept in `precedents.md` and looked up in later ones (R-2..R-5).

The file's format (`parsing`, `plain_yaml`, `entry`), adding entries (`add`), the search index
(`index`, `search`), matching a later dispute (`facts`, `next_check`, `match`), and the two
audited edits (`renumber`, `merge`). `precedents.md` is the only source of truth.
"""
