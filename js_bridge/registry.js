// registry.js: the page-facing `window.pling`. Declarations become data once, here: static fields are
// copied and bounded, functions are kept to be called later. A malformed declaration is recorded as a
// problem (shown in the model) and a console warning; it never throws at the page.

import { version as BRIDGE_VERSION } from './operations.json';
import {
  MathMin, StringCtor, create, freeze, hasOwn, isArray, isFiniteNumber, keys, push, regexTest, strCharCodeAt,
  strIndexOf, strSlice,
} from './prelude.js';
import { LIMITS, bound, cut, errorText, newTally } from './bound.js';
import { own, registry, warn } from './declarations.js';
import { scheduleExport } from './export.js';
import { feedbackWatch, pollFeedback } from './observe.js';
import { pageProblems } from './problems.js';

const RISKS = { read: true, write: true, danger: true };
export let declarationSeq = 0;

function text(decl, name, max) {
  const value = own(decl, name);
  return typeof value === 'string' ? cut(value, max || 500) : null;
}

function fn(decl, name) {
  const value = own(decl, name);
  return typeof value === 'function' ? value : null;
}

function validId(value) {
  return typeof value === 'string' && value.length > 0 && value.length <= 128 && strIndexOf(value, '@') < 0;
}

// Adds `entry` to `list`, replacing one with the same key; the remover only removes this very entry,
// so a single-page app that re-declares on a route change cannot be undone by a stale remover.
export function add(list, entry, keyName) {
  entry.seq = ++declarationSeq;
  if (list === registry.actions) scheduleExport(); // export.js
  for (let i = 0; i < list.length; i++) {
    if (list[i][keyName] === entry[keyName]) { list[i] = entry; return remover(list, entry); }
  }
  push(list, entry);
  return remover(list, entry);
}

function remover(list, entry) {
  return function remove() {
    for (let i = 0; i < list.length; i++) {
      if (list[i] === entry) {
        for (let j = i; j < list.length - 1; j++) list[j] = list[j + 1];
        list.length -= 1;
        if (list === registry.actions) scheduleExport();
        return true;
      }
    }
    return false;
  };
}

function noop() { return false; }

function declarePage(decl) {
  const entry = { id: text(decl, 'id', 128), name: text(decl, 'name', 200) };
  registry.page = entry;
  return function remove() { if (registry.page === entry) { registry.page = null; return true; } return false; };
}

function declareRegion(decl) {
  const id = own(decl, 'id');
  if (!validId(id)) { warn('region', 'a region needs an id: a non-empty string without "@"'); return noop; }
  return add(registry.regions, {
    id,
    name: text(decl, 'name', 200),
    purpose: text(decl, 'purpose', 500),
    role: text(decl, 'role', 64),
    parent: text(decl, 'parent', 128),
    more: fn(decl, 'more'),
  }, 'id');
}

function declareRecords(decl) {
  const type = own(decl, 'type');
  if (!validId(type)) { warn('records', 'records need a type: a non-empty string without "@"'); return noop; }
  const list = fn(decl, 'list');
  if (!list) { warn('records ' + type, 'records need list(): a function returning the active set'); return noop; }
  const sensitive = create(null);
  const declared = own(decl, 'sensitive');
  if (isArray(declared)) {
    for (let i = 0; i < MathMin(declared.length, 100); i++) {
      if (typeof declared[i] === 'string') sensitive[declared[i]] = true;
    }
  }
  return add(registry.records, {
    type,
    region: text(decl, 'region', 128),
    list,
    id: fn(decl, 'id'),
    label: fn(decl, 'label'),
    fields: fn(decl, 'fields'),
    sensitive,
    element: fn(decl, 'element'),
    reveal: fn(decl, 'reveal'),
  }, 'type');
}

function declareState(decl) {
  const key = own(decl, 'key');
  if (!validId(key)) { warn('state', 'state needs a key: a non-empty string'); return noop; }
  const get = fn(decl, 'get');
  if (!get) { warn('state ' + key, 'state needs get(): a function returning the value'); return noop; }
  return add(registry.state, {
    key,
    description: text(decl, 'description', 500),
    get,
    sensitive: own(decl, 'sensitive') === true,
  }, 'key');
}

