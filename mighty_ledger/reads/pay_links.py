"""How a payee likes to be paid, and the links that hand one transfer to the payer's app.

Pure Python, no Django and no I/O: a player's handles (a Toss ID, a KakaoPay money link, a bank
and account number) are checked here and turned into links for one amount, so the settlement
page, "this phone is me" and the API's ``outstanding`` all show the same buttons, and the rules
are tested without a database. It sits on the read side rather than in ``scoring/``, which
keeps the rules of Mighty and the money they settle: these are about the banking apps, not the
game. Only link forms that public sources show working are built (docs/table.md, "Paying in
one tap"):

- Toss: ``https://toss.me/<Toss ID>/<amount>``, the link Toss's own "share my Toss ID" gives,
  with the amount in whole won as its last path segment; Toss sends won only, so another
  currency gets the link without the amount.
- KakaoPay: the payee's own ``https://qr.kakaopay.com/<code>`` money link, as the KakaoPay app
  shares it; no public form carries an amount, so the amount is shown to copy.
- A bank account: no public link opens every bank's app, so it is copied as the banking apps
  read a pasted transfer: bank, account number, amount.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import quote, urlsplit

from scoring.problems import Problem
from scoring.words import N_, Words

TOSS, KAKAOPAY, ACCOUNT = "toss", "kakaopay", "account"
KINDS = (TOSS, KAKAOPAY, ACCOUNT)

# Korean banks a friend's account is likely to be at: the code kept, the English name (translated
# for Korean pages) and the name Korean banking apps read in a pasted transfer
BANKS: dict[str, tuple[str, str]] = {
    "kb": (N_("KB Kookmin Bank"), "KB국민은행"),
    "shinhan": (N_("Shinhan Bank"), "신한은행"),
    "woori": (N_("Woori Bank"), "우리은행"),
    "hana": (N_("Hana Bank"), "하나은행"),
    "nh": (N_("NongHyup Bank"), "NH농협은행"),
    "nh_local": (N_("NongHyup (local co-op)"), "지역농축협"),
    "ibk": (N_("IBK Industrial Bank"), "IBK기업은행"),
    "sc": (N_("SC First Bank"), "SC제일은행"),
    "citi": (N_("Citibank Korea"), "한국씨티은행"),
    "kdb": (N_("KDB Bank"), "KDB산업은행"),
    "kakaobank": (N_("KakaoBank"), "카카오뱅크"),
    "tossbank": (N_("Toss Bank"), "토스뱅크"),
    "kbank": (N_("K Bank"), "케이뱅크"),
    "post": (N_("Korea Post"), "우체국"),
    "mg": (N_("MG Community Credit Cooperatives"), "새마을금고"),
    "cu": (N_("Shinhyup (credit union)"), "신협"),
    "suhyup": (N_("Suhyup Bank"), "수협은행"),
    "busan": (N_("Busan Bank"), "부산은행"),
    "kyongnam": (N_("Kyongnam Bank"), "경남은행"),
    "im": (N_("iM Bank (Daegu)"), "iM뱅크"),
    "kwangju": (N_("Kwangju Bank"), "광주은행"),
    "jeonbuk": (N_("Jeonbuk Bank"), "전북은행"),
    "jeju": (N_("Jeju Bank"), "제주은행"),
    "savings": (N_("Savings bank"), "저축은행"),
}

# other names players type for a bank (the short Korean names everyone says, the English ones
# without "Bank"): 국민은행 is KB국민은행, 농협 is NH농협은행. Compared without spaces or case.
BANK_ALIASES: dict[str, tuple[str, ...]] = {
    "kb": ("국민은행", "국민", "KB", "KB Bank", "Kookmin", "Kookmin Bank", "KB Kookmin"),
    "shinhan": ("신한", "Shinhan"),
    "woori": ("우리", "Woori"),
    "hana": ("하나", "KEB하나은행", "KEB Hana Bank", "Hana"),
    "nh": ("농협은행", "농협", "NH", "NH Bank", "NongHyup", "Nonghyup Bank"),
    "nh_local": ("지역농협", "단위농협", "축협"),
    "ibk": ("기업은행", "기업", "IBK", "IBK Bank", "Industrial Bank of Korea"),
    "sc": ("SC은행", "제일은행", "SC", "Standard Chartered"),
    "citi": ("씨티은행", "씨티", "Citi", "Citibank"),
    "kdb": ("산업은행", "KDB", "Korea Development Bank"),
    "kakaobank": ("카카오", "Kakao Bank"),
    "tossbank": ("토스", "Toss"),
    "kbank": ("K뱅크", "Kbank"),
    "post": ("우체국은행", "우편", "Post", "Post Office"),
    "mg": ("MG새마을금고", "MG", "Saemaul"),
    "cu": ("신용협동조합", "Shinhyup", "Credit union"),
    "suhyup": ("수협", "Suhyup"),
    "busan": ("부산", "BNK부산은행", "BNK Busan Bank"),
    "kyongnam": ("경남", "BNK경남은행", "Kyongnam", "Gyeongnam Bank"),
    "im": ("대구은행", "DGB대구은행", "iM뱅크", "DGB", "Daegu Bank", "iM Bank"),
    "kwangju": ("광주", "Gwangju Bank"),
    "jeonbuk": ("전북", "Jeonbuk"),
    "jeju": ("제주", "Jeju"),
    "savings": ("저축", "Savings"),
}

# Toss asks for letters (English or Korean) when an ID is made; digits appear in IDs in use
TOSS_ID = re.compile(r"[0-9A-Za-z가-힣]{2,30}")
# the code the KakaoPay app puts after qr.kakaopay.com/ in a money link
KAKAOPAY_CODE = re.compile(r"[0-9A-Za-z]{4,40}")
KAKAOPAY_HOST = "qr.kakaopay.com"
TOSS_HOST = "toss.me"
# digits in groups, as a bank prints them: 3333-01-1234567 or 110243217120
ACCOUNT_NUMBER = re.compile(r"[0-9]+(-[0-9]+)*")
ACCOUNT_DIGITS = (6, 20)

MESSAGES = {
    "toss_id": N_("A Toss ID is 2 to 30 letters (English or Korean) or digits, or its toss.me link."),
    "kakaopay_link": N_("A KakaoPay money link starts with https://qr.kakaopay.com/ and its code."),
    "bank_unknown": N_("Choose the bank from the list: its name in English or Korean, or one of the codes {codes}."),
    "account_number": N_("An account number is 6 to 20 digits, with dashes between groups if you like."),
    "bank_without_account": N_("Give the account number with the bank."),
    "account_without_bank": N_("Choose the bank of this account."),
}


@dataclass(frozen=True)
class PayHandles:
    """How one player likes to be paid; an empty string is a handle they do not keep."""

    toss: str = ""
    kakaopay: str = ""
    bank: str = ""  # a code of BANKS
    account: str = ""

    def __bool__(self) -> bool:
        return bool(self.toss or self.kakaopay or self.account)


@dataclass(frozen=True)
class PayLink:
    """One button for one transfer: a link to open (None: copy ``text``) and what it shows."""

    kind: str  # TOSS, KAKAOPAY or ACCOUNT
    url: str | None
    text: str  # the handle itself; for an account, what is copied (bank, number, amount)
    carries_amount: bool  # the link fills the amount in; otherwise the payer types it
    bank: str = ""  # an account's bank (a code of BANKS) and number, shown in the reader's language
    account: str = ""

    def as_json(self) -> dict:
        return {"kind": self.kind, "url": self.url, "text": self.text}


def _problem(field: str, code: str) -> Problem:
    if code == "bank_unknown":
        return Problem(field, code, Words(MESSAGES[code], codes=", ".join(BANKS)))
    return Problem(field, code, MESSAGES[code])


def toss_id_of(value: str) -> str | None:
    """The Toss ID in what a player typed: the ID, or the toss.me link Toss shares (with or
    without an amount after it); None when it is neither."""
    value = value.strip()
    if "/" in value:
        parts = urlsplit(value if "://" in value else "https://" + value)
        segments = [segment for segment in parts.path.split("/") if segment]
        if parts.hostname != TOSS_HOST or parts.scheme not in ("http", "https") or not 1 <= len(segments) <= 2:
            return None
        value = segments[0]
    return value if TOSS_ID.fullmatch(value) else None


def kakaopay_link_of(value: str) -> str | None:
    """The KakaoPay money link as ``https://qr.kakaopay.com/<code>``, or None when it is not one."""
    value = value.strip()
    parts = urlsplit(value if "://" in value else "https://" + value)
    code = parts.path.strip("/")
    if parts.scheme not in ("http", "https") or parts.hostname != KAKAOPAY_HOST or parts.query or parts.fragment:
        return None
    if parts.port is not None or parts.username or not KAKAOPAY_CODE.fullmatch(code):
        return None
    return f"https://{KAKAOPAY_HOST}/{code}"


