"""Masking: the forms a value that must never be written in clear (the operator's secrets, and the
values a session restored for its pages) takes when a page echoes it unasked, as one pattern, and the
mark that replaces it. What leaves the service is masked through one encoder, ``core/outbound.py``,
which uses these patterns; nothing else masks data."""

from __future__ import annotations

import base64
import functools
import html
import json
import re
import urllib.parse
from collections.abc import Callable, Iterable

SECRET_MARK = "<secret>restored</secret>"


@functools.lru_cache(maxsize=64)
def secret_pattern(secrets: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for every form in which a page might echo a restored value back: as it is,
    URL-encoded, base64 (standard and URL-safe, with or without padding), escaped in JSON or HTML
    (``_escaped``) and, for a number such as a card's, its digits grouped by spaces, dashes or dots. A page can always encode a value in a way no
    list foresees (SECURITY.md says so); these are the forms pages use by themselves."""
    forms: set[str] = set()
    grouped: list[str] = []
    for secret in secrets:
        if not secret:
            continue
        raw = secret.encode("utf-8", "surrogatepass")
        for form in (secret, urllib.parse.quote(secret, safe=""), urllib.parse.quote_plus(secret),
                     urllib.parse.quote(secret), base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode()):
            forms.add(form)
            forms.add(form.rstrip("="))
        forms.update(_escaped(secret))
        digits = re.sub(r"\D", "", secret)
        if len(digits) >= 8 and len(digits) >= len(secret) - 8:
            grouped.append(r"[ \-.]?".join(re.escape(d) for d in digits))
    alternatives = [re.escape(form) for form in sorted(forms, key=len, reverse=True) if form] + grouped
    return re.compile("|".join(alternatives)) if alternatives else None


def _escaped(secret: str) -> set[str]:
    """The value as text formats escape it: in a JSON string (a trace's entries, an API's answer, a
    config a page inlines; with non-ASCII as \\u escapes or not, and "/" as "\\/" as PHP writes it)
    and in HTML (a page's source). Only a value holding a quote, a backslash, "&", "<" or a control
    character has such forms."""
    json_forms = {json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]}
    return json_forms | {form.replace("/", "\\/") for form in json_forms} | {html.escape(secret), html.escape(secret, quote=False)}


def pattern_for(secrets: Iterable[str]) -> re.Pattern[str] | None:
    values = tuple(sorted({value for value in secrets if value}))
    return secret_pattern(values) if values else None


def mask_text(text: str, secrets: Iterable[str]) -> str:
    """`text` with every form of every secret in it replaced by the mark."""
    pattern = pattern_for(secrets)
    return pattern.sub(SECRET_MARK, text) if pattern is not None and text else text


Masker = Callable[[str], str]

__all__ = ["SECRET_MARK", "secret_pattern", "pattern_for", "mask_text", "Masker"]
