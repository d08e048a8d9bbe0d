"""Draw the screenshots in docs/images/ of the first evening's two pages, with Debian's Chromium: the
session's start (the seats tapped clockwise, the rules to choose from) and the settle page, in
English on a 390×844 phone and in Korean on a 360×740 one.

The pages are the app's own, served by `manage.py runserver` on a free port of 127.0.0.1 from a
database made for the purpose in a temporary folder (nothing of the developer's is read or
changed), and stopped at the end.

Run after changing either page, then commit the PNGs: `.venv/bin/python scripts/make_screenshots.py`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"

PHONES = {
    "en": {"locale": "en-US", "size": {"width": 390, "height": 844},
           "players": ["Ann", "Bo", "Cy", "Di", "Ed"], "clockwise": ["Cy", "Ed", "Ann", "Di", "Bo"]},
    "ko": {"locale": "ko-KR", "size": {"width": 360, "height": 740},
           "players": ["민준", "서연", "도윤", "하은", "지호"], "clockwise": ["도윤", "지호", "민준", "하은", "서연"]},
}
# three hands, by seat: the declarer, the contract and its trump, the partner (who held the ♠A), the points
HANDS = [(0, 15, "D", 2, 17), (3, 14, "S", 1, 12), (4, 14, "H", 0, 14)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def evening(language: str) -> dict:
    """A group that has not started (for the start page) and one that has played three hands at
    ₩100 a point with one transfer marked paid (for the settle page): their links."""
    from mighty_ledger import reads, services
    from scoring.settle import Stakes

    phone = PHONES[language]
    preset = "korean-standard" if language == "ko" else "pagat-standard"
    new = services.group_create(name="Friday" if language == "en" else "금요일", player_names=phone["players"])
    played = services.group_create(name="Thursday" if language == "en" else "목요일", player_names=phone["players"])
    seats = phone["clockwise"]
    session = services.session_start(group=played, seats=seats, preset=preset,
                                     stakes=Stakes(stake_per_point=Decimal(100), currency="KRW"))
    for declarer, contract, trump, partner, points in HANDS:
        session.refresh_from_db()
        entry = {"dealer": reads.next_state(session).dealer, "declarer": seats[declarer],
                 "contract": {"points": contract, "trump": trump},
                 "partner_call": {"type": "card", "cards": ["AS"]}, "partners": [seats[partner]], "points": points}
        services.hand_record(session=session, entry=entry)
    session.refresh_from_db()
    first = reads.balance.session_outstanding(session).transfers[0]
    services.payment_record(session=session, payer=first.frm, payee=first.to, amount=first.amount)
    return {"start": f"/g/{new.edit_token}/sessions/new/", "settle": f"/g/{played.edit_token}/s/{session.pk}/settle/"}


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="screenshots-"))
    environment = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}", "DEBUG": "true",
                   "DJANGO_SETTINGS_MODULE": "mighty_ledger.settings"}
    os.environ.update(environment)
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", "--no-input", verbosity=0)
    links = {language: evening(language) for language in PHONES}

    port = free_port()
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                              cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        draw(base, links)
    finally:
        server.terminate()
        server.wait(timeout=10)


def draw(base: str, links: dict) -> None:
    from playwright.sync_api import sync_playwright

    IMAGES.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for language, phone in PHONES.items():
            context = browser.new_context(viewport=phone["size"], locale=phone["locale"], device_scale_factor=1,
                                          reduced_motion="reduce")
            page = context.new_page()
            page.goto(base + links[language]["start"])
            # the seats as a table taps them, clockwise: each name with its seat number
            for name in phone["clockwise"]:
                page.locator(f"[data-seats] [data-player='{name}']").click()
            page.screenshot(path=IMAGES / f"session-start-{language}.png", full_page=True)
            page.goto(base + links[language]["settle"])
            page.get_by_test_id("payments-marked").wait_for()
            page.screenshot(path=IMAGES / f"settle-{language}.png", full_page=True)
            context.close()
        browser.close()
    for name in sorted(IMAGES.glob("*.png")):
        print(name.relative_to(ROOT))


if __name__ == "__main__":
    main()