function timeoutOf(decl) {
  const value = own(decl, 'timeoutMs');
  return typeof value === 'number' && isFiniteNumber(value) && value > 0 ? MathMin(value, 600000) : null;
}

// Characters a person cannot see, or that reorder what they see (control, invisible and bidi): an
// action id holding one would pass for another ("pay" and "pay\u200b"), so it is not declared. The
// same set as the controller's plain.py, which shows them as [U+XXXX] marks to people.
const LOOKALIKE = /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]/;

const HEX = '0123456789ABCDEF';
function shownId(id) {
  let out = '';
  for (let i = 0; i < id.length && i < 128; i++) {
    const ch = strSlice(id, i, i + 1);
    const code = strCharCodeAt(id, i);
    out += regexTest(LOOKALIKE, ch)
      ? '[U+' + HEX[(code >> 12) & 15] + HEX[(code >> 8) & 15] + HEX[(code >> 4) & 15] + HEX[code & 15] + ']' : ch;
  }
  return out;
}

export function commonAction(decl, kind) {
  const id = own(decl, 'id');
  if (!validId(id)) { warn(kind, 'an action needs an id: a non-empty string without "@"'); return null; }
  if (regexTest(LOOKALIKE, id)) {
    warn(kind + ' ' + shownId(id), 'an action id may not hold an invisible, direction-changing or control character ' +
         '(it would pass for another id); the declaration is refused');
    return null;
  }
  const risk = own(decl, 'risk');
  if (risk !== undefined && !(typeof risk === 'string' && hasOwn(RISKS, risk))) warn('action ' + id, 'risk must be read, write or danger; treated as write');
  const params = own(decl, 'params');
  const paramsAcc = newTally();
  const record = own(decl, 'record');
  return {
    kind,
    id,
    description: text(decl, 'description', 500),
    region: text(decl, 'region', 128),
    record: typeof record === 'string' && record ? cut(record, 128) : null,
    risk: typeof risk === 'string' && hasOwn(RISKS, risk) ? risk : 'write',
    confirm: own(decl, 'confirm') === true,
    params: params !== undefined && params !== null ? bound(params, LIMITS.schema, paramsAcc) : null,
    paramsCut: paramsAcc.chars + paramsAcc.items + paramsAcc.keys + paramsAcc.depth + paramsAcc.errors > 0,
    timeoutMs: timeoutOf(decl),
    available: fn(decl, 'available'),
    reveal: fn(decl, 'reveal'),
    run: null,
    target: null,
    gesture: null,
    gestureProblem: null,
    expect: null,
    steps: null,
    done: null,
  };
}

// `gesture` (SPEC, "The page side"; the grammar is docs/adapters.md's gestures table):
//   'click' | 'dblclick' | 'focus' | 'hover'            the element itself, whatever control it is
//   { press: KEY }                                       a key on it (on a text field after the fill when a value is given)
//   { type: true, press?: KEY, commit?: C }              keystrokes one by one (needs a value)
//   { commit: C, press?: KEY }                           a fill that ends with C: 'blur' (default) | 'enter' | 'none'
//   { drag: ID | '{param}', record?: TYPE, drop?: D }    onto another record's element, let go at D:
//                                                        'past' (default: a quarter past its centre) | 'centre'
//   { hover: POINT } | { click: POINT }                  the pointer at a point of the element, POINT = { x, y }:
//                                                        px from its top left, each a number or '{param}'
// Normalised to { act, press, type, commit, drag, dragType, drop, at }; null: the control's own gesture. A
// malformed one is a declaration problem and makes the action unavailable with that reason (never
// the control's own gesture in its place: the page asked for something else).
const KEY_NAME = /^[A-Za-z0-9+]{1,40}$/;
const GESTURE_ACTS = { click: true, dblclick: true, focus: true, hover: true };
const GESTURE_KEYS = { press: true, type: true, commit: true, drag: true, record: true, drop: true, hover: true, click: true };
const COMMITS = { blur: true, enter: true, none: true };
const DROPS = { past: true, centre: true };

