// evidence.js: the before snapshot and the diff against it, keyed on business ids. The before
// snapshot stays in the page; only the bounded diff crosses to the controller, so a 10,000-record
// page costs two passes over its records and one small message. A record is kept as its bounded
// copy, [label, fields] (records.js: never the page's own objects, so a change made in place is seen;
// fields as a flat [name, value, …] list), and compared value by value: no text is made of a record
// that did not change (issue 31: at 1,000 records the JSON signature of every record, made twice, was
// a quarter of an invocation's snapshots). A type's snapshot is its ids and their entries in the same
// order ({ids, entries}, entries[i] the record ids[i]): when the ids before and after are the same in
// the same order (a read, an edit in place) the records are compared position by position, with no
// map of ids built for either side (issue 31: those maps and the fields' objects were most of a
// read's snapshots at 1,000 records).

import { create, isArray, keys, push } from './prelude.js';
import { newTally, toJSON } from './bound.js';
import { registry } from './declarations.js';
import { pageInfo } from './navigate.js';
import { feedbackCounts, feedbackKey } from './observe.js';
import {
  callAvailable, fieldsOf, readFeedback, readRecordIds, recordLabel, recordPairs, stateValue,
} from './records.js';
import { diffViewActions, diffViewState, diffViews, samePage } from './views.js';

export const DIFF_LIMITS = { ids: 20, updated: 10, state: 20, feedback: 20, actions: 20 };
// A family whose availability depends on the record (`available(id)`) is read per record, for at most
// this many (record, action) pairs per snapshot, in list order: enough for a page's visible records,
// bounded on a 10,000-record page. Families without `available` cost nothing here.
const MEMBER_CHECKS = 500;

export function captureEvidence() {
  const records = create(null);
  for (let r = 0; r < registry.records.length; r++) {
    const decl = registry.records[r];
    const set = readRecordIds(decl);
    const entries = [];
    const tally = newTally();
    for (let i = 0; i < set.ids.length; i++) {
      const id = set.ids[i];
      entries[i] = [recordLabel(decl, set.objects[i], id, tally), recordPairs(decl, set.objects[i], id, tally)];
    }
    records[decl.type] = { ids: set.ids, entries };
  }
  const actions = create(null);
  let checks = MEMBER_CHECKS;
  for (let i = 0; i < registry.actions.length; i++) {
    const action = registry.actions[i];
    if (action.record) {
      actions[action.id] = { family: action.record };
      const members = action.available && records[action.record];
      for (let m = 0; members && m < members.ids.length && checks > 0; m++, checks--) {
        const availability = callAvailable(action, members.ids[m]);
        actions[action.id + '@' + members.ids[m]] = { member: true, available: availability.available ? true : availability.reason === null ? false : availability.reason };
      }
      continue;
    }
    const availability = callAvailable(action);
    actions[action.id] = { available: availability.available ? true : availability.reason === null ? false : availability.reason };
  }
  const state = create(null);
  for (let i = 0; i < registry.state.length; i++) {
    const entry = registry.state[i];
    const read = stateValue(entry, newTally());
    const value = read.error ? null : read.value;
    state[entry.key] = { value, signature: toJSON(value) };
  }
  const entries = readFeedback(null);
  const feedback = { entries, counts: feedbackCounts(entries) };
  return { records, actions, state, feedback, page: pageInfo() };
}

// A before snapshot another document carried (navigate.js) arrives parsed from JSON, its objects
// inheriting from this document's Object.prototype: each is copied with its own properties only and no
// prototype, so a name the last document never showed (a state key, an action, a feedback count) reads
// as not there, never as what this document put on Object.prototype under that name.
function ownCopy(value) {
  if (!value || typeof value !== 'object' || isArray(value)) return null;
  const out = create(null);
  const names = keys(value);
  for (let i = 0; i < names.length; i++) out[names[i]] = value[names[i]];
  return out;
}

