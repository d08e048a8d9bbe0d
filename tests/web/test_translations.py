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
