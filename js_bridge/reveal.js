// reveal.js: stage 5 in the page. `reveal` checks availability, reveals a hidden target, marks it for
// the controller's trusted input and, when every pre-check passed, takes the before snapshot. The
// invocation in flight (its target, its action, its before snapshot) lives here.

import {
  G, ReflectApply, StringCtor, answerOf, documentObject, elementGetAttribute, elementGetBoundingClientRect,
  elementHasAttribute, elementIsContentEditable, elementMatches, elementQuerySelectorAll, elementTagName,
  isFiniteNumber, nativeGetComputedStyle, nodeGetRootNode, nodeIsConnected, nodeOwnerDocument, nodeParentNode,
  nodeType, now, push, shadowRootHost, shadowRootMode, strSlice, strToLowerCase, styleGetPropertyValue,
} from './prelude.js';
import { randomName } from './secrets.js';
import { elementRemoveAttribute, elementSetAttribute } from './protect.js';
import { cut, errorText } from './bound.js';
import { findAction, findRecords, own } from './declarations.js';
import { captureEvidence, diffEvidence } from './evidence.js';
import { callWithin } from './execute.js';
import { aim } from './gesture.js';
import { aimFill } from './fill.js';
import { DOC_ID, armLeaving } from './navigate.js';
import { settle, startFeedbackWatch, startObserving, stopFeedbackWatch, stopObserving } from './observe.js';
import { callAvailable, readRecordIds } from './records.js';
import { riskOf } from './registry.js';
import { splitRef } from './resolve.js';

const NATIVE_INPUT_SKIP = { hidden: true };
const DIRECT_CONTROLS = { button: true, link: true, checkbox: true };  // clicked by the direct path (gesture.js)
const CLICK_INPUTS = { button: true, submit: true, reset: true, image: true, file: true };

// The invocation in flight: the element to operate and the evidence to diff against.
export const inFlight = { target: null, drop: null, action: null, before: null, watch: null, since: 0, leaving: false, carried: false, toolCancel: null, observed: false };

export function isElement(value) {
  try { return nodeType(value) === 1; } catch (e) { return false; }
}

function isVisible(el) {
  try {
    if (!nodeIsConnected(el)) return false;
    const rect = elementGetBoundingClientRect(el);
    if (!(rect.width > 0 && rect.height > 0)) return false;
    const style = ReflectApply(nativeGetComputedStyle, G, [el]);
    return styleGetPropertyValue(style, 'visibility') !== 'hidden';
  } catch (e) {
    return false;
  }
}

// What kind of control an element is, for the controller to operate it with trusted input.
function controlOf(el) {
  const tag = strToLowerCase(elementTagName(el));
  if (tag === 'button') return 'button';
  if (tag === 'a' && elementHasAttribute(el, 'href')) return 'link';
  if (tag === 'select') return 'select';
  if (tag === 'textarea') return 'text';
  if (tag === 'input') {
    const type = strToLowerCase(elementGetAttribute(el, 'type') || 'text');
    if (NATIVE_INPUT_SKIP[type]) return null;
    if (type === 'checkbox' || type === 'radio') return 'checkbox';
    if (CLICK_INPUTS[type]) return 'button';
    return 'text';
  }
  try { if (elementIsContentEditable(el)) return 'text'; } catch (e) { /* not an HTMLElement */ }
  return null;
}

const NATIVE_SELECTOR = 'button, a[href], select, textarea, input:not([type=hidden]), [contenteditable=""], [contenteditable=true]';

async function revealRecord(action, recordId, capMs) {
  let reveal = action.reveal;
  if (!reveal && action.record) {
    const decl = findRecords(action.record);
    reveal = decl && decl.reveal;
  }
  if (!reveal) return answerOf({ revealed: false });
  const since = now();
  try {
    const result = await callWithin(reveal, [recordId], capMs);
    if (result.timedOut) return answerOf({ revealed: false, error: 'reveal() did not finish within ' + capMs + ' ms' });
  } catch (e) {
    return answerOf({ revealed: false, error: 'reveal() threw: ' + errorText(e) });
  }
  const settled = await settle(since, capMs);
  return answerOf({ revealed: true, settled: settled.settled });
}

function findTarget(action, recordId) {
  let el;
  try {
    el = action.record ? action.target(recordId) : action.target();
  } catch (e) {
    return answerOf({ error: 'target() threw: ' + errorText(e) });
  }
  if (!isElement(el)) return answerOf({ missing: true });
  return answerOf({ el, visible: isVisible(el) });
}

// The declaration the controller holds (lifecycle/known.py): this document's, that very declaration
// (its `seq`), at the risk it was held at. Anything else is `stale`: nothing is touched or run.
export function stillDeclared(action, held) {
  return !!action && held.doc === DOC_ID && action.seq === held.seq && riskOf(action) === held.risk;
}

