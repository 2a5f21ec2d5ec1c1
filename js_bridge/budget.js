// budget.js: the model's last guard for its byte budget. While the model is too big, its largest part
// is halved. Item windows, state, regions and feedback go before ids and actions (weighed at a quarter
// of their size), which an agent needs to act. Every cut is counted, so the model stays true about
// what it leaves out.

import { MathFloor, create, keys, push } from './prelude.js';
import { toJSON, utf8Length } from './bound.js';
import { registry } from './declarations.js';

// The part to halve next: the largest, by its JSON's bytes over its weight; null when nothing is left.
function largestPart(model) {
  let best = null;
  let bestSize = 0;
  const types = keys(model.records);
  for (let t = 0; t < types.length; t++) {
    const entry = model.records[types[t]];
    if (entry.items.length) {
      const size = utf8Length(toJSON(entry.items));
      if (size > bestSize) { best = { part: 'record items', entry, list: entry.items }; bestSize = size; }
    }
    if (entry.ids.length) {
      const size = utf8Length(toJSON(entry.ids)) / 4;
      if (size > bestSize) { best = { part: 'record ids', entry, list: entry.ids }; bestSize = size; }
    }
  }
  if (keys(model.state).length) {
    const size = utf8Length(toJSON(model.state));
    if (size > bestSize) { best = { part: 'state', list: null }; bestSize = size; }
  }
  const lists = [{ part: 'regions', list: model.regions, weight: 1 }, { part: 'feedback', list: model.feedback, weight: 1 },
                 { part: 'actions', list: model.actions, weight: 4 }];
  for (let i = 0; i < lists.length; i++) {
    if (!lists[i].list.length) continue;
    const size = utf8Length(toJSON(lists[i].list)) / lists[i].weight;
    if (size > bestSize) { best = lists[i]; bestSize = size; }
  }
  return best;
}

// Halves one part and counts what it left out; answers how many feedback messages went.
function halve(model, best) {
  if (best.part === 'state') {
    const stateKeys = keys(model.state);
    for (let i = MathFloor(stateKeys.length / 2); i < stateKeys.length; i++) {
      delete model.state[stateKeys[i]];
      model.omitted.state += 1;
    }
    return 0;
  }
  const keep = MathFloor(best.list.length / 2);
  const leftOut = best.part === 'feedback' ? best.list.length - keep : 0;
  best.list.length = keep;
  if (best.part === 'record items') best.entry.omitted.items = best.entry.total - keep;
  else if (best.part === 'record ids') best.entry.omitted.ids = best.entry.total - keep;
  else if (best.part === 'regions') model.omitted.regions = registry.regions.length - keep;
  else if (best.part === 'actions') model.omitted.actions = registry.actions.length - keep;
  return leftOut;
}

// Regions count the items shown; the windows may just have changed.
function recountShown(model, typeCount) {
  const shownNow = create(null);
  for (let r = 0; r < typeCount; r++) {
    const decl = registry.records[r];
    const entry = model.records[decl.type];
    if (decl.region && entry) shownNow[decl.region] = (shownNow[decl.region] || 0) + entry.items.length;
  }
  for (let i = 0; i < model.regions.length; i++) {
    if (model.regions[i].records) model.regions[i].records.shown = shownNow[model.regions[i].id] || 0;
  }
}

// The model as JSON text, within maxBytes (or as close as 100 halvings get).
export function fitToBudget(model, typeCount, maxBytes) {
  let json = toJSON(model);
  let rounds = 0;
  let feedbackLeftOut = 0;
  const cutParts = create(null);
  while (utf8Length(json) > maxBytes && rounds < 100) {
    rounds += 1;
    const best = largestPart(model);
    if (!best) break;
    cutParts[best.part] = true;
    feedbackLeftOut += halve(model, best);
    json = toJSON(model);
  }
  if (!rounds) return json;
  recountShown(model, typeCount);
  const parts = keys(cutParts);
  let named = '';
  for (let i = 0; i < parts.length; i++) named += (i ? ', ' : '') + parts[i];
  push(model.problems, { where: 'model', problem: 'the model was larger than ' + maxBytes + ' bytes; to fit, it shows fewer ' + named +
    ' (counted in omitted' + (feedbackLeftOut ? '; ' + feedbackLeftOut + ' feedback messages were left out' : '') + ')' });
  return toJSON(model);
}
