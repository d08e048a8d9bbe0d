"""makemessages that also collects ``N_("…")``: the sentences scoring.describe marks for translation.

The engine has no Django, so it marks its templates with a no-op ``N_`` and
the web layer translates them when rendering.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
