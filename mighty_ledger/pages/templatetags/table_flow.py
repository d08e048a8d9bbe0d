"""``{{ session|table_flow|json_script:"flow-rule" }}``: the session's table-flow rule, for the phone.

What static/js/flow.js steps through when hands are queued offline: the engine's
rule as data (scoring.flow_rules, frozen into the session with its system), the
seats clockwise and the first dealer. Read from the session's own fields, so a
page that shows it makes no extra query.
"""

from django import template

from mighty_ledger.reads import system_of
from scoring.flow_rules import flow_rule

register = template.Library()


@register.filter
def table_flow(session) -> dict:
    return {
        "rule": flow_rule(system_of(session)).as_json(),
        "seats": list(session.seats),
        "first_dealer": session.first_dealer,
    }
