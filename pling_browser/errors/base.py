"""The roots of the tree (drawn in ``pling_browser/errors/__init__.py``): ``PlingError`` with its code,
stage, started, message, hint and details; ``InvocationError``, answered inside a receipt;
``ServiceError``, answered as an HTTP problem; and ``InternalError``, a bug of ours answered in that shape
all the same."""

from __future__ import annotations

from typing import Any, ClassVar


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


class ServiceError(PlingError):
    """A problem with the request, the session or the page as a whole: an HTTP problem."""

    status: ClassVar[int] = 500
    default_stage = None
    default_started = None


class InternalError(ServiceError):
    code = "INTERNAL_ERROR"
    status = 500
    default_hint = "A bug in Pling browser, not in the request: the service log has the traceback; retrying may help."
