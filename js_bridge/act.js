// act.js: the controller-facing operations of one invocation, in lifecycle order: resolve, prepare
// (availability and reveal), run or operate, expect. Each answers a tagged result; page errors are
// results, not exceptions.

const NATIVE_INPUT_SKIP = { hidden: true };
const CLICK_INPUTS = { button: true, submit: true, reset: true, image: true, file: true };

function splitRef(ref) {
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
    hasRun: !!action.run,
    hasTarget: !!action.target,
    expect: action.expect ? { description: action.expect.description, timeoutMs: action.expect.timeoutMs } : null,
    steps: action.steps ? steps : null,
  };
}

function describe(ref) {
  const parts = splitRef(ref);
  const action = findAction(parts.id);
  if (!action) return { ok: false, code: 'not_found', available: availableIds(100) };
  if (action.record && parts.record === null) return { ok: false, code: 'record_required', record: action.record, available: availableIds(100) };
  if (!action.record && parts.record !== null) return { ok: false, code: 'not_a_family', available: availableIds(100) };
  let record = null;
  if (action.record) {
    const decl = findRecords(action.record);
    if (!decl) return { ok: false, code: 'no_records', record: action.record, available: availableIds(100) };
    const set = readRecordIds(decl);
    const index = set.index[parts.record];
    if (index === undefined) return { ok: false, code: 'record_not_found', record: action.record, total: set.ids.length, available: availableIds(100) };
    record = { id: parts.record, type: action.record, label: recordLabel(decl, set.objects[index], parts.record, newAcc()) };
  }
  return { ok: true, action: actionData(action), record };
}

// The invocation in flight: the element to operate and the evidence to diff against.
const current = { target: null, action: null, before: null, watch: null, since: 0 };