// The last pre-check: on success the before snapshot is taken here (or, without evidence, the start
// of the action is marked), so an invocation needs no separate call for it.
export async function reveal(args) {
  if (args.known && !stillDeclared(findAction(splitRef(args.ref).id), args.known)) {
    return answerOf({ ok: false, code: 'stale' });
  }
  const answer = await findAndMarkTarget(args);
  if (answer.ok && args.aim === true && DIRECT_CONTROLS[answer.control] && answer.where === 'document' && !answer.gesture) {
    answer.aim = aim();  // gesture.js: where a direct trusted click goes, or why it does not
  }
  if (answer.ok && args.nested === true) {
    // A call the page made to an exported tool while one of its actions runs (runtime/exported.py): part
    // of that invocation, whose start mark, before snapshot and navigation watch stay as they are.
    answer.evidence = false;
    answer.doc = DOC_ID;
  } else if (answer.ok) {
    if (args.evidence === true) takeBefore(); else markStart();
    answer.evidence = args.evidence === true;
    armLeaving();
    answer.doc = DOC_ID;
  }
  if (answer.ok && args.fill === true && answer.control === 'text' && answer.where === 'document' && !answer.gesture) {
    answer.aim = aimFill();  // fill.js: focused and selected after the snapshot, for a direct fill
  }
  return answer;
}

// The action's target, found and visible: when it is hidden or not on the page, the page's reveal()
// is called and it is looked for again. Answers {el} or {refusal}; `log` says what was tried.
async function visibleTarget(action, ref, name, capMs, log) {
  let found = findTarget(action, ref.record);
  if (found.error) return { refusal: answerOf({ ok: false, code: 'unavailable', reason: 'The target could not be found: ' + found.error }) };
  if (found.el && found.visible) return { el: found.el };
  push(log, found.el ? 'target is hidden' : 'target is not on the page');
  const revealed = await revealRecord(action, ref.record, capMs);
  if (revealed.error) push(log, revealed.error);
  else if (revealed.revealed) push(log, 'called reveal(' + (ref.record === null ? '' : ref.record) + ')' + (revealed.settled ? ' and the page settled' : ' (the page had not settled)'));
  if (revealed.revealed) found = findTarget(action, ref.record);
  const how = revealed.revealed ? ', even after reveal()' : ' and nothing declares how to reveal it';
  if (found.error) return { refusal: answerOf({ ok: false, code: 'unavailable', reason: 'The target could not be found: ' + found.error, log }) };
  if (!found.el) return { refusal: answerOf({ ok: false, code: 'unavailable', reason: 'The target of ' + name + ' is not on the page' + how, log }) };
  if (!found.visible) return { refusal: answerOf({ ok: false, code: 'unavailable', reason: 'The target of ' + name + ' is hidden' + how, log }) };
  return { el: found.el };
}

// How the target is operated: as the native control it is; with the declared gesture (hover a menu
// trigger, double-click a heading) on the element itself; a container through the one native control
// inside it, if there is exactly one; else by synthetic events.
function operatedControl(el, action, log) {
  const control = controlOf(el);
  if (control) return { el, control, fidelity: 'high' };
  if (action.gesture) return { el, control: 'gesture', fidelity: 'high' };
  let nested = [];
  try { nested = elementQuerySelectorAll(el, NATIVE_SELECTOR); } catch (e) { nested = []; }
  const visible = [];
  for (let i = 0; i < nested.length; i++) if (isVisible(nested[i]) && controlOf(nested[i])) push(visible, nested[i]);
  if (visible.length === 1) {
    push(log, 'target is a container; operating the one control inside it, a ' + strToLowerCase(elementTagName(visible[0])));
    return { el: visible[0], control: controlOf(visible[0]), fidelity: 'auto' };
  }
  push(log, 'target is not a native control and holds ' + visible.length + ' controls; synthetic events will be used');
  return { el, control: 'synthetic', fidelity: 'low' };
}

