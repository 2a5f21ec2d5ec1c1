// records.js: reading a record type's active set. Ids are business ids from the page: a record with
// no usable id, a duplicate id or an id too long is skipped and counted, never renamed.

import {
  MathMin, create, elementTagName, hasOwn, isArray, isFiniteNumber, keys, push, strToLowerCase,
} from './prelude.js';
import { LIMITS, bound, cut, errorText, secretRef } from './bound.js';
import { registry } from './declarations.js';
import { disabledReason, isElement } from './reveal.js';

const MAX_RECORDS = 100000;
const MAX_ID_LENGTH = 256;
const RECORD_SIZE = 2 * LIMITS.field.size;   // JSON characters for all the fields of one record

export function readRecordIds(decl) {
  const out = { objects: [], ids: [], index: create(null), problems: [] };
  let raw;
  try {
    raw = decl.list();
  } catch (e) {
    push(out.problems, 'list() threw: ' + errorText(e));
    return out;
  }
  let length;
  try {
    if (!isArray(raw)) {
      push(out.problems, 'list() returned ' + (raw === null ? 'null' : typeof raw) + ', expected an array');
      return out;
    }
    length = raw.length;
  } catch (e) {
    push(out.problems, 'list() returned an unreadable value: ' + errorText(e));
    return out;
  }
  if (length > MAX_RECORDS) push(out.problems, 'list() returned ' + length + ' records; only the first ' + MAX_RECORDS + ' are read');
  const n = MathMin(length, MAX_RECORDS);
  let missing = 0;
  let tooLong = 0;
  let duplicate = 0;
  let firstError = null;
  for (let i = 0; i < n; i++) {
    let id;
    let obj;
    try {
      obj = raw[i];
      id = decl.id ? decl.id(obj) : obj.id;
    } catch (e) {
      if (!firstError) firstError = errorText(e);
      id = undefined;
    }
    if (typeof id === 'number' && isFiniteNumber(id)) id = '' + id;
    if (typeof id === 'string' && id.length > MAX_ID_LENGTH) { tooLong += 1; continue; }
    if (typeof id !== 'string' || id.length === 0) { missing += 1; continue; }
    if (out.index[id] !== undefined) { duplicate += 1; continue; }
    out.index[id] = out.ids.length;
    push(out.objects, obj);
    push(out.ids, id);
  }
  if (missing) push(out.problems, missing + ' records without a usable id (a non-empty string or a number) were skipped' + (firstError ? '; ' + (decl.id ? 'id()' : 'reading .id') + ' threw: ' + firstError : ''));
  if (tooLong) push(out.problems, tooLong + ' records with an id longer than ' + MAX_ID_LENGTH + ' characters were skipped');
  if (duplicate) push(out.problems, duplicate + ' records repeated an id already seen and were skipped');
  return out;
}

// A record's own property for the default label. Unlike `own`, a throwing getter propagates (to the
// caller's catch, which shows it as <error: …>), and a field declared sensitive is never a label.
function labelProperty(decl, obj, name) {
  if (decl.sensitive[name] || obj === null || typeof obj !== 'object' || !hasOwn(obj, name)) return undefined;
  return obj[name];
}

export function recordLabel(decl, obj, id, tally) {
  try {
    let label;
    if (decl.label) label = decl.label(obj);
    else {
      label = labelProperty(decl, obj, 'label');
      if (typeof label !== 'string') label = labelProperty(decl, obj, 'name');
      if (typeof label !== 'string') label = labelProperty(decl, obj, 'title');
    }
    if (label === undefined || label === null) return null;
    return typeof label === 'string' ? cut(label, LIMITS.field.string, tally) : bound(label, LIMITS.field, tally);
  } catch (e) {
    tally.errors += 1;
    return '<error: ' + errorText(e) + '>';
  }
}