function gestureOf(decl) {
  const gesture = own(decl, 'gesture');
  if (gesture === undefined || gesture === null) return { gesture: null };
  if (typeof gesture === 'string') {
    return hasOwn(GESTURE_ACTS, gesture) ? { gesture: normalGesture({ act: gesture }) }
      : { problem: "gesture '" + cut(gesture, 40) + "' is not one of 'click', 'dblclick', 'focus', 'hover' or an object" };
  }
  if (typeof gesture !== 'object' || isArray(gesture)) return { problem: "gesture must be 'click', 'dblclick', 'focus', 'hover' or an object ({ press }, { type }, { commit }, { drag })" };
  let names;
  try { names = keys(gesture); } catch (e) { return { problem: 'gesture could not be read: ' + errorText(e) }; }
  for (let i = 0; i < names.length; i++) {
    if (!hasOwn(GESTURE_KEYS, names[i])) return { problem: 'gesture has an unknown key ' + cut(StringCtor(names[i]), 40) + ' (known: press, type, commit, drag, record, drop, hover, click)' };
  }
  if (hasOwn(gesture, 'hover') || hasOwn(gesture, 'click')) return pointGesture(gesture, names);
  const press = own(gesture, 'press');
  const type = own(gesture, 'type');
  const commit = own(gesture, 'commit');
  const drag = own(gesture, 'drag');
  const record = own(gesture, 'record');
  const drop = own(gesture, 'drop');
  if (press !== undefined && !(typeof press === 'string' && regexTest(KEY_NAME, press))) return { problem: "gesture's press must be a key name such as 'Enter', 'ArrowUp' or 'Control+A'" };
  if (type !== undefined && type !== true) return { problem: "gesture's type must be true (keystrokes one by one)" };
  if (commit !== undefined && !(typeof commit === 'string' && hasOwn(COMMITS, commit))) return { problem: "gesture's commit must be 'blur', 'enter' or 'none'" };
  if (drag !== undefined) {
    if (!(typeof drag === 'string' && drag && drag.length <= 256)) return { problem: "gesture's drag must be a record id, or '{param}' naming the argument that holds one" };
    if (press !== undefined || type !== undefined || commit !== undefined) return { problem: 'a drag gesture takes no press, type or commit' };
    if (record !== undefined && !validId(record)) return { problem: "gesture's record must be a record type" };
    if (drop !== undefined && !(typeof drop === 'string' && hasOwn(DROPS, drop))) return { problem: "gesture's drop must be 'past' (a quarter past the destination's centre) or 'centre'" };
  } else if (record !== undefined || drop !== undefined) {
    return { problem: "gesture's " + (record !== undefined ? 'record names the type of' : 'drop says where') + " the drag's destination: it goes with drag" };
  }
  if (press === undefined && type === undefined && commit === undefined && drag === undefined) return { problem: 'gesture is an empty object' };
  return { gesture: normalGesture({ press, type, commit, drag, dragType: record, drop }) };
}

function normalGesture(g) {
  return { act: g.act || null, press: g.press || null, type: g.type === true, commit: g.commit || null,
           drag: g.drag || null, dragType: g.dragType || null, drop: g.drop || null, at: g.at || null };
}

// { hover: POINT } or { click: POINT }, alone: the pointer goes to a point of the element rather than its
// centre (a page that answers where the pointer is: a map, a canvas, a hot-and-cold area).
const PARAM_REF = /^\{[A-Za-z_][A-Za-z0-9_]{0,63}\}$/;
function pointGesture(gesture, names) {
  if (names.length !== 1) return { problem: 'a hover or click at a point is alone in its gesture' };
  const act = names[0];
  const point = own(gesture, act);
  if (typeof point !== 'object' || point === null || isArray(point)) return { problem: "gesture's " + act + ' must be a point { x, y }' };
  let keysOf;
  try { keysOf = keys(point); } catch (e) { return { problem: "gesture's point could not be read: " + errorText(e) }; }
  const x = own(point, 'x');
  const y = own(point, 'y');
  const bad = !pointAxis(x) ? 'x' : !pointAxis(y) ? 'y' : null;
  if (bad) return { problem: "gesture's point needs " + bad + ": a number of px from the element's top left, or '{param}' naming the argument that holds it" };
  if (keysOf.length !== 2) return { problem: "gesture's point has x and y only" };
  return { gesture: normalGesture({ act, at: { x, y } }) };
}