def _bank_key(name: str) -> str:
    return "".join(name.split()).casefold()


# every name of every bank, as _bank_key compares them, to its code
_BANK_NAMES: dict[str, str] = {
    _bank_key(name): code
    for code, (english, korean) in BANKS.items()
    for name in (code, english, korean, *BANK_ALIASES.get(code, ()))
}


def bank_of(value: str) -> str | None:
    """The bank's code from its code, its English or Korean name, or a name players say for it
    (국민은행, 농협, Kookmin); None when unknown."""
    return _BANK_NAMES.get(_bank_key(value))


def checked_handles(*, current: PayHandles, changes: dict[str, str]) -> tuple[PayHandles, list[Problem]]:
    """``current`` with ``changes`` (any of toss, kakaopay, bank, account; "" clears one), each
    written the one way it is kept, and the problems, each beside its field. A bank goes with an
    account number: one without the other is refused."""
    values = {"toss": current.toss, "kakaopay": current.kakaopay, "bank": current.bank, "account": current.account}
    problems = []
    for field, raw in changes.items():
        raw = (raw or "").strip()
        if not raw:
            values[field] = ""
            continue
        if field == "toss":
            kept, code = toss_id_of(raw), "toss_id"
        elif field == "kakaopay":
            kept, code = kakaopay_link_of(raw), "kakaopay_link"
        elif field == "bank":
            kept, code = bank_of(raw), "bank_unknown"
        else:
            digits = raw.replace("-", "")
            fits = ACCOUNT_NUMBER.fullmatch(raw) and ACCOUNT_DIGITS[0] <= len(digits) <= ACCOUNT_DIGITS[1]
            kept, code = (raw if fits else None), "account_number"
        if kept is None:
            problems.append(_problem(field, code))
        else:
            values[field] = kept
    if not problems:
        if values["bank"] and not values["account"]:
            problems.append(_problem("account", "bank_without_account"))
        elif values["account"] and not values["bank"]:
            problems.append(_problem("bank", "account_without_bank"))
    return PayHandles(**values), problems


