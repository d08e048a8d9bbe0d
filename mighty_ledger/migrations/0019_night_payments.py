"""A payment belongs to a session or to a club night (a transfer that settles the whole night),
exactly one of them. Existing payments are all of a session, so the check holds as it is added."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('mighty_ledger', '0018_keys_leave_their_rows'),
    ]

    operations = [
        migrations.AddField(
            model_name='payment',
            name='night',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='payments', to='mighty_ledger.night'),
        ),
        migrations.AlterField(
            model_name='payment',
            name='session',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='payments', to='mighty_ledger.session'),
        ),
        migrations.AddConstraint(
            model_name='payment',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('night__isnull', True), ('session__isnull', False)), models.Q(('night__isnull', False), ('session__isnull', True)), _connector='OR'), name='payment_of_a_session_or_a_night'),
        ),
    ]
