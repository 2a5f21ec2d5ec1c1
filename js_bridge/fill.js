// fill.js: the direct path of a fill (issue 31), as gesture.js's is of a click. When reveal has found a
// plain text field (an input that takes typed text, or a textarea) visible, enabled and marked, and the
// invocation brings a value to type, `aimFill` focuses it and selects what it holds, after the before
// snapshot (the page's focus handlers are part of the action, as in Playwright's fill); the controller
// then inserts the text with one trusted input event (CDP Input.insertText), with no actionability
// waits of Playwright's: this call made them unnecessary. Between the two the page may move the
// focus: a guard on the window, in the capture phase before any listener of the page's, lets the
// insertion through only when its `beforeinput` is the target's, and cancels it otherwise, so text
// meant for the target never reaches another field. `typed` says which it was; landed, it ends the
// typing as a person's ends (the field left: the browser fires `change`) and releases the target;
// missed, nothing was typed and the controller falls back to Playwright's fill.
//
// The controller sends the insertion and the `typed` call at once (one round trip less): the call goes
// straight to the renderer, the insertion through the browser process, so either may arrive first.
// Asked with `waitMs`, `typed` waits in the page, bounded, for the guard to see the insertion, and
// answers once the task that dispatched it (beforeinput, the edit, input: one task) is over. Nothing
// seen by then, it answers `waiting` and keeps the guard: the controller asks again once the insertion
// has answered, as when the two went one after the other.

import {
  G, PromiseCtor, answerOf, documentObject, elementGetAttribute, elementHasAttribute, elementTagName,
  eventTargetAddListener, getterOf, now, setTimer, strToLowerCase, uncurry,
} from './prelude.js';
import { errorText } from './bound.js';
import { eventComposedPath, eventIsTrusted, eventPreventDefault, eventStopImmediate, pathHolds } from './gesture.js';
import { DOC_ID, withLeaving } from './navigate.js';
import { expectEffect } from './expect.js';
import { frameAfterAction } from './observe.js';
import { inFlight, releaseTarget } from './reveal.js';

const TYPED_INPUTS = { text: true, search: true, url: true, tel: true, email: true, password: true };
const elementFocus = uncurry(HTMLElement.prototype.focus);
const elementBlur = uncurry(HTMLElement.prototype.blur);
const inputSelect = uncurry(HTMLInputElement.prototype.select);
const textareaSelect = uncurry(HTMLTextAreaElement.prototype.select);
const documentActiveElement = getterOf(Document.prototype, 'activeElement');
const eventType = getterOf(Event.prototype, 'type');
const GUARD_MS = 10000;  // a guard nobody asked about (the controller's insertion failed) lapses

let guard = null;  // {el, at, decided: null | 'landed' | 'missed', events}
let waiting = null;  // a `typed` call waiting for the insertion: {wake}

// The insertion seen: the waiting call goes on in a task of its own, after the one dispatching it.
function wakeTyped() {
  const wait = waiting;
  waiting = null;
  if (wait) setTimer(wait.wake, 0);
}

// Until the guard saw the insertion (woken by wakeTyped) or `waitMs` went by. One call is woken, the
// newest; an older one still waiting (its controller gave up on it) ends at its own bound all the same.
function insertion(waitMs) {
  return new PromiseCtor((resolve) => {
    const wait = { wake: resolve };
    waiting = wait;
    setTimer(() => { if (waiting === wait) waiting = null; resolve(); }, waitMs);
  });
}

function guardInput(event) {
  const armed = guard;
  if (!armed || !eventIsTrusted(event)) return;
  if (now() - armed.at > GUARD_MS) { guard = null; return; }
  if (armed.decided === null) {
    // The insertion's beforeinput decides, never an input event without one before it: that is the
    // page's own editing (document.execCommand's input is trusted and has no beforeinput), which could
    // otherwise take the decision for the target and let the text through to a field focused after it.
    if (eventType(event) !== 'beforeinput') return;
    armed.decided = pathHolds(eventComposedPath(event), armed.el) ? 'landed' : 'missed';
    wakeTyped();
  }
  armed.events += 1;
  if (armed.decided === 'missed') {
    eventStopImmediate(event);
    eventPreventDefault(event);
  } else if (eventType(event) === 'input') {
    frameAfterAction();  // observe.js: the frame that renders its effect
  }
}

