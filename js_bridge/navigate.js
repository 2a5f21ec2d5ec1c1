// navigate.js: actions that leave the document (SPEC: "Actions that leave the document"). Each
// document's bridge has its own id (`DOC_ID`), so the controller can tell a new document from the old
// one. When an invocation's document starts a cross-document navigation (the Navigation API's
// `navigate` event: a link, a form submission, a location change, a reload) the bridge says so
// (`leaving`, on the run and expect answers) and hands its before snapshot to the controller through
// a CDP binding, so the snapshot survives the document: the new document diffs against it
// (`diffFrom`). Nothing crosses unless a navigation starts while a before snapshot is held, so an
// action that stays in its document costs nothing more.

import {
  G, ReflectApply, StringCtor, answerOf, documentObject, documentTitle, eventTargetAddListener, getOwnDescriptor,
  getterOf, hasOwn, locationHref, setTimer, strSlice,
} from './prelude.js';
import { randomName } from './secrets.js';
import { plainJSON } from './bound.js';
import { registry } from './declarations.js';
import { carriedSnapshot, diffEvidence } from './evidence.js';
import { inFlight, markStart, takeBefore } from './reveal.js';

export const DOC_ID = randomName();
const CARRY_BINDING = '__plingCarry';
export let carry = null;
// Whether `carry` is the binding as the document started: taken before any script of the page's ran,
// so no page can have taken or wrapped it. Only then does a before snapshot leave through it.
let carryTrusted = false;
const navigationObject = G.navigation || null;
const navigateDestination = G.NavigateEvent ? getterOf(G.NavigateEvent.prototype, 'destination') : null;
const navigateDownload = G.NavigateEvent ? getterOf(G.NavigateEvent.prototype, 'downloadRequest') : null;
const destinationSameDocument = G.NavigationDestination ? getterOf(G.NavigationDestination.prototype, 'sameDocument') : null;
const eventDefaultPrevented = getterOf(Event.prototype, 'defaultPrevented');
export const documentReadyState = getterOf(Document.prototype, 'readyState');

// The controller's binding (Runtime.addBinding) is on the global before any script of a new document
// runs: take it and remove it, so the page's scripts never see it. In a document that loaded before
// the controller attached (a tab's first document: core/tabs.py) the binding arrives on a global the
// page's scripts already run on (an accessor of theirs may have taken it, a value of theirs replaced
// it); the controller then calls `adopt` at once, and what it finds carries the page's messages
// (interaction.js), never a before snapshot: the page could rewrite that, and with it the receipt's
// diff. Once a binding is taken, a later `adopt` keeps it (a page's later `__plingCarry` is not one).
function takeBinding() {
  try {
    const found = getOwnDescriptor(G, CARRY_BINDING);
    if (!found) return null;
    delete G[CARRY_BINDING];
    // An accessor is never called: only a page defines one.
    return hasOwn(found, 'value') && typeof found.value === 'function' ? found.value : null;
  } catch (e) { return null; /* no binding: the before snapshot cannot leave this document */ }
}

export function adoptCarry() {
  if (carry === null) carry = takeBinding();
  return answerOf({ ok: true, doc: DOC_ID, carry: carry !== null, trusted: carryTrusted });
}
carry = takeBinding();
carryTrusted = carry !== null;

function carryBefore() {
  if (!inFlight.before || inFlight.carried || !carry || !carryTrusted) return;
  inFlight.carried = true;
  try {
    // "carry:DOC\n" and diffFrom's argument as JSON: the controller keeps the text as it came and
    // hands it to the next document without parsing it (core/bridge.py). Made in the navigate event,
    // before the navigation starts: plainJSON, not toJSON (bound.js).
    ReflectApply(carry, G, ['carry:' + DOC_ID + '\n' + plainJSON({ before: inFlight.before })]);
  } catch (e) { /* the controller will say what changed is not known */ }
}

