"""Settings, read from the environment in one place. See the README's settings table."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

__all__ = ["Settings"]


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


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
    confirm: str = "none"
    confirm_timeout_s: float = 120.0
    secrets_file: str | None = None
    chromium: str | None = None
    browser_endpoints: tuple[str, ...] = ()
    data_dir: Path = field(default_factory=_default_data_dir)
    max_sessions: int = 8
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
            confirm=(env.get("PLING_CONFIRM") or "none").strip().lower(),
            confirm_timeout_s=float(env.get("PLING_CONFIRM_TIMEOUT") or 120),
            secrets_file=env.get("PLING_SECRETS") or None,
            chromium=find_chromium(env.get("PLING_CHROMIUM")),
            browser_endpoints=_split(env.get("PLING_BROWSER_ENDPOINT")),
            data_dir=Path(env["PLING_DATA_DIR"]) if env.get("PLING_DATA_DIR") else _default_data_dir(),
            max_sessions=int(env.get("PLING_MAX_SESSIONS") or max(2, cpus * 4)),
        )

    def with_(self, **changes: object) -> "Settings":
        return replace(self, **changes)  # type: ignore[arg-type]
