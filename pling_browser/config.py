"""Settings, read from the environment in one place (pydantic-settings). See the README's settings table.

Every variable is validated at startup: a bad value stops the service with one line that names the
variable and what it accepts (`SettingsError`), never a traceback, and never a silent fallback: a safety
setting (`PLING_CONFIRM`, `PLING_RISK`, `PLING_APPROVE`…) that cannot be read is an error, not a default.
Only the variables listed here (each field's `validation_alias`) are read; fields without one are set
by code (`Settings.with_`), not by the environment.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from dotenv import dotenv_values
from pydantic import AliasChoices, Field, ValidationError, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, EnvSettingsSource, NoDecode, PydanticBaseSettingsSource, SettingsConfigDict

__all__ = ["Settings", "SettingsError", "load_secrets", "find_chromium", "near_misses"]

RISKS = ("read", "write", "danger")


class SettingsError(ValueError):
    """A setting from the environment has a value the service cannot use; the message is one line."""


def _split(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return tuple(value)


MIN_SECRET_CHARS = 4


def load_secrets(path: str | os.PathLike[str] | None) -> dict[str, str]:
    """Operator secrets from a dotenv file, parsed by python-dotenv (quotes, escapes, inline comments,
    multi-line values, `export`). `${VAR}` is kept literally: a secret never pulls in another variable.
    A name without a value (`NAME` alone) is no secret and is left out."""
    if not path:
        return {}
    from dotenv import dotenv_values

    secrets = {name: value for name, value in dotenv_values(path, interpolate=False, encoding="utf-8").items()
               if value is not None}
    short = sorted(name for name, value in secrets.items() if 0 < len(value) < MIN_SECRET_CHARS)
    if short:
        # A value of 1-3 characters cannot be masked without masking ordinary text ("12" in every
        # date): refused, never silently left unmasked. The values are never echoed.
        raise SettingsError(f"operator secret(s) {', '.join(short)} in {path} are shorter than {MIN_SECRET_CHARS} "
                            f"characters; each needs at least {MIN_SECRET_CHARS} to be masked")
    return secrets


def _default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "pling-browser"


def _default_max_sessions() -> int:
    return max(2, (os.cpu_count() or 2) * 4)


def find_chromium(explicit: str | None) -> str | None:
    """PLING_CHROMIUM, else the system's Chromium, else None (Playwright's own browser)."""
    if explicit:
        return explicit
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


# What each variable accepts, said in the startup error. Keyed by variable name.
ACCEPTS: dict[str, str] = {
    "PLING_TOKEN": "a non-empty token",
    "PLING_TOKENS": "the path of a TOML file of [[caller]] tables, each with name, role (agent, person, operator) and token or token_sha256",
    "PLING_ALLOW_HOSTS": "comma-separated hosts, each HOST or HOST:PORT (PORT 1-65535)",
    "PLING_APPROVE": "comma-separated risks (read, write, danger) or action ids",
    "PLING_ASK": "comma-separated risks (read, write, danger) or action ids",
    "PLING_RISK": "comma-separated ID:RISK pairs (ID an action id or *, RISK one of read, write, danger)",
    "PLING_CONFIRM": "one of: none, http",
    "PLING_CONFIRM_TIMEOUT": "a number of seconds greater than 0",
    "PLING_ADAPTERS": "the path of a folder of adapter .js files (or of one adapter file), readable as UTF-8",
    "PLING_SECRETS": "the path of a readable dotenv file whose values are empty or at least 4 characters long",
    "PLING_CHROMIUM": "the path of a Chromium executable",
    "PLING_BROWSER_ENDPOINT": "comma-separated ws:// or wss:// URLs",
    "PLING_DATA_DIR": "a directory path",
    "PLING_MAX_SESSIONS": "a whole number of at least 1",
    "PLING_MAX_CONNECTIONS": "a whole number of at least 1",
    "PLING_QUEUE": "a whole number of at least 0",
    "PLING_WARM_CONTEXTS": "a whole number of at least 0",
    "PLING_QUEUE_TIMEOUT": "a number of seconds greater than 0",
    "PLING_INVOKE_WAIT": "a number of seconds, 0 or more",
    "PLING_IDLE_TIMEOUT": "a number of seconds greater than 0",
    "PLING_MAX_LIFETIME": "a number of seconds greater than 0",
    "PLING_RETENTION_DAYS": "a number of days greater than 0",
    "PLING_NAVIGATION_SETTLE": "a number of seconds greater than 0",
    "PLING_PROFILES_KEY": "a Fernet key (32 url-safe base64 bytes), or several comma-separated: the first encrypts, all decrypt",
}

_SECRET_VALUES = {"PLING_TOKEN", "PLING_PROFILES_KEY"}  # never echoed in an error line
# PLING_* variables read by other parts (the CLI, the pytest plugin, the tests), or settings being added.
_READ_ELSEWHERE = {"PLING_URL", "PLING_BASE_URL", "PLING_TEST_BROWSER_ENDPOINT", "PLING_UPDATE_SNAPSHOTS"}


class _OnlyDeclaredEnv(EnvSettingsSource):
    """The environment (or a mapping standing in for it), read only for fields that name a variable:
    a field without a `validation_alias` is not a setting an operator can make."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str] | None) -> None:
        self._environ = environ
        super().__init__(settings_cls, case_sensitive=True, env_ignore_empty=True)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        if self._environ is None:
            # As pydantic-settings reads `env_file=".env"`: the working directory's .env (python-dotenv's
            # parser), under the process environment, which wins for a variable set in both.
            dotenv = dotenv_values(Path.cwd() / ".env") if (Path.cwd() / ".env").is_file() else {}
            source: Mapping[str, str | None] = {**{k: v for k, v in dotenv.items() if v is not None}, **os.environ}
        else:
            source = self._environ
        return {k: v for k, v in source.items() if k.startswith("PLING_")}

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        if field.validation_alias is None:
            return None, field_name, False
        return super().get_field_value(field, field_name)


