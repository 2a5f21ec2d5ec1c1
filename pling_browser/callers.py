"""Who may call the service and what each role may do (SPEC, "Who may do what").

``PLING_TOKENS`` names callers in a TOML file::

    [[caller]]
    name = "ci-agent"
    role = "agent"            # agent | person | operator
    token_sha256 = "9f86d0…"  # or: token = "…" (the file is then a secret itself)

    [[caller]]
    name = "ada"
    role = "person"
    token = "…"

- ``agent``: opens sessions, reads, invokes (REST, tools, MCP); never answers a confirmation or a
  handoff, never saves or deletes a profile (it may list them and open a session with one), never uses
  the console.
- ``person``: answers confirmations and handoffs, saves profiles, uses the console, reads; opens no
  session and invokes nothing.
- ``operator``: everything. ``PLING_TOKEN`` alone is one operator, named ``operator``.

An agent may be limited (SPEC, "Who may do what"), each limit a list, absent meaning no limit::

    [[caller]]
    name = "ci-agent"
    role = "agent"
    token_sha256 = "9f86d0…"
    risks = ["read", "write"]          # the risks it may invoke (after the operator's PLING_RISK)
    actions = ["add_todo", "remove"]   # action ids (a family's id covers its every ACTION@RECORD)
    hosts = ["app.example.com", "127.0.0.1:8080"]   # the documents it may open and act on

An invocation outside them is PERMISSION_DENIED (``denied_by: "caller policy"``) before anything runs,
a session it may not open is 403; a grant or an operator policy never widens them. Limits are for
agents: a person or an operator with limits stops startup, as does a limit that is not a list of
strings or a risk that is not read, write or danger.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from .models import Receipt

__all__ = ["Caller", "CallerFileError", "load_callers", "find_caller", "forbidden_for", "caller_key", "named",
           "OPERATOR"]

Role = Literal["agent", "person", "operator"]
ROLES = ("agent", "person", "operator")
LIMITS = ("risks", "actions", "hosts")
RISKS = ("read", "write", "danger")
NAME = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")


class CallerFileError(ValueError):
    """PLING_TOKENS cannot be used; the message is one line and never shows a token."""


@dataclass(frozen=True)
class Caller:
    name: str
    role: Role
    token_sha256: str = ""
    risks: tuple[str, ...] | None = None  # None: no limit
    actions: tuple[str, ...] | None = None
    hosts: tuple[str, ...] | None = None

    @property
    def may_answer(self) -> bool:
        return self.role in ("person", "operator")

    @property
    def owns_its_sessions(self) -> bool:
        """An agent sees only the sessions it opened; a person and the operator see all (SPEC)."""
        return self.role == "agent"

    def refuses(self, risk: str, action_id: str, ref: str, url: str) -> str | None:
        """Why this caller's limits refuse invoking `ref` (action `action_id` at `risk`) on the document at
        `url`, or None when they do not."""
        if self.risks is not None and risk not in self.risks:
            return f"the caller {self.name!r} may invoke {', '.join(self.risks) or 'no'} actions, and {ref} is {risk}"
        if self.actions is not None and action_id not in self.actions and ref not in self.actions:
            return f"the caller {self.name!r} may not invoke {action_id!r} (its actions: {', '.join(self.actions)})"
        return self.refuses_url(url)

    def refuses_url(self, url: str) -> str | None:
        """Why this caller may not open or act on the document at `url`, or None."""
        if self.hosts is None or host_listed(url, self.hosts):
            return None
        shown = (urlsplit(url).netloc or url)[:100]
        return f"the caller {self.name!r} may not act on {shown!r} (its hosts: {', '.join(self.hosts)})"


def host_listed(url: str, hosts: tuple[str, ...]) -> bool:
    """Whether the URL's host (and port) is one of `hosts` (`name` for any port, `name:port` for one)."""
    try:
        parts = urlsplit(url)
        host, port = (parts.hostname or "").lower(), parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        return False
    for entry in hosts:
        name, wanted = _host_entry(entry)
        if name == host and (not wanted or wanted == str(port)):
            return True
    return False


def _host_entry(entry: str) -> tuple[str, str]:
    """(host, port or "") of a `hosts` entry: `name`, `name:port`, `[v6]` or `[v6]:port`."""
    entry = entry.lower().strip()
    if entry.startswith("["):
        name, _, rest = entry[1:].partition("]")
        return name, rest.lstrip(":")
    if entry.count(":") == 1:
        name, port = entry.split(":")
        return name, port
    return entry, ""


