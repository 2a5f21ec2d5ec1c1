// protect.js: values the runtime typed into the page from a restored secret (a card number filled
// into a field) are protected: wherever the bridge would show them again (a field, state, feedback,
// a label), they become a reference instead. Only values the runtime itself restored for this page
// are listed; operator secrets are never sent to a page that did not receive them.

import {
  documentObject, elementTagName, getterOf, push, strIndexOf, strSlice, strToLowerCase, uncurry,
} from './prelude.js';
import { textRef } from './secrets.js';

const protectedValues = [];
export let protectedCount = 0;

export function protectValues(values) {
  for (let i = 0; i < values.length && protectedCount < 100; i++) {
    const value = values[i];
    if (typeof value !== 'string' || value.length < 4) continue;
    let known = false;
    for (let j = 0; j < protectedValues.length; j++) if (protectedValues[j] === value) known = true;
    if (!known) { push(protectedValues, value); protectedCount += 1; }
  }
  return { ok: true, protected: protectedCount };
}

export function maskProtected(text) {
  for (let i = 0; i < protectedValues.length; i++) {
    const value = protectedValues[i];
    let at = strIndexOf(text, value);
    if (at < 0) continue;
    const ref = textRef('typed', value);
    let out = '';
    let from = 0;
    while (at >= 0) {
      out += strSlice(text, from, at) + ref;
      from = at + value.length;
      at = strIndexOf(text, value, from);
    }
    text = out + strSlice(text, from);
  }
  return text;
}

// Form fields whose current value holds a protected value, for the controller to mask in screenshots.
export const inputValue = getterOf(HTMLInputElement.prototype, 'value');
export const textareaValue = getterOf(HTMLTextAreaElement.prototype, 'value');
const MASK_ATTRIBUTE = 'data-pling-masked';
export const elementSetAttribute = uncurry(Element.prototype.setAttribute);
export const elementRemoveAttribute = uncurry(Element.prototype.removeAttribute);
const documentQuerySelectorAll = uncurry(Document.prototype.querySelectorAll);

export function markProtected(on) {
  let marked = 0;
  if (!protectedCount && on) return { ok: true, marked };
  const fields = documentQuerySelectorAll(documentObject, on ? 'input, textarea' : '[' + MASK_ATTRIBUTE + ']');
  for (let i = 0; i < fields.length; i++) {
    const el = fields[i];
    if (!on) { elementRemoveAttribute(el, MASK_ATTRIBUTE); continue; }
    let value = '';
    try { value = strToLowerCase(elementTagName(el)) === 'textarea' ? textareaValue(el) : inputValue(el); } catch (e) { value = ''; }
    for (let j = 0; j < protectedValues.length; j++) {
      if (strIndexOf(value, protectedValues[j]) >= 0) { elementSetAttribute(el, MASK_ATTRIBUTE, ''); marked += 1; break; }
    }
  }
  return { ok: true, marked };
}
