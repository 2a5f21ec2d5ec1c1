// demonstration.js: what a person's input in the console's live view reached, for a draft recorded
// from their demonstration (server/console/recording.py). The controller asks, around each input the
// person sends, which control is under the pointer (`pointedAt`) and which one has the focus
// (`focused`); this file only describes elements. It listens to nothing and keeps nothing the page
// can reach: a step exists only because the person sent input through the console, and the page can
// change only what the person also saw (its labels), which the console shows them before they download.
//
// The role and accessible name are a documented subset of ARIA's (docs/console.md, "Recording a
// draft"): the explicit `role`, else the element's implicit role; the name from aria-labelledby,
// aria-label, the field's <label>s, a button input's value, alt, the element's own text (controls
// that hold no text use placeholder), then title. The draft's prelude (ci/demonstration.py) finds
// elements with the same rules, so what was recorded is what the adapter finds.

const CANDIDATES = 'a[href], button, input, select, textarea, summary, option, [role], [contenteditable]';
const CLICKABLE_ROLES = { button: true, link: true, checkbox: true, radio: true, tab: true, menuitem: true, menuitemcheckbox: true,
  menuitemradio: true, option: true, switch: true, treeitem: true, gridcell: true, row: true };
const FIELD_ROLES = { textbox: true, searchbox: true, combobox: true, spinbutton: true, slider: true, listbox: true };
const NO_TEXT_NAME = { textbox: true, searchbox: true, combobox: true, spinbutton: true, slider: true, listbox: true };
const INPUT_ROLES = { button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
  range: 'slider', number: 'spinbutton', search: 'searchbox', text: 'textbox', email: 'textbox', tel: 'textbox', url: 'textbox', password: 'textbox' };
const TEXT_TYPES = { text: true, email: true, tel: true, url: true, password: true, search: true, number: true, date: true, time: true,
  'datetime-local': true, month: true, week: true, color: false };
const SENSITIVE_AUTOCOMPLETE = /(password|cc-number|cc-csc|cc-exp|one-time-code)/i;
const SENSITIVE_NAME = /(pass|secret|token|otp|cvv|cvc|card.?number|iban|ssn)/i;
const TEST_ATTRIBUTES = ['data-testid', 'data-test', 'data-qa', 'data-cy'];

const nodeChildNodes = getterOf(Node.prototype, 'childNodes');
const nodeValueOf = getterOf(Node.prototype, 'nodeValue');
const inputLabels = getterOf(HTMLInputElement.prototype, 'labels');
const selectLabels = getterOf(HTMLSelectElement.prototype, 'labels');
const textareaLabels = getterOf(HTMLTextAreaElement.prototype, 'labels');
const selectValue = getterOf(HTMLSelectElement.prototype, 'value');
const selectOptions = getterOf(HTMLSelectElement.prototype, 'options');
const optionText = getterOf(HTMLOptionElement.prototype, 'text');
const optionSelected = getterOf(HTMLOptionElement.prototype, 'selected');
const inputChecked = getterOf(HTMLInputElement.prototype, 'checked');
const labelControl = getterOf(HTMLLabelElement.prototype, 'control');
const documentActiveElement = getterOf(Document.prototype, 'activeElement');
const shadowActiveElement = getterOf(ShadowRoot.prototype, 'activeElement');
const rootGetElementById = uncurry(Document.prototype.getElementById);
const strTrim = uncurry(String.prototype.trim);
const strSplit = uncurry(String.prototype.split);
const strReplace = uncurry(String.prototype.replace);
const WHITESPACE = /\s+/g;

const demonstration = { last: null };

function squash(text) {
  return cut(strTrim(strReplace(StringCtor(text), WHITESPACE, ' ')), 120);
}

function tagOf(el) {
  return strToLowerCase(elementTagName(el));
}

function attr(el, name) {
  const value = elementGetAttribute(el, name);
  return value === null ? null : StringCtor(value);
}

function roleOf(el) {
  const explicit = attr(el, 'role');
  if (explicit && strTrim(explicit)) return strSplit(strTrim(explicit), ' ')[0];
  const tag = tagOf(el);
  if (tag === 'a') return elementHasAttribute(el, 'href') ? 'link' : null;
  if (tag === 'button' || tag === 'summary') return 'button';
  if (tag === 'textarea') return 'textbox';
  if (tag === 'option') return 'option';
  if (tag === 'select') return elementHasAttribute(el, 'multiple') || +(attr(el, 'size') || 0) > 1 ? 'listbox' : 'combobox';
  if (tag === 'input') {
    const type = strToLowerCase(attr(el, 'type') || 'text');
    return hasOwn(INPUT_ROLES, type) ? INPUT_ROLES[type] : null;
  }
  try { if (elementIsContentEditable(el)) return 'textbox'; } catch (e) { /* not an HTMLElement */ }
  return null;
}

