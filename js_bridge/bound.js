// bound.js: page values become bounded, JSON-safe data. Nothing here throws on page data: a getter
// that throws, a cyclic object, a revoked proxy or a 10 MB string each become a short marker, and
// every cut is counted in `tally` so the model can state what it left out.

// `size` is a budget in characters of JSON for one whole value: the per-level limits alone would let
// 30 keys × 30 keys × 30 keys × 20 items of 200 characters through (over 100 MB). Past the budget,
// further items and keys are left out and counted like any other cut.
const LIMITS = {
  field: { string: 200, depth: 4, array: 20, keys: 30, key: 64, size: 4000 },
  data: { string: 2000, depth: 6, array: 50, keys: 50, key: 64, size: 20000 },
  schema: { string: 2000, depth: 12, array: 100, keys: 100, key: 128, size: 30000 },
};

function newTally() {
  return { chars: 0, items: 0, keys: 0, depth: 0, errors: 0, cycles: 0 };
}

// Bytes of `text` once encoded as UTF-8 (a lone surrogate is counted as its JSON escape).
function utf8Length(text) {
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

function cut(text, max, tally) {
  if (protectedCount) text = maskProtected(text);
  if (text.length <= max) return text;
  // Cut on a code point boundary: never between the two halves of a surrogate pair (an emoji).
  const last = strCharCodeAt(text, max - 1);
  const at = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  if (tally) tally.chars += text.length - at;
  return strSlice(text, 0, at) + '…(+' + (text.length - at) + ' chars)';
}

function errorText(error) {
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
function bound(value, limits, tally, depth, ctx) {
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
function toJSON(value) {
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

// Reads one own property of a declaration (or of the model options). A getter that throws makes the
// property absent and is stated as a problem (`warn` is registry.js's), never thrown at the page.
function own(obj, name) {
  try {
    return obj !== null && (typeof obj === 'object' || typeof obj === 'function') && hasOwn(obj, name) ? obj[name] : undefined;
  } catch (e) {
    warn('declaration', 'reading its ' + cut(StringCtor(name), 64) + ' threw (' + errorText(e) + '); it was ignored');
    return undefined;
  }
}

// Sensitive values leave the page only as references. A reference names one value of one field of
// one record (or one state key); it is random, so it cannot be guessed from the value, and stable for
// the life of this document, so a diff does not flap. The real value stays in this closure until the
// controller restores a reference it was handed back.
const secretByKey = create(null);
const valueBySecret = create(null);
let secretCount = 0;
const SECRET_CAP = 100000;
const SECRET_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

function randomName() {
  const bytes = new Uint8ArrayCtor(14);
  getRandomValues(cryptoObject, bytes);
  let name = '';
  for (let i = 0; i < bytes.length; i++) name += SECRET_ALPHABET[bytes[i] & 31];
  return name;
}

function secretRef(scope, value) {
  if (value === null || value === undefined) return null;
  let text;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = '' + value;
  else text = toJSON(bound(value, LIMITS.data, newTally()));
  const key = scope + '\u0000' + (text.length > 4096 ? strSlice(text, 0, 4096) + '\u0000' + text.length : text);
  let name = secretByKey[key];
  if (name === undefined) {
    if (secretCount >= SECRET_CAP) return '<secret>withheld</secret>';
    name = randomName();
    secretByKey[key] = name;
    valueBySecret[name] = text;
    secretCount += 1;
  }
  return '<secret>' + name + '</secret>';
}

function restoreSecret(name) {
  const value = valueBySecret[name];
  return typeof value === 'string' ? value : null;
}
