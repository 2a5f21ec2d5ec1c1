// evidence.js: the before snapshot and the diff against it, keyed on business ids. The before
// snapshot stays in the page; only the bounded diff crosses to the controller, so a 10,000-record
// page costs two passes over its records and one small message.

import { create, jsonParse, keys, push } from './prelude.js';
import { newTally, toJSON } from './bound.js';
import { registry } from './declarations.js';
import { pageInfo } from './navigate.js';
import { feedbackCounts, feedbackKey } from './observe.js';
import {
  callAvailable, readFeedback, readRecordIds, recordFields, recordLabel, stateValue,
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
    const signatures = create(null);
    const tally = newTally();
    for (let i = 0; i < set.ids.length; i++) {
      const id = set.ids[i];
      signatures[id] = toJSON([recordLabel(decl, set.objects[i], id, tally), recordFields(decl, set.objects[i], id, tally)]);
    }
    records[decl.type] = { ids: set.ids, signatures };
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

function fieldChanges(before, after) {
  // Signatures are [label, fields]; the changes name the label and each field that differs.
  const from = jsonParse(before);
  const to = jsonParse(after);
  const changes = create(null);
  if (toJSON(from[0]) !== toJSON(to[0])) changes.label = { from: from[0], to: to[0] };
  const names = keys(from[1]);
  const seen = create(null);
  for (let i = 0; i < names.length; i++) {
    seen[names[i]] = true;
    // A field that is absent reads as null: one that goes from null to absent (or back) did not change.
    const a = toJSON(from[1][names[i]]);
    const b = toJSON(to[1][names[i]] === undefined ? null : to[1][names[i]]);
    if (a !== b) changes[names[i]] = { from: from[1][names[i]], to: to[1][names[i]] === undefined ? null : to[1][names[i]] };
  }
  const added = keys(to[1]);
  for (let i = 0; i < added.length; i++) {
    if (!seen[added[i]] && to[1][added[i]] !== null) changes[added[i]] = { from: null, to: to[1][added[i]] };
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
    const a = before[type] || { ids: [], signatures: create(null) };
    const b = after[type] || { ids: [], signatures: create(null) };
    const change = { added: [], removed: [], updated: [], reordered: false, omitted: { added: 0, removed: 0, updated: 0 },
      total: { from: a.ids.length, to: b.ids.length } };
    const added = [];
    const removed = [];
    for (let i = 0; i < b.ids.length; i++) if (a.signatures[b.ids[i]] === undefined) push(added, b.ids[i]);
    for (let i = 0; i < a.ids.length; i++) if (b.signatures[a.ids[i]] === undefined) push(removed, a.ids[i]);
    // Reordered: the records present before and after are not in the same relative order.
    let j = 0;
    for (let i = 0; i < a.ids.length && !change.reordered; i++) {
      if (b.signatures[a.ids[i]] === undefined) continue;
      while (j < b.ids.length && a.signatures[b.ids[j]] === undefined) j += 1;
      if (b.ids[j] !== a.ids[i]) change.reordered = true;
      j += 1;
    }
    for (let i = 0; i < b.ids.length; i++) {
      const id = b.ids[i];
      const was = a.signatures[id];
      if (was === undefined || was === b.signatures[id]) continue;
      if (change.updated.length >= DIFF_LIMITS.updated) { change.omitted.updated += 1; continue; }
      const changes = fieldChanges(was, b.signatures[id]);
      if (keys(changes).length) push(change.updated, { id, changes });
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
