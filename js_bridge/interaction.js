// interaction.js: `client.requestUserInteraction(callback)`, the second argument of a WebMCP tool's
// `execute(input, client)` (the explainer's `buyProduct`). The page asks for the person; the controller
// hears it through its binding (the one navigate.js adopted), asks a person through its confirmation
// channel, and answers with `interaction`. Approved: the callback runs (a dialog it raises is shown
// to that person too, by the controller); denied, or no person can be asked: the promise rejects with
// a NotAllowedError and the callback never runs. Never answered on the person's behalf.

import {
  G, PromiseCtor, ReflectApply, StringCtor, answerOf, create, freeze, promiseThen, setTimer,
} from './prelude.js';
import { toJSON } from './bound.js';
import { carry } from './navigate.js';

const interactions = create(null);
const DOMExceptionForInteraction = G.DOMException;
let interactionSeq = 0;
export let interactionsOpen = 0; // asked and not settled: a tool's time budget waits for the person (execute.js)

// `kind`: 'interact' (here) or 'call' (export.js); the controller's listeners are by kind (core/bridge.py).
export function tellController(kind, message) {
  if (!carry) return false;
  const payload = create(null);
  payload[kind] = message;
  try { ReflectApply(carry, G, [toJSON(payload)]); return true; } catch (e) { return false; }
}

export function clientFor(toolName, signal) {
  return freeze({
    signal,
    requestUserInteraction: (callback) => new PromiseCtor((resolve, reject) => {
      if (typeof callback !== 'function') { reject(new TypeError('requestUserInteraction needs a callback')); return; }
      interactionSeq += 1;
      const id = 'i' + interactionSeq;
      interactions[id] = { resolve, reject, callback };
      interactionsOpen += 1;
      if (!tellController('interact', { id, tool: toolName, phase: 'ask' })) {
        delete interactions[id];
        interactionsOpen -= 1;
        reject(new DOMExceptionForInteraction('No person can be asked (no controller is listening)', 'NotAllowedError'));
      }
    }),
  });
}

// The controller's answer: {id, approve, reason}. The callback runs after this call answered, so a
// dialog it raises blocks the page's script outside any bridge call.
export function answerInteraction(arg) {
  const pending = interactions[arg.id];
  if (!pending) return answerOf({ ok: false, code: 'gone', error: 'No interaction ' + arg.id + ' is waiting' });
  delete interactions[arg.id];
  const settle = (fn, value) => {
    interactionsOpen -= 1;
    tellController('interact', { id: arg.id, phase: 'done' });
    fn(value);
  };
  if (arg.approve !== true) {
    settle(pending.reject, new DOMExceptionForInteraction('The person did not take part: ' + StringCtor(arg.reason || 'denied'), 'NotAllowedError'));
    return answerOf({ ok: true });
  }
  setTimer(() => {
    let result;
    try { result = ReflectApply(pending.callback, undefined, []); } catch (e) { settle(pending.reject, e); return; }
    promiseThen(new PromiseCtor((resolve) => resolve(result)), (v) => settle(pending.resolve, v), (e) => settle(pending.reject, e));
  }, 0);
  return answerOf({ ok: true });
}