function ownEntries(value) {
  const out = create(null);
  const given = ownCopy(value);
  const names = given ? keys(given) : [];
  for (let i = 0; i < names.length; i++) {
    const entry = ownCopy(given[names[i]]);
    if (entry) out[names[i]] = entry;
  }
  return out;
}

export function carriedSnapshot(parsed) {
  const before = ownCopy(parsed);
  if (!before || !before.records || typeof before.records !== 'object') return null;
  const feedback = ownCopy(before.feedback);
  return {
    records: carriedRecords(before.records),
    actions: ownEntries(before.actions),
    state: ownEntries(before.state),
    feedback: { entries: feedback && isArray(feedback.entries) ? feedback.entries : [], counts: ownCopy(feedback && feedback.counts) || create(null) },
    page: ownCopy(before.page),
  };
}

// The carried records: an entry that is not [label, [name, value, …]] is left out (its id reads as
// not there before).
function carriedRecords(records) {
  const out = create(null);
  const types = keys(records);
  for (let t = 0; t < types.length; t++) {
    const kept = ownCopy(records[types[t]]);
    const ids = kept && isArray(kept.ids) ? kept.ids : [];
    const given = kept && isArray(kept.entries) ? kept.entries : [];
    const entries = [];
    for (let i = 0; i < ids.length; i++) {
      const entry = given[i];
      entries[i] = isArray(entry) && isArray(entry[1]) ? entry : undefined;
    }
    out[types[t]] = { ids, entries };
  }
  return out;
}

// Where each id of a type's snapshot is, without a prototype (an id such as "constructor" finds only
// its own record); an id without an entry is not there.
export function positions(set) {
  const out = create(null);
  for (let i = 0; i < set.ids.length; i++) {
    if (set.entries[i] !== undefined && out[set.ids[i]] === undefined) out[set.ids[i]] = i;
  }
  return out;
}

// The same records before and after, in the same order (each with an entry before).
function sameIds(a, b) {
  if (a.ids.length !== b.ids.length) return false;
  for (let i = 0; i < a.ids.length; i++) if (a.ids[i] !== b.ids[i] || a.entries[i] === undefined) return false;
  return true;
}

// Two bounded values (records.js): equal primitives at once, arrays and objects by their JSON. A field
// that is absent reads as null: one that goes from null to absent (or back) did not change.
export function sameValue(a, b) {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === b) return true;
  return a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && toJSON(a) === toJSON(b);
}

// Whether a record kept as [label, fields] changed: the label, or a field of either side. Fields read
// as the same names in the same order are compared pair by pair; else by name (a name given twice
// counts with its last value, as in the model).
export function entryChanged(before, after) {
  if (!sameValue(before[0], after[0])) return true;
  const a = before[1];
  const b = after[1];
  if (a.length === b.length) {
    let i = 0;
    while (i < a.length && a[i] === b[i] && sameValue(a[i + 1], b[i + 1])) i += 2;
    if (i >= a.length) return false;
  }
  const from = fieldsOf(a);
  const to = fieldsOf(b);
  const names = keys(from);
  for (let i = 0; i < names.length; i++) if (!sameValue(from[names[i]], to[names[i]])) return true;
  const added = keys(to);
  for (let i = 0; i < added.length; i++) if (from[added[i]] === undefined && !sameValue(null, to[added[i]])) return true;
  return false;
}

// What changed in one record: the label and each field that differs, from and to.
function fieldChanges(before, after) {
  const changes = create(null);
  if (!sameValue(before[0], after[0])) changes.label = { from: before[0], to: after[0] };
  const from = fieldsOf(before[1]);
  const to = fieldsOf(after[1]);
  const names = keys(from);
  for (let i = 0; i < names.length; i++) {
    const is = to[names[i]] === undefined ? null : to[names[i]];
    if (!sameValue(from[names[i]], is)) changes[names[i]] = { from: from[names[i]], to: is };
  }
  const added = keys(to);
  for (let i = 0; i < added.length; i++) {
    if (from[added[i]] === undefined && to[added[i]] !== null) changes[added[i]] = { from: null, to: to[added[i]] };
  }
  return changes;
}

