"""Repeated structures of a surveyed page as record types (reading.py calls these): rows, list items,
cards, sibling buttons, tree items and radio groups. An id comes from a stable attribute every item
carries (data-*, id, name, value, href, aria-controls), on the item or on the one control inside it,
else from a key column, else (a guess, said in a TODO) from the item's visible text; never from its
position, and an attribute whose values are positions (``ch0, ch1…``) is not taken as an id."""

from __future__ import annotations

import re
from typing import Any

from .plans import (
    DANGER,
    ID_NAME,
    ID_VALUE,
    NATIVE,
    VERBS,
    FamilyPlan,
    Names,
    Reading,
    RecordPlan,
    StatePlan,
    control_name,
    js,
    role_of,
    singular,
    slug,
    where,
)
from .survey import Group, Survey

__all__ = ["group_records", "radio_records"]

_GENERATED = re.compile(r"^(ember\d|ext-|yui_|gwt-|mui-|radix-|headlessui-|react-select-|downshift-|:r)", re.I)
_ATTR_ORDER = ("data-id", "data-key")
_TYPE_BY_ROLE = {"button": "button", "link": "link", "tab": "tab", "option": "option", "treeitem": "tree_item",
                 "row": "row", "listitem": "item", "menuitem": "menu_item", "checkbox": "choice", "radio": "choice",
                 "article": "article", "clickable": "item"}


def _positional(values: list[str]) -> bool:
    parts = [re.fullmatch(r"(.*?)(\d+)", v) for v in values]
    if not all(parts):
        return False
    if len({p.group(1) for p in parts if p}) != 1:
        return False
    numbers = sorted(int(p.group(2)) for p in parts if p)
    return numbers == list(range(numbers[0], numbers[0] + len(numbers))) and numbers[0] in (0, 1)


def _usable(values: list[str]) -> bool:
    return (all(values) and len(set(values)) == len(values) and not _positional(values)
            and not any(_GENERATED.search(v) for v in values) and all(len(v) <= 128 and "@" not in v for v in values))


def _attribute_key(attrs: list[dict[str, str]]) -> str | None:
    """The first attribute every item carries with distinct, stable-looking values."""
    common = [a for a in attrs[0] if all(a in other for other in attrs)]
    # The element's own id attribute is a DOM id, not the app's (invariant 1): never a record id.
    common = [a for a in common if a != "id"]
    ranked = sorted(common, key=lambda a: (a not in _ATTR_ORDER, not (a.startswith("data-") and ID_NAME.search(a[5:].replace("-", " "))),
                                           not a.startswith("data-"), ["name", "value", "href", "aria-controls"].index(a)
                                           if a in ("name", "value", "href", "aria-controls") else 9))
    for attr in ranked:
        if attr.startswith("aria-") and attr != "aria-controls" or attr in ("title", "for", "data-pling-target"):
            continue
        values = [other[attr] for other in attrs]
        if attr == "href" and any(v.startswith(("javascript:", "#")) and len(v) < 2 for v in values):
            continue
        if _usable(values):
            return attr
    return None


def _key(group: Group) -> tuple[str, str, bool, int | None]:
    """How an item's id is read (JS over `el`), what it is, whether it is a guess, and the key column."""
    items = group.items
    attr = _attribute_key([i.attrs for i in items])
    if attr:
        return f"el.getAttribute({js(attr)})", f"the {attr} attribute of each item", False, None
    if all(i.inner_attrs for i in items):
        attr = _attribute_key([i.inner_attrs for i in items])
        if attr:
            return f"P.attrIn(el, {js(attr)})", f"the {attr} attribute of the control in each item", False, None
    if group.table and group.headers:
        for index, header in enumerate(group.headers):
            values = [i.cells[index] if index < len(i.cells) else "" for i in items]
            # A column the app calls an id is the app's id, even when its values count 1, 2, 3.
            if ID_NAME.search(header) and all(values) and len(set(values)) == len(values):
                return f"P.cell(el, {index})", f"the {header!r} column", False, index
        for index in range(max(len(i.cells) for i in items)):
            values = [i.cells[index] if index < len(i.cells) else "" for i in items]
            if _usable(values) and all(ID_VALUE.match(v) for v in values):
                return f"P.cell(el, {index})", f"column {index + 1}, whose values look like ids (a guess)", True, index
    texts = [i.name or i.text for i in items]
    if not all(texts) or len(set(texts)) < len(texts):
        attr = "id" if all(i.attrs.get("id") for i in items) and len({i.attrs["id"] for i in items}) == len(items) else None
        if attr:
            return ('el.getAttribute("id")', "each item's id attribute (a guess: they show no text of their own, and a DOM id "
                    "is the page's name for an element, not always the app's for a record)", True, None)
    if group.nested:
        return f"P.textId(el, {js(group.item_css)})", "each item's own visible text, without its nested items' (a guess: nothing stable was on every item)", True, None
    return "P.textId(el)", "each item's visible text (a guess: nothing stable was on every item)", True, None


