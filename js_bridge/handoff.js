// handoff.js: what a handoff asks the page (is the person done?) and the restore of a reference
// the page kept (see protect.js).

import { answerOf, create } from './prelude.js';
import { restoreSecret } from './secrets.js';
import { errorText } from './bound.js';
import { findAction } from './declarations.js';
import { splitRef } from './resolve.js';

export function restore(names) {
  const values = create(null);
  for (let i = 0; i < names.length; i++) {
    const value = restoreSecret(names[i]);
    if (value !== null) values[names[i]] = value;
  }
  return answerOf({ ok: true, values });
}

export function handoffDone(ref) {
  const action = findAction(splitRef(ref).id);
  if (!action || !action.done) return answerOf({ ok: false, code: 'gone', error: 'The handoff ' + ref + ' is no longer declared' });
  try {
    return answerOf({ ok: true, done: !!action.done() });
  } catch (e) {
    return answerOf({ ok: true, done: false, error: 'done() threw: ' + errorText(e) });
  }
}
