"""One module per user job (duel, judgment, convene, ...): each takes a frozen request and returns
a result. A workflow wires evidence to a court to the records and decides what is written where;
it prints nothing and knows no exit codes — the command line does both."""
