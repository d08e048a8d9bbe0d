# Score-sheet hands, and the spreadsheets a group brought in (kept for repeats and undo)

import django.db.models.deletion
import django.utils.timezone
import mighty_ledger.models
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('mighty_ledger', '0012_stored_entries_as_kept_now'),
    ]

    operations = [
        migrations.AlterField(
            model_name='hand',
            name='kind',
            field=models.CharField(choices=[('scored', 'hand'), ('deal_miss', 'deal miss'), ('all_pass', 'all passed'), ('score_sheet', 'from the score sheet')], default='scored', max_length=12),
        ),
        migrations.CreateModel(
            name='SheetImport',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(default=mighty_ledger.models.new_import_key, max_length=32, unique=True)),
                ('file_hash', models.CharField(max_length=64)),
                ('file_name', models.CharField(blank=True, max_length=200)),
                ('preset', models.CharField(max_length=40)),
                ('session_ids', models.JSONField(default=list)),
                ('player_ids', models.JSONField(default=list)),
                ('hand_count', models.PositiveIntegerField(default=0)),
                ('by', models.CharField(blank=True, max_length=40)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('undone_at', models.DateTimeField(blank=True, null=True)),
                ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sheet_imports', to='mighty_ledger.group')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'constraints': [models.UniqueConstraint(condition=models.Q(('undone_at__isnull', True)), fields=('group', 'file_hash'), name='sheet_import_file_once_in_group')],
            },
        ),
    ]
