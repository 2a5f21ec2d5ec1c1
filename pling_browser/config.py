"""Settings, read from the environment in one place. See the README's settings table."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

__all__ = ["Settings"]


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


def _risks(value: str | None) -> tuple[tuple[str, str], ...]:
    """PLING_RISK: `ID:RISK` pairs (`*` for every action) that raise a page's declared risk."""
    pairs = []
    for part in _split(value):
        name, _, risk = part.partition(":")
        if risk.strip() in ("read", "write", "danger") and name.strip():
            pairs.append((name.strip(), risk.strip()))
    return tuple(pairs)


def load_secrets(path: str | None) -> dict[str, str]:
    """Operator secrets from a dotenv file: NAME=value lines, `#` comments, optional quotes."""
    if not path:
        return {}
    out: dict[str, str] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        if name.strip():
            out[name.strip()] = value
    return out


def _default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "pling-browser"


def find_chromium(explicit: str | None) -> str | None:
    """PLING_CHROMIUM, else the system's Chromium, else None (Playwright's own browser)."""
    if explicit:
        return explicit
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    allow_hosts: tuple[str, ...] = ()
    approve: tuple[str, ...] = ()
    ask: tuple[str, ...] = ()
    risks: tuple[tuple[str, str], ...] = ()
    confirm: str = "none"
    confirm_timeout_s: float = 120.0
    secrets_file: str | None = None
    chromium: str | None = None
    browser_endpoints: tuple[str, ...] = ()
    # Where each context's egress proxy listens, and the host a (remote) browser reaches it at.
    egress_bind: str = "127.0.0.1"
    egress_advertise: str | None = None
    replica: str | None = None
    data_dir: Path = field(default_factory=_default_data_dir)
    max_sessions: int = 8
    queue: int | None = None  # requests that may wait for a session slot; default max_sessions
    queue_timeout_s: float = 30.0
    idle_timeout_s: float = 900.0
    max_lifetime_s: float = 3600.0
    headless: bool = True
    # Lifecycle budgets (milliseconds); actions may declare their own `timeoutMs`.
    navigation_timeout_ms: int = 15_000
    action_timeout_ms: int = 10_000
    expect_timeout_ms: int = 2_000
    settle_cap_ms: int = 3_000
    # Extra seconds the service waits beyond a bridge call's own budget before it calls the page stuck.
    bridge_grace_s: float = 5.0

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> "Settings":
        env = os.environ if environ is None else environ
        cpus = os.cpu_count() or 2
        return cls(
            token=env.get("PLING_TOKEN") or None,
            allow_hosts=_split(env.get("PLING_ALLOW_HOSTS")),
            approve=_split(env.get("PLING_APPROVE")),
            ask=_split(env.get("PLING_ASK")),
            risks=_risks(env.get("PLING_RISK")),
            confirm=(env.get("PLING_CONFIRM") or "none").strip().lower(),
            confirm_timeout_s=float(env.get("PLING_CONFIRM_TIMEOUT") or 120),
            secrets_file=env.get("PLING_SECRETS") or None,
            chromium=find_chromium(env.get("PLING_CHROMIUM")),
            browser_endpoints=_split(env.get("PLING_BROWSER_ENDPOINT")),
            egress_bind=env.get("PLING_EGRESS_BIND") or "127.0.0.1",
            egress_advertise=env.get("PLING_EGRESS_ADVERTISE") or None,
            replica=env.get("PLING_REPLICA") or None,
            data_dir=Path(env["PLING_DATA_DIR"]) if env.get("PLING_DATA_DIR") else _default_data_dir(),
            max_sessions=int(env.get("PLING_MAX_SESSIONS") or max(2, cpus * 4)),
            queue=int(env["PLING_QUEUE"]) if env.get("PLING_QUEUE") else None,
            queue_timeout_s=float(env.get("PLING_QUEUE_TIMEOUT") or 30),
            idle_timeout_s=float(env.get("PLING_IDLE_TIMEOUT") or 900),
            max_lifetime_s=float(env.get("PLING_MAX_LIFETIME") or 3600),
        )

    def with_(self, **changes: object) -> "Settings":
        return replace(self, **changes)  # type: ignore[arg-type]
