from django.apps import AppConfig


class MightyLedgerConfig(AppConfig):
    name = "mighty_ledger"
    verbose_name = "Mighty Ledger"
    default_auto_field = "django.db.models.BigAutoField"
