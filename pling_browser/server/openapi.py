"""The OpenAPI document as clients read it: FastAPI's, with what FastAPI cannot say by itself.

- Problems are ``application/problem+json`` (FastAPI files an extra response's model under the route's
  own media type), with the headers their status carries: ``Allow`` on 405, ``Retry-After`` on 409,
  429 and 503, ``WWW-Authenticate`` on 401.
- The bearer scheme: every operation requires it but the public ones (``/healthz``, ``/errors``). The
  token is checked by a middleware (access.py), before routing, so no route declares it; a service
  started without PLING_TOKEN or PLING_TOKENS listens on loopback only and asks for none.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from .access import PUBLIC_PATHS
from .problems import MEDIA_TYPE

SCHEME = "bearer"
_HEADERS: dict[str, dict[str, Any]] = {
    "401": {"WWW-Authenticate": {"description": "`Bearer`", "schema": {"type": "string"}}},
    "405": {"Allow": {"description": "Every method the path takes.", "schema": {"type": "string"}}},
    **{status: {"Retry-After": {"description": "Seconds to wait before retrying, when waiting helps.",
                                "schema": {"type": "integer"}}} for status in ("409", "429", "503")},
}


def _public(path: str) -> bool:
    return any(path == p or (p.endswith("/") and path.startswith(p)) for p in PUBLIC_PATHS)


def document(app: FastAPI, problem_schema: str) -> dict[str, Any]:
    """The app's OpenAPI document (built once, as FastAPI's own ``app.openapi`` does)."""
    if app.openapi_schema:
        return app.openapi_schema
    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    ref = f"#/components/schemas/{problem_schema}"
    for path, operations in doc.get("paths", {}).items():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                content = response.get("content", {})
                # Filed under the route's own media type (JSON, or HTML, PNG, text for the routes that answer those).
                filed = [media for media, body in content.items() if body.get("schema", {}).get("$ref") == ref]
                if filed:
                    response["content"] = {MEDIA_TYPE: content[filed[0]]}
                    if status in _HEADERS:
                        response["headers"] = _HEADERS[status]
            if _public(path):
                operation["security"] = []
    doc.setdefault("components", {})["securitySchemes"] = {SCHEME: {
        "type": "http", "scheme": "bearer",
        "description": "PLING_TOKEN, or a caller's token from PLING_TOKENS. A service started with neither "
                       "listens on loopback only and asks for no token."}}
    doc["security"] = [{SCHEME: []}]
    app.openapi_schema = doc
    return doc
