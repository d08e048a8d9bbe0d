"""The keys hands, contracts and payments carried on their own rows are in the store of one-time
keys (0017): their columns and unique constraints go."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("mighty_ledger", "0017_keys_into_the_store"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="hand", name="hand_idempotency_key_unique_in_session"),
        migrations.RemoveConstraint(model_name="contract", name="contract_idempotency_key_unique_in_session"),
        migrations.RemoveConstraint(model_name="payment", name="payment_idempotency_key_unique_in_session"),
        migrations.RemoveField(model_name="hand", name="idempotency_key"),
        migrations.RemoveField(model_name="hand", name="request_fingerprint"),
        migrations.RemoveField(model_name="contract", name="idempotency_key"),
        migrations.RemoveField(model_name="contract", name="request_fingerprint"),
        migrations.RemoveField(model_name="contract", name="closed_key"),
        migrations.RemoveField(model_name="contract", name="closed_fingerprint"),
        migrations.RemoveField(model_name="payment", name="idempotency_key"),
        migrations.RemoveField(model_name="payment", name="request_fingerprint"),
    ]
