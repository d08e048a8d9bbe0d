"""Timing of the scoring engine and the ledger's hot paths; run with `make bench`."""
