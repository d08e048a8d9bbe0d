"""The OpenAPI schema documents what the engine reads, field for field.

The calculators and the hand endpoints hand their bodies to the engine, which
checks them (so the API and ``python -m scoring`` answer alike); the schema's
request shapes are generated from serializers and must name every field the
engine's parser reads. Once the schema said ``player`` where the engine read
``seat``, and left out ``instructions`` and ``lead_suit``.
"""

from __future__ import annotations

import ast
import inspect

import yaml

from scoring import hand as hand_module

# what a request carries that is not one hand's field: the system and the seats come with the request
NOT_HAND_FIELDS = {"system", "options", "seats"}


def fields_the_engine_reads() -> tuple[set[str], set[str]]:
    """The keys parse_hand reads from a hand, and from its partner call."""
    tree = ast.parse(inspect.getsource(hand_module.parse_hand))
    hand, call = set(), set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.func.value, ast.Name)):
            target = {"data": hand, "raw_call": call}.get(node.func.value.id)
            if target is not None:
                target.add(node.args[0].value)
    return hand, call


def schema(client) -> dict:
    return yaml.safe_load(client.get("/api/schema/").content)


def test_the_engine_reads_the_fields_this_test_expects():
    hand, call = fields_the_engine_reads()

    assert {"declarer", "contract", "partner_call", "points", "instructions", "lead_suit"} <= hand
    assert {"type", "cards", "seat"} <= call


def test_a_scored_hand_in_the_schema_has_every_field_the_engine_reads(client):
    components = schema(client)["components"]["schemas"]
    hand, call = fields_the_engine_reads()

    for name in ("HandRequest", "HandRecordInput", "HandAmendInput"):
        documented = set(components[name]["properties"])
        missing = (hand - NOT_HAND_FIELDS) - documented
        assert not missing, f"{name} does not document {sorted(missing)}"
    partner_call = components["PartnerCall"]["properties"]
    # "card" and "player" are read as older spellings of "cards" and "seat"
    assert (call - {"card", "player"}) <= set(partner_call)
