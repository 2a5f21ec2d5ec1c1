// ==UserScript==
// @name         DRAFT: Text Editor Task
// @description  A draft written by pling-browser draft from http://127.0.0.1:41251/miniwob/text-editor.html?seed=0&run=draft-text-editor-0-1 on 2026-12-05 13:18 UTC
// @match        http://127.0.0.1/miniwob/text-editor.html
// @match        http://127.0.0.1/miniwob/text-editor.html?*
// ==/UserScript==
// DRAFT: written from what a person sees on the page (its accessibility tree and DOM). A person finishes
// it: check every TODO, narrow @match, run `pling-browser check URL --adapter THIS_FILE`, then delete this line.
// Found: 3 actions, 1 record types, 4 state entries, 0 feedback sources, 0 dialogs; 13 TODOs.

// What a draft needs to find what it declared, again, on every read of the model. Each finder answers
// one element or none: a locator that matches two elements finds nothing (invariant 6: never the first
// of several), and `why` says what it found instead. Roles and names follow the accessibility tree's
// rules in their common cases (explicit role, the element's own semantics; aria-labelledby, aria-label,
// <label>, the text, alt, title, placeholder), the same code `draft` used to write this file.
const P = (() => {
  const text = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  const visible = (el) => {
    if (!el || !el.isConnected) return false;
    if (el.closest('[hidden], [aria-hidden="true"], template')) return false;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    // A list of no height whose items float (a grid of <li style="float: left">) is seen where its items are.
    if (!(box.width > 0 && box.height > 0)) return box.width > 0 && style.display !== 'none' && style.visibility !== 'hidden'
      && Array.from(el.children).some((c) => getComputedStyle(c).float !== 'none' && visible(c));
    // Opacity 0 still counts as shown, as for Playwright: custom checkboxes are transparent inputs over a picture.
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const INPUT_ROLES = { button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox',
    radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox', email: 'textbox', tel: 'textbox',
    text: 'textbox', url: 'textbox', password: 'textbox', date: 'textbox', time: 'textbox',
    'datetime-local': 'textbox', month: 'textbox', week: 'textbox', color: 'textbox' };
  const roleOf = (el) => {
    const explicit = text(el.getAttribute('role')).split(' ')[0];
    if (explicit) return explicit;
    const tag = el.tagName.toLowerCase();
    if (tag === 'input') return el.getAttribute('list') ? 'combobox' : (INPUT_ROLES[(el.getAttribute('type') || 'text').toLowerCase()] || 'textbox');
    if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : '';
    if (tag === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
    return { button: 'button', textarea: 'textbox', option: 'option', li: 'listitem', ul: 'list', ol: 'list',
             table: 'table', tr: 'row', td: 'cell', th: 'columnheader', dialog: 'dialog', summary: 'button',
             h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading',
             img: 'img', form: 'form', nav: 'navigation', main: 'main', output: 'status' }[tag] || '';
  };
  const byIds = (ids) => text(ids).split(' ').map((id) => document.getElementById(id)).filter(Boolean);
  const NAMED_BY_TEXT = /^(button|link|tab|treeitem|menuitem|menuitemcheckbox|menuitemradio|option|checkbox|radio|switch|cell|columnheader|rowheader|heading|listitem|row|gridcell|tooltip|status)$/;
  const nameOf = (el) => {
    const labelledby = el.getAttribute('aria-labelledby');
    if (labelledby) { const named = text(byIds(labelledby).map((e) => e.textContent).join(' ')); if (named) return named; }
    const aria = text(el.getAttribute('aria-label'));
    if (aria) return aria;
    const tag = el.tagName.toLowerCase();
    if (tag === 'input' && /^(submit|button|reset)$/i.test(el.type)) return text(el.value) || (el.type === 'submit' ? 'Submit' : '');
    if (tag === 'input' && el.type === 'image') return text(el.alt) || 'Submit';
    if (el.labels && el.labels.length) {
      const named = text(Array.from(el.labels).map((l) => ownText(l)).join(' '));
      if (named) return named;
    }
    if (tag === 'img' || tag === 'area') return text(el.alt) || text(el.getAttribute('title'));
    if (NAMED_BY_TEXT.test(roleOf(el)) || tag === 'a' || tag === 'button' || tag === 'summary') {
      const own = text(el.innerText !== undefined ? el.innerText : el.textContent);
      if (own) return own.slice(0, 120);
      const img = el.querySelector('img[alt]');
      if (img && text(img.alt)) return text(img.alt);
    }
    return text(el.getAttribute('title')) || text(el.getAttribute('placeholder')) || '';  // a form's .title may be its field named title
  };
  // A label's text without the control inside it (<label><input> Remember me</label>).
  const ownText = (label) => {
    const copy = label.cloneNode(true);
    copy.querySelectorAll('input, select, textarea, button').forEach((c) => c.remove());
    return copy.textContent;
  };
  // The text a person reads beside a field that has no name of its own ("Genre:" in the cell before
  // it): the nearest short text before it, else after it, in the smallest boxes around it that hold no
  // other control (up to three levels). Not a name in the accessibility tree's sense: the draft says so.
  const FIELD_CSS = 'input:not([type=hidden]), select, textarea, button, [contenteditable=""], [contenteditable=true]';
  const textNear = (node, forward) => {
    for (let sib = forward ? node.nextSibling : node.previousSibling; sib; sib = forward ? sib.nextSibling : sib.previousSibling) {
      if (sib.nodeType === 1 && (sib.matches(FIELD_CSS) || sib.querySelector(FIELD_CSS))) return null;
      const said = text(sib.nodeType === 1 ? (visible(sib) ? sib.innerText : '') : sib.nodeType === 3 ? sib.nodeValue : '');
      if (said) return said.length <= 60 ? said : null;
    }
    return '';
  };
  const beside = (el) => {
    let node = el;
    for (let level = 0; level < 3 && node.parentElement && node.parentElement !== document.body; level++) {
      const before = textNear(node, false);
      if (before) return before;
      const after = before === null ? null : textNear(node, true);
      if (after) return after;
      if (before === null || after === null) return '';
      const parent = node.parentElement;
      if (Array.from(parent.querySelectorAll(FIELD_CSS)).some((c) => c !== el)) return '';
      node = parent;
    }
    return '';
  };
  const all = (root, css) => { try { return Array.from((root || document).querySelectorAll(css)); } catch (e) { return []; } };
  // Candidates for a role, narrowed by CSS first so a lookup does not walk every element of the page.
  const ROLE_CSS = {
    button: 'button, input[type=button], input[type=submit], input[type=reset], input[type=image], summary, [role=button]',
    link: 'a[href], area[href], [role=link]',
    textbox: 'input, textarea, [contenteditable=""], [contenteditable=true], [role=textbox]',
    searchbox: 'input[type=search], [role=searchbox]', spinbutton: 'input[type=number], [role=spinbutton]',
    slider: 'input[type=range], [role=slider]', combobox: 'select, input[list], [role=combobox]',
    listbox: 'select, [role=listbox]', checkbox: 'input[type=checkbox], [role=checkbox]',
    radio: 'input[type=radio], [role=radio]', table: 'table, [role=table], [role=grid]', list: 'ul, ol, [role=list]',
    listitem: 'li, [role=listitem]', row: 'tr, [role=row]', option: 'option, [role=option]', dialog: 'dialog, [role=dialog]',
    form: 'form, [role=form]', heading: 'h1, h2, h3, h4, h5, h6, [role=heading]', navigation: 'nav, [role=navigation]',
    main: 'main, [role=main]', status: 'output, [role=status]', img: 'img, [role=img]',
  };
  const candidates = (role, root) => all(root, ROLE_CSS[role] || '[role="' + role + '"]').filter((el) => roleOf(el) === role);
  const describe = (loc) => (loc.css ? loc.css : loc.role + ' "' + (loc.beside !== undefined ? loc.beside : loc.name) + '"' + (loc.beside !== undefined ? ' (the text beside it)' : ''));
  // Every element a locator matches: { css } or { role, name }, inside { within } when given.
  const matches = (loc) => {
    let root = document;
    if (loc.within) { const inside = one(loc.within); if (!inside) return []; root = inside; }
    if (loc.css) return all(root, loc.css);
    if (loc.beside !== undefined) return candidates(loc.role, root).filter((el) => !nameOf(el) && beside(el) === loc.beside);
    return candidates(loc.role, root).filter((el) => nameOf(el) === loc.name);
  };
  // The element a locator names when exactly one is shown; else null (and `why` says so).
  const one = (loc) => { const seen = matches(loc).filter(visible); return seen.length === 1 ? seen[0] : null; };
  const why = (loc) => {
    const found = matches(loc);
    const seen = found.filter(visible);
    if (seen.length === 1) return true;
    if (seen.length > 1) return seen.length + ' shown elements match ' + describe(loc) + ': the draft will not choose one';
    return found.length ? describe(loc) + ' is hidden now' : 'no ' + describe(loc) + ' on the page now';
  };
  // A repeated structure: the items under a container, shown now, in document order.
  const items = (container, css) => { const root = container ? one(container) : document; return root ? all(root, css).filter(visible) : []; };
  // An id from what an item shows when it carries no stable attribute: its text ('@' is reserved in
  // action refs, so it is written '(at)').
  // An item that shows only a field: the value or placeholder its page wrote (the attribute, which typing
  // does not change), so the id stays the item's while a person types in it.
  const fieldDefault = (el) => { const f = all(el, 'input:not([type=hidden])'); return f.length === 1 ? text(f[0].getAttribute('value') || f[0].getAttribute('placeholder')) : ''; };
  const textId = (el, nested) => ownLabel(el, nested).slice(0, 100).replace(/@/g, '(at)');
  // What an item shows as its name; `nested`: the selector of items nested in it (a tree's children),
  // whose text is theirs, not this item's.
  const ownLabel = (el, nested) => {
    if (!nested) return nameOf(el) || text(el.textContent) || fieldDefault(el);
    const copy = el.cloneNode(true);
    copy.querySelectorAll(nested).forEach((c) => c.remove());
    return text(copy.textContent);
  };
  const cell = (row, i) => text((row.cells ? row.cells[i] : row.children[i]) ? (row.cells ? row.cells[i] : row.children[i]).textContent : '');
  const pick = (list, idOf, id) => { const found = list.filter((el) => idOf(el) === id); return found.length === 1 ? found[0] : null; };
  // The one control inside an item; `nested`: the selector of items nested in it, whose controls are theirs.
  const inside = (el, loc, nested) => {
    if (!el) return null;
    const found = (loc.css ? all(el, loc.css) : candidates(loc.role, el).filter((c) => loc.name === undefined || nameOf(c) === loc.name))
      .filter((c) => (visible(c) || loc.css && loc.name && iconShown(c)) && (!nested || c.closest(nested) === el));
    return found.length === 1 ? found[0] : null;
  };
  // An icon found by its class (`{css, name}`: a picture with no text) whose picture has not loaded yet has
  // no size; it is shown when it is displayed inside a shown element (the click waits until it can be hit).
  const iconShown = (el) => { const style = getComputedStyle(el); return !!el.parentElement && visible(el.parentElement) && style.display !== 'none' && style.visibility !== 'hidden'; };
  // The attribute of the one element inside `el` that carries it (an item's own control).
  const attrIn = (el, name) => { const found = all(el, '[' + name + ']'); return found.length === 1 ? found[0].getAttribute(name) : null; };
  const valueOf = (el) => {
    if (!el) return null;
    if (el.isContentEditable) return text(el.textContent);
    if (el.type === 'checkbox' || el.type === 'radio') return el.checked;
    if (el.tagName === 'SELECT') return el.multiple ? Array.from(el.selectedOptions).map((o) => text(o.textContent)) : (el.selectedOptions[0] ? text(el.selectedOptions[0].textContent) : null);
    if ('value' in el && el.tagName !== 'BUTTON' && el.tagName !== 'LI') return el.value;
    const now = el.getAttribute('aria-valuenow') || el.getAttribute('aria-checked') || el.getAttribute('aria-selected');
    return now === null ? null : now;
  };
  const states = (el) => {
    const out = {};
    for (const name of ['checked', 'selected', 'expanded', 'pressed', 'current']) {
      const v = el.getAttribute('aria-' + name);
      if (v !== null) out[name] = v === 'true' ? true : v === 'false' ? false : v;
    }
    if (el.type === 'checkbox' || el.type === 'radio') out.checked = el.checked;
    return out;
  };
  // A declaration that follows the page: `declare(el)` runs now and again whenever what `key(el)` reads
  // changes (a list whose options are data, not structure), replacing the previous declaration.
  const lives = [];
  let observer = null;
  const live = (loc, key, declare) => {
    const entry = { loc, key, last: undefined, undo: null };
    const renew = () => {
      const el = one(loc);
      const now = JSON.stringify(el ? key(el) : null);
      if (now === entry.last) return;
      entry.last = now;
      if (entry.undo) entry.undo();
      entry.undo = declare(el);
    };
    lives.push(renew);
    renew();
    if (!observer && typeof MutationObserver === 'function') {
      observer = new MutationObserver(() => lives.forEach((f) => f()));
      observer.observe(document, { subtree: true, childList: true, characterData: true });
    }
  };
  const options = (el) => (el && el.options ? Array.from(el.options).map((o) => text(o.textContent)).filter(Boolean) : []);
  // The params of choosing in a list: its options now, as an enum (none while it has no options).
  const choice = (el, many) => {
    const opts = Array.from(new Set(options(el)));
    const one = opts.length ? { type: 'string', enum: opts } : { type: 'string' };
    return { type: 'object', properties: { value: many ? { type: 'array', items: one } : one }, required: ['value'] };
  };
  // A form's params as the form is now (a filter row appears, a select gains options): one property per
  // named field; a select's or radio group's choices as oneOf [{const: value, title: what it shows}].
  const formParams = (form) => {
    const properties = {};
    const required = [];
    for (const el of form ? Array.from(form.elements) : []) {
      const key = el.name || el.id;
      const type = String(el.type || '').toLowerCase();
      if (!key || el.disabled || /^(submit|button|reset|hidden|image|file)$/.test(type) || !/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) continue;
      const choices = (list) => { const seen = new Set(); return list.filter((c) => !seen.has(c.const) && seen.add(c.const)); };
      if (type === 'radio') {
        const choice = { const: el.value, title: nameOf(el) || el.value };
        if (properties[key]) { properties[key].oneOf = choices(properties[key].oneOf.concat([choice])); continue; }
        properties[key] = { type: 'string', oneOf: [choice], description: key };
        continue;
      }
      if (properties[key]) continue;
      let schema;
      if (type === 'checkbox') schema = { type: 'boolean' };
      else if (el.tagName === 'SELECT') {
        const opts = choices(Array.from(el.options).map((o) => ({ const: o.value, title: text(o.textContent) || o.value })));
        const one = opts.length ? { type: 'string', oneOf: opts } : { type: 'string' };
        schema = el.multiple ? { type: 'array', items: one } : one;
      } else if (type === 'number' || type === 'range') schema = { type: 'number' };
      else {
        schema = { type: 'string' };
        if (type === 'email' || type === 'date') schema.format = type;
      }
      schema.description = nameOf(el) || key;
      properties[key] = schema;
      if (el.required) required.push(key);
    }
    return { type: 'object', properties, required };
  };
  // The page is its address's path and which query parameters it has (their values are data): a
  // filtered view is another page than the unfiltered one, so leaving it is not a deletion.
  const queryKeys = () => Array.from(new Set(new URLSearchParams(location.search).keys())).sort().slice(0, 5)
    .map((k) => '_' + k.toLowerCase().replace(/[^a-z0-9]+/g, '_')).join('').slice(0, 60);
  const textOf = (loc) => { const el = one(loc); return el ? text(el.innerText !== undefined ? el.innerText : el.textContent).slice(0, 2000) : null; };
  return { text, visible, roleOf, nameOf, beside, ownLabel, one, live, options, choice, formParams, queryKeys, attrIn, why, items, textId, cell, pick, inside, valueOf, states, textOf, matches, all };
})();

// The page, named from its address (the @match pattern says which addresses it is).
pling.page({ id: "text_editor" + P.queryKeys(), name: "Text Editor Task" });

// State instructions: the text “Using the text editor, give the text consequat the color orange.”, found by its id attribute (#query).
// TODO: a guess: the first text block before any control; is it what a person is asked to do?
pling.state({ key: "instructions", description: "The first text on the page (before any control, when there is one): its instructions, if it has any",
  get: () => Array.from(P.one({"css": "#query"}).childNodes).map((n) => n.nodeType === 1 ? "\"" + P.text(n.textContent) + "\"" : n.textContent).join("") });

// State query: 2 items with nothing to operate in them, under its id attribute (#query).
pling.state({ key: "query", description: "What the list #query shows, in order",
  get: () => P.items({"css": "#query"}, ":scope > span.bold").map((el) => P.text(el.innerText)).slice(0, 50) });

// State reward_display: 4 items with nothing to operate in them, under its id attribute (#reward-display).
pling.state({ key: "reward_display", description: "What the list #reward-display shows, in order",
  get: () => P.items({"css": "#reward-display"}, ":scope > div.info").map((el) => P.text(el.innerText)).slice(0, 50) });

// State div: the value of the control found by its place in the page (TODO: found by its place in the page; prefer a stable attribute).
pling.state({ key: "div", description: "What the text field “div” holds now",
  get: () => P.valueOf(P.one({"css": "#editor > div:nth-of-type(1)"})) });

// Records button: 3 items ('', '', '') under its place in the page (TODO: found by its place in the page; prefer a stable attribute), each matching 'button'.
// Id: each item's visible text (a guess: nothing stable was on every item).
// TODO: the id is each item's visible text (a guess: nothing stable was on every item); a record id must be the app's own id (invariant 1)
// TODO: two items show the same text, so their ids collide (the second is skipped): key them on an attribute
// TODO: the container is found by its place in the page; prefer a stable attribute
const buttonList = () => P.items({"css": "#area > div:nth-of-type(1) > span:nth-of-type(2)"}, ":scope > button");
const buttonId = (el) => el.className.replace(/^ql-/, "").split(" ")[0];
const buttonEl = (id) => P.pick(buttonList(), buttonId, id);
pling.records({ type: "button", list: buttonList, id: buttonId,
  label: (el) => buttonId(el),
  fields: (el) => ({ ...P.states(el) }),
  element: buttonEl });
// Action click@BUTTON_ID: Press the button
// TODO: risk 'write' is guessed from the words (read, write or danger?)
pling.action({ id: "click", record: "button", description: "Press the button", risk: "write",
  target: (id) => buttonEl(id) });

pling.action({ id: "select_text", description: "Select the text in the editor: a word of it, or everything", risk: "read", params: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, run: ({ text }) => { const p = P.one({"css": ".ql-editor p"}), t = p.firstChild.textContent, at = text === "everything" ? 0 : t.indexOf(text), r = document.createRange(); r.setStart(p.firstChild, at); r.setEnd(p.firstChild, text === "everything" ? t.length : at + text.length); getSelection().removeAllRanges(); getSelection().addRange(r); } });
// Action fill_div: the text field (no label; its place in the page), found by its place in the page (TODO: found by its place in the page; prefer a stable attribute).
// TODO: this control has no accessible name; say what it is for in the description
// TODO: the locator is the element's place in the page; a change of layout breaks it
// TODO: risk 'write' is guessed from the words (read, write or danger?)
pling.action({ id: "fill_div",
  description: "Type into the text field (no label; its place in the page)",
  risk: "write",
  params: {"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"]},
  target: () => P.one({"css": "#editor > div:nth-of-type(1)"}),
  available: () => P.why({"css": "#editor > div:nth-of-type(1)"}),
  expect: { description: "The field holds the value", check: (args) => String(P.valueOf(P.one({"css": "#editor > div:nth-of-type(1)"}))) === String(args.value) } });

// Action click_submit: the button “Submit”, found by its id attribute (#subbtn).
// TODO: risk 'write' is guessed from the words (read, write or danger?)
pling.action({ id: "click_submit",
  description: "Press the button “Submit”",
  risk: "write",
  target: () => P.one({"css": "#subbtn"}),
  available: () => P.why({"css": "#subbtn"}) });

// Action click_span: the clickable (no label; its place in the page), found by its place in the page (TODO: found by its place in the page; prefer a stable attribute).
// TODO: this control has no accessible name; say what it is for in the description
// TODO: the locator is the element's place in the page; a change of layout breaks it
// TODO: not a control in the accessibility tree: the pointer shows it is clickable (a guess)
// TODO: risk 'write' is guessed from the words (read, write or danger?)
pling.action({ id: "click_span",
  description: "Click (no label; its place in the page)",
  risk: "write",
  target: () => P.one({"css": "#area > div:nth-of-type(1) > span:nth-of-type(1) > span > span:nth-of-type(1)"}),
  available: () => P.why({"css": "#area > div:nth-of-type(1) > span:nth-of-type(1) > span > span:nth-of-type(1)"}),
  gesture: "click" });