async function findAndMarkTarget(args) {
  const ref = splitRef(args.ref);
  const action = findAction(ref.id);
  if (!action) return answerOf({ ok: false, code: 'gone', reason: 'The action ' + ref.id + ' is no longer declared' });
  const capMs = args.capMs;
  inFlight.target = null;
  inFlight.drop = null;
  // Kept for this invocation: an action may undeclare itself as its effect (a dialog's button).
  inFlight.action = action;
  const availability = callAvailable(action, ref.record);
  if (!availability.available) return answerOf({ ok: false, code: 'unavailable', reason: availability.reason });
  if (action.kind === 'handoff') return answerOf({ ok: true, control: 'handoff', fidelity: 'high', log: [] });
  if (action.kind === 'flow') return answerOf({ ok: true, control: 'flow', fidelity: 'high', log: [] });
  if (!action.target) return answerOf({ ok: true, control: 'function', fidelity: 'high', log: [] });
  const log = [];
  const found = await visibleTarget(action, ref, args.ref, capMs, log);
  if (found.refusal) return found.refusal;
  const operated = operatedControl(found.el, action, log);
  const el = operated.el;
  const control = operated.control;
  const fidelity = operated.fidelity;
  if (control !== 'synthetic') {
    const disabled = disabledReason(el);
    if (disabled) return answerOf({ ok: false, code: 'unavailable', reason: 'The target of ' + args.ref + ' (a ' + strToLowerCase(elementTagName(el)) + ') ' + disabled, log });
  }
  if (action.gesture && action.gesture.commit && control !== 'text' && !action.gesture.type) {
    return answerOf({ ok: false, code: 'unavailable', reason: 'Its gesture ends a fill (commit), and its target (a ' + strToLowerCase(elementTagName(el)) + ') is not a text field; declare { type: true, commit } to type into it', log });
  }
  const point = action.gesture && action.gesture.at ? pointIn(el, action.gesture.at, args.args) : null;
  if (point && point.reason) return answerOf({ ok: false, code: 'unavailable', reason: point.reason, log });
  let drop = null;
  if (action.gesture && action.gesture.drag) {
    drop = await dropTarget(action, ref.record, args.args, capMs, log);
    if (drop.reason) return answerOf({ ok: false, code: 'unavailable', reason: drop.reason, log });
  }
  inFlight.target = el;
  // The controller finds the element by a one-time attribute, so it can operate it from Playwright's
  // own isolated world: nothing the page patched in its world can get in the way. `where` says how:
  // in this document (open shadow roots included), in a same-origin frame, or behind a closed
  // shadow root (only a handle to the element itself reaches it).
  const mark = randomName();
  try { elementSetAttribute(el, TARGET_ATTRIBUTE, mark); } catch (e) { return answerOf({ ok: false, code: 'unavailable', reason: 'The target cannot be marked: ' + errorText(e), log }); }
  const where = whereIs(el);
  const gesture = point ? { act: action.gesture.act, press: null, type: false, commit: null, drag: null, dragType: null, drop: null, at: point.at } : action.gesture;
  const answer = answerOf({ ok: true, control, fidelity, tag: strToLowerCase(elementTagName(el)), mark, where, gesture: gesture || null, log });
  if (drop) {
    // The destination carries a mark of its own, with the same attribute (observe.js: not a page change).
    if (where === 'closed_shadow' || whereIs(drop.el) !== where || nodeOwnerDocument(drop.el) !== nodeOwnerDocument(el)) {
      releaseTarget();
      return answerOf({ ok: false, code: 'unavailable', reason: 'The drag goes from and to elements Playwright cannot reach together (another frame, or a closed shadow root)', log });
    }
    inFlight.drop = drop.el;
    answer.drop = randomName();
    answer.dropId = drop.id;
    try { elementSetAttribute(drop.el, TARGET_ATTRIBUTE, answer.drop); } catch (e) { releaseTarget(); return answerOf({ ok: false, code: 'unavailable', reason: 'The drag destination cannot be marked: ' + errorText(e), log }); }
  }
  return answer;
}

// The point a `{ hover | click: { x, y } }` gesture goes to, px from the element's top left: each axis a
// number, or '{param}' the argument holding one; a point outside the element's box is refused (nothing runs).
function pointIn(el, at, args) {
  const x = axisValue(at.x, args);
  const y = axisValue(at.y, args);
  if (x === null || y === null) return { reason: 'The gesture goes to a point of its target, and the argument ' + (x === null ? at.x : at.y) + ' is not a number' };
  const rect = elementGetBoundingClientRect(el);
  if (x > rect.width || y > rect.height) {
    return { reason: 'The point (' + x + ', ' + y + ') is outside its target, which is ' + rect.width + ' x ' + rect.height + ' px' };
  }
  return { at: { x, y } };
}

function axisValue(v, args) {
  const value = typeof v === 'string' ? own(args, strSlice(v, 1, -1)) : v;
  return typeof value === 'number' && isFiniteNumber(value) && value >= 0 ? value : null;
}