// Records diffed per type (SPEC: ids of different types may coincide, order 17 and item 17); a type
// with no change is left out, and each type's total is its own.
function diffRecords(before, after, actionsOut) {
  const out = create(null);
  const types = keys(after);
  const beforeTypes = keys(before);
  for (let t = 0; t < beforeTypes.length; t++) if (after[beforeTypes[t]] === undefined) push(types, beforeTypes[t]);
  for (let t = 0; t < types.length; t++) {
    const type = types[t];
    const a = before[type] || { ids: [], entries: [] };
    const b = after[type] || { ids: [], entries: [] };
    const change = { added: [], removed: [], updated: [], reordered: false, omitted: { added: 0, removed: 0, updated: 0 },
      total: { from: a.ids.length, to: b.ids.length } };
    const added = [];
    const removed = [];
    if (sameIds(a, b)) {
      for (let i = 0; i < b.ids.length; i++) updatedRecord(change, b.ids[i], a.entries[i], b.entries[i]);
    } else {
      moved(a, b, change, added, removed);
    }
    for (let i = 0; i < added.length; i++) {
      if (change.added.length < DIFF_LIMITS.ids) push(change.added, added[i]); else change.omitted.added += 1;
    }
    for (let i = 0; i < removed.length; i++) {
      if (change.removed.length < DIFF_LIMITS.ids) push(change.removed, removed[i]); else change.omitted.removed += 1;
    }
    if (added.length + removed.length + change.updated.length + change.omitted.updated > 0 || change.reordered) out[type] = change;
    // Each family over this type gains or loses one instance per record.
    for (let f = 0; f < registry.actions.length; f++) {
      const action = registry.actions[f];
      if (action.record !== type) continue;
      for (let i = 0; i < added.length; i++) actionChange(actionsOut, 'added', action.id + '@' + added[i]);
      for (let i = 0; i < removed.length; i++) actionChange(actionsOut, 'removed', action.id + '@' + removed[i]);
    }
  }
  return out;
}

// A type whose ids are not the same in the same order: which came and went, whether those on both
// sides kept their relative order, and which of them changed.
function moved(a, b, change, added, removed) {
  const was = positions(a);
  const is = positions(b);
  for (let i = 0; i < b.ids.length; i++) if (was[b.ids[i]] === undefined) push(added, b.ids[i]);
  for (let i = 0; i < a.ids.length; i++) if (is[a.ids[i]] === undefined) push(removed, a.ids[i]);
  // Reordered: the records present before and after are not in the same relative order.
  let j = 0;
  for (let i = 0; i < a.ids.length && !change.reordered; i++) {
    if (is[a.ids[i]] === undefined) continue;
    while (j < b.ids.length && was[b.ids[j]] === undefined) j += 1;
    if (b.ids[j] !== a.ids[i]) change.reordered = true;
    j += 1;
  }
  for (let i = 0; i < b.ids.length; i++) {
    const at = was[b.ids[i]];
    if (at !== undefined) updatedRecord(change, b.ids[i], a.entries[at], b.entries[i]);
  }
}

function updatedRecord(change, id, was, is) {
  if (!entryChanged(was, is)) return;
  if (change.updated.length >= DIFF_LIMITS.updated) { change.omitted.updated += 1; return; }
  push(change.updated, { id, changes: fieldChanges(was, is) });
}

export function actionChange(out, list, id) {
  if (out[list].length < DIFF_LIMITS.actions) push(out[list], id);
  else out.omitted[list] += 1;
}

function diffActions(before, after, out) {
  const afterIds = keys(after);
  for (let i = 0; i < afterIds.length; i++) {
    const id = afterIds[i];
    const was = before[id];
    const is = after[id];
    if (was === undefined) { if (!is.family && !is.member) actionChange(out, 'added', id); continue; }
    if (is.family || was.family) continue;  // a member's availability is compared below; its record's coming and going is the family's
    if (was.available !== is.available) {
      if (keys(out.availability).length < DIFF_LIMITS.actions) out.availability[id] = { from: was.available, to: is.available };
      else out.omitted.availability += 1;
    }
  }
  const beforeIds = keys(before);
  for (let i = 0; i < beforeIds.length; i++) {
    const was = before[beforeIds[i]];
    if (after[beforeIds[i]] === undefined && !was.family && !was.member) actionChange(out, 'removed', beforeIds[i]);
  }
}

