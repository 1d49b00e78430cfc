"""Courts decide over evidence records and seat records: arbiter, blind, panel."""