// The trimmed view of one record: declared fields only (never the raw object), sensitive fields as
// references, everything bounded. Kept as a flat list of names and values, [name, value, name, value,
// …] in the order fields() gave them: a snapshot holds one per record, and an object without a
// prototype per record (what the model shows, `fieldsOf`) costs V8 a dictionary to build and to list
// the keys of, twice per record per invocation (issue 31).
export function recordPairs(decl, obj, id, tally) {
  const out = [];
  if (!decl.fields) return out;
  let fields;
  try {
    fields = decl.fields(obj);
  } catch (e) {
    tally.errors += 1;
    out[0] = '!error';
    out[1] = 'fields() threw: ' + errorText(e);
    return out;
  }
  if (fields === null || typeof fields !== 'object') return out;
  let names;
  try { names = keys(fields); } catch (e) { tally.errors += 1; return out; }
  const n = MathMin(names.length, LIMITS.field.keys);
  // One size budget for the whole record, shared by its fields (see `bound`).
  const ctx = { seen: null, left: RECORD_SIZE };
  let read = 0;
  for (let i = 0; i < n && ctx.left > 0; i++) {
    const name = names[i];
    read = i + 1;
    let value;
    try { value = fields[name]; } catch (e) { tally.errors += 1; value = '<error: ' + errorText(e) + '>'; }
    if (value === undefined || typeof value === 'function') continue;
    const key = cut(name, LIMITS.field.key, tally);
    ctx.left -= key.length + 4;
    out[out.length] = key;
    if (decl.sensitive[name]) {
      ctx.left -= 30;
      out[out.length] = secretRef(decl.type + '\u0000' + id + '\u0000' + name, value);
    } else {
      out[out.length] = bound(value, LIMITS.field, tally, 1, ctx);
    }
  }
  if (names.length > read) {
    tally.keys += names.length - read;
    out[out.length] = '…';
    out[out.length] = '+' + (names.length - read) + ' keys';
  }
  return out;
}

// A record's fields as an object without a prototype (a name given twice: its last value).
export function fieldsOf(pairs) {
  const out = create(null);
  for (let i = 0; i < pairs.length; i += 2) out[pairs[i]] = pairs[i + 1];
  return out;
}

export function recordFields(decl, obj, id, tally) {
  return fieldsOf(recordPairs(decl, obj, id, tally));
}

export function recordItem(decl, obj, id, tally) {
  return { id, label: recordLabel(decl, obj, id, tally), region: decl.region, fields: recordFields(decl, obj, id, tally), unavailable: undefined };
}

export function stateValue(entry, tally) {
  let value;
  try {
    value = entry.get();
  } catch (e) {
    tally.errors += 1;
    return { value: null, error: 'get() threw: ' + errorText(e) };
  }
  if (entry.sensitive) return { value: secretRef('state\u0000' + entry.key, value), error: null };
  return { value: bound(value, LIMITS.field, tally), error: null };
}

export function callAvailable(action, recordId) {
  // A gesture the page declared and the bridge cannot read is never replaced by another one.
  if (action.gestureProblem) return { available: false, reason: 'Its gesture is malformed: ' + action.gestureProblem };
  const declared = declaredAvailability(action, recordId);
  if (!declared.available || action.record || !action.target || action.kind !== 'action') return declared;
  // A plain element action whose control is disabled, aria-disabled or inert is unavailable, with
  // that reason, in the model and in every diff, not only when it is invoked (SPEC).
  let el = null;
  try { el = action.target(); } catch (e) { return declared; }
  if (!isElement(el)) return declared;
  const disabled = disabledReason(el);
  return disabled ? { available: false, reason: 'Its control (a ' + strToLowerCase(elementTagName(el)) + ') ' + disabled } : declared;
}

function declaredAvailability(action, recordId) {
  if (!action.available) return { available: true, reason: null };
  let result;
  try {
    result = action.record ? action.available(recordId) : action.available();
  } catch (e) {
    return { available: false, reason: 'The availability check threw: ' + errorText(e) };
  }
  if (result === true) return { available: true, reason: null };
  if (typeof result === 'string' && result) return { available: false, reason: cut(result, 300) };
  return { available: false, reason: null };
}

const FEEDBACK_KINDS = { error: true, warning: true, info: true, success: true };

export function readFeedback(problems) {
  const out = [];
  const list = registry.feedback;
  for (let i = 0; i < list.length; i++) {
    let entries;
    try {
      entries = list[i].source();
    } catch (e) {
      if (problems) push(problems, 'feedback() threw: ' + errorText(e));
      continue;
    }
    if (!isArray(entries)) continue;
    const n = MathMin(entries.length, 50);
    for (let j = 0; j < n; j++) {
      let kind;
      let message;
      try {
        kind = entries[j].kind;
        message = entries[j].text;
      } catch (e) {
        continue;
      }
      if (typeof message !== 'string') continue;
      push(out, { kind: typeof kind === 'string' && hasOwn(FEEDBACK_KINDS, kind) ? kind : 'info', text: cut(message, 300) });
    }
  }
  return out;
}