export function diffState(before, after) {
  const out = { changed: create(null), omitted: 0 };
  const names = keys(after);
  const beforeNames = keys(before);
  for (let i = 0; i < beforeNames.length; i++) if (after[beforeNames[i]] === undefined) push(names, beforeNames[i]);
  let n = 0;
  for (let i = 0; i < names.length; i++) {
    const a = before[names[i]];
    const b = after[names[i]];
    if (a && b && a.signature === b.signature) continue;
    if (n >= DIFF_LIMITS.state) { out.omitted += 1; continue; }
    out.changed[names[i]] = { from: a ? a.value : null, to: b ? b.value : null };
    n += 1;
  }
  return out;
}

// Added: every appearance the watch saw during the action (without a watch, the rise in count
// between the snapshots). Removed: entries shown fewer times after than before.
function diffFeedback(before, after, watch) {
  const out = { added: [], removed: [], omitted: { added: 0, removed: 0 } };
  let appeared = watch ? watch.appeared : null;
  if (!appeared) {
    appeared = [];
    const rose = create(null);
    for (let i = 0; i < after.entries.length; i++) {
      const key = feedbackKey(after.entries[i]);
      rose[key] = (rose[key] || 0) + 1;
      if (rose[key] > (before.counts[key] || 0)) push(appeared, after.entries[i]);
    }
  }
  for (let i = 0; i < appeared.length; i++) {
    if (out.added.length < DIFF_LIMITS.feedback) push(out.added, appeared[i]); else out.omitted.added += 1;
  }
  const fell = create(null);
  for (let i = 0; i < before.entries.length; i++) {
    const key = feedbackKey(before.entries[i]);
    fell[key] = (fell[key] || 0) + 1;
    if (fell[key] <= (after.counts[key] || 0)) continue;
    if (out.removed.length < DIFF_LIMITS.feedback) push(out.removed, before.entries[i]); else out.omitted.removed += 1;
  }
  return out;
}

export function diffEvidence(before, watch) {
  const after = captureEvidence();
  const actions = { added: [], removed: [], availability: create(null), omitted: { added: 0, removed: 0, availability: 0 } };
  // Another page (views.js): records entered and left the view, never added or removed.
  const same = samePage(before.page, after.page);
  let records;
  let state;
  if (same) {
    records = diffRecords(before.records, after.records, actions);
    diffActions(before.actions, after.actions, actions);
    state = diffState(before.state, after.state);
  } else {
    records = diffViews(before.records, after.records);
    diffViewActions(before.actions, after.actions, actions);
    state = diffViewState(before.state, after.state);
  }
  const feedback = diffFeedback(before.feedback, after.feedback, watch);
  const observed = keys(records).length > 0 ||
    actions.added.length + actions.removed.length + keys(actions.availability).length > 0 ||
    keys(state.changed).length > 0 || feedback.added.length + feedback.removed.length > 0;
  const changed = { observed, records, actions, state: { changed: state.changed }, feedback };
  if (state.omitted) changed.state.omitted = state.omitted;
  if (state.declared) changed.state.declared = state.declared;
  // A route of a single-page app that declares another page (navigate.js: diffFrom for another document).
  // A page that declares no pling.page (a WebMCP-only page) has no route of its own to name: there an
  // address the action changed within the document (pushState, a hash) is the page change.
  const moved = before.page && after.page && (before.page.id !== after.page.id ||
    (before.page.id === null && before.page.url !== after.page.url));
  if (moved) { changed.page = { from: before.page, to: after.page }; changed.observed = true; }
  return changed;
}