def plain_amount(amount: Decimal) -> str:
    """An amount as a banking app reads it: digits, a point only where there are cents."""
    amount = Decimal(amount)
    # a whole amount written whole (2100, not 2100.00): the settlement rounded it already
    return str(int(amount)) if amount == amount.to_integral_value() else str(amount.normalize())


def pay_links(handles: PayHandles, *, amount: Decimal, currency: str) -> list[PayLink]:
    """The payee's buttons for a transfer of ``amount`` in ``currency`` (an ISO code, "KRW" for
    won), in the order Toss, KakaoPay, account."""
    amount = Decimal(amount)
    links = []
    if handles.toss:
        # toss.me takes the amount as a last path segment, in whole won
        whole_won = currency == "KRW" and amount > 0 and amount == amount.to_integral_value()
        url = f"https://{TOSS_HOST}/{quote(handles.toss, safe='')}"
        links.append(PayLink(TOSS, f"{url}/{plain_amount(amount)}" if whole_won else url, handles.toss, whole_won))
    if handles.kakaopay:
        links.append(PayLink(KAKAOPAY, handles.kakaopay, handles.kakaopay, False))
    if handles.account and handles.bank in BANKS:
        money = plain_amount(amount) + ("원" if currency == "KRW" else f" {currency}")
        # copied as Korean banking apps read a pasted transfer, whatever the page's language
        links.append(PayLink(ACCOUNT, None, f"{BANKS[handles.bank][1]} {handles.account} {money}", False,
                             bank=handles.bank, account=handles.account))
    return links
