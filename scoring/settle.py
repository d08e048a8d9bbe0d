"""Settling up: the fewest transfers that clear a set of balances, money at a stake, and chips.

Balances are keyed by seat, in seat order (a plain dict keeps its order); a
positive balance is owed money, a negative one owes it. They always sum to
zero, since every hand's payments do (RULES.md §7.3); a mapping that does not
is a bug upstream, so it raises ValueError rather than returning a problem.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

Amount = int | Fraction | Decimal

# Up to this many players with something to settle, the minimum is searched exactly
# (2^10 subsets); beyond it the greedy settlement is used, which needs at most n − 1.
EXACT_LIMIT = 10


@dataclass(frozen=True)
class Transfer:
    """``frm`` hands ``amount`` (always positive) to ``to``."""

    frm: str
    to: str
    amount: Amount

    def as_json(self) -> dict:
        return {"from": self.frm, "to": self.to, "amount": _json_amount(self.amount)}


def _json_amount(amount: Amount) -> int | str:
    # Decimal and non-whole Fraction amounts go out as exact strings ("2.50", "5/2")
    if isinstance(amount, Fraction):
        return amount.numerator if amount.denominator == 1 else str(amount)
    if isinstance(amount, Decimal):
        return str(amount)
    return amount


def fewest_transfers(balances: Mapping[str, Amount]) -> list[Transfer]:
    """The fewest transfers after which every balance is zero, in seat order.

    Players who can settle among themselves form a zero-sum group; a group of k
    needs k − 1 transfers, so the minimum is (players − number of groups) and the
    search is for the most disjoint zero-sum groups (exact up to EXACT_LIMIT
    players who owe or are owed; greedy beyond).
    """
    seats = list(balances)
    if sum(balances.values()) != 0:
        raise ValueError(f"Balances must sum to zero, not {sum(balances.values())}: {balances}")
    pairs, owing = _opposite_pairs(seats, balances)
    if len(owing) <= 3:
        # with opposite pairs gone, no one or two of three can settle among themselves
        groups = [list(range(len(owing)))] if owing else []
    elif len(owing) <= EXACT_LIMIT:
        groups = _most_zero_sum_groups([balances[seat] for seat in owing])
    else:
        groups = [list(range(len(owing)))]
    transfers = [Transfer(debtor, creditor, balances[creditor]) for debtor, creditor in pairs]
    transfers += [
        transfer
        for group in groups
        for transfer in _greedy({owing[i]: balances[owing[i]] for i in group})
    ]
    order = {seat: index for index, seat in enumerate(seats)}
    return sorted(transfers, key=lambda t: (order[t.frm], order[t.to]))


def _opposite_pairs(seats: list[str], balances: Mapping[str, Amount]):
    """Settle exact opposites (−x with +x) first: some fewest-transfer settlement always does.

    A pair is a zero-sum group of two, and splitting any optimal grouping's groups
    around it never lowers their number. On a scored hand this leaves the search
    almost nothing (the partner and one defender settle between themselves).
    Returns the (debtor, creditor) pairs and the seats still owing or owed.
    """
    waiting: dict[Amount, list[str]] = {}
    pairs = []
    paired = set()
    # from the last seat back, so the partner is paid by the last defender (seed 002's
    # "the third pays the partner") and the declarer by the earlier ones
    for seat in reversed(seats):
        amount = balances[seat]
        if amount == 0:
            continue
        partners = waiting.get(-amount)
        if partners:
            other = partners.pop(0)
            pairs.append((seat, other) if amount < 0 else (other, seat))
            paired.update((seat, other))
        else:
            waiting.setdefault(amount, []).append(seat)
    return pairs, [seat for seat in seats if balances[seat] != 0 and seat not in paired]


def _most_zero_sum_groups(amounts: list[Amount]) -> list[list[int]]:
    """Split the indices of ``amounts`` into as many zero-sum groups as possible.

    most[mask] is the largest number of zero-sum "prefixes" of any order of the
    players in mask; a best order, cut at those prefixes, gives the groups.
    """
    n = len(amounts)
    full = (1 << n) - 1
    total = [0] * (1 << n)
    most = [0] * (1 << n)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + amounts[low]
        best = max(most[mask & ~(1 << i)] for i in range(n) if mask >> i & 1)
        most[mask] = best + (total[mask] == 0)
    groups: list[list[int]] = []
    mask, group = full, []
    while mask:
        # peel one player off, keeping the count of groups; the lowest index wins ties
        player = next(
            i
            for i in range(n)
            if mask >> i & 1 and most[mask & ~(1 << i)] + (total[mask] == 0) == most[mask]
        )
        group.append(player)
        mask &= ~(1 << player)
        if total[mask] == 0:
            groups.append(sorted(group))
            group = []
    return groups


def _greedy(balances: dict[str, Amount]) -> list[Transfer]:
    """The largest debtor pays the largest creditor until all are settled (ties by seat).

    Each transfer clears at least one player, so a zero-sum group of k takes at most
    k − 1; a group with no zero-sum part inside it takes exactly k − 1.
    """
    seats = list(balances)
    position = {seat: index for index, seat in enumerate(seats)}
    left = dict(balances)
    transfers = []
    while True:
        debtor = min(seats, key=lambda seat: (left[seat], position[seat]))
        creditor = min(seats, key=lambda seat: (-left[seat], position[seat]))
        if left[debtor] == 0:
            return transfers
        amount = min(-left[debtor], left[creditor])
        transfers.append(Transfer(debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount


# --- money ------------------------------------------------------------------


def _round_half_away(value: Fraction) -> int:
    whole = int(abs(value) + Fraction(1, 2))
    return whole if value >= 0 else -whole


def _units(points: Amount, stake: Decimal, unit: Decimal) -> Fraction:
    if unit <= 0:
        raise ValueError(f"The rounding unit must be positive, not {unit}.")
    return Fraction(points) * Fraction(stake) / Fraction(unit)


def to_money(points: Amount, stake_per_point: Decimal, rounding_unit: Decimal) -> Decimal:
    """Points at a stake, rounded half away from zero to the unit (0.5 → 1, −0.5 → −1)."""
    return _round_half_away(_units(points, stake_per_point, rounding_unit)) * rounding_unit


def settle_money(totals: Mapping[str, Amount], stake: Decimal, unit: Decimal) -> dict[str, Decimal]:
    """Every player's money, each within one unit of exact and summing to exactly zero.

    Each amount is first rounded as ``to_money`` does; if the rounded amounts do not
    balance, the players whose rounding moved them furthest the wrong way give back
    (or get) one unit each, largest rounding first, ties by seat order.
    """
    if sum(totals.values()) != 0:
        raise ValueError(f"Totals must sum to zero, not {sum(totals.values())}: {totals}")
    exact = {seat: _units(points, stake, unit) for seat, points in totals.items()}
    rounded = {seat: _round_half_away(value) for seat, value in exact.items()}
    excess = sum(rounded.values())
    step = 1 if excess > 0 else -1
    # rounding error in the direction of the excess, largest first
    by_error = sorted(exact, key=lambda seat: -step * (rounded[seat] - exact[seat]))
    for seat in by_error[: abs(excess)]:
        rounded[seat] -= step
    return {seat: rounded[seat] * unit for seat in totals}


# --- chips ------------------------------------------------------------------


def chip_counts(
    totals: Mapping[str, Amount], starting_stack: int, chips_per_point: int
) -> dict[str, int]:
    """The chips in front of each player: the starting stack plus the total in chips.

    A count below zero means the player owes chips to the bank.
    """
    counts = {}
    for seat, points in totals.items():
        chips = Fraction(points) * chips_per_point
        if chips.denominator != 1:
            raise ValueError(f"{seat}'s {points} points are not a whole number of chips.")
        counts[seat] = starting_stack + int(chips)
    return counts


# --- a session's settlement -------------------------------------------------------

# The deal-miss pot settles as one more party: fines paid in and not yet won are owed to it.
POT = "pot"

# ISO 4217 currencies without a minor unit, and the symbols tables type instead of a code.
# Any other currency, or none, is counted in hundredths (cents).
WHOLE_UNIT_CURRENCIES = frozenset({
    "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND",
    "VUV", "XAF", "XOF", "XPF",
})
CURRENCY_SYMBOLS = {"₩": "KRW", "원": "KRW", "¥": "JPY", "円": "JPY", "€": "EUR", "$": "USD", "£": "GBP"}
CENT = Decimal("0.01")


def currency_code(currency: str) -> str:
    """The ISO code a table means: "krw", "원" and "₩" are all KRW."""
    currency = (currency or "").strip()
    return CURRENCY_SYMBOLS.get(currency, currency.upper())


def in_cents(amount: Decimal) -> Decimal:
    """A stake or a rounding unit as the ledger keeps it, to the cent: 100 is 100.00, so the same
    stake sent either way is the same stake."""
    return amount.quantize(CENT)


def minor_unit(currency: str) -> Decimal:
    """The smallest amount the currency counts: one won, one yen, one cent."""
    return Decimal(1) if currency_code(currency) in WHOLE_UNIT_CURRENCIES else CENT


@dataclass(frozen=True)
class Stakes:
    """What a session is played for: money at a stake per point, chips, both, or points alone."""

    stake_per_point: Decimal | None = None
    currency: str = ""
    # None: the currency's minor unit, so a stake of 0.30 EUR pays 1.50, never a rounded 2
    rounding_unit: Decimal | None = None
    chips_start: int | None = None
    chips_per_point: int | None = None

    @property
    def unit(self) -> Decimal:
        return self.rounding_unit or minor_unit(self.currency)

    @property
    def for_money(self) -> bool:
        return self.stake_per_point is not None and self.stake_per_point > 0

    @property
    def for_chips(self) -> bool:
        return self.chips_start is not None


def with_pot(balances: Mapping[str, Amount]) -> dict[str, Amount]:
    """Balances plus the pot as a party, so that they sum to zero and can be settled."""
    missing = -sum(balances.values())
    return {**balances, POT: missing} if missing else dict(balances)


def hand_transfers(payments: Mapping[str, int]) -> list[Transfer]:
    """The fewest transfers that settle one hand alone (a deal-miss fine goes to the pot)."""
    return fewest_transfers(with_pot(payments))


@dataclass(frozen=True)
class Settlement:
    """Who is up, who is down, and the fewest transfers, in points, money and chips."""

    totals: dict  # points per seat, and the pot when fines wait in it
    pot: int
    transfers: list[Transfer]  # in points
    money: dict[str, Decimal] | None
    money_transfers: list[Transfer] | None
    chips: dict[str, int] | None  # the chips in front of each seat
    chip_transfers: list[Transfer] | None

    @property
    def unit(self) -> str:
        """What the players settle in: money when there is a stake, else chips, else points."""
        if self.money is not None:
            return "money"
        return "chips" if self.chips is not None else "points"

    @property
    def settling_transfers(self) -> list[Transfer]:
        if self.money_transfers is not None:
            return self.money_transfers
        return self.chip_transfers if self.chip_transfers is not None else self.transfers


def settle_session(totals: Mapping[str, int], stakes: Stakes) -> Settlement:
    """A session's settlement from its running totals (RULES.md §7.3: they and the pot sum to zero)."""
    balances = with_pot(totals)
    money = money_transfers = chips = chip_transfers = None
    if stakes.for_money:
        money = settle_money(balances, stakes.stake_per_point, stakes.unit)
        money_transfers = fewest_transfers(money)
    if stakes.for_chips:
        per_point = stakes.chips_per_point or 1
        chips = chip_counts(totals, stakes.chips_start, per_point)
        chip_transfers = fewest_transfers({seat: points * per_point for seat, points in balances.items()})
    return Settlement(
        totals=balances, pot=-sum(totals.values()),
        transfers=fewest_transfers(balances), money=money, money_transfers=money_transfers,
        chips=chips, chip_transfers=chip_transfers,
    )


