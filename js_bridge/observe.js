// observe.js: what the page is doing, so the runtime can tell when it has settled. Requests made with
// fetch and XMLHttpRequest are counted from the moment they start until they answer; DOM mutations
// are counted while an invocation is being observed. Nothing here changes what the page sees.

import {
  G, MathMax, MathMin, MessageChannelCtor, MutationObserverCtor, PromiseCtor, ReflectApply, answerOf,
  clearRepeat, create, documentObject, eventTargetAddListener, getterOf, keys, nativeRequestAnimationFrame,
  now, observerDisconnect, observerObserve, portOnMessageSet, portPostMessage, promiseThen, push, setRepeat,
  setTimer,
} from './prelude.js';
import { registry } from './declarations.js';
import { readFeedback } from './records.js';
import { TARGET_ATTRIBUTE } from './reveal.js';

const inflight = create(null);
let requestSeq = 0;
let mutationCount = 0;
let mutationListeners = [];

function requestStarted() {
  requestSeq += 1;
  const id = 'r' + requestSeq;
  inflight[id] = now();
  return id;
}

function requestEnded(id) {
  delete inflight[id];
  notifyMutationListeners();
}

function pendingSince(since) {
  const ids = keys(inflight);
  let n = 0;
  for (let i = 0; i < ids.length; i++) if (inflight[ids[i]] >= since) n += 1;
  return n;
}

(function trackRequests() {
  const nativeFetch = G.fetch;
  if (typeof nativeFetch === 'function') {
    const fetch = function fetch(input, init) {
      const id = requestStarted();
      let promise;
      try {
        promise = ReflectApply(nativeFetch, this === undefined || this === null ? G : this, arguments);
      } catch (e) {
        requestEnded(id);
        throw e;
      }
      try {
        promiseThen(promise, () => requestEnded(id), () => requestEnded(id));
      } catch (e) {
        requestEnded(id);
      }
      return promise;
    };
    try { G.fetch = fetch; } catch (e) { /* a frozen global: requests go uncounted */ }
  }
  // A fetch answers with its headers; the body comes later. Reading a body counts as a request of
  // its own, so a page that decides what to do from `await res.json()` is waited for too.
  const ResponseCtor = G.Response;
  if (typeof ResponseCtor === 'function') {
    const bodyReaders = ['json', 'text', 'arrayBuffer', 'blob', 'formData', 'bytes'];
    for (let i = 0; i < bodyReaders.length; i++) {
      const name = bodyReaders[i];
      const native = ResponseCtor.prototype[name];
      if (typeof native !== 'function') continue;
      const reader = {
        [name]() {
          const id = requestStarted();
          let promise;
          try {
            promise = ReflectApply(native, this, arguments);
          } catch (e) {
            requestEnded(id);
            throw e;
          }
          try { promiseThen(promise, () => requestEnded(id), () => requestEnded(id)); } catch (e) { requestEnded(id); }
          return promise;
        },
      }[name];
      try { ResponseCtor.prototype[name] = reader; } catch (e) { /* frozen: bodies go uncounted */ }
    }
  }
  const XHR = G.XMLHttpRequest;
  if (typeof XHR === 'function') {
    const nativeSend = XHR.prototype.send;
    XHR.prototype.send = function send(body) {
      const id = requestStarted();
      try {
        eventTargetAddListener(this, 'loadend', () => requestEnded(id), { once: true });
      } catch (e) {
        requestEnded(id);
      }
      try {
        return ReflectApply(nativeSend, this, arguments);
      } catch (e) {
        requestEnded(id);
        throw e;
      }
    };
  }
})();

// One observer for the document, connected while something listens; it counts mutations and wakes
// whoever waits for the page to change.
let observer = null;

function notifyMutationListeners() {
  const listeners = mutationListeners;
  mutationListeners = [];
  for (let i = 0; i < listeners.length; i++) {
    try { listeners[i](); } catch (e) { /* a listener is ours; keep the others going */ }
  }
}

const mutationType = getterOf(MutationRecord.prototype, 'type');
const mutationAttributeName = getterOf(MutationRecord.prototype, 'attributeName');

// The bridge's own marks (the target's one-time attribute, set by reveal and taken off after the
// gesture) are not the page changing.
function onlyOurMarks(records) {
  try {
    for (let i = 0; i < records.length; i++) {
      if (mutationType(records[i]) !== 'attributes' || mutationAttributeName(records[i]) !== TARGET_ATTRIBUTE) return false;
    }
    return records.length > 0;
  } catch (e) {
    return false;
  }
}

function onMutations(records) {
  if (onlyOurMarks(records)) return;
  mutationCount += 1;
  if (feedbackWatch) watchFeedback(feedbackWatch);
  notifyMutationListeners();
}

let observing = 0;
export function startObserving() {
  observing += 1;
  if (observer) return;
  try {
    observer = new MutationObserverCtor(onMutations);
    observerObserve(observer, documentObject, { subtree: true, childList: true, attributes: true, characterData: true });
  } catch (e) {
    observer = null;
  }
}

