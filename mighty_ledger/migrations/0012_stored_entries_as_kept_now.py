"""Hands and contracts stored before two fixes are kept as those fixes keep them now.

- A field a client sent as null (``"partners": null``, ``"discards": null``) was stored as sent;
  every page that reads a stored hand's lists (the statistics, a player's page, the history,
  the CSV, the edit form) then met a null where a list belongs and answered 500. Null is a
  field not sent: it is dropped, as the services now drop it before storing.
- A hand given by its bid alone (HAND_JSON lets the bid stand for the contract, and it was
  scored so) was stored without a contract: the board showed none and the statistics counted
  its contract as 0. The bid is kept as the contract too.

Only the stored entry changes: its result, payments and running totals were scored from the
same reading and stay as they are.
"""

from django.db import migrations

BATCH = 500


def as_kept_now(entry):
    if not isinstance(entry, dict):
        return entry
    kept = {key: value for key, value in entry.items() if value is not None}
    if isinstance(kept.get("bid"), dict) and "contract" not in kept:
        kept["contract"] = kept["bid"]
    return kept


def keep_entries_as_now(apps, schema_editor):
    for name in ("Hand", "Contract"):
        model = apps.get_model("mighty_ledger", name)
        changed = []
        for row in model.objects.only("entry").iterator(chunk_size=BATCH):
            kept = as_kept_now(row.entry)
            if kept != row.entry:
                row.entry = kept
                changed.append(row)
        model.objects.bulk_update(changed, ["entry"], batch_size=BATCH)


class Migration(migrations.Migration):

    dependencies = [
        ('mighty_ledger', '0011_frozen_systems_keep_their_scoring'),
    ]

    operations = [
        migrations.RunPython(keep_entries_as_now, migrations.RunPython.noop),
    ]
