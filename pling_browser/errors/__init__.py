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

The classes live by domain, all importable from here: ``base`` (the roots and ``InternalError``),
``invocation``, ``requests`` (the HTTP request itself), ``sessions``, ``pages`` (the page, its browser, the
replica) and ``profiles``.

The Python client adds ``ClientError`` (the service not reached, no whole answer): agents/transport.py.
"""

from __future__ import annotations

from .base import InternalError, InvocationError, PlingError, ServiceError
from .invocation import (
    ActionNotFound,
    ActionUnavailable,
    ExecutionFailed,
    ExpectationFailed,
    HandoffCancelled,
    HandoffFailed,
    HandoffTimeout,
    InvalidArgs,
    InvalidParams,
    PermissionDenied,
    StepFailed,
)
from .pages import (
    BrowserUnavailable,
    PageLoadTimeout,
    PageNavigated,
    PageUnreachable,
    PageUnresponsive,
    ReplicaUnavailable,
)
from .profiles import ProfileNotFound, ProfilesKeyMissing, ProfileUnreadable
from .requests import (
    BadRequest,
    Forbidden,
    IdempotencyMismatch,
    MethodNotAllowed,
    NavigationRefused,
    NotFound,
    PayloadTooLarge,
    RequestTimeout,
    Unauthorized,
)
from .sessions import (
    AnswerTooLate,
    PendingAlreadyAnswered,
    PendingNotFound,
    QueueTimeout,
    ResumeNotFound,
    ResumeRepeatsStep,
    SessionBusy,
    SessionLost,
    SessionNotFound,
    TabNotFound,
    ToolNotFound,
    TooManySessions,
)

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