# --- what is still owed, after payments made at the table ------------------------------


def balances_of(transfers: Iterable[Transfer]) -> dict[str, Amount]:
    """What each party is owed (+) or owes (−) until these transfers are made."""
    owed: dict[str, Amount] = {}
    for transfer in transfers:
        owed[transfer.to] = owed.get(transfer.to, 0) + transfer.amount
        owed[transfer.frm] = owed.get(transfer.frm, 0) - transfer.amount
    return owed


def still_owed(settlements: Iterable[Settlement], paid: Iterable[Transfer],
               order: Sequence[str] = ()) -> tuple[dict[str, Amount], list[Transfer]]:
    """Several settlements in one unit, less the payments made: what each party is still owed,
    and the fewest transfers that square it. Whatever was not paid carries from one to the next.

    A payment beyond what its payer owed its payee leaves the payee owing it back. ``order`` is
    the parties as they sit (the seats, the pot after them): the balances are kept and settled in
    it, so every face that asks with the same seats lists the same transfers; a party not in it
    comes after, as first met.
    """
    owed: dict[str, Amount] = dict.fromkeys(order, 0)
    for settlement in settlements:
        for party, amount in balances_of(settlement.settling_transfers).items():
            owed[party] = owed.get(party, 0) + amount
    # a payment made clears the payer's debt and the payee's credit by its amount
    for party, amount in balances_of(paid).items():
        owed[party] = owed.get(party, 0) - amount
    owed = {party: amount for party, amount in owed.items() if amount}
    return owed, fewest_transfers(owed)


