// model.js: the bounded model an agent reads. Ids for the whole active set (up to a cap), items with
// fields for a window of it, every omission counted.

import {
  G, MathFloor, MathMax, MathMin, StringCtor, create, documentObject, documentTitle, isArray, isFiniteNumber,
  jsonStringify, keys, locationHref, push,
} from './prelude.js';
import { LIMITS, bound, cut, errorText, newTally, toJSON, utf8Length } from './bound.js';
import { own, registry } from './declarations.js';
import { plingApi, riskOf } from './registry.js';
import { adapterModel } from './adapters.js';
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

export function modelSnapshot(opts) {
  const offset = option(opts, 'offset');
  const limit = MathMin(option(opts, 'limit'), 1000);
  const windowType = typeof own(opts, 'type') === 'string' ? own(opts, 'type') : null;
  const onlyIds = isArray(own(opts, 'ids')) ? own(opts, 'ids') : null;
  const idCap = option(opts, 'idCap');
  const problems = [];
  for (let i = 0; i < registry.problems.length; i++) push(problems, registry.problems[i]);
  const tally = newTally();

  // Records first: actions and regions count against them.
  const recordSets = create(null);
  const records = create(null);
  const shownByRegion = create(null);
  const totalByRegion = create(null);
  const typeCount = MathMin(registry.records.length, MODEL_DEFAULTS.maxTypes);
  for (let r = 0; r < typeCount; r++) {
    const decl = registry.records[r];
    const set = readRecordIds(decl);
    recordSets[decl.type] = set;
    for (let i = 0; i < set.problems.length; i++) push(problems, { where: 'records ' + decl.type, problem: set.problems[i] });
    const total = set.ids.length;
    const ids = [];
    let bytes = 0;
    for (let i = 0; i < total && i < idCap; i++) {
      bytes += utf8Length(jsonStringify(set.ids[i])) + 1;
      if (bytes > MODEL_DEFAULTS.idBytes) break;
      push(ids, set.ids[i]);
    }
    // The window: by default `offset`/`limit` for every type; `type` narrows them to one type.
    const items = [];
    const families = [];
    for (let i = 0; i < registry.actions.length; i++) {
      const action = registry.actions[i];
      if (action.record === decl.type && action.available) push(families, action);
    }
    let indexes = [];
    if (onlyIds && (!windowType || windowType === decl.type)) {
      for (let i = 0; i < onlyIds.length && i < 1000; i++) {
        const index = set.index[onlyIds[i]];
        if (index !== undefined) push(indexes, index);
      }
    } else {
      const start = !windowType || windowType === decl.type ? offset : 0;
      const count = !windowType || windowType === decl.type ? limit : MODEL_DEFAULTS.limit;
      for (let i = start; i < total && i < start + count; i++) push(indexes, i);
    }
    for (let k = 0; k < indexes.length; k++) {
      const i = indexes[k];
      const item = recordItem(decl, set.objects[i], set.ids[i], tally);
      // Families whose availability depends on the record say so per item, only when unavailable.
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
    records[decl.type] = entry;
    if (decl.region) {
      shownByRegion[decl.region] = (shownByRegion[decl.region] || 0) + items.length;
      totalByRegion[decl.region] = (totalByRegion[decl.region] || 0) + total;
    }
  }

  const actionCounts = familyCounts();
  const regions = [];
  for (let i = 0; i < registry.regions.length && i < MODEL_DEFAULTS.maxRegions; i++) {
    const region = registry.regions[i];
    // Every key is an own property from the start, so a polluted Object.prototype is never read.
    const info = { id: region.id, name: region.name, purpose: region.purpose, role: region.role, parent: region.parent,
                   actions: actionCounts[region.id] || 0, records: undefined, more: null };
    if (totalByRegion[region.id] !== undefined) info.records = { shown: shownByRegion[region.id], total: totalByRegion[region.id] };
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

  const actions = [];
  for (let i = 0; i < registry.actions.length && i < MODEL_DEFAULTS.maxActions; i++) {
    const action = registry.actions[i];
    push(actions, actionInfo(action, recordSets));
    if (action.paramsCut) push(problems, { where: 'action ' + action.id, problem: 'params is larger than the model shows; it was cut' });
  }

  const state = create(null);
  for (let i = 0; i < registry.state.length && i < 200; i++) {
    const entry = registry.state[i];
    const read = stateValue(entry, tally);
    if (read.error) push(problems, { where: 'state ' + entry.key, problem: read.error });
    state[entry.key] = { value: read.error ? null : read.value, description: entry.description };
  }

  const feedbackProblems = [];
  const feedback = readFeedback(feedbackProblems);
  for (let i = 0; i < feedbackProblems.length; i++) push(problems, { where: 'feedback', problem: feedbackProblems[i] });

  if (registry.records.length > typeCount) {
    push(problems, { where: 'records', problem: (registry.records.length - typeCount) + ' record types beyond the first ' + typeCount + ' were left out' });
  }
  // The controller never reads through window.pling, but the page's own later declarations do.
  let plingNow;
  try { plingNow = G.pling; } catch (e) { plingNow = undefined; }
  if (plingNow !== plingApi) {
    push(problems, { where: 'page', problem: 'window.pling is no longer the Pling registry (the page replaced or removed it); declarations made through the replacement are not in this model' });
  }

  const page = {
    id: registry.page ? registry.page.id : null,
    name: registry.page ? registry.page.name : null,
    url: cut(locationHref(), 2000),
    title: cut(StringCtor(documentTitle(documentObject)), 300),
  };
  // page.adapter only where an operator's adapter ran (an object literal: no setter a page put on
  // Object.prototype is called); its failures are problems of the model.
  const adapter = adapterModel(problems);
  const model = {
    page: adapter === null ? page : { id: page.id, name: page.name, url: page.url, title: page.title, adapter },
    regions,
    actions,
    records,
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
  if (tally.errors) push(problems, { where: 'values', problem: tally.errors + ' values could not be read (a getter or proxy threw); they are shown as <error: …>' });
  if (tally.cycles) push(problems, { where: 'values', problem: tally.cycles + ' values refer back to an object that contains them; each is shown as <cycle>' });
  if (problems.length > MODEL_DEFAULTS.maxProblems) {
    const extra = problems.length - (MODEL_DEFAULTS.maxProblems - 1);
    problems.length = MODEL_DEFAULTS.maxProblems - 1;
    push(problems, { where: 'model', problem: extra + ' more problems were left out' });
  }
  let json = toJSON(model);
  // A last guard for the byte budget: while the model is too big, its largest part is halved. Item
  // windows, state, regions and feedback go before ids and actions (weighed at a quarter of their
  // size), which an agent needs to act. Every cut is counted, so the model stays true about what it
  // leaves out.
  let rounds = 0;
  let feedbackLeftOut = 0;
  const cutParts = create(null);
  while (utf8Length(json) > MODEL_DEFAULTS.maxBytes && rounds < 100) {
    rounds += 1;
    let best = null;
    let bestSize = 0;
    const types = keys(records);
    for (let t = 0; t < types.length; t++) {
      const entry = records[types[t]];
      if (entry.items.length) {
        const size = utf8Length(toJSON(entry.items));
        if (size > bestSize) { best = { part: 'record items', entry, list: entry.items }; bestSize = size; }
      }
      if (entry.ids.length) {
        const size = utf8Length(toJSON(entry.ids)) / 4;
        if (size > bestSize) { best = { part: 'record ids', entry, list: entry.ids }; bestSize = size; }
      }
    }
    const stateKeys = keys(state);
    if (stateKeys.length) {
      const size = utf8Length(toJSON(state));
      if (size > bestSize) { best = { part: 'state', list: null }; bestSize = size; }
    }
    const lists = [{ part: 'regions', list: regions, weight: 1 }, { part: 'feedback', list: feedback, weight: 1 }, { part: 'actions', list: actions, weight: 4 }];
    for (let i = 0; i < lists.length; i++) {
      if (!lists[i].list.length) continue;
      const size = utf8Length(toJSON(lists[i].list)) / lists[i].weight;
      if (size > bestSize) { best = lists[i]; bestSize = size; }
    }
    if (!best) break;
    cutParts[best.part] = true;
    if (best.part === 'state') {
      for (let i = MathFloor(stateKeys.length / 2); i < stateKeys.length; i++) {
        delete state[stateKeys[i]];
        model.omitted.state += 1;
      }
    } else {
      const keep = MathFloor(best.list.length / 2);
      if (best.part === 'feedback') feedbackLeftOut += best.list.length - keep;
      best.list.length = keep;
      if (best.part === 'record items') best.entry.omitted.items = best.entry.total - keep;
      else if (best.part === 'record ids') best.entry.omitted.ids = best.entry.total - keep;
      else if (best.part === 'regions') model.omitted.regions = registry.regions.length - keep;
      else if (best.part === 'actions') model.omitted.actions = registry.actions.length - keep;
    }
    json = toJSON(model);
  }
  if (rounds) {
    // Regions count the items shown; the windows may just have changed.
    const shownNow = create(null);
    for (let r = 0; r < typeCount; r++) {
      const decl = registry.records[r];
      if (decl.region && records[decl.type]) shownNow[decl.region] = (shownNow[decl.region] || 0) + records[decl.type].items.length;
    }
    for (let i = 0; i < regions.length; i++) {
      if (regions[i].records) regions[i].records.shown = shownNow[regions[i].id] || 0;
    }
    const parts = keys(cutParts);
    let named = '';
    for (let i = 0; i < parts.length; i++) named += (i ? ', ' : '') + parts[i];
    push(problems, { where: 'model', problem: 'the model was larger than ' + MODEL_DEFAULTS.maxBytes + ' bytes; to fit, it shows fewer ' + named +
      ' (counted in omitted' + (feedbackLeftOut ? '; ' + feedbackLeftOut + ' feedback messages were left out' : '') + ')' });
    json = toJSON(model);
  }
  return json;
}
