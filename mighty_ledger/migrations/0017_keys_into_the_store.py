"""One store of one-time keys: the key and fingerprint each hand, contract and payment kept on its
own row move into RequestKey (whose columns for it 0016 added), beside the answers kept there.

A key's row now says what the key made (a foreign key to the hand, contract or payment, and the
service's fingerprint of the request) as long as that lasts, and the first answer for a day. Its
scope is what it made ("session:8:hands"), for the API and the pages alike, so the answers the
API kept under its own scopes ("api:session:8") move to those. Reversible: the keys go back onto
their rows and the API's answers to the API's scopes; an answer a form kept under a hand's,
contract's or payment's scope has no form URL to go back to and is dropped (it was a day's).
"""

from django.db import migrations, models

# the API's scopes of the writes that make hands, contracts and payments, and the scopes of what they make
API_SCOPES = {
    ("api", "session"): "session:{}:hands",
    ("api", "session", "contracts"): "session:{}:contracts",
    ("api", "session", "payments"): "session:{}:payments",
    ("api", "contract", "complete"): "contract:{}:complete",
    ("api", "contract", "abandon"): "contract:{}:abandon",
}
BATCH = 1000


def _thing_scope(api_scope: str) -> str | None:
    kind, of, pk, *what = [*api_scope.split(":"), "", ""][:4]
    template = API_SCOPES.get((kind, of, *filter(None, what)))
    return template.format(pk) if template and pk.isdigit() else None


def _api_scope(thing_scope: str) -> str | None:
    of, pk, what = thing_scope.split(":")
    return ":".join(["api", of, pk, *([] if what == "hands" else [what])])


def keys_into_the_store(apps, schema_editor):
    RequestKey = apps.get_model("mighty_ledger", "RequestKey")
    Hand, Contract, Payment = (apps.get_model("mighty_ledger", name) for name in ("Hand", "Contract", "Payment"))
    for row in RequestKey.objects.filter(scope__startswith="api:").only("scope").iterator():
        if (scope := _thing_scope(row.scope)) is not None:
            RequestKey.objects.filter(pk=row.pk).update(scope=scope)
    answered = {(row.scope, row.key): row for row in RequestKey.objects.filter(
        scope__regex=r"^(session|contract):")}

    def made(rows):
        for scope, key, fingerprint, thing in rows:
            row = answered.get((scope, key)) or RequestKey(scope=scope, key=key, answered_at=None)
            row.made_fingerprint = fingerprint
            setattr(row, thing[0], thing[1])
            yield row

    def kept(rows):
        rows = list(rows)
        RequestKey.objects.bulk_update([row for row in rows if row.pk], ["hand", "contract", "payment",
                                                                         "made_fingerprint"])
        RequestKey.objects.bulk_create([row for row in rows if not row.pk], batch_size=BATCH)

    keyed = models.Q(idempotency_key__isnull=False)
    kept(made((f"session:{h.session_id}:hands", h.idempotency_key, h.request_fingerprint, ("hand", h))
              for h in Hand.objects.filter(keyed).iterator(chunk_size=BATCH)))
    kept(made((f"session:{c.session_id}:contracts", c.idempotency_key, c.request_fingerprint, ("contract", c))
              for c in Contract.objects.filter(keyed).iterator(chunk_size=BATCH)))
    kept(made((f"contract:{c.pk}:{'complete' if c.status == 'completed' else 'abandon'}", c.closed_key,
               c.closed_fingerprint, ("contract", c))
              for c in Contract.objects.exclude(closed_key="").iterator(chunk_size=BATCH)))
    kept(made((f"session:{p.session_id}:payments", p.idempotency_key, p.request_fingerprint, ("payment", p))
              for p in Payment.objects.filter(keyed).iterator(chunk_size=BATCH)))


def keys_back_onto_the_rows(apps, schema_editor):
    RequestKey = apps.get_model("mighty_ledger", "RequestKey")
    Hand, Contract, Payment = (apps.get_model("mighty_ledger", name) for name in ("Hand", "Contract", "Payment"))
    things = RequestKey.objects.filter(scope__regex=r"^(session|contract):")
    for row in things.exclude(hand=None, contract=None, payment=None).iterator(chunk_size=BATCH):
        key = {"idempotency_key": row.key, "request_fingerprint": row.made_fingerprint}
        if row.hand_id:
            Hand.objects.filter(pk=row.hand_id).update(**key)
        elif row.payment_id:
            Payment.objects.filter(pk=row.payment_id).update(**key)
        elif row.scope.startswith("session:"):
            Contract.objects.filter(pk=row.contract_id).update(**key)
        else:
            Contract.objects.filter(pk=row.contract_id).update(closed_key=row.key,
                                                                closed_fingerprint=row.made_fingerprint)
    things.filter(body__isnull=True).delete()  # nothing answered, or a form's answer: no URL to go back to
    for row in things.only("scope").iterator(chunk_size=BATCH):
        RequestKey.objects.filter(pk=row.pk).update(scope=_api_scope(row.scope))
    RequestKey.objects.filter(answered_at__isnull=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("mighty_ledger", "0016_request_keys_say_what_they_made"),
    ]

    # on its own: PostgreSQL alters no table in the transaction that wrote its rows with checks pending
    operations = [
        migrations.RunPython(keys_into_the_store, keys_back_onto_the_rows),
    ]