def as_counted(amount: Amount, unit: Decimal | None) -> Amount:
    """What is left of a settlement after payments, as it counts: money to the places of its
    rounding unit (a payment stored as 1300.00 leaves 700, not 700.00), chips and points
    (``unit`` None) whole; never rounded further, as it is a sum of amounts so counted."""
    if unit is None:
        return int(amount)
    places = min(Decimal(unit).as_tuple().exponent, 0)
    return Decimal(amount).quantize(Decimal(1).scaleb(places))


def left_to_pay(transfers: Iterable[Transfer], paid: Iterable[Transfer]) -> list[tuple[Transfer, Amount, Amount]]:
    """Each transfer with what was paid from its payer to its payee so far and what is left of it."""
    so_far: dict[tuple[str, str], Amount] = {}
    for payment in paid:
        so_far[(payment.frm, payment.to)] = so_far.get((payment.frm, payment.to), 0) + payment.amount
    rows = []
    for transfer in transfers:
        done = so_far.get((transfer.frm, transfer.to), 0)
        rows.append((transfer, done, transfer.amount - done))
    return rows


def most_payable(owed: dict[str, Amount], frm: str, to: str) -> Amount:
    """The most ``frm`` can pay ``to`` and only square debts (``owed`` as ``still_owed`` gives it):
    the smaller of what ``frm`` still owes and what ``to`` is still owed; 0 the wrong way round."""
    return max(min(-owed.get(frm, 0), owed.get(to, 0)), 0)


def money_by_currency(amounts: Iterable[tuple[str, Decimal]]) -> dict[str, Decimal]:
    """One party's money over several sessions, added up per currency ("원" and "KRW" are one), never across."""
    total: dict[str, Decimal] = {}
    for currency, amount in amounts:
        code = currency_code(currency)
        total[code] = total.get(code, Decimal(0)) + amount
    return total
