// views.js: what changed when the action led to another page (SPEC: "Actions that leave the document").
// Leaving a view is not a deletion. When the page before and the page after are the same page (the
// same declared `pling.page` id: a POST-redirect-GET back to the list), records diff as within one
// document (evidence.js, diffRecords: `added`, `removed`). When they are not (a detail view, another
// route, an index), a record type both pages declare lists `entered` and `left` (ids shown now that
// were not, and the reverse) and `updated` (the label, and fields both views show), never `added` or `removed`; a type only one page declares
// is not diffed: `{declared: 'before'}` or `{declared: 'after'}`. The same rule holds for a document
// the action left (navigate.js, diffFrom) and for a route of a single-page app that declares another
// page. This file is the one place that decides which rule applies.

import { create, hasOwn, keys, push, strIndexOf, strSlice } from './prelude.js';
import { DIFF_LIMITS, actionChange, diffState, entryChanged, positions, sameValue } from './evidence.js';
import { fieldsOf } from './records.js';

// Two pages are the same page when they declare the same `pling.page` id. A document that declares
// none has no page id to compare: then the same address (origin and path, without query or hash) is
// the same page, so a form posted back to an undeclared list still reports what it removed.
export function samePage(before, after) {
  if (!before || !after) return true;
  if (before.id !== null || after.id !== null) return before.id === after.id;
  return pagePath(before.url) === pagePath(after.url);
}

function pagePath(url) {
  let text = typeof url === 'string' ? url : '';
  const hash = strIndexOf(text, '#');
  if (hash >= 0) text = strSlice(text, 0, hash);
  const query = strIndexOf(text, '?');
  return query >= 0 ? strSlice(text, 0, query) : text;
}

// Records of two different pages: per type both declare, the ids that entered and left the view and
// the records shown on both whose fields differ; per type one page declares, which one.
export function diffViews(before, after) {
  const out = create(null);
  const types = keys(after);
  const beforeTypes = keys(before);
  for (let t = 0; t < beforeTypes.length; t++) {
    if (after[beforeTypes[t]] === undefined) out[beforeTypes[t]] = { declared: 'before' };
  }
  for (let t = 0; t < types.length; t++) {
    const type = types[t];
    const b = after[type];
    const a = before[type];
    if (a === undefined) { out[type] = { declared: 'after' }; continue; }
    const change = { entered: [], left: [], updated: [], omitted: { entered: 0, left: 0, updated: 0 },
      total: { from: a.ids.length, to: b.ids.length } };
    const wasAt = positions(a);
    const isAt = positions(b);
    for (let i = 0; i < b.ids.length; i++) {
      const id = b.ids[i];
      const at = wasAt[id];
      if (at === undefined) {
        if (change.entered.length < DIFF_LIMITS.ids) push(change.entered, id); else change.omitted.entered += 1;
        continue;
      }
      if (!entryChanged(a.entries[at], b.entries[i])) continue;
      const changes = viewFieldChanges(a.entries[at], b.entries[i]);
      if (!keys(changes).length) continue;
      if (change.updated.length >= DIFF_LIMITS.updated) { change.omitted.updated += 1; continue; }
      push(change.updated, { id, changes });
    }
    for (let i = 0; i < a.ids.length; i++) {
      if (isAt[a.ids[i]] !== undefined) continue;
      if (change.left.length < DIFF_LIMITS.ids) push(change.left, a.ids[i]); else change.omitted.left += 1;
    }
    const counted = change.entered.length + change.left.length + change.updated.length;
    if (counted + change.omitted.entered + change.omitted.left + change.omitted.updated > 0) out[type] = change;
  }
  return out;
}

// A record both pages show: its label, and the fields both views show (a detail view shows fields the
// list does not; a field one view leaves out did not change).
function viewFieldChanges(from, to) {
  const changes = create(null);
  if (!sameValue(from[0], to[0])) changes.label = { from: from[0], to: to[0] };
  const was = fieldsOf(from[1]);
  const is = fieldsOf(to[1]);
  const names = keys(was);
  for (let i = 0; i < names.length; i++) {
    if (!hasOwn(is, names[i])) continue;
    if (!sameValue(was[names[i]], is[names[i]])) changes[names[i]] = { from: was[names[i]], to: is[names[i]] };
  }
  return changes;
}

// Actions of two different pages: those one page declares and the other does not (a family by its
// id: its instances come and go with the records that entered or left, and are not listed), and
// availability changes of plain actions both declare.
export function diffViewActions(before, after, out) {
  const afterIds = keys(after);
  for (let i = 0; i < afterIds.length; i++) {
    const id = afterIds[i];
    const is = after[id];
    const was = before[id];
    if (is.member) continue;
    if (was === undefined) { actionChange(out, 'added', id); continue; }
    if (is.family || was.family) continue;
    if (was.available !== is.available) {
      if (keys(out.availability).length < DIFF_LIMITS.actions) out.availability[id] = { from: was.available, to: is.available };
      else out.omitted.availability += 1;
    }
  }
  const beforeIds = keys(before);
  for (let i = 0; i < beforeIds.length; i++) {
    const was = before[beforeIds[i]];
    if (!was.member && after[beforeIds[i]] === undefined) actionChange(out, 'removed', beforeIds[i]);
  }
}

// State of two different pages: keys both declare diff as always; a key only one page declares is
// not diffed (its value is in the new page's model), and says which page declares it.
export function diffViewState(before, after) {
  const both = create(null);
  const afterOnly = create(null);
  const declared = create(null);
  let named = 0;
  let omitted = 0;
  const names = keys(after);
  for (let i = 0; i < names.length; i++) {
    if (before[names[i]] !== undefined) both[names[i]] = after[names[i]];
    else afterOnly[names[i]] = true;
  }
  const beforeNames = keys(before);
  const beforeBoth = create(null);
  for (let i = 0; i < beforeNames.length; i++) {
    const key = beforeNames[i];
    if (after[key] !== undefined) { beforeBoth[key] = before[key]; continue; }
    if (named < DIFF_LIMITS.state) { declared[key] = 'before'; named += 1; } else omitted += 1;
  }
  for (let i = 0; i < names.length; i++) {
    if (!afterOnly[names[i]]) continue;
    if (named < DIFF_LIMITS.state) { declared[names[i]] = 'after'; named += 1; } else omitted += 1;
  }
  const out = diffState(beforeBoth, both);
  out.omitted += omitted;
  if (keys(declared).length) out.declared = declared;
  return out;
}