// Visible text of an element, without what fields inside it hold (a <label> around a <select> is
// named by its words, not by every option).
function textOf(node, depth, out) {
  if (depth > 30 || out.length > 400) return out;
  const kind = nodeType(node);
  if (kind === 3) return out + nodeValueOf(node);
  if (kind !== 1) return out;
  const tag = tagOf(node);
  if (tag === 'script' || tag === 'style' || tag === 'select' || tag === 'textarea' || tag === 'template') return out;
  if (tag === 'img' && attr(node, 'alt')) return out + ' ' + attr(node, 'alt') + ' ';
  const children = nodeChildNodes(node);
  for (let i = 0; i < children.length; i++) out = textOf(children[i], depth + 1, out);
  return out;
}

function labelsOf(el) {
  const tag = tagOf(el);
  try {
    if (tag === 'input') return inputLabels(el);
    if (tag === 'select') return selectLabels(el);
    if (tag === 'textarea') return textareaLabels(el);
  } catch (e) { /* not the element its tag says */ }
  return null;
}

function nameOf(el) {
  const labelledby = attr(el, 'aria-labelledby');
  if (labelledby) {
    const root = nodeGetRootNode(el);
    const ids = strSplit(strTrim(labelledby), ' ');
    let text = '';
    for (let i = 0; i < ids.length && i < 10; i++) {
      let found = null;
      try { found = nodeType(root) === 9 ? rootGetElementById(root, ids[i]) : null; } catch (e) { found = null; }
      if (found) text += ' ' + textOf(found, 0, '');
    }
    if (squash(text)) return squash(text);
  }
  const label = attr(el, 'aria-label');
  if (label && squash(label)) return squash(label);
  const labels = labelsOf(el);
  if (labels && labels.length) {
    let text = '';
    for (let i = 0; i < labels.length; i++) text += ' ' + textOf(labels[i], 0, '');
    if (squash(text)) return squash(text);
  }
  const tag = tagOf(el);
  const type = tag === 'input' ? strToLowerCase(attr(el, 'type') || 'text') : '';
  if (type === 'button' || type === 'submit' || type === 'reset') {
    const value = attr(el, 'value');
    return squash(value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''));
  }
  if (type === 'image' && attr(el, 'alt')) return squash(attr(el, 'alt'));
  const role = roleOf(el);
  if (!(role && hasOwn(NO_TEXT_NAME, role)) && tag !== 'input') {
    const text = squash(textOf(el, 0, ''));
    if (text) return text;
  }
  const placeholder = attr(el, 'placeholder');
  if (placeholder && squash(placeholder)) return squash(placeholder);
  return squash(attr(el, 'title') || '');
}

function interactive(el) {
  const role = roleOf(el);
  if (role && (hasOwn(CLICKABLE_ROLES, role) || hasOwn(FIELD_ROLES, role))) return true;
  const tag = tagOf(el);
  return tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'button' || tag === 'a';
}

// The control a person meant by pointing at `hit`: the nearest interactive element around it; a
// <label>'s control; else an element that looks clickable (a pointer cursor, a tabindex).
function meant(hit) {
  let looksClickable = null;
  for (let node = hit, depth = 0; node && depth < 40; depth++) {
    if (nodeType(node) === 1) {
      if (interactive(node)) return node;
      if (tagOf(node) === 'label') {
        let control = null;
        try { control = labelControl(node); } catch (e) { control = null; }
        if (control) return control;
      }
      if (!looksClickable) {
        try {
          const style = ReflectApply(nativeGetComputedStyle, G, [node]);
          if (styleGetPropertyValue(style, 'cursor') === 'pointer' || elementHasAttribute(node, 'tabindex')) looksClickable = node;
        } catch (e) { /* not rendered */ }
      }
      if (tagOf(node) === 'body') break;
    }
    const parent = nodeParentNode(node);
    node = parent && nodeType(parent) === 11 ? shadowRootHost(parent) : parent;
  }
  return looksClickable;
}

