"""The MiniWoB++ adapters (adapters/*.js): userscript-style files whose `// @match` lines name the task pages
they declare. The Pling service injects them itself (PLING_ADAPTERS); `inline()` is the prototype path
for a service without that setting: the task server writes the matching adapters into the page's <head>."""

from __future__ import annotations

import re
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "adapters"
_MATCH = re.compile(r"^//\s*@match\s+(\S+)\s*$", re.M)


def patterns(text: str) -> list[re.Pattern[str]]:
    return [re.compile("^" + ".*".join(re.escape(part) for part in glob.split("*")) + "$")
            for glob in _MATCH.findall(text)]


def matching(url: str, folder: Path = FOLDER) -> list[Path]:
    return [file for file in sorted(folder.glob("*.js"))
            if any(p.match(url) for p in patterns(file.read_text(encoding="utf-8")))]


def inline(url: str, folder: Path = FOLDER) -> str:
    return "".join("<script>" + file.read_text(encoding="utf-8") + "</script>\n" for file in matching(url, folder))
