// demonstration.js: what a person's input in the console's live view reached, for a draft recorded
// from their demonstration (server/console/recording.py). The controller asks, around each input the
// person sends, which control is under the pointer (`pointedAt`) and which one has the focus
// (`focused`); this file only finds and describes that element (what kind of control, what it holds)
// and keeps it for the controller (`demonstrated`), which then reads its role, accessible name and
// locators with the helpers every draft carries (ci/prelude.js), so the draft finds what was recorded.
// It listens to nothing and keeps nothing the page can reach: a step exists only because the person
// sent input through the console.

import {
  G, ReflectApply, StringCtor, answerOf, documentObject, elementGetAttribute, elementHasAttribute,
  elementIsContentEditable, elementTagName, getterOf, hasOwn, nativeGetComputedStyle, nodeParentNode,
  nodeType, push, regexTest, shadowRootHost, strToLowerCase, styleGetPropertyValue, uncurry,
} from './prelude.js';
import { inputValue, textareaValue } from './protect.js';
import { cut } from './bound.js';
import { deepElementFromPoint, elementShadowRoot } from './gesture.js';
import { isElement } from './reveal.js';

const CLICKABLE_ROLES = { button: true, link: true, checkbox: true, radio: true, tab: true, menuitem: true, menuitemcheckbox: true,
  menuitemradio: true, option: true, switch: true, treeitem: true, gridcell: true, row: true };
const FIELD_ROLES = { textbox: true, searchbox: true, combobox: true, spinbutton: true, slider: true, listbox: true };
const INPUT_ROLES = { button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
  range: 'slider', number: 'spinbutton', search: 'searchbox', text: 'textbox', email: 'textbox', tel: 'textbox', url: 'textbox', password: 'textbox' };
const TEXT_TYPES = { text: true, email: true, tel: true, url: true, password: true, search: true, number: true, date: true, time: true,
  'datetime-local': true, month: true, week: true, color: false };
const SENSITIVE_AUTOCOMPLETE = /(password|cc-number|cc-csc|cc-exp|one-time-code)/i;
const SENSITIVE_NAME = /(pass|secret|token|otp|cvv|cvc|card.?number|iban|ssn)/i;

const selectValue = getterOf(HTMLSelectElement.prototype, 'value');
const selectOptions = getterOf(HTMLSelectElement.prototype, 'options');
const optionText = getterOf(HTMLOptionElement.prototype, 'text');
const optionSelected = getterOf(HTMLOptionElement.prototype, 'selected');
const inputChecked = getterOf(HTMLInputElement.prototype, 'checked');
const labelControl = getterOf(HTMLLabelElement.prototype, 'control');
const documentActiveElement = getterOf(Document.prototype, 'activeElement');
const shadowActiveElement = getterOf(ShadowRoot.prototype, 'activeElement');
const strTrim = uncurry(String.prototype.trim);
const nodeTextContent = getterOf(Node.prototype, 'textContent');
const strSplit = uncurry(String.prototype.split);

const demonstration = { last: null };

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

function describeControl(el) {
  if (!isElement(el)) return answerOf({ ok: true, found: false });
  const tag = tagOf(el);
  const kind = kindOf(el, roleOf(el));
  const answer = answerOf({ ok: true, found: true, kind, tag, type: tag === 'input' ? strToLowerCase(attr(el, 'type') || 'text') : null });
  const autocomplete = attr(el, 'autocomplete') || '';
  answer.sensitive = answer.type === 'password' || regexTest(SENSITIVE_AUTOCOMPLETE, autocomplete) ||
    regexTest(SENSITIVE_NAME, (attr(el, 'id') || '') + ' ' + (attr(el, 'name') || ''));
  try {
    if (kind === 'text') answer.value = cut(tag === 'input' ? inputValue(el) : tag === 'textarea' ? textareaValue(el) : nodeTextContent(el), 2000);
    if (kind === 'check' && tag === 'input') answer.checked = inputChecked(el);
    if (kind === 'check' && tag !== 'input') answer.checked = attr(el, 'aria-checked') === 'true';
    if (kind === 'select') {
      const options = selectOptions(el);
      const labels = [];
      let chosen = null;
      for (let i = 0; i < options.length && i < 100; i++) {
        const text = cut(strTrim(optionText(options[i])), 200);
        push(labels, text);
        if (chosen === null && optionSelected(options[i])) chosen = text;
      }
      answer.options = labels;
      answer.value = chosen === null ? selectValue(el) : chosen;
    }
  } catch (e) { /* a value that cannot be read is left out */ }
  return answer;
}

export function pointedAt(arg) {
  const hit = deepElementFromPoint(arg.x, arg.y);
  const el = hit ? meant(hit) : null;
  demonstration.last = el;
  return describeControl(el);
}

export function focusedElement() {
  demonstration.last = null;
  let el = documentActiveElement(documentObject);
  for (let depth = 0; el && depth < 32; depth++) {
    const root = elementShadowRoot(el);
    const inner = root ? shadowActiveElement(root) : null;
    if (!inner) break;
    el = inner;
  }
  if (!el || tagOf(el) === 'body' || tagOf(el) === 'html') return answerOf({ ok: true, found: false });
  demonstration.last = el;
  return describeControl(el);
}

export function pointedAgain() {
  return describeControl(demonstration.last);
}

// The element the last pointedAt or focused described, for the controller to read with the drafts'
// helpers. It is the page's own element: handing it back reveals nothing.
export function demonstrated() {
  return demonstration.last;
}