def _env(name: str, default: Any = None, factory: Any = None) -> Any:
    # The variable, and (validate_by_name) the field's own name, so `Settings(max_sessions=3)` works in code.
    if factory is not None:
        return Field(default_factory=factory, validation_alias=AliasChoices(name))
    return Field(default=default, validation_alias=AliasChoices(name))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(frozen=True, validate_by_name=True, validate_by_alias=True, extra="ignore")

    token: str | None = _env("PLING_TOKEN")
    tokens_file: str | None = _env("PLING_TOKENS")
    allow_hosts: Annotated[tuple[str, ...], NoDecode] = _env("PLING_ALLOW_HOSTS", ())
    approve: Annotated[tuple[str, ...], NoDecode] = _env("PLING_APPROVE", ())
    ask: Annotated[tuple[str, ...], NoDecode] = _env("PLING_ASK", ())
    risks: Annotated[tuple[tuple[str, str], ...], NoDecode] = _env("PLING_RISK", ())
    confirm: Literal["none", "http"] = _env("PLING_CONFIRM", "none")
    confirm_timeout_s: float = _env("PLING_CONFIRM_TIMEOUT", 120.0)
    secrets_file: str | None = _env("PLING_SECRETS")
    # Encrypts saved profiles (sign-ins) at rest; without it no profile is saved (runtime/profiles.py).
    profiles_key: str | None = _env("PLING_PROFILES_KEY")
    # The operator's adapters for pages that do not declare themselves (pling_browser/adapters.py).
    adapters: str | None = _env("PLING_ADAPTERS")
    chromium: str | None = _env("PLING_CHROMIUM")
    browser_endpoints: Annotated[tuple[str, ...], NoDecode] = _env("PLING_BROWSER_ENDPOINT", ())
    # Where each context's egress proxy listens, and the host a (remote) browser reaches it at.
    egress_bind: str = _env("PLING_EGRESS_BIND", "127.0.0.1")
    egress_advertise: str | None = _env("PLING_EGRESS_ADVERTISE")
    replica: str | None = _env("PLING_REPLICA")
    data_dir: Path = _env("PLING_DATA_DIR", factory=_default_data_dir)
    max_sessions: int = _env("PLING_MAX_SESSIONS", factory=_default_max_sessions)
    # HTTP connections open at once (at most half the open-file limit); past it, the longest-waiting
    # idle connection is closed. A request's head must arrive within header_timeout_s, and its body
    # within body_timeout_s after the head.
    max_connections: int = _env("PLING_MAX_CONNECTIONS", 1000)
    header_timeout_s: float = 10.0
    body_timeout_s: float = 30.0
    # Connections through all the egress proxies at once (each context's own cap is 64); never more
    # than a quarter of the open-file limit (core/browsers.py).
    max_egress_connections: int = 1024
    # A console sign-in ends after this long unused, and after console_lifetime_s in any case.
    console_idle_s: float = 3600.0
    console_lifetime_s: float = 12 * 3600.0
    # Browser contexts prepared ahead, each with a blank page, so a session opens by navigating
    # (core/warm.py); 0: every session's context is made when it opens.
    warm_contexts: int = _env("PLING_WARM_CONTEXTS", 2)
    queue: int | None = _env("PLING_QUEUE")  # requests that may wait for a session slot; default max_sessions
    queue_timeout_s: float = _env("PLING_QUEUE_TIMEOUT", 30.0)
    # How long an invocation may wait for its session while another runs there (then 409 SESSION_BUSY).
    invoke_wait_s: float = _env("PLING_INVOKE_WAIT", 30.0)
    idle_timeout_s: float = _env("PLING_IDLE_TIMEOUT", 900.0)
    max_lifetime_s: float = _env("PLING_MAX_LIFETIME", 3600.0)
    # Receipts and idempotency records older than this are pruned (idempotency keys live >= 24 h).
    retention_days: float = _env("PLING_RETENTION_DAYS", 7.0)
    headless: bool = True
    # Launch Chromium with its own WebMCP switched on (PLING_BROWSER_WEBMCP=0: the bridge's shim serves pages).
    browser_webmcp: bool = _env("PLING_BROWSER_WEBMCP", True)
    # Lifecycle budgets (milliseconds); actions may declare their own `timeoutMs`.
    navigation_timeout_ms: int = 15_000
    # How long a document an action navigated to may take to load and declare itself
    # (PLING_NAVIGATION_SETTLE, seconds; SPEC "Actions that leave the document").
    navigation_settle_s: float = _env("PLING_NAVIGATION_SETTLE", 5.0)
    action_timeout_ms: int = 10_000
    # The operator's PLING_ACTION_TIMEOUT (seconds): every action's run/gesture budget when set; unset, a
    # page's actions get action_timeout_ms and WebMCP tools the browser's own default (WEBMCP_TIMEOUT_MS).
    # An action's own `timeoutMs` wins either way.
    action_timeout_s: float | None = _env("PLING_ACTION_TIMEOUT")
    expect_timeout_ms: int = 2_000
    # Buttons, links and checkboxes get a trusted click at the point the bridge hit-tested, guarded in the
    # page (core/gestures.py); PLING_DIRECT_INPUT=0 sends every gesture through Playwright's actionability.
    direct_input: bool = _env("PLING_DIRECT_INPUT", True)
    settle_cap_ms: int = 3_000
    # Extra seconds the service waits beyond a bridge call's own budget before it calls the page stuck.
    bridge_grace_s: float = 5.0

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource) -> tuple[PydanticBaseSettingsSource, ...]:
        # Only what code passes; from_env() adds the environment explicitly (tests pass their own mapping).
        return (init_settings,)

    # -- validators: each raises ValueError; from_env() turns it into one line naming the variable --

    @field_validator("token", "tokens_file", "secrets_file", "adapters", "chromium", "egress_advertise", "replica",
                     "profiles_key", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("allow_hosts", mode="before")
    @classmethod
    def _hosts(cls, value: Any) -> tuple[str, ...]:
        hosts = _split(value)
        for host in hosts:
            name, colon, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
            if colon and not (port.isdigit() and 1 <= int(port) <= 65535):
                raise ValueError(f"{host!r} has a bad port")
            if colon and not name:
                raise ValueError(f"{host!r} names no host")
        return hosts

    @field_validator("approve", "ask", mode="before")
    @classmethod
    def _names(cls, value: Any) -> tuple[str, ...]:
        return _split(value)

    @field_validator("risks", mode="before")
    @classmethod
    def _risks(cls, value: Any) -> tuple[tuple[str, str], ...]:
        if not isinstance(value, str):
            return tuple(tuple(pair) for pair in (value or ()))  # type: ignore[misc]
        pairs = []
        for part in _split(value):
            name, colon, risk = part.partition(":")
            if not colon or not name.strip() or risk.strip() not in RISKS:
                raise ValueError(f"{part!r} is not ID:RISK")
            pairs.append((name.strip(), risk.strip()))
        return tuple(pairs)

    @field_validator("action_timeout_s")
    @classmethod
    def _positive_timeout(cls, value: float | None) -> float | None:
        if value is not None and not (0 < value <= 600):
            raise ValueError("expected seconds, more than 0 and at most 600")
        return value

    @field_validator("confirm", mode="before")
    @classmethod
    def _confirm(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("browser_endpoints", mode="before")
    @classmethod
    def _endpoints(cls, value: Any) -> tuple[str, ...]:
        endpoints = _split(value)
        for endpoint in endpoints:
            if not endpoint.startswith(("ws://", "wss://")):
                raise ValueError(f"{endpoint!r} is not a ws:// or wss:// URL")
        return endpoints

    @field_validator("secrets_file")
    @classmethod
    def _readable(cls, value: str | None) -> str | None:
        if value is not None and not os.access(value, os.R_OK):
            raise ValueError(f"{value!r} is not a readable file")
        load_secrets(value)  # a SettingsError (a ValueError) names the secrets too short to mask
        return value

    @field_validator("profiles_key")
    @classmethod
    def _fernet_keys(cls, value: str | None) -> str | None:
        if value is not None:
            from cryptography.fernet import Fernet

            try:
                for key in _split(value):
                    Fernet(key.encode())
            except (ValueError, TypeError):
                raise ValueError("not a Fernet key") from None  # the key itself is never echoed
        return value

    @field_validator("adapters")
    @classmethod
    def _adapters(cls, value: str | None) -> str | None:
        from .adapters import load_adapters

        load_adapters(value)  # an AdapterError (a ValueError) names the folder or the file
        return value

    @field_validator("tokens_file")
    @classmethod
    def _callers(cls, value: str | None) -> str | None:
        from .callers import load_callers

        load_callers(value)  # a CallerFileError (a ValueError) says what is wrong, never a token
        return value

    @field_validator("max_sessions", "max_connections")
    @classmethod
    def _at_least_one(cls, value: int) -> int:
        if value < 1:
            raise ValueError("below 1")
        return value

    @field_validator("queue", "warm_contexts")
    @classmethod
    def _not_negative(cls, value: int | None) -> int | None:
        if value is not None and value < 0:
            raise ValueError("below 0")
        return value

    @field_validator("invoke_wait_s")
    @classmethod
    def _finite_not_negative(cls, value: float) -> float:
        if not 0 <= value < float("inf"):
            raise ValueError("not a finite number of 0 or more")
        return value

    @field_validator("confirm_timeout_s", "queue_timeout_s", "idle_timeout_s", "max_lifetime_s", "retention_days",
                     "navigation_settle_s")
    @classmethod
    def _positive(cls, value: float) -> float:
        if not value > 0 or value == float("inf"):
            raise ValueError("not greater than 0")
        return value

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings from `environ` (default: the process environment). Raises `SettingsError` with
        one line naming each bad variable, its value and what it accepts."""
        source = _OnlyDeclaredEnv(cls, environ)
        values = source()
        try:
            settings = cls(**values)
        except ValidationError as error:
            raise SettingsError(_one_line(error, values)) from None
        return settings.with_(chromium=find_chromium(settings.chromium))

    def with_(self, **changes: object) -> Settings:
        """A copy with some fields changed (by field name), as code and tests set them: not re-validated."""
        return self.model_copy(update=changes)


def _one_line(error: ValidationError, values: Mapping[str, Any]) -> str:
    parts = []
    for problem in error.errors():
        name = str(problem["loc"][0]) if problem["loc"] else "?"
        field = Settings.model_fields.get(name)
        variable = name if name.startswith("PLING_") else (
            field.validation_alias.choices[0] if field is not None and isinstance(field.validation_alias, AliasChoices)
            else name)
        raw = values.get(variable, values.get(name))
        shown = "(hidden)" if variable in _SECRET_VALUES else repr(raw)
        why = ""
        if problem["type"] == "value_error" and variable not in _SECRET_VALUES:
            why = f" ({problem['ctx']['error']})"
        parts.append(f"{variable}={shown} is invalid{why}: expected {ACCEPTS.get(variable, problem['msg'])}")
    return "; ".join(dict.fromkeys(parts))


def near_misses(environ: Mapping[str, str] | None = None) -> list[str]:
    """`PLING_*` variables that are no setting but look like one (a typo in `PLING_APROVE` would
    otherwise drop a safety setting silently): one warning line each."""
    import difflib

    known = [f.validation_alias.choices[0] for f in Settings.model_fields.values()  # type: ignore[union-attr]
             if isinstance(f.validation_alias, AliasChoices)]
    lines = []
    for name in sorted(os.environ if environ is None else environ):
        if name.startswith("PLING_") and name not in known and name not in _READ_ELSEWHERE:
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.85)
            if close:
                lines.append(f"{name} is not a setting and is ignored; did you mean {close[0]}?")
    return lines
