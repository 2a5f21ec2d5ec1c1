"""The one way out: everything the service writes about a session (an HTTP or MCP answer, a console
event or state, a stored receipt and its codes, a person's view of a request, a trace, a log line)
leaves through an ``Outbound`` encoder, which masks the values that session masks (the operator's
secrets, the values restored for its pages) in every form masking knows (``core/masking.py``).

``scrub`` is called here and nowhere else (``tests/test_imports.py``): an output holds an encoder
(``Session.outbound``, ``Invocation.outbound``, the runtime's for events and log lines), never a list
of values to remember to mask with."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import weakref
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..plain import escaped
from .masking import SECRET_MARK, pattern_for

Values = Callable[[], Iterable[str]]
J = TypeVar("J")
M = TypeVar("M", bound=BaseModel)


class Outbound:
    """An encoder for what leaves about one session (or, for log lines and events, the whole
    service): built on a function answering the values to mask now, read at each use, so a value
    restored after the encoder was made is masked too."""

    def __init__(self, values: Values) -> None:
        self._values = values

    def values(self) -> list[str]:
        return [value for value in self._values() if value]

    def masks(self) -> bool:
        """Whether anything is masked now (an answer passes unchanged otherwise)."""
        return bool(self.values())

    def pattern(self) -> re.Pattern[str] | None:
        """Every form of every value masked now, as one pattern (None when nothing is)."""
        return pattern_for(self.values())

    def data(self, value: J) -> J:
        """JSON-like `value` (dicts, lists, text, numbers) with every masked value replaced."""
        return scrub(value, self.values())  # type: ignore[no-any-return]

    def text(self, text: str) -> str:
        return str(self.data(text))

    def json_text(self, text: str, kind: type[BaseModel] | None = None) -> str:
        """JSON text, masked as its values (never as serialized text: escapes would hide a value). With
        ``kind``, the model the text answers as: when masking replaced anything, a field whose masked text
        no longer fits it keeps its word, as in ``model`` (a page's sensitive "read" masked as an
        action's risk), so the answer still fits its schema."""
        if not self.masks():
            return text
        plain = json.loads(text)
        hits: list[int] = []
        masked = scrub(plain, self.values(), hits)
        if kind is not None and hits:
            with contextlib.suppress(ValidationError):  # what still does not fit is answered as masked
                _validated(kind, masked, plain)
        return json.dumps(masked, ensure_ascii=False)

    def model(self, model: M) -> M:
        """A pydantic model, masked as its JSON and validated again. A masked value may be a word of the
        model's own vocabulary (a page's sensitive field holding "policy", which a receipt's
        ``approved_by.via`` says for an action PLING_APPROVE approved): where masked text no longer fits
        its field (a literal, an enum), the field keeps its word, so the receipt is not lost."""
        if not self.masks():
            return model
        plain = model.model_dump(mode="json")
        return _validated(type(model), self.data(plain), plain)

    def holds(self, path: Path) -> bool:
        """Whether any entry of the zip at `path` (a trace) holds a masked value in a form masking knows
        (an entry that cannot be read counts as holding one: nothing unread is kept)."""
        pattern = self.pattern()
        if pattern is None:
            return False
        try:
            with zipfile.ZipFile(path) as archive:
                for name in archive.namelist():
                    if pattern.search(archive.read(name).decode("utf-8", "replace")):
                        return True
        except (OSError, zipfile.BadZipFile):
            return True
        return False


NOTHING = Outbound(lambda: ())  # for what belongs to no session


def _validated(kind: type[M], masked: Any, plain: Any) -> M:
    """``masked`` (``plain`` masked) validated as ``kind``; where it does not fit, each field that was
    text keeps its word (``_keep_word``), and it is validated again."""
    try:
        return kind.model_validate(masked)
    except ValidationError as error:
        for problem in error.errors():
            _keep_word(masked, plain, problem["loc"])
    return kind.model_validate(masked)


def _keep_word(masked: Any, plain: Any, loc: tuple[int | str, ...]) -> None:
    """The text at ``loc`` in ``plain`` put back in ``masked`` where it was text: a field's value, or a
    field's name masked as a key (found at the same place among the keys: masking keeps their order).
    A union member's tag in ``loc`` is passed over; a number masked whole stays masked."""
    for at, step in enumerate(loc):
        last = at == len(loc) - 1
        if isinstance(masked, dict) and isinstance(plain, dict) and step in masked:
            if step not in plain:  # a masked key
                names = list(masked)
                original = list(plain)[names.index(step)] if len(names) == len(plain) else None
                if last and isinstance(original, str):
                    items = [(original if name == step else name, value) for name, value in masked.items()]
                    masked.clear()
                    masked.update(items)
                return
            if last and isinstance(plain[step], str) and isinstance(masked[step], str):
                masked[step] = plain[step]
                return
            masked, plain = masked[step], plain[step]
        elif isinstance(masked, list) and isinstance(plain, list) and isinstance(step, int) \
                and step < len(masked) and step < len(plain):
            if last and isinstance(plain[step], str) and isinstance(masked[step], str):
                masked[step] = plain[step]
                return
            masked, plain = masked[step], plain[step]


def scrub(value: Any, secrets: Iterable[str], hits: list[int] | None = None) -> Any:
    """Replace any restored secret value the page echoed back into data, errors or diffs. Works on
    values, never on serialized text: strings (and keys) have each occurrence replaced; a number
    whose digits hold a secret is replaced whole, since the number is then the secret. ``hits``, when
    given, gets an entry for each string, key or number replaced."""
    pattern = pattern_for(secrets or ())
    if pattern is None:
        return value

    def text(item: str) -> str:
        out, count = pattern.subn(SECRET_MARK, item)
        if count and hits is not None:
            hits.append(count)
        return out

    def walk(item: Any, depth: int) -> Any:
        if isinstance(item, str):
            return text(item)
        if item is None or isinstance(item, bool):
            return item
        if isinstance(item, (int, float)):
            if pattern.search(repr(item)) or pattern.search(str(item)):
                if hits is not None:
                    hits.append(1)
                return SECRET_MARK
            return item
        if depth > 200:
            return SECRET_MARK  # deeper than any bounded answer: nothing unread leaves
        if isinstance(item, dict):
            return {(text(key) if isinstance(key, str) else key): walk(child, depth + 1)
                    for key, child in item.items()}
        if isinstance(item, (list, tuple)):
            return [walk(child, depth + 1) for child in item]
        return item

    return walk(value, 0)


class LogMasking(logging.Filter):
    """The way out of log lines: a filter on the service's loggers. A record whose message holds a
    masked value (from any source registered, a runtime's sessions and operator secrets: its
    ``outbound``) is rewritten with the value masked before any handler formats it. Every record's text arguments are escaped first
    (``plain.escaped``): agent and page text never reaches a log line raw, whatever line carries it."""

    def __init__(self) -> None:
        super().__init__()
        self._sources: weakref.WeakSet[Any] = weakref.WeakSet()
        self.outbound = Outbound(self._values)

    def _values(self) -> set[str]:
        return {value for source in list(self._sources) for value in source.masked_values()}

    def register(self, owner: Any) -> None:
        """`owner.masked_values()` answers the values to mask now."""
        self._sources.add(owner)

    def filter(self, record: logging.LogRecord) -> bool:
        _escape_record(record)
        pattern = self.outbound.pattern()
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


def _mask_record(record: logging.LogRecord, pattern: re.Pattern[str]) -> None:
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
    still: re.Match[str] | bool | None
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


__all__ = ["Outbound", "NOTHING", "scrub", "LogMasking", "LOG_MASKING", "mask_logs"]
