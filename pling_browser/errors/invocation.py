"""The errors of one invocation, by lifecycle stage: answered inside its receipt, never as an HTTP error."""

from __future__ import annotations

from .base import InvocationError


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
