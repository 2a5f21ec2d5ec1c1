// bound.js: page values become bounded, JSON-safe data. Nothing here throws on page data: a getter
// that throws, a cyclic object, a revoked proxy or a 10 MB string each become a short marker, and
// every cut is counted in `tally` so the model can state what it left out.

import {
  ArrayPrototype, MathMin, ObjectPrototype, SetCtor, StringCtor, create, dateGetTime, dateToISOString, elementId, elementTagName, isArray,
  getPrototypeOf, hasOwn, isFiniteNumber, jsonStringify, keys, nodeType, setAdd, setDelete, setHas, strCharCodeAt, strIsWellFormed,
  strSlice, strToLowerCase, strToWellFormed,
} from './prelude.js';
import { textRef } from './secrets.js';
import { maskProtected, protectedCount } from './protect.js';

// `size` is a budget in characters of JSON for one whole value: the per-level limits alone would let
// 30 keys × 30 keys × 30 keys × 20 items of 200 characters through (over 100 MB). Past the budget,
// further items and keys are left out and counted like any other cut.
export const LIMITS = {
  field: { string: 200, depth: 4, array: 20, keys: 30, key: 64, size: 4000 },
  data: { string: 2000, depth: 6, array: 50, keys: 50, key: 64, size: 20000 },
  schema: { string: 2000, depth: 12, array: 100, keys: 100, key: 128, size: 30000 },
};

export function newTally() {
  return { chars: 0, items: 0, keys: 0, depth: 0, errors: 0, cycles: 0 };
}

// Bytes of `text` once encoded as UTF-8 (a lone surrogate is counted as its JSON escape).
export function utf8Length(text) {
  let n = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = strCharCodeAt(text, i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < length && strCharCodeAt(text, i + 1) >= 0xdc00 && strCharCodeAt(text, i + 1) <= 0xdfff) { n += 4; i += 1; }
    else if (c >= 0xd800 && c <= 0xdfff) n += 6;
    else n += 3;
  }
  return n;
}

// A string as the controller may receive it: every lone UTF-16 surrogate replaced by U+FFFD, so the
// JSON the bridge answers is valid UTF-8 once encoded (a lone surrogate is not).
function wellFormed(text) {
  if (strIsWellFormed) return strIsWellFormed(text) ? text : strToWellFormed(text);
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = strCharCodeAt(text, i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < text.length ? strCharCodeAt(text, i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) { out += strSlice(text, i, i + 2); i += 1; continue; }
      out += '\ufffd';
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      out += '\ufffd';
    } else {
      out += strSlice(text, i, i + 1);
    }
  }
  return out;
}

export function cut(text, max, tally) {
  if (protectedCount) text = maskProtected(text);
  if (text.length <= max) return text;
  // Cut on a code point boundary: never between the two halves of a surrogate pair (an emoji).
  const last = strCharCodeAt(text, max - 1);
  const at = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  if (tally) tally.chars += text.length - at;
  return strSlice(text, 0, at) + '…(+' + (text.length - at) + ' chars)';
}

export function errorText(error) {
  try {
    if (error !== null && typeof error === 'object') {
      const message = error.message;
      if (typeof message === 'string') {
        const name = error.name;
        return cut((typeof name === 'string' && name ? name + ': ' : '') + message, 300);
      }
    }
    if (typeof error === 'string') return cut(error, 300);
    return cut(StringCtor(error), 300);
  } catch (e) {
    return 'an unreadable error';
  }
}

function isNode(value) {
  try { nodeType(value); return true; } catch (e) { return false; }
}

function isDate(value) {
  try { dateGetTime(value); return true; } catch (e) { return false; }
}

function describeElement(el) {
  try {
    const id = elementId(el);
    return '<' + strToLowerCase(elementTagName(el)) + (id ? '#' + cut(id, 40) : '') + '>';
  } catch (e) {
    return '<node>';
  }
}