OPERATOR = Caller("operator", "operator")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def load_callers(path: str | None) -> tuple[Caller, ...]:
    if not path:
        return ()
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    try:
        with open(path, "rb") as file:
            data: dict[str, Any] = tomllib.load(file)
    except OSError as error:
        raise CallerFileError(f"{path} cannot be read: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise CallerFileError(f"{path} is not valid TOML: {error}") from None
    entries = data.get("caller")
    if not isinstance(entries, list) or not entries:
        raise CallerFileError(f"{path} names no caller: add [[caller]] tables with name, role and token_sha256")
    callers: list[Caller] = []
    for index, entry in enumerate(entries, 1):
        where = f"caller {index} in {path}"
        if not isinstance(entry, dict):
            raise CallerFileError(f"{where} is not a table")
        name, role = entry.get("name"), entry.get("role")
        if not isinstance(name, str) or not NAME.match(name):
            raise CallerFileError(f"{where} needs a name of 1-64 letters, digits or _.@-")
        if role not in ROLES:
            raise CallerFileError(f"{where} ({name}) has role {role!r}; expected one of {', '.join(ROLES)}")
        limits = _limits(entry, where, name, role)
        token, digest = entry.get("token"), entry.get("token_sha256")
        if (token is None) == (digest is None):
            raise CallerFileError(f"{where} ({name}) needs exactly one of token and token_sha256")
        if token is not None:
            if not isinstance(token, str) or len(token) < 16:
                raise CallerFileError(f"{where} ({name}) has a token shorter than 16 characters")
            digest = _digest(token)
        if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-fA-F]{64}", digest):
            raise CallerFileError(f"{where} ({name}) has a token_sha256 that is not 64 hex digits")
        callers.append(Caller(name, role, digest.lower(), **limits))
    names = [c.name for c in callers]
    if len(set(names)) != len(names):
        raise CallerFileError(f"{path} names a caller twice")
    if len({c.token_sha256 for c in callers}) != len(callers):
        raise CallerFileError(f"{path} gives two callers the same token")
    return tuple(callers)


def _limits(entry: dict[str, Any], where: str, name: str, role: str) -> dict[str, tuple[str, ...]]:
    limits: dict[str, tuple[str, ...]] = {}
    for key in LIMITS:
        if key not in entry:
            continue
        value = entry[key]
        if role != "agent":
            raise CallerFileError(f"{where} ({name}) sets {key}: limits are for agents; a {role} is not limited")
        if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
            raise CallerFileError(f"{where} ({name}) has {key} that is not a list of non-empty strings")
        if key == "risks" and not set(value) <= set(RISKS):
            raise CallerFileError(f"{where} ({name}) has risks {value!r}; each is one of {', '.join(RISKS)}")
        limits[key] = tuple(value)
    return limits


def find_caller(token: str, callers: tuple[Caller, ...]) -> Caller | None:
    """The caller holding `token`, compared in constant time against every entry."""
    digest = _digest(token).encode()
    found = None
    for caller in callers:
        if hmac.compare_digest(digest, caller.token_sha256.encode()):
            found = caller
    return found


_AGENT_NEVER = (
    ("POST", re.compile(r"^/sessions/[^/]+/(confirmations|handoffs)/[^/]+$"), "answer a confirmation or a handoff"),
    ("POST", re.compile(r"^/sessions/[^/]+/profile$"), "save a profile"),
    ("DELETE", re.compile(r"^/profiles/[^/]+$"), "delete a profile"),
    (None, re.compile(r"^/console(/|$)"), "use the operator console"),
)
_PERSON_NEVER = (
    ("POST", re.compile(r"^/sessions$"), "open a session"),
    ("POST", re.compile(r"^/sessions/[^/]+/(invoke|resume)$"), "invoke actions"),
    ("POST", re.compile(r"^/sessions/[^/]+/tools/[^/]+$"), "invoke actions"),
    (None, re.compile(r"^/mcp(/|$)"), "use the agents' MCP server"),
)


def forbidden_for(caller: Caller, method: str, path: str) -> str | None:
    """What `caller` tried and its role may not do, or None when it may."""
    rules = {"agent": _AGENT_NEVER, "person": _PERSON_NEVER}.get(caller.role, ())
    for verb, pattern, what in rules:
        if (verb is None or verb == method) and pattern.match(path):
            return what
    return None


def caller_key(caller: Caller, key: str | None) -> str | None:
    """An idempotency key in its caller's scope: two callers' keys never meet (SPEC's key scope)."""
    return key if key is None or caller is OPERATOR else f"{caller.name}:{key}"


def named(receipt: Receipt, caller: Caller) -> Receipt:
    """The receipt naming its caller (PLING_TOKENS callers; PLING_TOKEN's operator stays unnamed)."""
    return receipt if caller is OPERATOR else receipt.model_copy(update={"caller": caller.name})
