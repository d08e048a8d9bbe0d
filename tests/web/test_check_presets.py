"""`manage.py check_presets`: make run and make serve refuse to start on a preset that does not build."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scoring.presets import all_presets
from scoring.systems import Preset


def test_every_preset_builds_and_is_counted():
    out = StringIO()
    call_command("check_presets", stdout=out)
    assert f"{len(all_presets())} scoring systems ready" in out.getvalue()


def test_a_preset_that_does_not_build_stops_the_start(monkeypatch):
    broken = Preset("broken", "Broken", "min above max", {"min_bid": 25})
    monkeypatch.setattr(
        "mighty_ledger.management.commands.check_presets.all_presets", lambda: (*all_presets(), broken)
    )
    with pytest.raises(CommandError, match="broken"):
        call_command("check_presets", stdout=StringIO())
