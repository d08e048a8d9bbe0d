"""The OpenAPI schema and its docs page. Every operation is sent what the schema allows and what it
does not by tests/hardening/test_api_fuzz.py, with every check schemathesis has."""

import yaml


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
