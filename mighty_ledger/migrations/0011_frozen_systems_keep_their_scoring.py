"""Sessions keep the scoring they started with when the options' defaults or checks change.

A session freezes every option of its system (``system_options``). Two things changed after
some were frozen:

- ``nt_discount_in_score``: a no-trump contract bid under the minimum now scores from the
  minimum by default; before, sessions with the NT discount counted it from one under. Those
  sessions keep that reading (a correction of an old hand re-scores it as it was scored).
- options no hand could play are now refused when a system is built: a run doubling a set
  contract (a run is always made), someone sitting out where all play, an instruction
  allowed no times. Each is rewritten to the option that scored the same (never, nobody,
  not allowed), so the session's pages and hands go on as before.
"""

from django.db import migrations


def keep_their_scoring(apps, schema_editor):
    Session = apps.get_model("mighty_ledger", "Session")
    for session in Session.objects.only("system_options").iterator():
        options = session.system_options or {}
        changed = False
        if options.get("auction", {}).get("nt_discount") and "nt_discount_in_score" not in options:
            options["nt_discount_in_score"] = True
            changed = True
        doubles = options.get("doubles") or {}
        if doubles.get("run") == "set":
            options["doubles"] = {**doubles, "run": "never"}
            changed = True
        if (options.get("sit_out") in ("dealer", "previous_result", "declarer_and_partner")
                and options.get("players") == options.get("active_players")):
            options["sit_out"] = "none"
            changed = True
        instruction = options.get("partner_instruction") or {}
        if instruction.get("allowed") and instruction.get("per_hand") == 0:
            options["partner_instruction"] = {**instruction, "allowed": False}
            changed = True
        if changed:
            session.system_options = options
            session.save(update_fields=["system_options"])


class Migration(migrations.Migration):

    dependencies = [
        ('mighty_ledger', '0010_payment_idempotency_key'),
    ]

    operations = [
        migrations.RunPython(keep_their_scoring, migrations.RunPython.noop),
    ]
