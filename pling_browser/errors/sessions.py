"""Problems with a session and what it holds: its pending confirmations and handoffs, resume handles,
tools and tabs; its turn (busy, queued) and its end."""

from __future__ import annotations

from .base import ServiceError


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


class QueueTimeout(ServiceError):
    code = "QUEUE_TIMEOUT"
    status = 503
    default_hint = "Every session slot stayed busy; retry later or close a session."