def _type_name(group: Group, roles: list[str], types: Names) -> str:
    words = re.sub(r"\d+", " ", group.caption or group.name or group.heading)   # "3 rows": the count is data
    name = singular(slug(words)) if words.strip() and len(words) <= 40 else ""
    if not name:
        name = _TYPE_BY_ROLE.get(roles[0] if roles else "", "") or ("row" if group.table else "item")
    return types.take(name)


def _family(role: str, name: str, inner: dict[str, Any] | None, names: set[str], noun: str,
            href: str = "", tag: str = "") -> FamilyPlan | None:
    verb = VERBS.get(role, "click")
    if name and inner is not None and inner.get("name"):
        verb = slug(name, verb)
    if verb in names:
        return None
    names.add(verb)
    what = f"the {role or 'element'}{(' “' + name + '”') if name and inner is not None and inner.get('name') else ''}"
    todos: list[str] = []
    params, gesture, risk = None, None, "write"
    if role in ("checkbox", "switch", "menuitemcheckbox"):
        params = {"type": "object", "properties": {"checked": {"type": "boolean"}}, "required": ["checked"]}
        description = f"Tick or untick {what} of the {noun}"
    elif role in ("textbox", "searchbox", "spinbutton", "combobox"):
        params = {"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"]}
        description = f"Type into {what} of the {noun}"
    elif role == "clickable":
        gesture = "click"
        description = f"Click the {noun}"
        todos.append("TODO: not a control in the accessibility tree: the pointer shows it is clickable (a guess)")
    elif role == "link" and href and not href.startswith(("#", "javascript:")):
        risk = "read"
        description = f"Follow {what} of the {noun}" if inner is not None else f"Follow the {noun}"
    else:
        if tag and tag not in NATIVE:
            gesture = "click"   # an ARIA widget: a person's (trusted) click, as its own handlers expect
        description = (f"{'Press' if role == 'button' else 'Click'} {what} of the {noun}" if inner is not None
                       else f"{'Press' if role == 'button' else 'Choose' if role in ('option', 'radio', 'menuitem') else 'Click'} the {noun}")
        if role in ("tab", "treeitem"):
            risk = "read"
    if DANGER.search(name or ""):
        risk = "danger"
    if risk != "read":
        todos.append(f"TODO: risk {risk!r} is guessed from the words (read, write or danger?)")
    return FamilyPlan(verb, description, risk, inner, params, gesture, todos)


_HAS_POPUP = "['true', 'menu'].includes(c.getAttribute('aria-haspopup'))"


def _submenus(group: Group, flat: list[Any], families: list[FamilyPlan], names: set[str], noun: str) -> list[FamilyPlan]:
    """Menu items that open a submenu (aria-haspopup) are pointed at, not clicked: clicking one selects it
    in most menus. Its family `open` hovers over it; the click family is then for the items without one."""
    if not group.nested or not any(c.attrs.get("aria-haspopup") in ("true", "menu") for c in flat if role_of(c) == "menuitem"):
        return []
    click = next((f for f in families if f.inner == {"role": "menuitem"}), None)
    if click is None or "point" in names:
        return []
    names.add("point")
    click.when = (f"!{_HAS_POPUP}", "it opens a submenu: point at it (point)")
    return [FamilyPlan("point", f"Point at the menu item of the {noun}: its submenu opens", "read", {"role": "menuitem"}, None, "hover",
                       ["TODO: a guess: items with aria-haspopup open their submenu when pointed at"],
                       when=(_HAS_POPUP, "it has no submenu"))]


