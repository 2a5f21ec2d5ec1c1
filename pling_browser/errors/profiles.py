"""Problems with saved profiles (sign-ins, encrypted at rest with PLING_PROFILES_KEY)."""

from __future__ import annotations

from .base import ServiceError


class ProfileNotFound(ServiceError):
    code = "PROFILE_NOT_FOUND"
    status = 404
    default_hint = "GET /profiles lists the saved profiles; a person saves one with POST /sessions/{sid}/profile."


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
