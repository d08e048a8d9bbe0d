"""Every API operation under schemathesis with every check it has (issue 12, "Done means").

Requests generated from /api/schema/ go through the WSGI app with an edit link:
no answer may be a 5xx, and each must keep every promise the schema makes
(status codes, headers, content types, bodies; invalid input refused, valid
input accepted; a request without the link refused; a deleted thing gone).

The CI run takes ``FUZZ_EXAMPLES`` examples per operation: 20 by default (15 before this
module), about 45 s of CPU for the 34 operations. The longer, nightly-style run sets more,
as the README says: ``FUZZ_EXAMPLES=500 .venv/bin/python -m pytest tests/hardening/test_api_fuzz.py``.
"""

import os

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "20"))
# CI runs the same examples every time, so a red run is a change's, never the dice's; the longer
# run (FUZZ_EXAMPLES set) explores afresh each time
DERANDOMIZE = "FUZZ_EXAMPLES" not in os.environ

# Every check is on, with three answers of the ledger's own that the schema cannot say:
CONFIG = SchemathesisConfig.from_str("""
[checks.positive_data_acceptance]
# the rules of Mighty are not all in the schema: a well-formed hand may still be illegal (400, in the
# error shape), and text with a NUL character is refused (400) because PostgreSQL cannot store it
expected-statuses = ["2xx", "400", "401", "403", "404", "409", "422", "429"]

[checks.negative_data_rejection]
# schemathesis's own list, and 414: a query too long for any client (over 4096 bytes) is refused
# before it is read, in the error shape (http/middleware.py)
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "414", "415", "422", "428", "429", "5xx"]

[checks.ignored_auth]
# a token that is no group's link is 404, as an unknown link is on the pages, so a guess learns
# nothing (api/auth.py); no token at all is 401, and tests/api checks it
enabled = false

[[operations]]
# a check answers every hand it is sent, however incomplete, with "legal": false and the problems
# found (200): it is how a phone learns what is still missing
include-path-regex = "^/api/v1/(auction/)?check$"
checks.negative_data_rejection.enabled = false
""")

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(), config=CONFIG)


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=DERANDOMIZE)
def test_every_operation_keeps_every_promise_of_the_schema(case, edit_token, keep_test_connection):
    # no ``checks`` given: schemathesis runs every check it has
    case.call_and_validate(headers={"Authorization": f"Bearer {edit_token}"})