const GUARDED = ['beforeinput', 'input'];
for (let i = 0; i < GUARDED.length; i++) {
  try { eventTargetAddListener(G, GUARDED[i], guardInput, true); } catch (e) { /* no window: no direct path */ }
}

// Why the marked target is not a field the direct fill types into, or null.
function notTyped(el) {
  const tag = strToLowerCase(elementTagName(el));
  if (tag === 'input') {
    const type = strToLowerCase(elementGetAttribute(el, 'type') || 'text');
    if (!TYPED_INPUTS[type]) return 'an input of type ' + type + ' is filled by Playwright';
  } else if (tag !== 'textarea') {
    return 'a ' + tag + ' is filled by Playwright';
  }
  if (elementHasAttribute(el, 'readonly')) return 'the field is read-only';
  return null;
}

// Focus the marked field and select its text, or say why the direct fill is not taken ({why}).
export function aimFill() {
  const el = inFlight.target;
  guard = null;
  if (!el) return answerOf({ why: 'the target is gone' });
  try {
    const why = notTyped(el);
    if (why) return answerOf({ why });
    elementFocus(el);
    if (documentActiveElement(documentObject) !== el) return answerOf({ why: 'the field did not keep the focus' });
    if (strToLowerCase(elementTagName(el)) === 'input') inputSelect(el); else textareaSelect(el);
    guard = { el, at: now(), decided: null, events: 0 };
    return answerOf({ fill: true });
  } catch (e) {
    return answerOf({ why: 'it could not be focused: ' + errorText(e) });
  }
}

// After the controller's insertion: whether it reached the target; landed, the field is left (the
// browser fires `change`, as after a person's typing) and the target released. Asked with `expect`
// (issue 31: one round trip less, as ran.js for run()), a fill that landed goes straight on to stage 7
// (expect.js) and answers both, the expectation's in `expected`; one that did not land does not (the
// controller falls back to Playwright's fill, then asks the expectation on its own). While that
// expectation is polled the landed answer is kept: if it hangs and the controller stops the page's
// script, `typed` asked again hands it over, so the fill is not taken for the part that hung.
let keptLanded = null;

function landedNow() {
  const armed = guard;
  guard = null;
  if (!armed) return answerOf({ ok: true, landed: 'unarmed', events: 0, doc: DOC_ID });
  const answer = answerOf({ ok: true, landed: armed.decided || 'nowhere', events: armed.events, doc: DOC_ID });
  if (armed.decided === 'landed') {
    try { elementBlur(armed.el); } catch (e) { /* gone with a re-render */ }
    releaseTarget();
  }
  return answer;
}

export async function typed(arg) {
  if (keptLanded && !guard) { const kept = keptLanded; keptLanded = null; return kept; }
  keptLanded = null;
  if (arg && arg.waitMs > 0 && guard && guard.decided === null) {
    const armed = guard;
    await insertion(arg.waitMs);
    // Not seen yet, or no longer this call's guard (a later fill armed its own, or asked for it): the
    // guard is left as it is, for the call that asks after the insertion answered.
    if (guard !== armed || armed.decided === null) {
      return answerOf({ ok: true, landed: 'waiting', events: 0, doc: DOC_ID });
    }
  }
  const answer = landedNow();
  const asked = arg && arg.expect;
  if (!asked || answer.landed !== 'landed' || inFlight.leaving) return withLeaving(answer);
  keptLanded = answer;
  const expected = await expectEffect({ ref: asked.ref, args: asked.args, timeoutMs: asked.timeoutMs,
                                        settleMs: asked.settleMs, diff: asked.diff === true });
  keptLanded = null;
  answer.expected = withLeaving(expected);
  return answer;
}
