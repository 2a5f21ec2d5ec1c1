"""What ``pling-browser draft`` reads from a page: its forms, buttons, tables and lists, each with the
name a person (or a screen reader) would give it. One script run in the page; the answer is plain data
(``Survey``), and draft.py writes the adapter from it.

Names follow the accessible-name rules in their common cases (``aria-labelledby``, ``aria-label``, a
``<label>``, the text, ``title``, ``placeholder``), not the whole accname algorithm (docs/decisions.md)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["SURVEY", "Survey", "FormInfo", "FieldInfo", "ButtonInfo", "TableInfo"]


class _Data(BaseModel):
    model_config = ConfigDict(extra="ignore")


class FieldInfo(_Data):
    name: str
    label: str
    type: str  # text, number, email, checkbox, select, textarea, …
    required: bool = False
    options: list[str] = []


class FormInfo(_Data):
    selector: str  # a CSS selector that finds the form (an id, a name, or its place: flagged)
    by_place: bool = False
    label: str
    submit: str
    fields: list[FieldInfo]


class ButtonInfo(_Data):
    label: str


class TableInfo(_Data):
    kind: str  # "table" | "list"
    selector: str
    by_place: bool = False
    row: str  # the rows' selector inside it
    label: str
    headers: list[str]
    cells: list[list[str]]  # the first rows' cell texts
    attrs: dict[str, list[str]]  # row attribute -> its value on each of those rows
    buttons: list[str]  # labels of buttons that every surveyed row has


class Survey(_Data):
    url: str
    title: str
    forms: list[FormInfo]
    buttons: list[ButtonInfo]
    tables: list[TableInfo]


SURVEY = r"""() => {
  const text = (s) => (s || '').replace(/\s+/g, ' ').trim().slice(0, 80);
  const byId = (ids) => ids.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean);
  const name = (el) => {
    if (el.getAttribute('aria-labelledby')) return text(byId(el.getAttribute('aria-labelledby')).map((e) => e.textContent).join(' '));
    if (el.getAttribute('aria-label')) return text(el.getAttribute('aria-label'));
    if (el.labels && el.labels.length) return text(Array.from(el.labels).map((l) => l.textContent).join(' '));
    if (el.tagName === 'INPUT' && /^(submit|button|reset)$/.test(el.type)) return text(el.value);
    return text(el.textContent) || text(el.getAttribute('title')) || text(el.getAttribute('placeholder')) || text(el.getAttribute('name'));
  };
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const where = (el, tag) => {
    if (el.id && document.querySelectorAll('#' + CSS.escape(el.id)).length === 1) return [tag + '#' + CSS.escape(el.id), false];
    const n = el.getAttribute('name');
    if (n && document.querySelectorAll(tag + '[name="' + CSS.escape(n) + '"]').length === 1) return [tag + '[name="' + n + '"]', false];
    const label = el.getAttribute('aria-label');
    if (label && document.querySelectorAll(tag + '[aria-label="' + CSS.escape(label) + '"]').length === 1) return [tag + '[aria-label="' + label + '"]', false];
    return [tag + ':nth-of-type(' + (Array.from(document.getElementsByTagName(tag)).indexOf(el) + 1) + ')', true];
  };
  const heading = (el) => {
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      for (let prev = node.previousElementSibling; prev; prev = prev.previousElementSibling) {
        if (/^H[1-6]$/.test(prev.tagName)) return text(prev.textContent);
        const inner = prev.querySelector && prev.querySelector('h1,h2,h3,h4,h5,h6');
        if (inner) return text(inner.textContent);
      }
    }
    return '';
  };
  const BUTTONS = 'button, [role=button], input[type=submit], input[type=button]';
  const rowsOf = new Set();
  const tables = [];
  const survey = (kind, el, rows, cellsOf, headers) => {
    rows = rows.filter(visible).slice(0, 50);
    if (rows.length < 1) return;
    rows.forEach((r) => rowsOf.add(r));
    const attrs = {};
    for (const a of rows[0].getAttributeNames()) {
      if (a === 'class' || a === 'style') continue;
      attrs[a] = rows.map((r) => r.getAttribute(a) || '');
    }
    const labels = rows.map((r) => new Set(Array.from(r.querySelectorAll(BUTTONS)).map(name).filter(Boolean)));
    const buttons = Array.from(labels[0]).filter((l) => labels.every((s) => s.has(l)));
    const [selector, byPlace] = where(el, el.tagName.toLowerCase());
    tables.push({ kind, selector, by_place: byPlace, row: kind === 'table' ? 'tbody tr, :scope > tr' : ':scope > li',
                  label: text(el.getAttribute('aria-label')) || text(el.querySelector('caption')?.textContent) || heading(el),
                  headers, cells: rows.map(cellsOf), attrs, buttons });
  };
  for (const table of document.querySelectorAll('table')) {
    if (!visible(table)) continue;
    const head = Array.from(table.querySelectorAll('thead th, thead td'));
    const rows = Array.from(table.querySelectorAll('tbody tr, :scope > tr')).filter((tr) => !tr.querySelector('th'));
    survey('table', table, rows, (tr) => Array.from(tr.cells).map((c) => text(c.textContent)), head.map((h) => text(h.textContent)));
  }
  for (const list of document.querySelectorAll('ul, ol')) {
    if (!visible(list) || list.closest('nav')) continue;
    const items = Array.from(list.children).filter((li) => li.tagName === 'LI');
    if (items.length >= 1 && items[0].getAttributeNames().some((a) => /(^id$|id$|^data-key$|-key$)/.test(a)))
      survey('list', list, items, (li) => [text(li.textContent)], []);
  }
  const forms = [];
  for (const form of document.forms) {
    if (!visible(form)) continue;
    const fields = [];
    for (const el of form.elements) {
      const key = el.getAttribute('name') || el.id;
      if (!key || el.disabled || /^(submit|button|reset|hidden|image|file)$/.test(el.type) || el.tagName === 'BUTTON') continue;
      const type = el.tagName === 'SELECT' ? 'select' : el.tagName === 'TEXTAREA' ? 'textarea' : (el.type || 'text');
      if (fields.some((f) => f.name === key)) continue;
      fields.push({ name: key, label: name(el) || key, type, required: !!el.required,
                    options: el.tagName === 'SELECT' ? Array.from(el.options).map((o) => o.value).slice(0, 50) : [] });
    }
    const submit = Array.from(form.querySelectorAll(BUTTONS)).find((b) => !b.type || b.type === 'submit');
    const [selector, byPlace] = where(form, 'form');
    forms.push({ selector, by_place: byPlace, label: name(form) !== text(form.textContent) && name(form) || heading(form),
                 submit: submit ? name(submit) : '', fields });
  }
  const inside = (el) => el.closest('form') || Array.from(rowsOf).some((r) => r.contains(el));
  const seen = new Set();
  const buttons = [];
  for (const b of document.querySelectorAll(BUTTONS)) {
    const label = name(b);
    if (!label || !visible(b) || inside(b) || seen.has(label)) continue;
    seen.add(label);
    buttons.push({ label });
  }
  return { url: location.href, title: document.title, forms, buttons, tables };
}"""


def parse_survey(data: Any) -> Survey:
    return Survey.model_validate(data)