// Where a drag gesture goes: the element of another record, `drag` naming its id, or '{param}' the
// argument that holds it; the record type is the gesture's `record`, else the action's own.
async function dropTarget(action, recordId, args, capMs, log) {
  let id = action.gesture.drag;
  if (id.length > 2 && strSlice(id, 0, 1) === '{' && strSlice(id, -1) === '}') {
    const name = strSlice(id, 1, -1);
    // '{record}' in a family: the record the invocation names (as in a flow's 'edit@{record}').
    const value = name === 'record' && recordId !== null ? recordId : own(args, name);
    if (typeof value === 'number' && isFiniteNumber(value)) id = StringCtor(value);
    else if (typeof value === 'string' && value) id = value;
    else return { reason: 'The drag goes onto the record named by the argument ' + name + ', and none was given' };
  }
  const type = action.gesture.dragType || action.record;
  if (!type) return { reason: 'Its drag gesture names no record type ({ drag, record: TYPE }) and the action acts on none' };
  const decl = findRecords(type);
  if (!decl || !decl.element) return { reason: 'The drag goes onto a ' + type + ' record, and no records of that type declare element(id)' };
  if (readRecordIds(decl).index[id] === undefined) return { reason: 'There is no ' + type + ' record ' + cut(id, 100) + ' to drag onto' };
  let el = recordElement(decl, id);
  if ((!el || !isVisible(el)) && decl.reveal) {
    try { await callWithin(decl.reveal, [id], capMs); await settle(now(), capMs); push(log, 'called reveal(' + id + ') for the drag destination'); } catch (e) { /* looked at again below */ }
    el = recordElement(decl, id);
  }
  if (!el) return { reason: 'The element of ' + type + ' ' + cut(id, 100) + ' (the drag destination) is not on the page' };
  if (!isVisible(el)) return { reason: 'The element of ' + type + ' ' + cut(id, 100) + ' (the drag destination) is hidden' };
  return { el, id };
}

function recordElement(decl, id) {
  try {
    const el = decl.element(id);
    return isElement(el) ? el : null;
  } catch (e) {
    return null;
  }
}

export const TARGET_ATTRIBUTE = 'data-pling-target';

export function releaseTarget() {
  const marked = [inFlight.target, inFlight.drop];
  inFlight.target = null;
  inFlight.drop = null;
  for (let i = 0; i < 2; i++) {
    if (!marked[i]) continue;
    try { elementRemoveAttribute(marked[i], TARGET_ATTRIBUTE); } catch (e) { /* gone with a re-render */ }
  }
  return answerOf({ ok: true });
}

export function takeBefore() {
  endPlainWatch();
  inFlight.since = now();
  inFlight.watch = startFeedbackWatch();
  inFlight.before = captureEvidence();
  return answerOf({ ok: true });
}

export function diffAgainstBefore() {
  const before = inFlight.before;
  const watch = stopFeedbackWatch();
  inFlight.before = null;
  inFlight.watch = null;
  if (!before) return answerOf({ ok: false, code: 'no_snapshot' });
  return answerOf({ ok: true, changed: diffEvidence(before, watch) });
}

// Without evidence the observer that counts mutations is on from the start mark too, until the
// expectation answers (expect.js): settling then takes the first frame after the action as the quiet
// one when nothing changed since (observe.js frameAfterAction), as with evidence on, instead of
// waiting for frames of its own. One such watch at a time: the next invocation's mark ends the last.
export function markStart() {
  endPlainWatch();
  inFlight.since = now();
  startObserving();
  inFlight.observed = true;
  return answerOf({ ok: true });
}

export function endPlainWatch() {
  if (!inFlight.observed) return;
  inFlight.observed = false;
  stopObserving();
}

// Why a control cannot be operated now, or null: `disabled` (itself or a disabled fieldset around it),
// aria-disabled="true" on it or an ancestor, or an `inert` subtree (across shadow roots too).
export function disabledReason(el) {
  try { if (elementMatches(el, ':disabled')) return 'is disabled'; } catch (e) { /* not a form control */ }
  let node = el;
  for (let depth = 0; node && depth < 1000; depth++) {
    if (nodeType(node) === 1) {
      if (elementGetAttribute(node, 'aria-disabled') === 'true') return node === el ? 'is aria-disabled' : 'is inside an aria-disabled element';
      if (elementHasAttribute(node, 'inert')) return 'is inside an inert subtree';
    }
    const parent = nodeParentNode(node);
    if (parent && nodeType(parent) === 11) {
      try { node = shadowRootHost(parent); } catch (e) { node = null; }  // a shadow root's host; a plain fragment ends the walk
    } else {
      node = parent;
    }
  }
  return null;
}

function whereIs(el) {
  try {
    if (nodeOwnerDocument(el) !== documentObject) return 'frame';
    let root = nodeGetRootNode(el);
    for (let depth = 0; root && root !== documentObject && depth < 100; depth++) {
      if (shadowRootMode(root) === 'closed') return 'closed_shadow';
      root = nodeGetRootNode(shadowRootHost(root));
    }
  } catch (e) { /* a detached or foreign node: the document locator will say it is gone */ }
  return 'document';
}

// The element being operated, for the controller to take a handle on when no selector reaches it
// (a closed shadow root). It is the page's own element: handing it back reveals nothing.
export function currentTarget() {
  return inFlight.target;
}
