// model.js: the bounded model an agent reads. Ids for the whole active set (up to a cap), items with
// fields for a window of it, every omission counted.

import {
  G, MathFloor, MathMax, MathMin, StringCtor, create, documentObject, documentTitle, isArray, isFiniteNumber,
  jsonStringify, locationHref, push,
} from './prelude.js';
import { LIMITS, bound, cut, errorText, newTally, utf8Length } from './bound.js';
import { own, registry } from './declarations.js';
import { plingApi, riskOf } from './registry.js';
import { adapterModel } from './adapters.js';
import { fitToBudget } from './budget.js';
import { callAvailable, readFeedback, readRecordIds, recordItem, stateValue } from './records.js';

// idBytes and maxBytes are bytes of UTF-8 JSON, as the model leaves the service.
const MODEL_DEFAULTS = { offset: 0, limit: 50, idCap: 10000, idBytes: 120000, maxActions: 300, maxRegions: 200, maxTypes: 100,
                         maxProblems: 100, maxBytes: 250000 };

function option(opts, name) {
  const value = own(opts, name);
  return typeof value === 'number' && isFiniteNumber(value) && value >= 0 ? MathFloor(value) : MODEL_DEFAULTS[name];
}

function familyCounts() {
  const counts = create(null);
  const actions = registry.actions;
  for (let i = 0; i < actions.length; i++) {
    const region = actions[i].region;
    if (region) counts[region] = (counts[region] || 0) + 1;
  }
  return counts;
}

function actionInfo(action, recordSets) {
  const info = { id: action.id, description: action.description, region: action.region, risk: riskOf(action) };
  if (action.title) info.title = action.title;
  if (action.kind !== 'action') info.kind = action.kind;
  if (action.record) info.record = action.record;
  if (action.params) info.params = action.params;
  if (action.confirm) info.confirm = true;
  if (action.kind === 'flow') {
    const steps = [];
    for (let i = 0; i < action.steps.length; i++) push(steps, action.steps[i].action);
    info.steps = steps;
  }
  if (action.record) {
    const set = recordSets[action.record];
    if (!set) {
      info.available = false;
      info.reason = 'No records of type ' + action.record + ' are declared';
    } else if (set.ids.length === 0) {
      info.available = false;
      info.reason = 'There are no ' + action.record + ' records';
    } else {
      info.available = true;
    }
  } else {
    const availability = callAvailable(action);
    info.available = availability.available;
    if (!availability.available) info.reason = availability.reason;
  }
  return info;
}

// What the caller asked to see: a window of items (`offset`/`limit`, or `ids`; `type` narrows the
// window to one type) and how many ids at most.
function modelWindow(opts) {
  return {
    offset: option(opts, 'offset'),
    limit: MathMin(option(opts, 'limit'), 1000),
    type: typeof own(opts, 'type') === 'string' ? own(opts, 'type') : null,
    ids: isArray(own(opts, 'ids')) ? own(opts, 'ids') : null,
    idCap: option(opts, 'idCap'),
  };
}

// The ids of the active set, up to the cap in count and in bytes.
function cappedIds(set, idCap) {
  const ids = [];
  let bytes = 0;
  for (let i = 0; i < set.ids.length && i < idCap; i++) {
    bytes += utf8Length(jsonStringify(set.ids[i])) + 1;
    if (bytes > MODEL_DEFAULTS.idBytes) break;
    push(ids, set.ids[i]);
  }
  return ids;
}

// Which records of the set the window shows, by index: by default `offset`/`limit` for every type;
// `type` narrows them to one type.
function windowIndexes(decl, set, win) {
  const indexes = [];
  const mine = !win.type || win.type === decl.type;
  if (win.ids && mine) {
    for (let i = 0; i < win.ids.length && i < 1000; i++) {
      const index = set.index[win.ids[i]];
      if (index !== undefined) push(indexes, index);
    }
    return indexes;
  }
  const start = mine ? win.offset : 0;
  const count = mine ? win.limit : MODEL_DEFAULTS.limit;
  for (let i = start; i < set.ids.length && i < start + count; i++) push(indexes, i);
  return indexes;
}

// One record type's entry: its ids, the window's items, what is left out. Families whose availability
// depends on the record say so per item, only when unavailable.
function recordEntry(decl, set, win, tally) {
  const total = set.ids.length;
  const ids = cappedIds(set, win.idCap);
  const families = [];
  for (let i = 0; i < registry.actions.length; i++) {
    const action = registry.actions[i];
    if (action.record === decl.type && action.available) push(families, action);
  }
  const indexes = windowIndexes(decl, set, win);
  const items = [];
  for (let k = 0; k < indexes.length; k++) {
    const i = indexes[k];
    const item = recordItem(decl, set.objects[i], set.ids[i], tally);
    for (let f = 0; f < families.length; f++) {
      const availability = callAvailable(families[f], set.ids[i]);
      if (!availability.available) {
        if (!item.unavailable) item.unavailable = create(null);
        item.unavailable[families[f].id] = availability.reason;
      }
    }
    push(items, item);
  }
  const entry = { total, ids, items, omitted: { ids: total - ids.length, items: total - items.length } };
  if (indexes.length && indexes[0] > 0) entry.offset = indexes[0];
  return entry;
}