function isElement(value) {
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

async function callWithin(fnToCall, args, ms) {
  let timer = null;
  const timeout = new PromiseCtor((resolve) => { timer = setTimer(() => resolve({ timedOut: true }), ms); });
  try {
    const result = ReflectApply(fnToCall, undefined, args);
    const settled = promiseThen(new PromiseCtor((resolve) => resolve(result)), (v) => ({ value: v }));
    return await new PromiseCtor((resolve, reject) => {
      promiseThen(settled, resolve, reject);
      promiseThen(timeout, resolve, reject);
    });
  } finally {
    clearTimer(timer);
  }
}

async function revealRecord(action, recordId, capMs) {
  let reveal = action.reveal;
  if (!reveal && action.record) {
    const decl = findRecords(action.record);
    reveal = decl && decl.reveal;
  }
  if (!reveal) return { revealed: false };
  const since = now();
  try {
    const result = await callWithin(reveal, [recordId], capMs);
    if (result.timedOut) return { revealed: false, error: 'reveal() did not finish within ' + capMs + ' ms' };
  } catch (e) {
    return { revealed: false, error: 'reveal() threw: ' + errorText(e) };
  }
  const settled = await settle(since, capMs);
  return { revealed: true, settled: settled.settled };
}

function findTarget(action, recordId) {
  let el;
  try {
    el = action.record ? action.target(recordId) : action.target();
  } catch (e) {
    return { error: 'target() threw: ' + errorText(e) };
  }
  if (!isElement(el)) return { missing: true };
  return { el, visible: isVisible(el) };
}

// The last pre-check: on success the before snapshot is taken here (or, without evidence, the start
// of the action is marked), so an invocation needs no separate call for it.
async function prepare(args) {
  const answer = await prepareTarget(args);
  if (answer.ok) {
    if (args.evidence === true) beginEvidence(); else markStart();
    answer.evidence = args.evidence === true;
  }
  return answer;
}

async function prepareTarget(args) {
  const ref = splitRef(args.ref);
  const action = findAction(ref.id);
  if (!action) return { ok: false, code: 'gone', reason: 'The action ' + ref.id + ' is no longer declared' };
  const capMs = args.capMs;
  current.target = null;
  // Kept for this invocation: an action may undeclare itself as its effect (a dialog's button).
  current.action = action;
  const availability = callAvailable(action, ref.record);
  if (!availability.available) return { ok: false, code: 'unavailable', reason: availability.reason };
  if (action.kind === 'handoff') return { ok: true, control: 'handoff', fidelity: 'high', log: [] };
  if (action.kind === 'flow') return { ok: true, control: 'flow', fidelity: 'high', log: [] };
  if (!action.target) return { ok: true, control: 'function', fidelity: 'high', log: [] };
  const log = [];
  let found = findTarget(action, ref.record);
  if (found.error) return { ok: false, code: 'unavailable', reason: 'The target could not be found: ' + found.error };
  if (!found.el || !found.visible) {
    push(log, found.el ? 'target is hidden' : 'target is not on the page');
    const revealed = await revealRecord(action, ref.record, capMs);
    if (revealed.error) push(log, revealed.error);
    else if (revealed.revealed) push(log, 'called reveal(' + (ref.record === null ? '' : ref.record) + ')' + (revealed.settled ? ' and the page settled' : ' (the page had not settled)'));
    if (revealed.revealed) found = findTarget(action, ref.record);
    if (found.error) return { ok: false, code: 'unavailable', reason: 'The target could not be found: ' + found.error, log };
    if (!found.el) return { ok: false, code: 'unavailable', reason: 'The target of ' + args.ref + ' is not on the page' + (revealed.revealed ? ', even after reveal()' : ' and nothing declares how to reveal it'), log };
    if (!found.visible) return { ok: false, code: 'unavailable', reason: 'The target of ' + args.ref + ' is hidden' + (revealed.revealed ? ', even after reveal()' : ' and nothing declares how to reveal it'), log };
  }
  let el = found.el;
  let control = controlOf(el);
  let fidelity = 'high';
  if (!control) {
    // A container: operate the one native control inside it, if there is exactly one.
    let nested = [];
    try { nested = elementQuerySelectorAll(el, NATIVE_SELECTOR); } catch (e) { nested = []; }
    const visible = [];
    for (let i = 0; i < nested.length; i++) if (isVisible(nested[i]) && controlOf(nested[i])) push(visible, nested[i]);
    if (visible.length === 1) {
      el = visible[0];
      control = controlOf(el);
      fidelity = 'auto';
      push(log, 'target is a container; operating the one control inside it, a ' + strToLowerCase(elementTagName(el)));
    } else {
      control = 'synthetic';
      fidelity = 'low';
      push(log, 'target is not a native control and holds ' + visible.length + ' controls; synthetic events will be used');
    }
  }
  current.target = el;
  // The controller finds the element by a one-time attribute, so it can operate it from Playwright's
  // own isolated world: nothing the page patched in its world can get in the way.
  const mark = randomName();
  try { elementSetAttribute(el, TARGET_ATTRIBUTE, mark); } catch (e) { return { ok: false, code: 'unavailable', reason: 'The target cannot be marked: ' + errorText(e), log }; }
  return { ok: true, control, fidelity, tag: strToLowerCase(elementTagName(el)), mark, log };
}

const TARGET_ATTRIBUTE = 'data-pling-target';

function releaseTarget() {
  const el = current.target;
  current.target = null;
  if (el) {
    try { elementRemoveAttribute(el, TARGET_ATTRIBUTE); } catch (e) { /* gone with a re-render */ }
  }
  return { ok: true };
}

function beginEvidence() {
  current.since = now();
  current.watch = startFeedbackWatch();
  current.before = captureEvidence();
  return { ok: true };
}

function endEvidence() {
  const before = current.before;
  const watch = stopFeedbackWatch();
  current.before = null;
  current.watch = null;
  if (!before) return { ok: false, code: 'no_snapshot' };
  return { ok: true, changed: diffEvidence(before, watch) };
}

function markStart() {
  current.since = now();
  return { ok: true };
}

async function runAction(args) {
  const ref = splitRef(args.ref);
  const action = findAction(ref.id);
  if (!action || !action.run) return { ok: false, code: 'gone', error: 'The action ' + ref.id + ' is no longer declared' };
  if (!current.before) current.since = now();
  let result;
  try {
    result = await callWithin(action.run, action.record ? [ref.record, args.args] : [args.args], args.timeoutMs);
  } catch (e) {
    return { ok: false, code: 'threw', error: errorText(e) };
  }
  if (result.timedOut) return { ok: false, code: 'timeout', error: 'run() did not finish within ' + args.timeoutMs + ' ms' };
  if (result.value === undefined) return { ok: true };
  const acc = newAcc();
  const data = bound(result.value, LIMITS.data, acc);
  const omitted = acc.chars + acc.items + acc.keys + acc.depth;
  return omitted ? { ok: true, data, omitted: { chars: acc.chars, items: acc.items, keys: acc.keys, depth: acc.depth } } : { ok: true, data };
}

// Low fidelity: the element is not a control Playwright can operate, so the page gets the events a
// click would produce, untrusted. The receipt says so.
function syntheticClick() {
  const el = current.target;
  releaseTarget();
  if (!el) return { ok: false, code: 'gone', error: 'The target is gone' };
  try {
    const init = { bubbles: true, cancelable: true, composed: true, view: G, button: 0 };
    eventTargetDispatch(el, new PointerEventCtor('pointerdown', init));
    eventTargetDispatch(el, new MouseEventCtor('mousedown', init));
    eventTargetDispatch(el, new PointerEventCtor('pointerup', init));
    eventTargetDispatch(el, new MouseEventCtor('mouseup', init));
    eventTargetDispatch(el, new MouseEventCtor('click', init));
  } catch (e) {
    return { ok: false, code: 'threw', error: errorText(e) };
  }
  return { ok: true };
}

function checkOnce(check, action, ref, args) {
  try {
    const value = action.record ? check(args, ref.record) : check(args);
    return { value };
  } catch (e) {
    return { error: errorText(e) };
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
    if (waited.timedOut) return { error: 'check() did not answer within ' + capMs + ' ms' };
    value = waited.value;
  }
  return { value: !!value };
}

// Polls the expectation until it holds or time runs out; then waits for the page to settle and
// checks once more, so an optimistic update that is rolled back is not reported as a success.
function invokedAction(id) {
  return current.action && current.action.id === id ? current.action : findAction(id);
}

async function expectEffect(args) {
  const ref = splitRef(args.ref);
  const action = invokedAction(ref.id);
  const settleCap = args.settleMs;
  if (!action) return { ok: false, code: 'gone', error: 'The action ' + ref.id + ' is no longer declared' };
  startObserving();
  try {
    const expect = action.expect;
    const since = current.since;
    if (!expect) {
      const settled = await settle(since, settleCap);
      return { ok: true, declared: false, settled };
    }
    const started = now();
    let polls = 0;
    let last = null;
    for (;;) {
      polls += 1;
      last = await checkHolds(expect.check, action, ref, args.args, MathMax(1, args.timeoutMs - (now() - started)));
      if (last.value === true) break;
      const elapsed = now() - started;
      if (elapsed >= args.timeoutMs) {
        return { ok: false, code: 'never', polls, ms: elapsed, error: last.error || null };
      }
      await nextChange(MathMin(20, args.timeoutMs - elapsed));
    }
    const heldAfter = now() - started;
    const settled = await settle(since, settleCap);
    const again = await checkHolds(expect.check, action, ref, args.args, 1000);
    if (again.value !== true) {
      return { ok: false, code: 'reverted', polls, ms: heldAfter, settled, error: again.error || null };
    }
    return { ok: true, declared: true, polls, ms: heldAfter, settled };
  } finally {
    stopObserving();
  }
}

function restore(names) {
  const values = create(null);
  for (let i = 0; i < names.length; i++) {
    const value = restoreSecret(names[i]);
    if (value !== null) values[names[i]] = value;
  }
  return { ok: true, values };
}

function handoffDone(ref) {
  const action = findAction(splitRef(ref).id);
  if (!action || !action.done) return { ok: false, code: 'gone', error: 'The handoff ' + ref + ' is no longer declared' };
  try {
    return { ok: true, done: !!action.done() };
  } catch (e) {
    return { ok: true, done: false, error: 'done() threw: ' + errorText(e) };
  }
}
