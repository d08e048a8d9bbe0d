"""The OpenAPI schema, its docs page, and a bounded schemathesis run against it.

Schemathesis generates requests from /api/schema/ and sends them through the
Django WSGI app: no response may be a 5xx, and every response must match the
status codes, content type and body the schema promises.
"""

import os

import pytest
import schemathesis
import yaml
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)


def test_the_schema_is_openapi_3_and_lists_every_endpoint(client):
    response = client.get("/api/schema/")

    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert schema["openapi"].startswith("3.")
    for path in ("/api/v1/score", "/api/v1/check", "/api/v1/auction/check", "/api/v1/redeal", "/api/v1/systems",
                 "/api/v1/systems/{slug}", "/api/v1/groups", "/api/v1/group", "/api/v1/players", "/api/v1/sessions",
                 "/api/v1/sessions/{session_id}/hands/{number}", "/api/v1/sessions/{session_id}/settlement",
                 "/api/v1/sessions/{session_id}/events", "/api/v1/revisions"):
        assert path in schema["paths"], path
    assert schema["components"]["securitySchemes"]["link"] == {
        "type": "http", "scheme": "bearer", "description": schema["components"]["securitySchemes"]["link"]["description"],
    }
    # every operation documents its error shape
    update = schema["paths"]["/api/v1/sessions/{session_id}/hands/{number}"]["put"]["responses"]
    assert {"200", "400", "401", "403", "404", "409"} <= set(update)


def test_the_docs_page_uses_local_static_files_not_a_cdn(client):
    response = client.get("/api/docs/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower() and "unpkg" not in page.lower()


# Loaded once at collection, through the WSGI app: no server, no network.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=int(os.environ.get("SCHEMATHESIS_EXAMPLES", "15")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_honours_its_schema(case, edit_token, keep_test_connection):
    # an edit link, so generated requests get past authentication and reach the services
    case.call_and_validate(
        headers={"Authorization": f"Bearer {edit_token}"},
        checks=[not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance],
    )