// `ctx` is internal: the ancestors being walked (for cycles) and what is left of the size budget.
export function bound(value, limits, tally, depth, ctx) {
  if (!ctx) ctx = { seen: null, left: typeof limits.size === 'number' ? limits.size : LIMITS.field.size };
  const type = typeof value;
  if (type === 'string') {
    const text = cut(value, limits.string, tally);
    ctx.left -= text.length + 2;
    return text;
  }
  ctx.left -= 6;
  if (value === null || type === 'boolean') return value;
  if (type === 'undefined') return null;
  if (type === 'number') return isFiniteNumber(value) ? value : StringCtor(value);
  if (type === 'bigint') return StringCtor(value);
  if (type === 'symbol') return '<symbol>';
  if (type === 'function') return '<function>';
  if (!depth) depth = 0;
  if (!ctx.seen) ctx.seen = new SetCtor();
  const seen = ctx.seen;
  if (setHas(seen, value)) {
    tally.cycles += 1;
    return '<cycle>';
  }
  try {
    if (isNode(value)) return describeElement(value);
    if (isDate(value)) {
      try { return dateToISOString(value); } catch (e) { return '<invalid date>'; }
    }
    const array = isArray(value);
    if (depth >= limits.depth) {
      tally.depth += 1;
      return array ? '[…' + value.length + ' items]' : '{…' + keys(value).length + ' keys}';
    }
    setAdd(seen, value);
    let out;
    if (array) {
      const length = value.length;
      const n = MathMin(length, limits.array);
      out = [];
      let shown = 0;
      for (let i = 0; i < n && ctx.left > 0; i++) {
        let item;
        try { item = bound(value[i], limits, tally, depth + 1, ctx); } catch (e) { tally.errors += 1; item = '<error: ' + errorText(e) + '>'; }
        out[i] = item;
        shown = i + 1;
      }
      if (length > shown) {
        tally.items += length - shown;
        out[shown] = '…(+' + (length - shown) + ' items)';
      }
    } else {
      const names = keys(value);
      const n = MathMin(names.length, limits.keys);
      out = create(null);
      let read = 0;
      for (let i = 0; i < n && ctx.left > 0; i++) {
        const name = names[i];
        read = i + 1;
        let item;
        try { item = value[name]; } catch (e) { tally.errors += 1; item = '<error: ' + errorText(e) + '>'; }
        if (item === undefined || typeof item === 'function') continue;
        const key = cut(name, limits.key, tally);
        ctx.left -= key.length + 4;
        out[key] = bound(item, limits, tally, depth + 1, ctx);
      }
      if (names.length > read) {
        tally.keys += names.length - read;
        out['…'] = '+' + (names.length - read) + ' keys';
      }
    }
    setDelete(seen, value);
    return out;
  } catch (e) {
    tally.errors += 1;
    return '<unreadable: ' + errorText(e) + '>';
  }
}

// Our own serializer: only for values `bound` made (arrays, plain objects, primitives), so it
// never consults toJSON or a patched JSON.stringify. JSON.stringify on a string primitive is safe.
export function toJSON(value) {
  if (value === null || value === undefined) return 'null';
  const type = typeof value;
  if (type === 'string') return jsonStringify(wellFormed(value));
  if (type === 'number') return isFiniteNumber(value) ? '' + value : 'null';
  if (type === 'boolean') return value ? 'true' : 'false';
  if (isArray(value)) {
    let s = '[';
    for (let i = 0; i < value.length; i++) s += (i ? ',' : '') + toJSON(value[i]);
    return s + ']';
  }
  const names = keys(value);
  let s = '{';
  let first = true;
  for (let i = 0; i < names.length; i++) {
    const item = value[names[i]];
    if (item === undefined) continue;
    s += (first ? '' : ',') + jsonStringify(wellFormed(names[i])) + ':' + toJSON(item);
    first = false;
  }
  return s + '}';
}

// A large value `bound` made, as JSON text that only the bridge reads back (jsonParse): the captured
// JSON.stringify where it can call nothing of the page's. It looks up `toJSON` only on objects, and ours
// are arrays and objects with Object.prototype or no prototype, so it is safe while neither prototype
// has one and Array.prototype still inherits from Object.prototype; otherwise toJSON above. A lone
// surrogate is escaped (\udXXX), so the text reads back as the very value. Issue 31: the snapshot a
// leaving document carries (1,000 records, 41 KB) took toJSON 5 ms in a document whose bridge had not
// run it yet, which every navigation makes; JSON.stringify 0.4-1.7 ms (warm 0.6 against 0.2 ms).
export function plainJSON(value) {
  const clean = !hasOwn(ObjectPrototype, 'toJSON') && !hasOwn(ArrayPrototype, 'toJSON')
    && getPrototypeOf(ArrayPrototype) === ObjectPrototype;
  return clean ? jsonStringify(value) : toJSON(value);
}

// A sensitive value as the page shows it: its reference (secrets.js); a value that is not text is
// bounded first, so the reference names what the model would have shown.
export function secretRef(scope, value) {
  if (value === null || value === undefined) return null;
  let text;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = '' + value;
  else text = toJSON(bound(value, LIMITS.data, newTally()));
  return textRef(scope, text);
}