def _fields(group: Group, controls: list[Any], inner: list[list[Any]], roles: list[str],
            key_column: int | None) -> tuple[list[tuple[str, str]], str]:
    """A record type's fields and label: a table's columns (the first one not the key is the label),
    else the item's states, and its checkbox, text or field value when it has one."""
    fields: list[tuple[str, str]] = []
    label = (f"P.ownLabel(el, {js(group.item_css)}).slice(0, 120)" if group.nested
             else "P.nameOf(el) || P.text(el.textContent).slice(0, 120)")
    if group.table:
        for index, header in enumerate(group.headers):
            name = slug(header)
            if name and index != key_column and name not in dict(fields):
                fields.append((name, f"P.cell(el, {index})"))
        first = next((i for i, h in enumerate(group.headers) if i != key_column and h), None)
        if first is not None:
            label = f"P.cell(el, {first})"
        return fields, label
    fields.append(("", "...P.states(el)"))
    if any(c and c.type == "checkbox" for row in inner for c in row):
        fields.append(("checked", "P.valueOf(el.querySelector('input[type=checkbox]'))"))
    if any(len(i.text) > len(i.name) + 3 for i in group.items):
        fields.append(("text", "P.text(el.innerText).slice(0, 200)"))
    kinds = [a for a in group.items[0].inner_attrs if a.startswith("data-") and all(i.inner_attrs.get(a) for i in group.items)
             and all(len(i.inner) == 1 for i in group.items)]
    if kinds and slug(kinds[0][5:]) and slug(kinds[0][5:]) not in dict(fields):
        # The one control of each item says what it is in an attribute of the app's (data-type="text"): a field.
        fields.append((slug(kinds[0][5:]), f"P.attrIn(el, {js(kinds[0])})"))
    if all(controls) and roles[0] in ("textbox", "searchbox"):
        # What each field holds now (a text to copy): a field's text is its value, not its content.
        fields.append(("value", "P.valueOf(el.matches('input, textarea') ? el : el.querySelector('input, textarea'))"))
    return fields, label


def group_records(survey: Survey, reading: Reading, types: Names, names: Names, regions: dict[int, str]) -> set[int]:
    covered: set[int] = set()
    for group in survey.groups:
        controls = [survey.control(i.control) for i in group.items]
        inner = [[survey.control(n) for n in i.inner] for i in group.items]
        flat = [c for c in controls if c] + [c for row in inner for c in row if c]
        if flat and all(c.type == "radio" for c in flat):
            continue   # a radio group: radio_records
        id_expr, id_how, guess, key_column = _key(group)
        if not flat and not group.table and guess and not group.drags:
            # Text with nothing to operate and no id of its own: what the page lists, as state.
            key = names.take(slug(group.name or group.heading or (group.loc.css or "").lstrip("#"), "list"))
            reading.states.append(StatePlan(key, f"What the list {group.name or group.heading or group.loc.css or ''} shows, in order".replace("  ", " "),
                                            f"P.items({js(group.loc.js())}, {js(group.css)}).map((el) => P.text(el.innerText)).slice(0, 50)",
                                            f"{len(group.items)} items with nothing to operate in them, under {where(group.loc)}"))
            continue
        roles = [role_of(c) if c else "" for c in controls]
        type_name = _type_name(group, [r for r in roles if r] or [group.items[0].role], types)
        todos = []
        if guess:
            todos.append(f"TODO: the id is {id_how}; a record id must be the app's own id (invariant 1)")
        texts = [i.name or i.text for i in group.items]
        if id_expr.startswith("P.textId(") and len(set(texts)) < len(texts):
            todos.append("TODO: two items show the same text, so their ids collide (the second is skipped): key them on an attribute")
        if group.loc.guess:
            todos.append("TODO: the container is found by its place in the page; prefer a stable attribute")
        fields, label = _fields(group, controls, inner, roles, key_column)
        families: list[FamilyPlan] = []
        family_names: set[str] = set()
        noun = type_name.replace("_", " ")
        if all(controls):
            role = roles[0]
            family = _family(role, "", None, family_names, noun, controls[0].attrs.get("href", "") if controls[0] else "",
                             controls[0].tag if controls[0] else "")
            if family:
                families.append(family)
            if role in ("textbox", "searchbox") and controls[0] and controls[0].tag == "input":
                families.append(FamilyPlan("focus", f"Focus the {noun} (put the cursor in it)", "write", None, None, "focus",
                                            ["TODO: risk 'write': a page may act when a field gets focus (read, write or danger?)"]))
        # Controls every item holds: by role and name (a Delete button in every row), else one of a role each.
        firsts = [c for c in inner[0] if c]
        for c in firsts:
            name = control_name(c)
            role = role_of(c)
            same = name and all(any(o and role_of(o) == role and control_name(o) == name for o in row) for row in inner[1:])
            if same:
                family = _family(role, name, {"role": role, "name": c.name or name}, family_names, noun, c.attrs.get("href", ""), c.tag)
            elif c.css and all(any(o and o.css == c.css for o in row) for row in inner[1:]):
                family = _family(role, c.words, {"css": c.css, "name": c.words}, family_names, noun, "", c.tag)
                if family:
                    family.description = f"Click the “{c.words}” of the {noun} (a picture with no name: named by its class)"
                    family.todos.append(f"TODO: no name: named by {c.guessed}, a guess; give it an aria-label")
            elif all(sum(1 for o in row if o and role_of(o) == role) == 1 for row in inner):
                family = _family(role, "", {"role": role}, family_names, noun, c.attrs.get("href", ""), c.tag)
            else:
                continue
            if family:
                families.append(family)
        families.extend(_submenus(group, flat, families, family_names, noun))
        if not families and all(len(row) == 1 and row[0] for row in inner) and len({role_of(row[0]) for row in inner if row[0]}) > 1:
            families.append(FamilyPlan("click", f"Click the {noun} (each holds one control, of several kinds)", "write", None, None, "click",
                                       ["TODO: a guess: the item is clicked whatever it holds (is that what a person does here?)",
                                        "TODO: risk 'write' is guessed (read, write or danger?)"]))
        if group.drags and "drag" not in family_names:
            families.append(_drag_family(noun, group.drags))
        covered.update(c.n for c in flat)
        found = (f"{len(group.items)} {group.tag == 'table' and 'rows' or 'items'} ({', '.join(repr(t[:30]) for t in texts[:3])}"
                 f"{'…' if len(texts) > 3 else ''}) under {where(group.loc)}, each matching {group.item_css!r}"
                 + (" (nested: a tree or submenus, one record type)" if group.nested else "")
                 + (" (the same structure in several panels or sections: one record type; only what is shown is listed)" if group.spread else ""))
        reading.records.append(RecordPlan(type_name, found, group.loc.js(), group.css, id_expr, id_how, label, fields, families,
                                          regions.get(group.dialog) if group.dialog else None, todos, texts[:3],
                                          group.item_css if group.nested else None))
    return covered