function onNavigate(event) {
  let leaving = true;
  try {
    if (destinationSameDocument && navigateDestination) leaving = !destinationSameDocument(navigateDestination(event));
    if (leaving && navigateDownload && navigateDownload(event) !== null) leaving = false;
  } catch (e) { leaving = true; }
  if (!leaving) return;
  inFlight.leaving = true;
  carryBefore();
  // A navigation the page cancels (preventDefault) does not leave; one it intercepts ends here with
  // navigatesuccess / navigateerror (below).
  setTimer(() => { try { if (eventDefaultPrevented(event)) inFlight.leaving = false; } catch (e) { /* gone */ } }, 0);
}

function stayed() {
  inFlight.leaving = false;
}

if (navigationObject) {
  try {
    eventTargetAddListener(navigationObject, 'navigate', onNavigate, true);
    eventTargetAddListener(navigationObject, 'navigatesuccess', stayed, true);
    eventTargetAddListener(navigationObject, 'navigateerror', stayed, true);
  } catch (e) { /* no Navigation API: pagehide below still carries the snapshot */ }
}
try { eventTargetAddListener(G, 'pagehide', () => { inFlight.leaving = true; carryBefore(); }, true); } catch (e) { /* no window */ }

// A resumed flow's start in whatever document it is resumed in: the before snapshot (evidence on) or
// the start mark, without looking the flow up (that document may not declare it).
export function begin(arg) {
  if (arg && arg.evidence === true) takeBefore(); else markStart();
  armLeaving();
  return answerOf({ ok: true, evidence: !!(arg && arg.evidence === true), doc: DOC_ID });
}

// Called when an invocation's pre-checks passed (reveal): nothing has left yet.
export function armLeaving() {
  inFlight.leaving = false;
  inFlight.carried = false;
  held = null;
}

// Run and expect answers say which document answered, and whether it is leaving.
export function withLeaving(value) {
  if (value && typeof value === 'object') {
    if (inFlight.leaving) value.leaving = true;
    value.doc = DOC_ID;
  }
  return value;
}

export function pageInfo() {
  let title = '';
  try { title = StringCtor(documentTitle(documentObject)); } catch (e) { title = ''; }
  return { id: registry.page ? registry.page.id : null, url: locationHref(), title: strSlice(title, 0, 300) };
}

// Which document this is, whether it declared itself, whether it is leaving.
export function whoami() {
  let ready = 'complete';
  try { ready = documentReadyState(documentObject); } catch (e) { ready = 'complete'; }
  const declared = registry.page !== null || registry.actions.length > 0 || registry.records.length > 0;
  return answerOf({ ok: true, doc: DOC_ID, page: pageInfo(), ready, declared, leaving: inFlight.leaving === true });
}

// The before snapshot another document carried out, as its argument gives it (an own `before`).
function carriedBefore(arg) {
  return arg && hasOwn(arg, 'before') ? carriedSnapshot(arg.before) : null;
}

function diffCarried(before) {
  const changed = diffEvidence(before, null);
  changed.page = { from: before.page || { id: null, url: '', title: '' }, to: pageInfo() };
  changed.observed = true;
  return answerOf({ ok: true, changed });
}

// The diff of this (new) document against the before snapshot another document carried out.
export function diffFrom(arg) {
  const before = carriedBefore(arg);
  return before ? diffCarried(before) : answerOf({ ok: false, code: 'no_snapshot' });
}

// The carried snapshot handed to this new document while it settles (`hold`: the controller sends it
// just after the settle call, so its transfer and parse take time the settle spends waiting for frames
// anyway); the expect call then diffs against it (expect.js withAfter names the key it was held under:
// a random one of the controller's, never a document's id, which a page can learn from whoami, since the
// entry point answers the page's own calls too). Dropped when an invocation starts here (armLeaving),
// so it never outlives the one that carried it.
let held = null;

export function hold(arg) {
  const before = carriedBefore(arg);
  if (!before || !hasOwn(arg, 'from') || typeof arg.from !== 'string') return answerOf({ ok: false, code: 'no_snapshot' });
  held = { from: arg.from, before };
  return answerOf({ ok: true });
}

// The diff against the snapshot held under `from`, if this document holds it (taken once).
export function diffHeld(from) {
  const kept = held;
  held = null;
  return kept !== null && kept.from === from ? diffCarried(kept.before) : null;
}
