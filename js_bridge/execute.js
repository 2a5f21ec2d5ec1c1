// execute.js: stage 6 in the page. `runAction` calls a function action's run(); a control that
// Playwright cannot operate gets synthetic events. `callWithin` bounds a call into the page.

import {
  G, MouseEventCtor, PointerEventCtor, PromiseCtor, ReflectApply, answerOf, clearTimer, eventTargetDispatch,
  getOwnDescriptor, now, promiseThen, setTimer,
} from './prelude.js';
import { LIMITS, bound, errorText, newTally } from './bound.js';
import { findAction } from './declarations.js';
import { interactionsOpen } from './interaction.js';
import { frameAfterAction } from './observe.js';
import { splitRef } from './resolve.js';
import { inFlight, releaseTarget } from './reveal.js';

export async function callWithin(fnToCall, args, ms) {
  let timer = null;
  // While a WebMCP tool waits for a person (interaction.js), its budget waits too.
  const timeout = new PromiseCtor((resolve) => {
    const fire = () => { if (interactionsOpen > 0) timer = setTimer(fire, 250); else resolve(answerOf({ timedOut: true })); };
    timer = setTimer(fire, ms);
  });
  try {
    const result = ReflectApply(fnToCall, undefined, args);
    const settled = isThenable(result)
      ? promiseThen(new PromiseCtor((resolve) => resolve(result)), (v) => answerOf({ value: v }))
      : new PromiseCtor((resolve) => resolve(answerOf({ value: result })));
    return await new PromiseCtor((resolve, reject) => {
      promiseThen(settled, resolve, reject);
      promiseThen(timeout, resolve, reject);
    });
  } finally {
    clearTimer(timer);
  }
}

export async function runAction(args) {
  const ref = splitRef(args.ref);
  const action = findAction(ref.id);
  if (!action || !action.run) return answerOf({ ok: false, code: 'gone', error: 'The action ' + ref.id + ' is no longer declared' });
  // Nested in a running invocation (a tool calling an export, runtime/exported.py): that invocation's
  // start mark and its tool's cancel stay its own.
  const nested = args.nested === true;
  const outerCancel = nested ? inFlight.toolCancel : null;
  if (!inFlight.before && !nested) inFlight.since = now();
  inFlight.toolCancel = null;
  let result;
  try {
    result = await callWithin(action.run, action.record ? [args.args, ref.record] : [args.args], args.timeoutMs);
  } catch (e) {
    inFlight.toolCancel = outerCancel;
    return answerOf({ ok: false, code: 'threw', error: errorText(e) });
  }
  // observe.js: the frame that renders run()'s effect; not for a read (known.js): one that wrote nothing
  // renders nothing, and one that wrote settles by waiting for its frame
  if (!(args.expect && args.expect.quiet === true)) frameAfterAction();
  const cancel = inFlight.toolCancel;
  inFlight.toolCancel = outerCancel;
  if (result.timedOut) {
    if (cancel) cancel(); // a WebMCP tool: its signal aborts and toolcancel fires (webmcp.js)
    return answerOf({ ok: false, code: 'timeout', error: 'run() did not finish within ' + args.timeoutMs + ' ms' });
  }
  if (result.value === undefined) return answerOf({ ok: true });
  const tally = newTally();
  const data = bound(result.value, LIMITS.data, tally);
  const omitted = tally.chars + tally.items + tally.keys + tally.depth;
  return omitted ? answerOf({ ok: true, data, omitted: { chars: tally.chars, items: tally.items, keys: tally.keys, depth: tally.depth } }) : answerOf({ ok: true, data });
}

// Low fidelity: the element is not a control Playwright can operate, so the page gets the events a
// click would produce, untrusted. The receipt says so.
export function syntheticClick() {
  const el = inFlight.target;
  releaseTarget();
  if (!el) return answerOf({ ok: false, code: 'gone', error: 'The target is gone' });
  try {
    const init = { bubbles: true, cancelable: true, composed: true, view: G, button: 0 };
    eventTargetDispatch(el, new PointerEventCtor('pointerdown', init));
    eventTargetDispatch(el, new MouseEventCtor('mousedown', init));
    eventTargetDispatch(el, new PointerEventCtor('pointerup', init));
    eventTargetDispatch(el, new MouseEventCtor('mouseup', init));
    eventTargetDispatch(el, new MouseEventCtor('click', init));
  } catch (e) {
    return answerOf({ ok: false, code: 'threw', error: errorText(e) });
  }
  return answerOf({ ok: true });
}

// A value to wait for: a promise, or an object with a `then` of its own. A `then` a page put on
// Object.prototype makes every object look like a thenable; a plain result is then taken as it is.
const objectProto = Object.prototype;
function isThenable(value) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  let then;
  try { then = value.then; } catch (e) { return false; }
  if (typeof then !== 'function') return false;
  const polluted = getOwnDescriptor(objectProto, 'then');
  return !polluted || (polluted.value !== then && polluted.get === undefined);
}