export function stopObserving() {
  observing = MathMax(0, observing - 1);
  if (observing === 0 && observer) {
    try { observerDisconnect(observer); } catch (e) { /* already gone */ }
    observer = null;
  }
}

function sleep(ms) {
  return new PromiseCtor((resolve) => setTimer(resolve, ms));
}

// Resolves on the next DOM mutation or request end, or after `ms`, whichever comes first.
export function nextChange(ms) {
  return new PromiseCtor((resolve) => {
    let done = false;
    const finish = () => { if (!done) { done = true; resolve(); } };
    push(mutationListeners, finish);
    setTimer(finish, ms);
  });
}

// A macrotask turn without the 4 ms clamp of nested timers.
const tickChannel = new MessageChannelCtor();
let tickWaiters = [];
ReflectApply(portOnMessageSet, tickChannel.port1, [() => {
  const waiters = tickWaiters;
  tickWaiters = [];
  for (let i = 0; i < waiters.length; i++) waiters[i]();
}]);
function tick() {
  return new PromiseCtor((resolve) => {
    push(tickWaiters, resolve);
    if (tickWaiters.length === 1) portPostMessage(tickChannel.port2, null);
  });
}

// Resolves true when a frame rendered, false when the wait ran out first (a loaded machine, a
// compositor that is late or stopped): only a rendered frame is counted as one.
function animationFrame(capMs) {
  return new PromiseCtor((resolve) => {
    let done = false;
    const finish = (rendered) => { if (!done) { done = true; resolve(rendered); } };
    try { ReflectApply(nativeRequestAnimationFrame, G, [() => finish(true)]); } catch (e) { /* no frames */ }
    setTimer(() => finish(false), capMs);
  });
}

// Work the page queued for later: animation frames, and timers of at most 500 ms (a debounced save,
// a render after a fetch). Settling waits for what was queued since the action began: timers until
// they fire (and the timers those queue, two generations deep, so a polling loop does not hold the
// receipt), animation frames for a few rounds (an endless animation neither). All of it capped.
const queuedWork = create(null);
const SHORT_TIMER_MS = 500;
const TIMER_GENERATIONS = 2;
let timerGeneration = 0;

(function trackQueuedWork() {
  const wrapScheduler = (name, cancelName, track, isTimer) => {
    const schedule = G[name];
    const cancel = G[cancelName];
    if (typeof schedule !== 'function') return;
    const wrapped = {
      [name](callback, delay) {
        if (typeof callback !== 'function' || !track(delay)) return ReflectApply(schedule, G, arguments);
        let key = null;
        const args = arguments;
        const generation = timerGeneration;
        args[0] = function () {
          if (key !== null) delete queuedWork[key];
          const outer = timerGeneration;
          timerGeneration = isTimer ? generation + 1 : outer;
          try {
            return ReflectApply(callback, this, arguments);
          } finally {
            timerGeneration = outer;
          }
        };
        const id = ReflectApply(schedule, G, args);
        key = name + id;
        queuedWork[key] = { at: now(), timer: isTimer, generation };
        return id;
      },
    }[name];
    try { G[name] = wrapped; } catch (e) { return; }
    if (typeof cancel === 'function') {
      try {
        G[cancelName] = {
          [cancelName](id) {
            delete queuedWork[name + id];
            return ReflectApply(cancel, G, arguments);
          },
        }[cancelName];
      } catch (e) { /* a frozen global: cancelled work is forgotten when it would have run */ }
    }
  };
  wrapScheduler('requestAnimationFrame', 'cancelAnimationFrame', () => true, false);
  wrapScheduler('setTimeout', 'clearTimeout', (delay) => !(delay > SHORT_TIMER_MS), true);
})();

// What was queued since `since` and is still due: frames, and timers within the generations waited for.
function queuedSince(since) {
  const ids = keys(queuedWork);
  const out = { frames: 0, timers: 0 };
  for (let i = 0; i < ids.length; i++) {
    const work = queuedWork[ids[i]];
    if (work.at < since) continue;
    if (!work.timer) out.frames += 1;
    else if (work.generation <= TIMER_GENERATIONS) out.timers += 1;
  }
  return out;
}

const QUEUED_ROUNDS = 3;

// The first frame after an action's effect (a direct click reaching its target, run() answering),
// asked for at once: when it has rendered, with a task after it, before settling begins and nothing
// changed since, that frame is the quiet one settling waits for, and no other is awaited. Only while
// the observer that counts mutations has been on all along (evidence on), so none went uncounted.
let afterAction = null;
export function frameAfterAction() {
  if (!observer) return;
  const mark = { observer, at: -1, count: -1, rendered: false };
  afterAction = mark;
  try {
    ReflectApply(nativeRequestAnimationFrame, G, [() => {
      mark.at = now();
      mark.count = mutationCount;
      promiseThen(tick(), () => { mark.rendered = true; });
    }]);
  } catch (e) { afterAction = null; }
}

