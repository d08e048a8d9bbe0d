"""The table of the figures kept session by session (settings.CACHES["kept"]: Django's database
cache), made here so that every way the app is set up (make run, make serve, systemd, the tests)
has it once migrated."""

from django.conf import settings
from django.core.management import call_command
from django.db import migrations


def make_table(apps, schema_editor):
    call_command("createcachetable", "--database", schema_editor.connection.alias, verbosity=0)


def drop_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(settings.CACHES['kept']['LOCATION'])}")


class Migration(migrations.Migration):

    dependencies = [
        ('mighty_ledger', '0019_night_payments'),
    ]

    operations = [
        migrations.RunPython(make_table, drop_table),
    ]
