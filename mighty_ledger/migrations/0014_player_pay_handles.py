# How each player likes to be paid: a Toss ID, a KakaoPay money link, a bank and account number

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('mighty_ledger', '0013_sheet_imports'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='pay_account',
            field=models.CharField(blank=True, max_length=40, verbose_name='account number'),
        ),
        migrations.AddField(
            model_name='player',
            name='pay_bank',
            field=models.CharField(blank=True, max_length=20, verbose_name='bank'),
        ),
        migrations.AddField(
            model_name='player',
            name='pay_kakaopay',
            field=models.CharField(blank=True, max_length=80, verbose_name='KakaoPay money link'),
        ),
        migrations.AddField(
            model_name='player',
            name='pay_toss',
            field=models.CharField(blank=True, max_length=30, verbose_name='Toss ID'),
        ),
    ]
