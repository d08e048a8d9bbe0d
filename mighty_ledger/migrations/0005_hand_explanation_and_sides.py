"""Keep each hand's explanation as translatable sentences and its sides, as new hands do.

For hands recorded before, the entry is scored once more here, only to recover the
sentence templates of lines already stored: where the engine's English no longer
matches the stored lines, the stored English is kept as it is. Payments, totals and
the stored result are never touched.
"""

from django.db import migrations, models

from scoring.interface import score_hand
from scoring.problems import InvalidInput
from scoring.words import as_message


def _request(session, entry):
    return {**entry, "system": session.preset, "options": session.system_options, "seats": session.seats}


def fill_explanations_and_sides(apps, schema_editor):
    Hand = apps.get_model("mighty_ledger", "Hand")
    changed = []
    for hand in Hand.objects.filter(kind="scored").select_related("session").iterator(chunk_size=500):
        stored = list((hand.result or {}).get("explanation") or [])
        entry = hand.entry or {}
        declarers = [entry.get("declarer"), *entry.get("partners", [])]
        out = set(entry.get("sitting_out", []))
        defenders = [seat for seat in hand.session.seats if seat not in declarers and seat not in out]
        made = (hand.result or {}).get("made")
        winners = [] if made is None else (declarers if made else defenders)
        hand.sides = {"declarers": declarers, "defenders": defenders, "winners": winners}
        hand.explanation = stored
        try:
            lines = list(score_hand(_request(hand.session, entry)).explanation)
        except (InvalidInput, KeyError, TypeError, ValueError):
            lines = []
        if lines == stored:
            hand.explanation = [as_message(line) for line in lines]
        changed.append(hand)
        if len(changed) >= 500:
            Hand.objects.bulk_update(changed, ["explanation", "sides"])
            changed = []
    Hand.objects.bulk_update(changed, ["explanation", "sides"])


class Migration(migrations.Migration):

    dependencies = [
        ("mighty_ledger", "0004_payment"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="explanation",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="hand",
            name="sides",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(fill_explanations_and_sides, migrations.RunPython.noop),
    ]
