"""JUnit XML, the report format every CI reads (``<testsuites>`` / ``<testsuite>`` / ``<testcase>``)."""

from __future__ import annotations

import re
import socket
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

__all__ = ["Case", "SuiteReport", "junit_xml"]

# Characters XML 1.0 cannot hold at all (a page's error text may carry them).
_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(value: str, limit: int = 20_000) -> str:
    value = _INVALID.sub("?", value)
    return value if len(value) <= limit else value[:limit] + f"…(+{len(value) - limit} chars)"


@dataclass
class Case:
    name: str
    classname: str
    seconds: float = 0.0
    file: str | None = None
    failure: tuple[str, str] | None = None   # (message, text)
    error: tuple[str, str] | None = None
    skipped: str | None = None
    output: str = ""


@dataclass
class SuiteReport:
    name: str
    cases: list[Case] = field(default_factory=list)
    seconds: float = 0.0
    timestamp: float = field(default_factory=time.time)


def junit_xml(suites: list[SuiteReport], name: str = "pling-browser") -> str:
    root = ET.Element("testsuites", name=name)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in suites:
        counts = {"tests": len(suite.cases), "failures": sum(1 for c in suite.cases if c.failure),
                  "errors": sum(1 for c in suite.cases if c.error), "skipped": sum(1 for c in suite.cases if c.skipped)}
        for key in totals:
            totals[key] += counts[key]
        element = ET.SubElement(root, "testsuite", name=_text(suite.name, 500), hostname=socket.gethostname(),
                                timestamp=time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(suite.timestamp)),
                                time=f"{suite.seconds:.3f}", **{k: str(v) for k, v in counts.items()})
        for case in suite.cases:
            attrs = {"classname": _text(case.classname, 500), "name": _text(case.name, 500), "time": f"{case.seconds:.3f}"}
            if case.file:
                attrs["file"] = case.file
            item = ET.SubElement(element, "testcase", **attrs)
            for tag, value in (("failure", case.failure), ("error", case.error)):
                if value is not None:
                    child = ET.SubElement(item, tag, message=_text(value[0], 1000), type=tag)
                    child.text = _text(value[1])
            if case.skipped is not None:
                ET.SubElement(item, "skipped", message=_text(case.skipped, 1000))
            if case.output:
                ET.SubElement(item, "system-out").text = _text(case.output)
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{sum(s.seconds for s in suites):.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
