// bound.js: page values become bounded, JSON-safe data. Nothing here throws on page data: a getter
// that throws, a cyclic object, a revoked proxy or a 10 MB string each become a short marker, and
// every cut is counted in `acc` so the model can state what it left out.

const LIMITS = {
  field: { string: 200, depth: 4, array: 20, keys: 30, key: 64 },
  data: { string: 2000, depth: 6, array: 50, keys: 50, key: 64 },
  schema: { string: 2000, depth: 12, array: 100, keys: 100, key: 128 },
};

function newAcc() {
  return { chars: 0, items: 0, keys: 0, depth: 0, errors: 0 };
}

function cut(text, max, acc) {
  if (protectedCount) text = maskProtected(text);
  if (text.length <= max) return text;
  if (acc) acc.chars += text.length - max;
  return strSlice(text, 0, max) + '…(+' + (text.length - max) + ' chars)';
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

function bound(value, limits, acc, depth, seen) {
  const type = typeof value;
  if (value === null || type === 'boolean') return value;
  if (type === 'undefined') return null;
  if (type === 'number') return isFiniteNumber(value) ? value : StringCtor(value);
  if (type === 'string') return cut(value, limits.string, acc);
  if (type === 'bigint') return StringCtor(value);
  if (type === 'symbol') return '<symbol>';
  if (type === 'function') return '<function>';
  if (!depth) depth = 0;
  if (!seen) seen = new SetCtor();
  if (setHas(seen, value)) return '<cycle>';
  try {
    if (isNode(value)) return describeElement(value);
    if (isDate(value)) {
      try { return dateToISOString(value); } catch (e) { return '<invalid date>'; }
    }
    const array = isArray(value);
    if (depth >= limits.depth) {
      acc.depth += 1;
      return array ? '[…' + value.length + ' items]' : '{…}';
    }
    setAdd(seen, value);
    let out;
    if (array) {
      const length = value.length;
      const n = MathMin(length, limits.array);
      out = [];
      for (let i = 0; i < n; i++) {
        let item;
        try { item = bound(value[i], limits, acc, depth + 1, seen); } catch (e) { acc.errors += 1; item = '<error: ' + errorText(e) + '>'; }
        out[i] = item;
      }
      if (length > n) {
        acc.items += length - n;
        out[n] = '…(+' + (length - n) + ' items)';
      }
    } else {
      const names = keys(value);
      const n = MathMin(names.length, limits.keys);
      out = create(null);
      for (let i = 0; i < n; i++) {
        const name = names[i];
        let item;
        try { item = value[name]; } catch (e) { acc.errors += 1; item = '<error: ' + errorText(e) + '>'; }
        if (item === undefined || typeof item === 'function') continue;
        out[cut(name, limits.key, acc)] = bound(item, limits, acc, depth + 1, seen);
      }
      if (names.length > n) {
        acc.keys += names.length - n;
        out['…'] = '+' + (names.length - n) + ' keys';
      }
    }
    setDelete(seen, value);
    return out;
  } catch (e) {
    acc.errors += 1;
    return '<unreadable: ' + errorText(e) + '>';
  }
}

// Our own serializer: only for values `bound` made (arrays, plain objects, primitives), so it
// never consults toJSON or a patched JSON.stringify. JSON.stringify on a string primitive is safe.
function toJSON(value) {
  if (value === null || value === undefined) return 'null';
  const type = typeof value;
  if (type === 'string') return jsonStringify(value);
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
    s += (first ? '' : ',') + jsonStringify(names[i]) + ':' + toJSON(item);
    first = false;
  }
  return s + '}';
}

function own(obj, name) {
  try {
    return obj !== null && (typeof obj === 'object' || typeof obj === 'function') && hasOwn(obj, name) ? obj[name] : undefined;
  } catch (e) {
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
  else text = toJSON(bound(value, LIMITS.data, newAcc()));
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
