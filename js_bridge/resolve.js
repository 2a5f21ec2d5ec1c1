// resolve.js: stage 1 in the page. `describe` finds an action (and, for a family, its record) as the
// page declares it now; the controller's resolve stage calls it.

import { answerOf, push, strIndexOf, strSlice } from './prelude.js';
import { newTally } from './bound.js';
import { findAction, findRecords, registry } from './declarations.js';
import { riskOf } from './registry.js';
import { readRecordIds, recordLabel } from './records.js';

export function splitRef(ref) {
  const at = strIndexOf(ref, '@');
  return at < 0 ? { id: ref, record: null } : { id: strSlice(ref, 0, at), record: strSlice(ref, at + 1) };
}

function availableIds(max) {
  const ids = [];
  for (let i = 0; i < registry.actions.length && ids.length < max; i++) {
    const action = registry.actions[i];
    push(ids, action.record ? action.id + '@{' + action.record + '}' : action.id);
  }
  return ids;
}

function actionData(action) {
  const steps = [];
  if (action.steps) for (let i = 0; i < action.steps.length; i++) push(steps, action.steps[i]);
  return {
    id: action.id,
    kind: action.kind,
    description: action.description,
    region: action.region,
    record: action.record,
    risk: riskOf(action),
    confirm: action.confirm,
    params: action.params,
    timeoutMs: action.timeoutMs,
    expect: action.expect ? { description: action.expect.description, timeoutMs: action.expect.timeoutMs } : null,
    steps: action.steps ? steps : null,
    untrusted: action.untrusted === true,
    webmcp: action.webmcp === true,
    observes: registry.records.length + registry.state.length + registry.feedback.length > 0,
  };
}

export function describe(ref) {
  const parts = splitRef(ref);
  const action = findAction(parts.id);
  if (!action) return answerOf({ ok: false, code: 'not_found', available: availableIds(100) });
  if (action.record && parts.record === null) return answerOf({ ok: false, code: 'record_required', record: action.record, available: availableIds(100) });
  if (!action.record && parts.record !== null) return answerOf({ ok: false, code: 'not_a_family', available: availableIds(100) });
  let record = null;
  if (action.record) {
    const decl = findRecords(action.record);
    if (!decl) return answerOf({ ok: false, code: 'no_records', record: action.record, available: availableIds(100) });
    const set = readRecordIds(decl);
    const index = set.index[parts.record];
    if (index === undefined) return answerOf({ ok: false, code: 'record_not_found', record: action.record, total: set.ids.length, available: availableIds(100) });
    record = { id: parts.record, type: action.record, label: recordLabel(decl, set.objects[index], parts.record, newTally()) };
  }
  return answerOf({ ok: true, action: actionData(action), record });
}
