"""The rules of Mighty as pure Python: cards, scoring systems, legality, scorer, deal-miss odds."""