function renderedAfterAction(since) {
  const mark = afterAction;
  afterAction = null;
  return !!mark && mark.rendered && mark.at >= since && mark.observer === observer && mark.count === mutationCount;
}

// Settled: no request started since `since` is still waiting for its answer, a rendering frame plus a
// task went by without a DOM mutation, no timer queued since `since` is still due, and no frame
// either (waited for at most a few rounds). Capped; the answer says whether it settled and, if not,
// what was still pending.
export async function settle(since, capMs) {
  startObserving();
  const started = now();
  let rounds = 0;
  let frames = 0;
  try {
    if (renderedAfterAction(since)) {
      const queued = queuedSince(since);
      if (pendingSince(since) === 0 && queued.timers === 0 && queued.frames === 0) {
        return answerOf({ settled: true, ms: 0, frames: 0 });
      }
    }
    let lastFrame = started;
    for (;;) {
      const before = mutationCount;
      const rendered = await animationFrame(20);
      await tick();
      if (rendered) { frames += 1; lastFrame = now(); }
      // A wait that ran out is not a frame: the page's own frame callbacks have not run, and a round
      // counted for it would settle before them. Frames that do not come for half the cap are taken as
      // not coming at all (the round then counts, as a rendered one would).
      const framed = rendered || now() - lastFrame >= capMs / 2;
      const pending = pendingSince(since);
      const queued = queuedSince(since);
      const quiet = mutationCount === before;
      if (framed && pending === 0 && quiet && queued.timers === 0 && (queued.frames === 0 || rounds >= QUEUED_ROUNDS)) {
        return answerOf({ settled: true, ms: now() - started, frames });
      }
      const elapsed = now() - started;
      if (elapsed >= capMs) return answerOf({ settled: false, ms: elapsed, frames, pending, timers: queued.timers });
      if (!quiet || pending > 0) rounds = 0;
      else if (framed) rounds += 1;
      if (pending > 0) await nextChange(MathMin(50, MathMax(1, capMs - elapsed)));
    }
  } finally {
    stopObserving();
  }
}

// Feedback watch: while an invocation runs, every feedback entry the page shows is remembered, so a
// toast that lives for 80 ms is in the receipt even if it is gone before the after snapshot.
export let feedbackWatch = null;

export function feedbackKey(entry) {
  return entry.kind + '\u0000' + entry.text;
}

// Feedback is told apart by appearance, not by text: a toast that shows again with the same text (or
// a second copy beside the first) is a new appearance. The watch keeps how many of each entry were
// shown at the last look; every rise is an appearance, even if it is gone by the end of the action.
export function feedbackCounts(entries) {
  const counts = create(null);
  for (let i = 0; i < entries.length; i++) {
    const key = feedbackKey(entries[i]);
    counts[key] = (counts[key] || 0) + 1;
  }
  return counts;
}

function watchFeedback(watch) {
  const entries = readFeedback(null);
  const counts = feedbackCounts(entries);
  if (watch.last === null) { watch.last = counts; return; }
  for (let i = 0; i < entries.length; i++) {
    const key = feedbackKey(entries[i]);
    const was = watch.last[key] || 0;
    const seen = watch.risen[key] || 0;
    if (counts[key] - was > seen) {
      watch.risen[key] = seen + 1;
      push(watch.appeared, entries[i]);
    }
  }
  watch.risen = create(null);
  watch.last = counts;
}

// Feedback a source computes without touching the DOM is looked at every 16 ms as well, but only
// while the page declares a source: with none, the timer would wake the page ~60 times a second for
// nothing for as long as the invocation is in flight (with 16 sessions busy on 2 cores that is
// hundreds of ms, ~2.6 ms of renderer CPU per invocation). A source declared during the action
// starts it (registry.js).
export function pollFeedback(watch) {
  if (watch.timer === null && registry.feedback.length > 0) watch.timer = setRepeat(() => watchFeedback(watch), 16);
}

export function startFeedbackWatch() {
  stopFeedbackWatch();
  const watch = { last: null, risen: create(null), appeared: [], timer: null };
  feedbackWatch = watch;
  watchFeedback(watch);
  startObserving();
  pollFeedback(watch);
  return watch;
}

export function stopFeedbackWatch() {
  const watch = feedbackWatch;
  if (!watch) return null;
  watchFeedback(watch);
  if (watch.timer !== null) clearRepeat(watch.timer);
  feedbackWatch = null;
  stopObserving();
  return watch;
}

// A read settles without a frame where it wrote nothing (known.js, issue 31): nothing to render, so
// nothing to wait for. `mutationMark()` is taken before run(); quiet since then: the same observer was
// on all along (evidence on) and counted no mutation, no request started since `since` is still
// waiting, and no timer or frame queued since is due. Otherwise settle() waits as for any action.
export function mutationMark() {
  return { observer, count: mutationCount };
}

export function quietSince(since, mark) {
  if (!mark || !observer || mark.observer !== observer || mark.count !== mutationCount) return false;
  if (pendingSince(since) !== 0) return false;
  const queued = queuedSince(since);
  return queued.timers === 0 && queued.frames === 0;
}
