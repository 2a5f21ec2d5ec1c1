"""The vocabulary of a draft (reading.py decides, draft.py writes): the plans of actions, record types,
families and state, the names they take, and the small rules they share (a name's slug, the risk a word
suggests, the schema of what a control takes)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from .survey import Control, Locator

__all__ = ["NATIVE", "ActionPlan", "FamilyPlan", "RecordPlan", "StatePlan", "Reading", "Names", "DANGER", "VERBS", "slug",
           "singular", "match_pattern", "ID_NAME", "ID_VALUE", "ID_LIKE_SEGMENT", "TEXT_ROLES", "value_schema", "control_name", "handle", "role_of", "described", "where", "js"]

DANGER = re.compile(r"\b(delete|remove|destroy|cancel|clear|discard|drop|archive|revoke|pay|purchase|buy|trash|erase|unsubscribe)\b", re.I)
ID_NAME = re.compile(r"(^|[\s_-])(id|key|code|ref|sku|no\.?|number|#)($|[\s_-])", re.I)
ID_VALUE = re.compile(r"^[A-Za-z]{0,6}[-_:#]?\d[\w-]*$")
ID_LIKE_SEGMENT = re.compile(r"^(\d+|[0-9a-f]{8,}|[0-9a-f-]{32,36})$", re.I)
TEXT_ROLES = {"textbox", "searchbox", "combobox", "spinbutton"}
# Elements whose click the runtime performs as their kind says; any other element with a role (a menu item,
# an option, a tab made of a div) is declared with the 'click' gesture: a person's trusted click.
NATIVE = {"button", "a", "input", "select", "textarea", "summary", "option", "label"}
# JSON Schema's "time" and "date-time" want seconds and a time zone, which these inputs never take: a pattern instead.
_FORMATS = {"email": "email", "url": "uri", "date": "date"}
_PATTERNS = {"time": r"^\d{2}:\d{2}(:\d{2})?$", "datetime-local": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$",
             "month": r"^\d{4}-\d{2}$", "week": r"^\d{4}-W\d{2}$", "color": r"^#[0-9a-fA-F]{6}$"}
_FORMAT_HINT = {"date": "YYYY-MM-DD", "time": "HH:MM (24 h)", "datetime-local": "YYYY-MM-DDTHH:MM",
                "month": "YYYY-MM", "week": "YYYY-Www", "color": "#rrggbb"}
# The verb of an operation on an element of each role (a family's id, or an action's first word).
VERBS = {"button": "click", "link": "open", "tab": "open", "treeitem": "open", "option": "choose",
         "menuitem": "choose", "menuitemradio": "choose", "menuitemcheckbox": "check", "checkbox": "check",
         "switch": "check", "radio": "choose", "textbox": "fill", "searchbox": "fill", "spinbutton": "fill",
         "combobox": "fill", "listbox": "choose", "slider": "fill"}


def slug(text: str, fallback: str = "") -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "_".join(words[:5])[:48] or fallback


def singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def match_pattern(url: str) -> str:
    """The page's own path, any port (a host without a port matches every port); path segments that
    look like ids become ``*``. The draft matches it alone and with any query (``PATTERN?*``), never the
    pages below it: /books/ is not /books/add/, which gets a draft of its own."""
    parts = urlsplit(url)
    segments = ["*" if ID_LIKE_SEGMENT.match(s) else s for s in parts.path.split("/")]
    return f"{parts.scheme}://{parts.hostname}{'/'.join(segments) or '/'}"


@dataclass
class ActionPlan:
    id: str
    description: str
    risk: str
    found: str                              # what was found and how it is found again, for the comment
    loc: dict[str, Any] | None = None       # an element action's target
    params: dict[str, Any] | None = None
    gesture: Any = None
    form: dict[str, Any] | None = None      # a form action: the form's locator (its run fills and submits)
    submitter: dict[str, Any] | None = None # …and the button it submits with, when the form has several
    expect: tuple[str, str] | None = None   # (description, JS expression over args) when it can be checked
    choice: bool | None = None              # choosing in a list: its options are read live (True: several at once)
    region: str | None = None
    todos: list[str] = field(default_factory=list)
    run: str | None = None                  # a read action: the JS expression it answers (a text in full)


@dataclass
class FamilyPlan:
    id: str
    description: str
    risk: str
    inner: dict[str, Any] | None = None     # a control inside the record's element; None: the element itself
    params: dict[str, Any] | None = None
    gesture: Any = None
    todos: list[str] = field(default_factory=list)
    when: tuple[str, str] | None = None     # (JS over the control `c` that must hold, the reason when it does not)


@dataclass
class RecordPlan:
    type: str
    found: str
    container: dict[str, Any] | None
    css: str
    id_expr: str                            # JS over `el`
    id_how: str
    label_expr: str
    fields: list[tuple[str, str]]           # (name, JS over `el`)
    families: list[FamilyPlan]
    region: str | None = None
    todos: list[str] = field(default_factory=list)
    sample: list[str] = field(default_factory=list)
    nested: str | None = None               # items nest (a tree, submenus): the selector of one item


@dataclass
class StatePlan:
    key: str
    description: str
    expr: str
    found: str
    sensitive: bool = False
    todos: list[str] = field(default_factory=list)


@dataclass
class Reading:
    url: str
    title: str
    page_id: str
    match: str
    actions: list[ActionPlan] = field(default_factory=list)
    records: list[RecordPlan] = field(default_factory=list)
    states: list[StatePlan] = field(default_factory=list)
    feedback: list[tuple[dict[str, Any], str, str]] = field(default_factory=list)   # (locator, kind, found)
    regions: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)   # (id, name, locator)
    notes: list[str] = field(default_factory=list)


def _letters(n: int) -> str:
    out = ""
    while True:
        out = "abcdefghijklmnopqrstuvwxyz"[n % 26] + out
        n = n // 26 - 1
        if n < 0:
            return out


class Names:
    def __init__(self) -> None:
        self.used: set[str] = set()

    def take(self, wanted: str) -> str:
        wanted = wanted if wanted[:1].isalpha() else "n" + wanted   # a type's name is part of a JS name too
        # A second one of a name gets a letter, never a number: a numbered id reads as one per row
        # (check's ACTION_PER_ROW) and may coincide with a record's id.
        name, n = wanted, 1
        while name in self.used:
            name, n = f"{wanted}_{_letters(n)}", n + 1
        self.used.add(name)
        return name


def where(loc: Locator) -> str:
    return loc.how + (f" ({loc.css})" if loc.css and not loc.guess else "") + (" (TODO: found by its place in the page; prefer a stable attribute)" if loc.guess else "")


def control_name(c: Control) -> str:
    """What a person hears: the accessibility tree's name, else the draft's own reading of it."""
    field = c.tag in ("input", "select", "textarea")   # a clickable's text beside it names its action, not it
    return (c.seen.name or c.name or c.placeholder or (c.beside.rstrip(": ") if field else "")).strip()


def handle(c: Control) -> str:
    """Words for an action id: its name, else its name/id attribute."""
    return slug(control_name(c)) or slug(c.attrs.get("name", "")) or slug(c.attrs.get("id", "")) or slug(c.words) or c.tag


_WIDGET_ROLES = {"button", "link", "checkbox", "radio", "switch", "combobox", "slider", "spinbutton", "tab", "treeitem",
                 "menuitem", "menuitemcheckbox", "menuitemradio", "option", "textbox", "searchbox", "listbox"}


def role_of(c: Control) -> str:
    if c.clickable and c.role not in _WIDGET_ROLES:
        return "clickable"
    if c.tag == "input" and c.type in ("date", "time", "datetime-local", "month", "week", "color"):
        return "textbox"
    return c.role or ("textbox" if c.editable else "")


def value_schema(c: Control) -> dict[str, Any]:
    """The schema of what a person would type or choose in the control."""
    if c.tag == "select":
        labels = [o.label for o in c.options if o.label]
        one: dict[str, Any] = {"type": "string", "enum": list(dict.fromkeys(labels))} if labels else {"type": "string"}
        return {"type": "array", "items": one} if c.multiple else one
    if c.type in ("number", "range") or role_of(c) in ("spinbutton", "slider") and c.tag == "input":
        schema: dict[str, Any] = {"type": "number"}
        for key, raw in (("minimum", c.min), ("maximum", c.max)):
            try:
                schema[key] = float(raw) if "." in raw else int(raw)
            except ValueError:
                pass
        return schema
    schema = {"type": "string"}
    if c.type in _FORMATS:
        schema["format"] = _FORMATS[c.type]
    if c.type in _PATTERNS:
        schema["pattern"] = _PATTERNS[c.type]
    if c.type in _FORMAT_HINT:
        schema["description"] = _FORMAT_HINT[c.type]
    if c.maxlength:
        schema["maxLength"] = c.maxlength
    if c.pattern and c.type not in _PATTERNS:
        schema["pattern"] = f"^(?:{c.pattern})$"
    return schema


def described(c: Control) -> str:
    kind = {"date": "date", "time": "time", "email": "email address", "number": "number", "password": "password",
            "search": "search", "tel": "phone number", "url": "address", "range": "slider"}.get(c.type, "")
    role = role_of(c)
    noun = kind + " field" if kind and role == "textbox" else {"textbox": "text field", "searchbox": "search field",
                                                               "spinbutton": "number field", "combobox": "combo box"}.get(role, role)
    return noun



def one_line(text: str) -> str:
    """A page's text as one line of a draft's comment: control characters and line or paragraph
    separators (where JavaScript, an editor or str.splitlines might begin a line: a page's title
    holding U+2028 would end the comment, and what follows would be the adapter's code or a header)
    become spaces."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", " ", text)


def js(value: Any) -> str:
    """A value written into the draft's JavaScript: U+2028 and U+2029 escaped (inside a string they are
    JavaScript's since ES2019, but an editor, an older tool or a line-based reader breaks the line there)."""
    return json.dumps(value, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
