"""Engine throughput: hands scored per second, and one score() against one json.dumps of its result."""

from __future__ import annotations

import itertools
import json
import random
import time

from scoring.cards import SUITS
from scoring.interface import hand_and_system, score_request
from scoring.presets import all_presets
from scoring.scorer import score

from .measure import compare

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal"]


def sample_requests(count: int, seed: int = 7) -> list[dict]:
    """Legal played hands over every preset, the same ones on every run."""
    rng = random.Random(seed)
    presets = [p for p in all_presets() if p.system().base != "table"]
    requests = []
    for preset in itertools.islice(itertools.cycle(presets), count):
        system = preset.system()
        seats = SEATS[: system.players]
        out = seats[system.active_players:]
        active = seats[: system.active_players]
        declarer = rng.choice(active)
        partner = rng.choice([s for s in active if s != declarer])
        alone = system.always_alone
        low = max(system.min_bid, system.min_suit_contract)
        requests.append({
            "system": preset.slug,
            "seats": seats,
            "sitting_out": out,
            "declarer": declarer,
            "contract": {"points": rng.randint(low, system.max_bid), "trump": rng.choice(SUITS)},
            "partner_call": {"type": "none"} if alone else {"type": "card", "cards": ["KH"]},
            "partners": [] if alone else [partner],
            "points": rng.randint(0, system.total_points),
        })
    return requests


def run() -> list[str]:
    requests = sample_requests(600)
    parsed = [hand_and_system(r) for r in requests]
    results = [score(hand, system) for hand, system in parsed]

    start = time.thread_time()
    for hand, system in parsed:
        score(hand, system)
    engine_rate = len(parsed) / (time.thread_time() - start)

    start = time.thread_time()
    for request in requests:
        score_request(request)
    request_rate = len(requests) / (time.thread_time() - start)

    pairs = itertools.cycle(zip(parsed, results, strict=True))

    def one_score():
        (hand, system), _ = next(pairs)
        score(hand, system)

    dump_pairs = itertools.cycle(results)

    def one_dump():
        json.dumps(next(dump_pairs).as_json())

    ratio = compare("score() vs json.dumps(result)", one_score, one_dump)
    return [
        f"engine: {engine_rate:,.0f} hands/s scored (legality check included, parsed hands)",
        f"engine: {request_rate:,.0f} hands/s from raw HAND_JSON (parse, resolve system, check, score)",
        ratio.line() + "  (target: a few serialisations)",
    ]
