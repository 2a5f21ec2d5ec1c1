// expect.js: stage 7 in the page. The declared expectation is polled until it holds, then checked
// again once the page settled.

import { MathMax, MathMin, answerOf, hasOwn, now } from './prelude.js';
import { errorText } from './bound.js';
import { findAction } from './declarations.js';
import { callWithin } from './execute.js';
import { nextChange, quietSince, settle, startObserving, stopObserving } from './observe.js';
import { diffHeld } from './navigate.js';
import { splitRef } from './resolve.js';
import { diffAgainstBefore, endPlainWatch, inFlight } from './reveal.js';

function checkOnce(check, action, ref, args) {
  try {
    const value = action.record ? check(args, ref.record) : check(args);
    return answerOf({ value });
  } catch (e) {
    return answerOf({ error: errorText(e) });
  }
}

async function checkHolds(check, action, ref, args, capMs) {
  const result = checkOnce(check, action, ref, args);
  if (result.error !== undefined) return result;
  let value = result.value;
  let thenable = false;
  try { thenable = value !== null && typeof value === 'object' && typeof value.then === 'function'; } catch (e) { thenable = false; }
  if (thenable) {
    const waited = await callWithin(() => value, [], capMs);
    if (waited.timedOut) return answerOf({ error: 'check() did not answer within ' + capMs + ' ms' });
    value = waited.value;
  }
  return answerOf({ value: !!value });
}

// With `diff` asked (evidence on), the after snapshot is taken the moment the page is found settled, in
// the same task: nothing the page does later (a timer firing while the answer travels) gets into the
// receipt, and the diff stage needs no call of its own. Not in a document that started to leave: its
// before snapshot must stay for the next document (navigate.js carries it), which diffs against it.
// In that next document, which was handed the carried snapshot as it settled (navigate.js hold), the
// expect call names the key it was held under (`carried`) and diffs against it the same way: the diff
// stage's own call across documents is saved (issue 31).
function withAfter(answer, args) {
  if (hasOwn(args, 'carried')) {
    const diffed = inFlight.leaving ? null : diffHeld(args.carried);
    if (diffed && diffed.ok) answer.diffed = diffed;
  } else if (args.diff === true && !inFlight.leaving && inFlight.before) {
    const diffed = diffAgainstBefore();
    if (diffed.ok) answer.diffed = diffed;
  }
  return answer;
}

// Polls the expectation until it holds or time runs out; then waits for the page to settle and
// checks once more, so an optimistic update that is rolled back is not reported as a success.
function invokedAction(id) {
  return inFlight.action && inFlight.action.id === id ? inFlight.action : findAction(id);
}

export async function expectEffect(args) {
  const ref = splitRef(args.ref);
  const action = invokedAction(ref.id);
  const settleCap = args.settleMs;
  if (!action) return answerOf({ ok: false, code: 'gone', error: 'The action ' + ref.id + ' is no longer declared' });
  startObserving();
  try {
    const expect = action.expect;
    const since = inFlight.since;
    if (!expect) {
      const settled = quietSince(since, args.quiet) ? answerOf({ settled: true, ms: 0, frames: 0 }) : await settle(since, settleCap);
      return withAfter(answerOf({ ok: true, declared: false, settled }), args);
    }
    const started = now();
    let polls = 0;
    let last = null;
    for (;;) {
      if (inFlight.leaving) return answerOf({ ok: true, declared: false, polls, ms: now() - started });  // checked on the new document
      polls += 1;
      last = await checkHolds(expect.check, action, ref, args.args, MathMax(1, args.timeoutMs - (now() - started)));
      if (last.value === true) break;
      const elapsed = now() - started;
      if (elapsed >= args.timeoutMs) {
        return answerOf({ ok: false, code: 'never', polls, ms: elapsed, error: last.error || null });
      }
      await nextChange(MathMin(20, args.timeoutMs - elapsed));
    }
    const heldAfter = now() - started;
    const settled = await settle(since, settleCap);
    const again = await checkHolds(expect.check, action, ref, args.args, 1000);
    if (again.value !== true) {
      return answerOf({ ok: false, code: 'reverted', polls, ms: heldAfter, settled, error: again.error || null });
    }
    return withAfter(answerOf({ ok: true, declared: true, polls, ms: heldAfter, settled }), args);
  } finally {
    stopObserving();
    endPlainWatch();  // reveal.js: the observer a start mark without evidence turned on
  }
}