def _drag_family(noun: str, said: str) -> FamilyPlan:
    """Items a person drags to reorder: the item dragged onto another one's place (its element's centre)."""
    return FamilyPlan("drag", f"Drag the {noun} onto the place of another {noun} (onto: that {noun}'s id)", "write", None,
                      {"type": "object", "properties": {"onto": {"type": "string", "description": f"the id of the {noun} it goes onto"}},
                       "required": ["onto"]}, {"drag": "{onto}"},
                      [f"TODO: a guess from {said}: are the items reordered by dragging? (a drag ends where the other item's centre is)",
                       "TODO: risk 'write' is guessed (read, write or danger?)"])


def radio_records(survey: Survey, reading: Reading, types: Names, names: Names) -> set[int]:
    """Radio buttons sharing a name, outside a form that submits them: one record type per group,
    keyed on their values, chosen by a click."""
    submitting = {f.n for f in survey.forms if f.submit is not None}
    by_name: dict[str, list[Any]] = {}
    for c in survey.controls:
        if c.type == "radio" and c.attrs.get("name") and c.form not in submitting:
            by_name.setdefault(c.attrs["name"], []).append(c)
    covered: set[int] = set()
    for group_name, radios in by_name.items():
        if len(radios) < 2:
            continue
        values = [r.attrs.get("value", "") for r in radios]
        keyed = _usable(values) and "on" not in values
        type_name = types.take(singular(slug(group_name, "choice")))
        css = f"input[type=radio][name={js(group_name)}]"
        todos = [] if keyed else ["TODO: the id is each radio button's label (a guess: their values are missing or positional)"]
        family = FamilyPlan("choose", f"Choose this {type_name.replace('_', ' ')}", "write", None, None, None,
                            ["TODO: risk 'write' is guessed (read, write or danger?)"])
        reading.records.append(RecordPlan(
            type_name, f"{len(radios)} radio buttons named {group_name!r} ({', '.join(repr(control_name(r)) for r in radios[:3])})",
            None, css, "el.value" if keyed else "P.textId(el)", "each radio's value" if keyed else "each radio's label (a guess)",
            "P.nameOf(el)", [("checked", "el.checked")], [family], None, todos, [control_name(r) for r in radios[:3]]))
        covered.update(r.n for r in radios)
    return covered

