"""SENSITIVE_UNMARKED: values shown in clear whose names suggest a secret (an error) or personal contact
data (a warning). A heuristic over field and state names, and docs/ci.md says so."""

from __future__ import annotations

import re
from typing import Any

from ..models import PageModel
from .findings import SECRET_REF, Finding, Severity, short

__all__ = ["secret_kind", "sensitive"]

# Credentials, payment and government ids: shown in clear they leak (error).
_SECRET_WORDS = {"password", "passwd", "passphrase", "pwd", "passcode", "pin", "secret", "token", "apikey",
                 "cvv", "cvc", "cvv2", "ssn", "iban", "otp", "totp", "mfa", "credential", "credentials"}
_SECRET_PAIRS = [("api", "key"), ("private", "key"), ("secret", "key"), ("access", "key"), ("card", "number"),
                 ("card", "no"), ("card", "num"), ("credit", "card"), ("debit", "card"), ("cc", "number"),
                 ("cc", "num"), ("account", "number"), ("routing", "number"), ("social", "security"),
                 ("tax", "id"), ("sort", "code"), ("security", "code")]
# Contact details: personal data an app may mean to show (warning).
_CONTACT_WORDS = {"email", "phone", "telephone", "mobile", "msisdn", "dob", "birthday", "birthdate"}
_CONTACT_PAIRS = [("e", "mail"), ("date", "birth"), ("birth", "date")]
# A value the page already masked itself: mask characters, at most the last four digits shown.
_MASKED = re.compile(r"^[\s*•●·xX#-]{3,}\d{0,4}$")


def _words(name: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name)]


def secret_kind(name: str) -> Severity | None:
    """`error` when a name suggests a credential, payment or government id; `warning` for contact
    details; None otherwise."""
    words = _words(name)
    joined = "".join(words)
    present = set(words)
    if present & _SECRET_WORDS or joined in _SECRET_WORDS or joined == "card":
        return "error"
    if any(a in present and b in present for a, b in _SECRET_PAIRS):
        return "error"
    if present & _CONTACT_WORDS or any(a in present and b in present for a, b in _CONTACT_PAIRS):
        return "warning"
    return None


def _in_clear(value: Any) -> bool:
    if value is None or isinstance(value, bool) or value == "":
        return False
    if isinstance(value, str) and (SECRET_REF.fullmatch(value) or _MASKED.match(value)):
        return False
    return True


def _named_secrets(value: Any, path: str, found: list[tuple[str, Severity]]) -> None:
    if not isinstance(value, dict):
        if isinstance(value, list):
            for item in value[:20]:
                _named_secrets(item, path + "[]", found)
        return
    for key, inner in value.items():
        kind = secret_kind(key)
        here = f"{path}.{key}" if path else key
        if kind and _in_clear(inner):
            found.append((here, kind))
        elif not kind:
            _named_secrets(inner, here, found)


def sensitive(model: PageModel, out: list[Finding]) -> None:
    for type_name, records in model.records.items():
        seen: dict[str, tuple[Severity, list[str]]] = {}
        for item in records.items:
            found: list[tuple[str, Severity]] = []
            _named_secrets(item.fields, "", found)
            for path, kind in found:
                seen.setdefault(path, (kind, []))[1].append(item.id)
        for path, (kind, ids) in seen.items():
            out.append(Finding("SENSITIVE_UNMARKED", kind, f"records {type_name}",
                               f"field {path} is shown in clear on {len(ids)} record(s) ({short(ids)}); its name "
                               f"suggests {'a secret' if kind == 'error' else 'personal contact data'}: add "
                               f"'{path.split('.')[0].rstrip('[]')}' to sensitive"))
    for key, entry in model.state.items():
        kind = secret_kind(key)
        if kind and _in_clear(entry.value):
            out.append(Finding("SENSITIVE_UNMARKED", kind, f"state {key}",
                               f"the value is shown in clear; its name suggests "
                               f"{'a secret' if kind == 'error' else 'personal contact data'}: declare it with sensitive: true"))
        elif not kind:
            found: list[tuple[str, Severity]] = []
            _named_secrets(entry.value, "", found)
            for path, inner_kind in found:
                out.append(Finding("SENSITIVE_UNMARKED", inner_kind, f"state {key}",
                                   f"{path} is shown in clear inside the value; declare the state with sensitive: true"))