function pointAxis(v) {
  return (typeof v === 'number' && isFiniteNumber(v) && v >= 0) || (typeof v === 'string' && regexTest(PARAM_REF, v));
}

function expectOf(decl, id) {
  const expect = own(decl, 'expect');
  if (expect === undefined || expect === null) return null;
  const check = typeof expect === 'function' ? expect : fn(expect, 'check');
  if (!check) { warn('action ' + id, 'expect needs check(): a function that returns true once the effect is visible'); return null; }
  return {
    description: typeof expect === 'function' ? null : text(expect, 'description', 500),
    check,
    timeoutMs: typeof expect === 'function' ? null : timeoutOf(expect),
  };
}

export function declareAction(decl) {
  const entry = commonAction(decl, 'action');
  if (!entry) return noop;
  entry.run = fn(decl, 'run');
  entry.target = fn(decl, 'target');
  if (!entry.run && !entry.target) { warn('action ' + entry.id, 'an action needs run() or target()'); return noop; }
  const gesture = gestureOf(decl);
  if (!entry.target && (gesture.gesture || gesture.problem)) {
    warn('action ' + entry.id, 'a gesture operates a target: this action has run() and no target(), so its gesture is ignored');
  } else if (gesture.problem) {
    warn('action ' + entry.id, gesture.problem + '; the action is unavailable until it is fixed');
    entry.gestureProblem = gesture.problem;
  } else {
    entry.gesture = gesture.gesture;
  }
  entry.expect = expectOf(decl, entry.id);
  return add(registry.actions, entry, 'id');
}

function declareFlow(decl) {
  const entry = commonAction(decl, 'flow');
  if (!entry) return noop;
  const steps = own(decl, 'steps');
  if (!isArray(steps) || steps.length === 0) { warn('flow ' + entry.id, 'a flow needs steps: a non-empty array'); return noop; }
  entry.steps = [];
  for (let i = 0; i < MathMin(steps.length, 50); i++) {
    const action = own(steps[i], 'action');
    if (typeof action !== 'string' || !action) { warn('flow ' + entry.id, 'step ' + (i + 1) + ' needs an action id'); return noop; }
    push(entry.steps, { action: cut(action, 300), args: bound(own(steps[i], 'args'), LIMITS.data, newTally()) });
  }
  entry.expect = expectOf(decl, entry.id);
  return add(registry.actions, entry, 'id');
}

function declareHandoff(decl) {
  const entry = commonAction(decl, 'handoff');
  if (!entry) return noop;
  entry.done = fn(decl, 'done');
  if (!entry.done) { warn('handoff ' + entry.id, 'a handoff needs done(): true once the person has done the step'); return noop; }
  entry.risk = 'read';
  return add(registry.actions, entry, 'id');
}

function declareFeedback(source) {
  if (typeof source !== 'function') { warn('feedback', 'feedback takes a function returning [{kind, text}]'); return noop; }
  const entry = { source };
  entry.seq = ++declarationSeq;
  push(registry.feedback, entry);
  if (feedbackWatch) pollFeedback(feedbackWatch);  // declared while an invocation is watched (observe.js)
  return remover(registry.feedback, entry);
}

// The operator may raise a page's risk, never lower it.
const RISK_ORDER = { read: 0, write: 1, danger: 2 };
const operatorRisk = create(null);

export function configure(arg) {
  const risks = own(arg, 'risks');
  if (risks && typeof risks === 'object') {
    const ids = keys(risks);
    for (let i = 0; i < ids.length; i++) if (typeof risks[ids[i]] === 'string' && hasOwn(RISKS, risks[ids[i]])) operatorRisk[ids[i]] = risks[ids[i]];
  }
  return { ok: true };
}

export function riskOf(action) {
  const raised = operatorRisk[action.id] || operatorRisk['*'];
  return raised && RISK_ORDER[raised] > RISK_ORDER[action.risk] ? raised : action.risk;
}

export const plingApi = freeze({
  version: BRIDGE_VERSION,
  page: declarePage,
  region: declareRegion,
  records: declareRecords,
  state: declareState,
  action: declareAction,
  flow: declareFlow,
  handoff: declareHandoff,
  feedback: declareFeedback,
  problems: pageProblems,  // problems.js: for the declaration package's dev check
});
