"""Problems with the HTTP request itself: its body, its URL, its caller, its route, its idempotency key."""

from __future__ import annotations

from .base import ServiceError


class BadRequest(ServiceError):
    code = "BAD_REQUEST"
    status = 400
    default_hint = "Fix the request body as `issues` says."


class NavigationRefused(ServiceError):
    code = "URL_REFUSED"
    status = 400
    default_hint = "Use an http(s) URL of a public host, or ask the operator to list the host in PLING_ALLOW_HOSTS."


class Unauthorized(ServiceError):
    code = "UNAUTHORIZED"
    status = 401
    default_hint = "Send `Authorization: Bearer <PLING_TOKEN>`."


class Forbidden(ServiceError):
    code = "FORBIDDEN"
    status = 403
    default_hint = "Call the service as 127.0.0.1 or localhost, from a server or the service's own origin."


class PayloadTooLarge(ServiceError):
    code = "PAYLOAD_TOO_LARGE"
    status = 413
    default_hint = "Send a smaller body (at most 1 MiB)."


class RequestTimeout(ServiceError):
    code = "REQUEST_TIMEOUT"
    status = 408
    default_hint = "Send the whole body at once, right after the headers; the connection is closed."


class NotFound(ServiceError):
    code = "NOT_FOUND"
    status = 404
    default_hint = "See /docs for the routes."


class MethodNotAllowed(ServiceError):
    code = "METHOD_NOT_ALLOWED"
    status = 405
    default_hint = "See /docs for the methods each route takes."


class IdempotencyMismatch(ServiceError):
    code = "IDEMPOTENCY_MISMATCH"
    status = 422
    default_hint = "Use a new Idempotency-Key for a different request."
