import gettext
import shutil
import subprocess
from pathlib import Path

import pytest

KOREAN = Path(__file__).resolve().parents[2] / "locale" / "ko" / "LC_MESSAGES"


def catalog(mo_file: Path) -> dict:
    with mo_file.open("rb") as stream:
        return gettext.GNUTranslations(stream)._catalog


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs gettext's msgfmt")
def test_committed_korean_catalog_is_compiled_from_its_po_file(tmp_path):
    # The .mo is committed so that running the app needs no gettext; this
    # catches a .po edited without `make messages`.
    fresh = tmp_path / "django.mo"
    subprocess.run(
        ["msgfmt", "--check-format", "-o", str(fresh), str(KOREAN / "django.po")], check=True
    )

    assert catalog(KOREAN / "django.mo") == catalog(fresh)


def po_entries(po_file: Path) -> list[dict]:
    """Each entry of a .po file as {"flags", "msgid", "msgstr"}: just enough to spot gaps."""
    entries, entry, field = [], None, None
    for line in po_file.read_text(encoding="utf-8").splitlines():
        if line.startswith("#~"):
            continue  # obsolete entries are no longer shown anywhere
        if not line.strip():
            entry = None
            continue
        if entry is None:
            entry = {"flags": "", "msgid": "", "msgstr": ""}
            entries.append(entry)
        if line.startswith("#,"):
            entry["flags"] += line[2:]
        elif line.startswith("#"):
            continue
        elif line.startswith("msgid_plural"):
            field = None
        elif line.startswith(("msgid ", "msgstr ", "msgstr[")):
            field = "msgid" if line.startswith("msgid") else "msgstr"
            entry[field] += line.split(" ", 1)[1].strip('"')
        elif line.startswith('"') and field:
            entry[field] += line.strip('"')
    return [e for e in entries if e["msgid"]]


def test_every_korean_message_is_translated_and_none_is_fuzzy():
    entries = po_entries(KOREAN / "django.po")

    assert entries
    assert [e["msgid"] for e in entries if not e["msgstr"]] == []
    assert [e["msgid"] for e in entries if "fuzzy" in e["flags"]] == []
