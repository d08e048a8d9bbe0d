"""A one-time key's row says what the key made (the hand, contract or payment, and the request as
its service read it), and when its answer was given rather than when the row was written: the
answer is kept a day, the key as long as what it made. 0017 moves the keys into these columns."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("mighty_ledger", "0015_club_nights"),
    ]

    operations = [
        migrations.RenameField(model_name="requestkey", old_name="created_at", new_name="answered_at"),
        migrations.AlterField(
            model_name="requestkey", name="answered_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.AddField(
            model_name="requestkey", name="hand",
            field=models.ForeignKey(blank=True, null=True, on_delete=models.deletion.CASCADE, related_name="+",
                                    to="mighty_ledger.hand"),
        ),
        migrations.AddField(
            model_name="requestkey", name="contract",
            field=models.ForeignKey(blank=True, null=True, on_delete=models.deletion.CASCADE, related_name="+",
                                    to="mighty_ledger.contract"),
        ),
        migrations.AddField(
            model_name="requestkey", name="payment",
            field=models.ForeignKey(blank=True, null=True, on_delete=models.deletion.CASCADE, related_name="+",
                                    to="mighty_ledger.payment"),
        ),
        migrations.AddField(
            model_name="requestkey", name="made_fingerprint", field=models.CharField(blank=True, max_length=64),
        ),
    ]
