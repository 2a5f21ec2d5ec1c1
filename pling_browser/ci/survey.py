"""What ``pling-browser draft`` reads from a page (the page's side: survey.js, with the helpers of
prelude.js that every draft carries too): its controls with their roles, names and locators, its forms,
its repeated structures, the text a person reads (instructions, headings, live regions) and its dialogs,
joined with what Chromium's accessibility tree says of the same elements (core/accessibility.py).
The answer is plain data (``Survey``); reading.py interprets it and draft.py writes the adapter."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from ..core.sessions import Session

__all__ = ["PRELUDE", "SURVEY", "Survey", "Control", "Group", "Item", "Text", "Live", "Dialog", "Form", "Locator",
           "survey_page", "LIMITS"]

_HERE = Path(__file__).resolve().parent
PRELUDE = (_HERE / "prelude.js").read_text(encoding="utf-8")
_SCRIPT = (_HERE / "survey.js").read_text(encoding="utf-8")
SURVEY = "(limits) => {\n" + PRELUDE + "\nreturn (" + _SCRIPT[_SCRIPT.index("(limits) =>"):].strip() + ")(limits);\n}"
# How much of a page is read: a draft is a starting point, and these bound its size on a huge page.
LIMITS = {"controls": 150, "groups": 12, "items": 60, "options": 60, "texts": 12, "elements": 5000}


class _Data(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Locator(_Data):
    css: str | None = None
    role: str | None = None
    name: str | None = None
    beside: str | None = None     # a field with no name, found by the text beside it
    within: dict[str, str] | None = None
    how: str = ""
    guess: bool = False

    def js(self) -> dict[str, Any]:
        """The locator as the draft writes it (prelude.js reads {css} or {role, name}, {within})."""
        out: dict[str, Any] = ({"css": self.css} if self.css else {"role": self.role, "beside": self.beside}
                               if self.beside is not None else {"role": self.role, "name": self.name})
        if self.within:
            out["within"] = self.within
        return out


class Seen(_Data):
    """What the accessibility tree says of an element (empty when it was not in the tree)."""
    role: str = ""
    name: str = ""
    description: str = ""
    ignored: bool = False
    properties: dict[str, Any] = {}


class Option(_Data):
    label: str
    value: str


class Control(_Data):
    n: int
    tag: str
    type: str = ""
    role: str = ""
    name: str = ""
    visible: bool = True
    clickable: bool = False
    disabled: bool = False
    readonly: bool = False
    required: bool = False
    multiple: bool = False
    editable: bool = False
    attrs: dict[str, str] = {}
    loc: Locator
    options: list[Option] = []
    min: str = ""
    max: str = ""
    step: str = ""
    pattern: str = ""
    maxlength: int = 0
    placeholder: str = ""
    value: str = ""
    states: dict[str, Any] = {}
    form: int | None = None
    href: str = ""
    autocomplete: str = ""
    beside: str = ""              # no name: the text beside it (a guess, said in a TODO)
    alone: bool = False           # outside a form, with no button beside it: committed by Enter
    dialog: int | None = None
    guessed: str = ""             # no role in the accessibility tree: why the draft guessed the one it says
    words: str = ""               # what names it then (its container's id, an icon's class)
    css: str = ""                 # an icon: its tag and that class, how it is found inside a record's item
    seen: Seen = Seen()


class Form(_Data):
    n: int
    loc: Locator
    name: str = ""
    submit: int | None = None
    submits: list[int] = []      # every submit button, the first one first (each submits the form its own way)
    method: str = "get"
    action: str = ""


class Item(_Data):
    n: int
    name: str = ""
    text: str = ""
    attrs: dict[str, str] = {}
    role: str = ""
    control: int | None = None
    cells: list[str] = []
    inner: list[int] = []
    states: dict[str, Any] = {}
    inner_attrs: dict[str, str] = {}


class Group(_Data):
    n: int
    loc: Locator
    name: str = ""
    caption: str = ""
    heading: str = ""
    role: str = ""
    tag: str = ""
    table: bool = False
    nested: bool = False
    spread: bool = False          # one structure repeated in parallel containers (tab panels), joined
    css: str
    item_css: str
    headers: list[str] = []
    items: list[Item]
    drags: str = ""               # what says its items are dragged to reorder (a class word, draggable="true")
    dialog: int | None = None


class Text(_Data):
    n: int
    loc: Locator
    text: str
    heading: bool = False
    level: int = 0
    before: bool = False


class Live(_Data):
    n: int
    loc: Locator
    role: str
    text: str = ""


class Dialog(_Data):
    n: int
    loc: Locator
    name: str = ""
    visible: bool = True


class Survey(_Data):
    url: str
    title: str = ""
    controls: list[Control] = []
    forms: list[Form] = []
    groups: list[Group] = []
    texts: list[Text] = []
    live: list[Live] = []
    dialogs: list[Dialog] = []
    counted: dict[str, int] = Field(default_factory=dict)

    def control(self, n: int | None) -> Control | None:
        return next((c for c in self.controls if c.n == n), None)


def parse_survey(data: Any, seen: dict[int, dict[str, Any]] | None = None) -> Survey:
    survey = Survey.model_validate(data)
    for control in survey.controls:
        if seen and control.n in seen:
            control.seen = Seen.model_validate(seen[control.n])
    return survey


async def survey_page(session: Session) -> Survey:
    from ..core.accessibility import read_page

    data, seen = await read_page(session, SURVEY, LIMITS)
    return parse_survey(data, seen)
