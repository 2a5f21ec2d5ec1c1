"""Masking: values that must never be written in clear (the operator's secrets, and the values a
session restored for its pages) are found in anything the service writes, as they are and in the
forms pages echo them in unasked, and replaced by a mark. Neutral ground: the receipt, session info,
the refused list, the console, MCP and log lines all use it."""

from __future__ import annotations

import base64
import functools
import logging
import re
import urllib.parse
import weakref
from typing import Any, Callable, Iterable

from ..plain import escaped

SECRET_MARK = "<secret>restored</secret>"


@functools.lru_cache(maxsize=64)
def secret_pattern(secrets: tuple[str, ...]) -> "re.Pattern[str] | None":
    """One pattern for every form in which a page might echo a restored value back: as it is,
    URL-encoded, base64 (standard and URL-safe, with or without padding) and, for a number such as a
    card's, its digits grouped by spaces, dashes or dots. A page can always encode a value in a way no
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
        digits = re.sub(r"\D", "", secret)
        if len(digits) >= 8 and len(digits) >= len(secret) - 8:
            grouped.append(r"[ \-.]?".join(re.escape(d) for d in digits))
    alternatives = [re.escape(form) for form in sorted(forms, key=len, reverse=True) if form] + grouped
    return re.compile("|".join(alternatives)) if alternatives else None


def pattern_for(secrets: Iterable[str]) -> "re.Pattern[str] | None":
    values = tuple(sorted({value for value in secrets if value}))
    return secret_pattern(values) if values else None


def mask_text(text: str, secrets: Iterable[str]) -> str:
    """`text` with every form of every secret in it replaced by the mark."""
    pattern = pattern_for(secrets)
    return pattern.sub(SECRET_MARK, text) if pattern is not None and text else text


def scrub(value: Any, secrets: Iterable[str]) -> Any:
    """Replace any restored secret value the page echoed back into data, errors or diffs. Works on
    values, never on serialized text: strings (and keys) have each occurrence replaced; a number
    whose digits hold a secret is replaced whole, since the number is then the secret."""
    pattern = pattern_for(secrets or ())
    if pattern is None:
        return value

    def walk(item: Any, depth: int) -> Any:
        if isinstance(item, str):
            return pattern.sub(SECRET_MARK, item)
        if item is None or isinstance(item, bool):
            return item
        if isinstance(item, (int, float)):
            return SECRET_MARK if pattern.search(repr(item)) or pattern.search(str(item)) else item
        if depth > 200:
            return SECRET_MARK  # deeper than any bounded answer: nothing unread leaves
        if isinstance(item, dict):
            return {(pattern.sub(SECRET_MARK, key) if isinstance(key, str) else key): walk(child, depth + 1)
                    for key, child in item.items()}
        if isinstance(item, (list, tuple)):
            return [walk(child, depth + 1) for child in item]
        return item

    return walk(value, 0)


class LogMasking(logging.Filter):
    """A filter on the service's loggers: a record whose message holds a masked value (from any
    source registered, a runtime's sessions and operator secrets) is rewritten with the value
    masked before any handler formats it. Every record's text arguments are escaped first
    (``plain.escaped``): agent and page text never reaches a log line raw, whatever line carries it."""

    def __init__(self) -> None:
        super().__init__()
        self._sources: "weakref.WeakSet[Any]" = weakref.WeakSet()

    def register(self, owner: Any) -> None:
        """`owner.masked_values()` answers the values to mask now."""
        self._sources.add(owner)

    def filter(self, record: logging.LogRecord) -> bool:
        _escape_record(record)
        values: set[str] = set()
        for source in list(self._sources):
            values.update(source.masked_values())
        pattern = pattern_for(values)
        if pattern is None:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is the logging module's to report
            return True
        if pattern.search(message):
            _mask_record(record, pattern)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text and pattern.search(record.exc_text):
            record.exc_text = pattern.sub(SECRET_MARK, record.exc_text)
        return True


def _escape_record(record: logging.LogRecord) -> None:
    """The record's text arguments escaped (its template is ours); a message without arguments may have
    been put together from agent text, so it is escaped whole."""
    args = record.args
    if isinstance(args, tuple):
        record.args = tuple(_escaped_arg(a) for a in args)
    elif isinstance(args, dict):
        record.args = {k: _escaped_arg(a) for k, a in args.items()}
    elif not args and isinstance(record.msg, str):
        record.msg = escaped(record.msg)


def _escaped_arg(arg: Any) -> Any:
    # An error's message is often a page's or an agent's words: escaped as text, as strings are.
    if isinstance(arg, str):
        return escaped(arg)
    return escaped(str(arg)) if isinstance(arg, BaseException) else arg


def _mask_record(record: logging.LogRecord, pattern: "re.Pattern[str]") -> None:
    """Mask the record's string arguments and keep its template, so filters that count lines by
    template (server.limits.RepeatLimit) still see one template; when that cannot hide the value
    (a number, a value split over two arguments), the whole message is replaced."""
    args = record.args
    if isinstance(args, tuple) and all(isinstance(a, str) or not pattern.search(str(a)) for a in args):
        record.args = tuple(pattern.sub(SECRET_MARK, a) if isinstance(a, str) else a for a in args)
    elif isinstance(args, dict) and all(isinstance(a, str) or not pattern.search(str(a)) for a in args.values()):
        record.args = {k: pattern.sub(SECRET_MARK, a) if isinstance(a, str) else a for k, a in args.items()}
    if isinstance(record.msg, str):
        record.msg = pattern.sub(SECRET_MARK, record.msg)
    try:
        still = pattern.search(record.getMessage())
    except Exception:
        still = True
    if still:
        message = record.getMessage() if not isinstance(still, bool) else str(record.msg)
        record.msg, record.args = pattern.sub(SECRET_MARK, message), None


LOG_MASKING = LogMasking()


def mask_logs(owner: Any, prefix: str = "pling_browser") -> None:
    """Register `owner` and put the filter on every logger of the package (a logger's filter sees
    only its own records, so each one gets it)."""
    LOG_MASKING.register(owner)
    names = [prefix] + [name for name in list(logging.root.manager.loggerDict) if name.startswith(prefix + ".")]
    for name in names:
        logger = logging.getLogger(name)
        if LOG_MASKING not in logger.filters:
            logger.addFilter(LOG_MASKING)


Masker = Callable[[str], str]

__all__ = ["SECRET_MARK", "secret_pattern", "pattern_for", "mask_text", "scrub", "LogMasking", "LOG_MASKING",
           "mask_logs", "Masker"]
