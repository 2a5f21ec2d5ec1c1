"""Profiles: a person's sign-in saved under a name, so later sessions open signed in.

A profile is what a browser context holds of a sign-in (cookies, local storage, IndexedDB, and the
session storage of its tabs: read by ``core/profiles.py``), kept as one file per name in
``PLING_DATA_DIR/profiles/`` (the folder 0700, each file 0600), encrypted with ``PLING_PROFILES_KEY``
(Fernet: AES-128-CBC with an HMAC-SHA256 over it, so a changed file is refused, not half-read). The
plaintext names its profile, so a file copied over another name is refused too. Several keys,
comma-separated, rotate: the first encrypts, every one decrypts.

Nothing here writes a profile's contents anywhere but that file: not in answers, errors or log lines.
Without a key no profile is saved or opened (``PROFILES_KEY_MISSING``); listing and deleting need none.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bodies import PROFILE_NAME, ProfileInfo
from ..errors import BadRequest, ProfileNotFound, ProfilesKeyMissing, ProfileUnreadable

if TYPE_CHECKING:
    from cryptography.fernet import MultiFernet

    from ..core.sessions import Session

__all__ = ["Profiles", "save_session"]

log = logging.getLogger("pling_browser.profiles")

SUFFIX = ".profile"
_NAME = re.compile(PROFILE_NAME)
VERSION = 1


class Profiles:
    """The saved profiles of one service (its data folder), sealed with its key."""

    def __init__(self, data_dir: Path, key: str | None) -> None:
        self.folder = Path(data_dir) / "profiles"
        self._key = key

    @property
    def can_seal(self) -> bool:
        return bool(self._key)

    def _sealer(self, doing: str) -> MultiFernet:
        if not self._key:
            raise ProfilesKeyMissing(f"No profile can be {doing}: PLING_PROFILES_KEY is not set, and profiles are "
                                     "only kept encrypted")
        from cryptography.fernet import Fernet, MultiFernet

        return MultiFernet([Fernet(part.strip().encode()) for part in self._key.split(",") if part.strip()])

    def path(self, name: str) -> Path:
        if not isinstance(name, str) or not _NAME.match(name):
            raise BadRequest(f"{str(name)[:80]!r} is not a profile name",
                             issues=[{"path": "name", "problem": "1-64 letters, digits, _ . or -, starting with a "
                                      "letter or digit"}])
        return self.folder / (name + SUFFIX)

    def _folder(self) -> Path:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(self.folder, 0o700)  # also when it existed, or the umask took bits away
        return self.folder

    def save(self, name: str, state: dict[str, Any]) -> ProfileInfo:
        """Seal `state` under `name` (replacing a profile of that name), written to a new file and
        renamed over the old one, so a reader never sees half a profile."""
        path = self.path(name)
        token = self._sealer("saved").encrypt(json.dumps({"v": VERSION, "name": name, "state": state}).encode())
        folder = self._folder()
        temporary = folder / f".{name}.{secrets.token_hex(6)}.tmp"
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as file:
                file.write(token)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        log.info("profile %s saved", name)
        return ProfileInfo(name=name, saved=path.stat().st_mtime)

    def load(self, name: str) -> dict[str, Any]:
        """The sign-in saved as `name`; ProfileNotFound, ProfilesKeyMissing, or ProfileUnreadable when it
        does not decrypt under the key or names another profile."""
        path = self.path(name)
        if not path.is_file():
            raise ProfileNotFound(f"No profile {name!r} is saved")
        sealer = self._sealer("opened")
        from cryptography.fernet import InvalidToken

        try:
            data = json.loads(sealer.decrypt(path.read_bytes()))
            if not isinstance(data, dict) or data.get("name") != name or not isinstance(data.get("state"), dict):
                raise ValueError("not this profile")
        except (InvalidToken, ValueError, TypeError):
            log.warning("profile %s could not be read (wrong key, or the file was changed)", name)
            raise ProfileUnreadable(f"The profile {name!r} cannot be read: PLING_PROFILES_KEY is not the key it was "
                                    "saved with, or its file was changed") from None
        state: dict[str, Any] = data["state"]
        return state

    def list(self) -> list[ProfileInfo]:
        if not self.folder.is_dir():
            return []
        found = []
        for path in self.folder.iterdir():
            name = path.name[: -len(SUFFIX)]
            if path.name.endswith(SUFFIX) and _NAME.match(name) and path.is_file():
                found.append(ProfileInfo(name=name, saved=path.stat().st_mtime))
        return sorted(found, key=lambda info: info.name)

    def delete(self, name: str) -> None:
        path = self.path(name)
        try:
            path.unlink()
        except FileNotFoundError:
            raise ProfileNotFound(f"No profile {name!r} is saved") from None
        log.info("profile %s deleted", name)


async def save_session(profiles: Profiles, session: Session, name: str) -> ProfileInfo:
    """Save the sign-in `session`'s browser context holds now as `name` (the key is checked first:
    without one nothing is read from the browser)."""
    profiles.path(name)
    profiles._sealer("saved")
    state = await session.handle.sign_in()
    return await asyncio.to_thread(profiles.save, name, state)
