"""Every error Pling answers with, in one tree.

Invocation errors are *results*: they travel inside a receipt as ``{"ok": false, "error": …}``
and carry the lifecycle ``stage`` where they arose and whether the page's write path may have
``started``. Service errors are HTTP problems (4xx/5xx) about sessions and pages, not actions.

    PlingError                      code, stage, started, message, hint, details
    ├── InvocationError             answered inside a receipt
    │   ├── ActionNotFound          ACTION_NOT_FOUND      resolve     started: false
    │   ├── InvalidArgs             INVALID_ARGS          decode      started: false
    │   ├── InvalidParams           INVALID_PARAMS        validate    started: false
    │   ├── PermissionDenied        PERMISSION_DENIED     confirm     started: false
    │   ├── ActionUnavailable       ACTION_UNAVAILABLE    reveal      started: false
    │   ├── ExecutionFailed         EXECUTION_FAILED      execute     started: true
    │   ├── ExpectationFailed       EXPECTATION_FAILED    expect      started: true
    │   ├── StepFailed              STEP_FAILED           flow        started: true
    │   ├── HandoffCancelled        HANDOFF_CANCELLED     handoff
    │   ├── HandoffTimeout          HANDOFF_TIMEOUT       handoff
    │   └── HandoffFailed           HANDOFF_FAILED        handoff
    └── ServiceError                answered as an HTTP problem with ``status``
        ├── BadRequest              BAD_REQUEST           400
        ├── NavigationRefused       URL_REFUSED           400
        ├── Unauthorized            UNAUTHORIZED          401
        ├── Forbidden               FORBIDDEN             403
        ├── NotFound                NOT_FOUND             404
        ├── MethodNotAllowed        METHOD_NOT_ALLOWED    405
        ├── SessionNotFound         SESSION_NOT_FOUND     404
        ├── PendingNotFound         PENDING_NOT_FOUND     404
        ├── ResumeNotFound          RESUME_NOT_FOUND      404
        ├── ToolNotFound            TOOL_NOT_FOUND        404
        ├── TabNotFound             TAB_NOT_FOUND         404
        ├── ProfileNotFound         PROFILE_NOT_FOUND     404
        ├── PendingAlreadyAnswered  ALREADY_ANSWERED      409
        ├── ResumeRepeatsStep       STEP_STARTED          409
        ├── SessionBusy             SESSION_BUSY          409   another invocation held the session past PLING_INVOKE_WAIT
        ├── IdempotencyMismatch     IDEMPOTENCY_MISMATCH  422
        ├── AnswerTooLate           ANSWER_TOO_LATE       410
        ├── SessionLost             SESSION_LOST          410
        ├── PayloadTooLarge         PAYLOAD_TOO_LARGE     413
        ├── RequestTimeout          REQUEST_TIMEOUT       408   the body did not arrive in time after its head
        ├── TooManySessions         TOO_MANY_SESSIONS     429
        ├── PageUnreachable         PAGE_UNREACHABLE      502
        ├── ReplicaUnavailable      REPLICA_UNAVAILABLE   502   answered by the router (docker/nginx/), never the service
        ├── BrowserUnavailable      BROWSER_UNAVAILABLE   503
        ├── QueueTimeout            QUEUE_TIMEOUT         503
        ├── PageUnresponsive        PAGE_UNRESPONSIVE     504
        ├── PageLoadTimeout         PAGE_LOAD_TIMEOUT     504
        ├── PageNavigated           PAGE_NAVIGATED        409   the document was replaced while it was read
        ├── ProfilesKeyMissing      PROFILES_KEY_MISSING  409   PLING_PROFILES_KEY is not set: no profile is saved
        ├── ProfileUnreadable       PROFILE_UNREADABLE    409   wrong key, or the file was changed
        └── InternalError           INTERNAL_ERROR        500   a bug of ours, answered in this shape all the same

The Python client adds ``ClientError`` (the service not reached, no whole answer): agents/transport.py.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "ActionNotFound", "ActionUnavailable", "AnswerTooLate", "BadRequest", "BrowserUnavailable",
    "ExecutionFailed", "ExpectationFailed", "Forbidden", "HandoffCancelled", "HandoffFailed",
    "HandoffTimeout", "IdempotencyMismatch", "InternalError", "InvalidArgs", "InvalidParams",
    "InvocationError", "MethodNotAllowed", "NavigationRefused", "NotFound", "PageLoadTimeout",
    "PageNavigated", "PageUnreachable", "PageUnresponsive", "PayloadTooLarge", "PendingAlreadyAnswered",
    "PendingNotFound", "PermissionDenied", "PlingError", "ProfileNotFound", "ProfileUnreadable",
    "ProfilesKeyMissing", "QueueTimeout", "ReplicaUnavailable", "RequestTimeout", "ResumeNotFound", "ResumeRepeatsStep", "ServiceError",
    "SessionBusy", "SessionLost", "SessionNotFound", "StepFailed", "TabNotFound", "TooManySessions",
    "ToolNotFound", "Unauthorized", "INVOCATION_CODES", "SERVICE_CODES",
]


class PlingError(Exception):
    code: ClassVar[str] = "PLING_ERROR"
    default_stage: ClassVar[str | None] = None
    default_started: ClassVar[bool | None] = False
    default_hint: ClassVar[str] = ""

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        stage: str | None = None,
        started: bool | None = None,
        **details: Any,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint if hint is not None else self.default_hint
        self.stage = stage if stage is not None else self.default_stage
        self.started = started if started is not None else self.default_started
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "stage": self.stage, "started": self.started, "message": self.message}
        if self.hint:
            body["hint"] = self.hint
        body.update(self.details)
        return body


class InvocationError(PlingError):
    """An expected failure of one invocation; answered inside a receipt, never as an HTTP error."""


class ActionNotFound(InvocationError):
    code = "ACTION_NOT_FOUND"
    default_stage = "resolve"
    default_hint = "Read the model again and pick an action from `available`."


class InvalidArgs(InvocationError):
    code = "INVALID_ARGS"
    default_stage = "decode"
    default_hint = "Send `args` as a JSON object, or as text that parses to one."


class InvalidParams(InvocationError):
    code = "INVALID_PARAMS"
    default_stage = "validate"
    default_hint = "Fix the fields named in `issues` and invoke again; nothing ran."


class PermissionDenied(InvocationError):
    code = "PERMISSION_DENIED"
    default_stage = "confirm"
    default_hint = "Ask the user, or have the operator approve this action; nothing ran."


class ActionUnavailable(InvocationError):
    code = "ACTION_UNAVAILABLE"
    default_stage = "reveal"
    default_hint = "Do what `reason` asks first (or pick another action), then invoke again; nothing ran."


class ExecutionFailed(InvocationError):
    code = "EXECUTION_FAILED"
    default_stage = "execute"
    default_started = True
    default_hint = "The page's write path may have run: read the model before retrying."


class ExpectationFailed(InvocationError):
    code = "EXPECTATION_FAILED"
    default_stage = "expect"
    default_started = True
    default_hint = "The action ran but its declared effect is not visible: check `changed` and the feedback, then read the model."


class StepFailed(InvocationError):
    code = "STEP_FAILED"
    default_stage = "flow"
    default_started = True
    default_hint = "Earlier steps ran and were not undone: fix the cause, then resume with the `resume` handle."


class HandoffCancelled(InvocationError):
    code = "HANDOFF_CANCELLED"
    default_stage = "handoff"
    default_started = None
    default_hint = "The person cancelled the step; ask the user how to go on."


class HandoffTimeout(InvocationError):
    code = "HANDOFF_TIMEOUT"
    default_stage = "handoff"
    default_started = None
    default_hint = "Nobody did the step in time; ask the user, then invoke again."


class HandoffFailed(InvocationError):
    code = "HANDOFF_FAILED"
    default_stage = "handoff"
    default_started = None
    default_hint = "The person said done but the page does not show it; ask the user."


class ServiceError(PlingError):
    """A problem with the request, the session or the page as a whole: an HTTP problem."""

    status: ClassVar[int] = 500
    default_stage = None
    default_started = None


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


class SessionNotFound(ServiceError):
    code = "SESSION_NOT_FOUND"
    status = 404
    default_hint = "List sessions with GET /sessions, or open one with POST /sessions."


class PendingNotFound(ServiceError):
    code = "PENDING_NOT_FOUND"
    status = 404
    default_hint = "GET /sessions/{sid}/pending lists what is waiting for an answer."


class ResumeNotFound(ServiceError):
    code = "RESUME_NOT_FOUND"
    status = 404
    default_hint = "Resume handles work once and expire after 10 minutes; invoke the flow again."


class ToolNotFound(ServiceError):
    code = "TOOL_NOT_FOUND"
    status = 404
    default_hint = "GET /sessions/{sid}/tools lists the tools of the page as it is now."


class TabNotFound(ServiceError):
    code = "TAB_NOT_FOUND"
    status = 404
    default_hint = "GET /sessions/{sid}/tabs lists the session's tabs; tab ids are never reused."


class ProfileNotFound(ServiceError):
    code = "PROFILE_NOT_FOUND"
    status = 404
    default_hint = "GET /profiles lists the saved profiles; a person saves one with POST /sessions/{sid}/profile."


class PendingAlreadyAnswered(ServiceError):
    code = "ALREADY_ANSWERED"
    status = 409
    default_hint = "Each confirmation or handoff takes one answer; the first one stands."


class ResumeRepeatsStep(ServiceError):
    """A resume would run again a flow step that started (its effect may have landed)."""

    code = "STEP_STARTED"
    status = 409
    default_hint = ("The step started before it failed, so its effect may have landed (read the model). "
                    "To run it again anyway, resume with {\"repeat_started_step\": true}; the handle stays valid.")


class SessionBusy(ServiceError):
    """Another invocation held the session longer than this one may wait (PLING_INVOKE_WAIT): this one
    never started."""

    code = "SESSION_BUSY"
    status = 409
    default_hint = ("Another invocation is running on this session and this one did not start: retry after "
                    "`Retry-After` seconds (read the receipt log to see what ran).")


class IdempotencyMismatch(ServiceError):
    code = "IDEMPOTENCY_MISMATCH"
    status = 422
    default_hint = "Use a new Idempotency-Key for a different request."


class AnswerTooLate(ServiceError):
    code = "ANSWER_TOO_LATE"
    status = 410
    default_hint = "The request timed out or its invocation ended; the agent must invoke again."


class SessionLost(ServiceError):
    code = "SESSION_LOST"
    status = 410
    default_hint = "The session is closed or its browser is gone (the message says which); open a new session."


class TooManySessions(ServiceError):
    code = "TOO_MANY_SESSIONS"
    status = 429
    default_hint = "Close a session or retry after `Retry-After` seconds."


class PageUnreachable(ServiceError):
    code = "PAGE_UNREACHABLE"
    status = 502
    default_hint = "Check the URL and that the site is up."


class ReplicaUnavailable(ServiceError):
    code = "REPLICA_UNAVAILABLE"
    status = 502
    default_hint = ("A session lives on the replica that opened it and is lost with it: open a new one "
                    "(POST /sessions goes to a replica that answers).")


class BrowserUnavailable(ServiceError):
    code = "BROWSER_UNAVAILABLE"
    status = 503
    default_hint = "Check PLING_CHROMIUM or install chromium; GET /healthz shows the browser status."


class QueueTimeout(ServiceError):
    code = "QUEUE_TIMEOUT"
    status = 503
    default_hint = "Every session slot stayed busy; retry later or close a session."


class PageUnresponsive(ServiceError):
    code = "PAGE_UNRESPONSIVE"
    status = 504
    default_hint = "The page's script is busy or stuck; close the session and open a new one."


class PageLoadTimeout(ServiceError):
    code = "PAGE_LOAD_TIMEOUT"
    status = 504
    default_hint = "The page did not finish loading in time; check the site, or retry."


class PageNavigated(ServiceError):
    """The document was replaced while it was being read (a navigation the page started itself)."""

    code = "PAGE_NAVIGATED"
    status = 409
    default_hint = "The page moved to another document; read the model again."


class ProfilesKeyMissing(ServiceError):
    code = "PROFILES_KEY_MISSING"
    status = 409
    default_hint = ("Set PLING_PROFILES_KEY (a Fernet key: python -c \"from cryptography.fernet import Fernet; "
                    "print(Fernet.generate_key().decode())\") and restart the service; profiles are saved encrypted.")


class ProfileUnreadable(ServiceError):
    """A saved profile that does not decrypt: PLING_PROFILES_KEY is not the key it was saved with, or
    the file was changed. Its contents are never shown."""

    code = "PROFILE_UNREADABLE"
    status = 409
    default_hint = ("Set PLING_PROFILES_KEY to the key the profile was saved with, or delete the profile "
                    "(DELETE /profiles/{name}) and have a person save it again.")


class InternalError(ServiceError):
    code = "INTERNAL_ERROR"
    status = 500
    default_hint = "A bug in Pling browser, not in the request: the service log has the traceback; retrying may help."


INVOCATION_CODES: dict[str, type[InvocationError]] = {
    cls.code: cls
    for cls in (
        ActionNotFound, InvalidArgs, InvalidParams, PermissionDenied, ActionUnavailable, ExecutionFailed,
        ExpectationFailed, StepFailed, HandoffCancelled, HandoffTimeout, HandoffFailed,
    )
}

SERVICE_CODES: dict[str, type[ServiceError]] = {
    cls.code: cls
    for cls in (
        BadRequest, NavigationRefused, Unauthorized, Forbidden, PayloadTooLarge, RequestTimeout, NotFound, MethodNotAllowed, SessionNotFound, PendingNotFound, ResumeNotFound, ToolNotFound, TabNotFound,
        PendingAlreadyAnswered, ResumeRepeatsStep, SessionBusy, IdempotencyMismatch,
        AnswerTooLate, SessionLost, TooManySessions,
        PageUnreachable, ReplicaUnavailable, BrowserUnavailable, QueueTimeout, PageUnresponsive, PageLoadTimeout, PageNavigated,
        ProfileNotFound, ProfilesKeyMissing, ProfileUnreadable, InternalError,
    )
}
