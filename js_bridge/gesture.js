// gesture.js: the direct path of a trusted click. When reveal has found the target visible and enabled,
// `aim` scrolls it into view if it is not, takes the centre of its first box and hit-tests that point;
// the controller then sends a trusted click there (no actionability waits of Playwright's: this call
// made them unnecessary). Between the hit test and the click the page may move: a guard on the
// window, in the capture phase before any listener of the page's, lets the click's events through only
// when the first of them lands in the target, and swallows them otherwise, so a click meant for the
// target never reaches another element. `landed` says which it was; missed, nothing ran and the
// controller falls back to Playwright's own actionability checks.

import {
  G, ReflectApply, answerOf, documentObject, elementTagName, eventTargetAddListener, getOwnDescriptor,
  getterOf, nodeParentNode, nodeType, now, shadowRootHost, strToLowerCase, uncurry,
} from './prelude.js';
import { errorText } from './bound.js';
import { DOC_ID } from './navigate.js';
import { frameAfterAction } from './observe.js';
import { inFlight, releaseTarget } from './reveal.js';

const documentElementFromPoint = uncurry(Document.prototype.elementFromPoint);
const shadowElementFromPoint = ShadowRoot.prototype.elementFromPoint ? uncurry(ShadowRoot.prototype.elementFromPoint) : null;
export const elementShadowRoot = getterOf(Element.prototype, 'shadowRoot');
const elementGetClientRects = uncurry(Element.prototype.getClientRects);
const elementScrollIntoView = uncurry(Element.prototype.scrollIntoView);
const nodeContains = uncurry(Node.prototype.contains);
// isTrusted is an unforgeable own accessor of every event: its getter is read from the event itself.
export const eventIsTrusted = (event) => {
  try { return ReflectApply(getOwnDescriptor(event, 'isTrusted').get, event, []) === true; } catch (e) { return false; }
};
export const eventComposedPath = uncurry(Event.prototype.composedPath);
export const eventPreventDefault = uncurry(Event.prototype.preventDefault);
export const eventStopImmediate = uncurry(Event.prototype.stopImmediatePropagation);
const eventType = getterOf(Event.prototype, 'type');
const checkedOf = getterOf(HTMLInputElement.prototype, 'checked');
const windowGetter = (name) => {
  const d = getOwnDescriptor(G, name) || getOwnDescriptor(Object.getPrototypeOf(G), name);
  const get = d && d.get;
  return () => (get ? ReflectApply(get, G, []) : 0);
};
const viewportWidth = windowGetter('innerWidth');
const viewportHeight = windowGetter('innerHeight');
const GUARD_MS = 10000;  // a guard nobody asked about (the controller's click failed) lapses

// Chromium's input events are dispatched in this order for a click; the first decides for all of them.
const GUARDED = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'];
let guard = null;  // {el, at, decided: null | 'landed' | 'missed', events, clicked}

function guardEvent(event) {
  const armed = guard;
  if (!armed || !eventIsTrusted(event)) return;
  if (now() - armed.at > GUARD_MS) { guard = null; return; }
  if (armed.decided === null) armed.decided = pathHolds(eventComposedPath(event), armed.el) ? 'landed' : 'missed';
  armed.events += 1;
  if (armed.decided === 'missed') {
    eventStopImmediate(event);
    eventPreventDefault(event);
  }
  if (eventType(event) === 'click') {
    armed.clicked = true;
    if (armed.decided === 'landed') frameAfterAction();  // observe.js: the frame that renders its effect
  }
}

for (let i = 0; i < GUARDED.length; i++) {
  try { eventTargetAddListener(G, GUARDED[i], guardEvent, true); } catch (e) { /* no window: no direct path */ }
}

export function pathHolds(path, el) {
  for (let i = 0; i < path.length; i++) if (path[i] === el) return true;
  return false;
}

// The element at a viewport point, through open shadow roots (a closed one hides its inside: the
// direct path is not taken there).
export function deepElementFromPoint(x, y) {
  let hit = documentElementFromPoint(documentObject, x, y);
  for (let depth = 0; hit && shadowElementFromPoint && depth < 32; depth++) {
    const root = elementShadowRoot(hit);
    if (!root) break;
    const inner = shadowElementFromPoint(root, x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

// Whether `hit` is the target or inside it (across open shadow roots: a slotted child is inside its host).
function hits(el, hit) {
  for (let node = hit, depth = 0; node && depth < 1000; depth++) {
    if (node === el) return true;
    const parent = nodeParentNode(node);
    node = parent && nodeType(parent) === 11 ? shadowRootHost(parent) : parent;
  }
  try { return nodeContains(el, hit); } catch (e) { return false; }
}

function firstBox(el) {
  const rects = elementGetClientRects(el);
  for (let i = 0; i < rects.length; i++) if (rects[i].width > 0 && rects[i].height > 0) return rects[i];
  return null;
}

function inView(box, width, height) {
  return box.top >= 0 && box.left >= 0 && box.bottom <= height && box.right <= width;
}

// Where to click the target reveal marked, or why the direct path is not taken ({why}). Called by
// reveal in the same call, before the before snapshot.
export function aim() {
  const el = inFlight.target;
  guard = null;
  if (!el) return answerOf({ why: 'the target is gone' });
  try {
    const width = viewportWidth();
    const height = viewportHeight();
    let box = firstBox(el);
    if (!box) return answerOf({ why: 'the target has no box' });
    let scrolled = false;
    if (!inView(box, width, height)) {
      const options = answerOf({ block: 'center', inline: 'center', behavior: 'instant' });
      elementScrollIntoView(el, options);
      scrolled = true;
      box = firstBox(el);
      if (!box || !inView(box, width, height)) return answerOf({ why: 'the target does not fit in the viewport' });
    }
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const hit = deepElementFromPoint(x, y);
    if (!hit || !hits(el, hit)) {
      return answerOf({ why: 'another element covers its centre (' + (hit ? strToLowerCase(elementTagName(hit)) : 'nothing') + ')' });
    }
    guard = { el, at: now(), decided: null, events: 0, clicked: false };
    const answer = answerOf({ x, y, scrolled });
    try { answer.checked = checkedOf(el); } catch (e) { /* not an input */ }
    return answer;
  } catch (e) {
    return answerOf({ why: 'it could not be measured: ' + errorText(e) });
  }
}

// After the controller's click: whether its events reached the target (then the target is released,
// as `release` does) or were swallowed (the target stays marked for Playwright's fallback). `doc`
// tells the controller which document answered: another one means the click navigated.
export function landed() {
  const armed = guard;
  guard = null;
  if (!armed) return answerOf({ ok: true, landed: 'unarmed', events: 0, doc: DOC_ID });
  const answer = answerOf({ ok: true, landed: armed.decided || 'nowhere', events: armed.events, clicked: armed.clicked, doc: DOC_ID });
  if (armed.decided === 'landed') {
    try { answer.checked = checkedOf(armed.el); } catch (e) { /* not an input */ }
    releaseTarget();
  }
  return answer;
}
