// secrets.js: sensitive values leave the page only as references. A reference names one value of one field of
// one record (or one state key); it is random, so it cannot be guessed from the value, and stable for
// the life of this document, so a diff does not flap. The real value stays in this closure until the
// controller restores a reference it was handed back.

import { Uint8ArrayCtor, create, cryptoObject, getRandomValues, strSlice } from './prelude.js';

const secretByKey = create(null);
const valueBySecret = create(null);
let secretCount = 0;
const SECRET_CAP = 100000;
const SECRET_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

export function randomName() {
  const bytes = new Uint8ArrayCtor(14);
  getRandomValues(cryptoObject, bytes);
  let name = '';
  for (let i = 0; i < bytes.length; i++) name += SECRET_ALPHABET[bytes[i] & 31];
  return name;
}

// The reference of one text in one scope (a field, a state key), the same one every time.
export function textRef(scope, text) {
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

export function restoreSecret(name) {
  const value = valueBySecret[name];
  return typeof value === 'string' ? value : null;
}