// Records first: actions and regions count against them.
function modelRecords(win, problems, tally) {
  const read = { sets: create(null), records: create(null), shown: create(null), total: create(null),
                 typeCount: MathMin(registry.records.length, MODEL_DEFAULTS.maxTypes) };
  for (let r = 0; r < read.typeCount; r++) {
    const decl = registry.records[r];
    const set = readRecordIds(decl);
    read.sets[decl.type] = set;
    for (let i = 0; i < set.problems.length; i++) push(problems, { where: 'records ' + decl.type, problem: set.problems[i] });
    const entry = recordEntry(decl, set, win, tally);
    read.records[decl.type] = entry;
    if (decl.region) {
      read.shown[decl.region] = (read.shown[decl.region] || 0) + entry.items.length;
      read.total[decl.region] = (read.total[decl.region] || 0) + entry.total;
    }
  }
  return read;
}

function modelRegions(read, problems, tally) {
  const actionCounts = familyCounts();
  const regions = [];
  for (let i = 0; i < registry.regions.length && i < MODEL_DEFAULTS.maxRegions; i++) {
    const region = registry.regions[i];
    // Every key is an own property from the start, so a polluted Object.prototype is never read.
    const info = { id: region.id, name: region.name, purpose: region.purpose, role: region.role, parent: region.parent,
                   actions: actionCounts[region.id] || 0, records: undefined, more: null };
    if (read.total[region.id] !== undefined) info.records = { shown: read.shown[region.id], total: read.total[region.id] };
    if (region.more) {
      try {
        const more = region.more();
        if (more !== null && more !== undefined) info.more = bound(more, LIMITS.field, tally);
      } catch (e) {
        push(problems, { where: 'region ' + region.id, problem: 'more() threw: ' + errorText(e) });
      }
    }
    push(regions, info);
  }
  return regions;
}

function modelActions(recordSets, problems) {
  const actions = [];
  for (let i = 0; i < registry.actions.length && i < MODEL_DEFAULTS.maxActions; i++) {
    const action = registry.actions[i];
    push(actions, actionInfo(action, recordSets));
    if (action.paramsCut) push(problems, { where: 'action ' + action.id, problem: 'params is larger than the model shows; it was cut' });
  }
  return actions;
}

function modelState(problems, tally) {
  const state = create(null);
  for (let i = 0; i < registry.state.length && i < 200; i++) {
    const entry = registry.state[i];
    const read = stateValue(entry, tally);
    if (read.error) push(problems, { where: 'state ' + entry.key, problem: read.error });
    state[entry.key] = { value: read.error ? null : read.value, description: entry.description };
  }
  return state;
}

function modelFeedback(problems) {
  const feedbackProblems = [];
  const feedback = readFeedback(feedbackProblems);
  for (let i = 0; i < feedbackProblems.length; i++) push(problems, { where: 'feedback', problem: feedbackProblems[i] });
  return feedback;
}

// The page itself: its declared id and name, address and title; page.adapter only where an
// operator's adapter ran (an object literal: no setter a page put on Object.prototype is called),
// its failures problems of the model.
function modelPage(problems) {
  const page = {
    id: registry.page ? registry.page.id : null,
    name: registry.page ? registry.page.name : null,
    url: cut(locationHref(), 2000),
    title: cut(StringCtor(documentTitle(documentObject)), 300),
  };
  const adapter = adapterModel(problems);
  return adapter === null ? page : { id: page.id, name: page.name, url: page.url, title: page.title, adapter };
}

// Problems about the model as a whole, after the parts were read; then at most maxProblems of them.
function closingProblems(problems, tally) {
  if (tally.errors) push(problems, { where: 'values', problem: tally.errors + ' values could not be read (a getter or proxy threw); they are shown as <error: …>' });
  if (tally.cycles) push(problems, { where: 'values', problem: tally.cycles + ' values refer back to an object that contains them; each is shown as <cycle>' });
  if (problems.length > MODEL_DEFAULTS.maxProblems) {
    const extra = problems.length - (MODEL_DEFAULTS.maxProblems - 1);
    problems.length = MODEL_DEFAULTS.maxProblems - 1;
    push(problems, { where: 'model', problem: extra + ' more problems were left out' });
  }
}

// Problems the page's declarations as a whole show: record types beyond the cap, and a window.pling
// the page replaced (the controller never reads through it, but the page's own later declarations do).
function registryProblems(problems, typeCount) {
  if (registry.records.length > typeCount) {
    push(problems, { where: 'records', problem: (registry.records.length - typeCount) + ' record types beyond the first ' + typeCount + ' were left out' });
  }
  let plingNow;
  try { plingNow = G.pling; } catch (e) { plingNow = undefined; }
  if (plingNow !== plingApi) {
    push(problems, { where: 'page', problem: 'window.pling is no longer the Pling registry (the page replaced or removed it); declarations made through the replacement are not in this model' });
  }
}

export function modelSnapshot(opts) {
  const win = modelWindow(opts);
  const problems = [];
  for (let i = 0; i < registry.problems.length; i++) push(problems, registry.problems[i]);
  const tally = newTally();
  const read = modelRecords(win, problems, tally);
  const regions = modelRegions(read, problems, tally);
  const actions = modelActions(read.sets, problems);
  const state = modelState(problems, tally);
  const feedback = modelFeedback(problems);
  registryProblems(problems, read.typeCount);
  const model = {
    page: modelPage(problems),
    regions,
    actions,
    records: read.records,
    state,
    feedback,
    omitted: {
      regions: MathMax(0, registry.regions.length - regions.length),
      actions: MathMax(0, registry.actions.length - actions.length),
      state: MathMax(0, registry.state.length - 200),
      chars: tally.chars,
      items: tally.items,
      keys: tally.keys,
      depth: tally.depth,
      frames: [],  // child frames not read: the controller reads frames and says which (core/frames.py)
    },
    problems,
    frames: [],  // child frames whose declarations the controller joined to this model
  };
  closingProblems(problems, tally);
  return fitToBudget(model, read.typeCount, MODEL_DEFAULTS.maxBytes);
}
