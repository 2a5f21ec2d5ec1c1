"""What accumulates while an invocation runs, in one append-only record: the log (what the runtime did,
in order), the warnings, each stage's time, and the facts that, once true, stay true whatever fails
after them: that the write path started (with the session's counters at that moment, ``Marks``), and
who approved the action first. A stage's own product is its result (results.py); the
journal holds only what must outlive a stage that fails."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from pydantic import JsonValue

from ..models import ApprovedBy
from .codes import Entry, LogEvent, ReceiptWarning
from .results import Marks


@dataclass(eq=False)
class Journal:
    """Entries are codes with their parameters (codes.py); ``words.py`` says them for the receipt."""

    log: list[Entry] = field(default_factory=list)
    warnings: list[Entry] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    _approved_by: ApprovedBy | None = None
    _marks: Marks | None = None

    def note(self, code: LogEvent, /, **params: JsonValue) -> None:
        self.log.append(Entry(code, MappingProxyType(params)))

    def warn(self, code: ReceiptWarning, /, **params: JsonValue) -> None:
        self.warnings.append(Entry(code, MappingProxyType(params)))

    def carry(self, warnings: list[Entry]) -> None:
        """A flow's step's warnings, as the flow's own."""
        self.warnings.extend(warnings)

    def timed(self, stage: str, ms: float) -> None:
        self.timings_ms[stage] = ms

    @property
    def approved_by(self) -> ApprovedBy | None:
        """Who let the action run: the first approval kept (a person, a person's grant, a policy)."""
        return self._approved_by

    def approved(self, by: ApprovedBy | None) -> None:
        if self._approved_by is None:
            self._approved_by = by

    @property
    def started(self) -> bool:
        """The page's write path may have run: run() was called, events or input dispatched, a flow's
        first step begun, a person handed the page. Never unset (SPEC: ``started``)."""
        return self._marks is not None

    @property
    def marks(self) -> Marks | None:
        return self._marks

    def start(self, marks: Marks) -> None:
        """The execute stage's (and a flow's): the write path started, the counters as they stood."""
        if self._marks is None:
            self._marks = marks
