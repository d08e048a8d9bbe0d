"""Mighty Ledger: the Django project and its one app, around the pure `scoring` package."""