function kindOf(el, role) {
  const tag = tagOf(el);
  if (tag === 'select') return 'select';
  if (tag === 'textarea') return 'text';
  if (tag === 'input') {
    const type = strToLowerCase(attr(el, 'type') || 'text');
    if (type === 'checkbox' || type === 'radio') return 'check';
    if (hasOwn(TEXT_TYPES, type) && TEXT_TYPES[type]) return 'text';
    if (type === 'hidden' || type === 'file' || type === 'color' || type === 'range') return 'other';
    return 'click';
  }
  try { if (elementIsContentEditable(el)) return 'text'; } catch (e) { /* not an HTMLElement */ }
  if (role === 'checkbox' || role === 'radio' || role === 'switch') return 'check';
  return 'click';
}

// How many elements of the document share a role and name (a locator by them must find one).
function sharing(role, name) {
  let count = 0;
  const all = documentQuerySelectorAll(documentObject, CANDIDATES);
  for (let i = 0; i < all.length && i < 5000; i++) {
    if (roleOf(all[i]) === role && nameOf(all[i]) === name) count += 1;
  }
  return count;
}

function attributeCount(name, value) {
  try {
    const all = documentQuerySelectorAll(documentObject, '[' + name + ']');
    let count = 0;
    for (let i = 0; i < all.length && i < 5000; i++) if (attr(all[i], name) === value) count += 1;
    return count;
  } catch (e) {
    return 0;
  }
}

function describeElement(el) {
  if (!isElement(el)) return answerOf({ ok: true, found: false });
  const role = roleOf(el);
  const name = nameOf(el);
  const tag = tagOf(el);
  const kind = kindOf(el, role);
  const attrs = create(null);
  const id = attr(el, 'id');
  if (id) attrs.id = { value: cut(id, 120), unique: attributeCount('id', id) === 1 };
  const names = ['name', 'href'];
  for (let i = 0; i < TEST_ATTRIBUTES.length; i++) push(names, TEST_ATTRIBUTES[i]);
  for (let i = 0; i < names.length; i++) {
    const value = attr(el, names[i]);
    if (value) attrs[names[i]] = { value: cut(value, 200), unique: attributeCount(names[i], value) === 1 };
  }
  const answer = answerOf({ ok: true, found: true, kind, role, name, tag, type: tag === 'input' ? strToLowerCase(attr(el, 'type') || 'text') : null,
                            sharing: role && name ? sharing(role, name) : 0, attrs, connected: nodeIsConnected(el) });
  const autocomplete = attr(el, 'autocomplete') || '';
  answer.sensitive = answer.type === 'password' || regexTest(SENSITIVE_AUTOCOMPLETE, autocomplete) ||
    regexTest(SENSITIVE_NAME, (id || '') + ' ' + (attr(el, 'name') || ''));
  try {
    if (kind === 'text') answer.value = cut(tag === 'input' ? inputValue(el) : tag === 'textarea' ? textareaValue(el) : textOf(el, 0, ''), 2000);
    if (kind === 'check' && tag === 'input') answer.checked = inputChecked(el);
    if (kind === 'check' && tag !== 'input') answer.checked = attr(el, 'aria-checked') === 'true';
    if (kind === 'select') {
      const options = selectOptions(el);
      const labels = [];
      let chosen = null;
      for (let i = 0; i < options.length && i < 100; i++) {
        const text = squash(optionText(options[i]));
        push(labels, text);
        if (chosen === null && optionSelected(options[i])) chosen = text;
      }
      answer.options = labels;
      answer.value = chosen === null ? selectValue(el) : chosen;
    }
  } catch (e) { /* a value that cannot be read is left out */ }
  return answer;
}

function pointedAt(arg) {
  const hit = deepElementFromPoint(arg.x, arg.y);
  const el = hit ? meant(hit) : null;
  demonstration.last = el;
  return describeElement(el);
}

function focusedElement() {
  let el = documentActiveElement(documentObject);
  for (let depth = 0; el && depth < 32; depth++) {
    const root = elementShadowRoot(el);
    const inner = root ? shadowActiveElement(root) : null;
    if (!inner) break;
    el = inner;
  }
  if (!el || tagOf(el) === 'body' || tagOf(el) === 'html') return answerOf({ ok: true, found: false });
  return describeElement(el);
}

function pointedAgain() {
  return describeElement(demonstration.last);
}
