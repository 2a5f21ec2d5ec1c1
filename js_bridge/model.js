// model.js: the bounded model an agent reads. Ids for the whole active set (up to a cap), items with
// fields for a window of it, every omission counted.

const MODEL_DEFAULTS = { offset: 0, limit: 50, idCap: 10000, idBytes: 120000, maxActions: 300, maxRegions: 200, maxBytes: 250000 };

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

function modelSnapshot(opts) {
  const offset = option(opts, 'offset');
  const limit = MathMin(option(opts, 'limit'), 1000);
  const windowType = typeof own(opts, 'type') === 'string' ? own(opts, 'type') : null;
  const onlyIds = isArray(own(opts, 'ids')) ? own(opts, 'ids') : null;
  const idCap = option(opts, 'idCap');
  const problems = [];
  for (let i = 0; i < registry.problems.length; i++) push(problems, registry.problems[i]);
  const acc = newAcc();

  // Records first: actions and regions count against them.
  const recordSets = create(null);
  const records = create(null);
  const shownByRegion = create(null);
  const totalByRegion = create(null);
  for (let r = 0; r < registry.records.length; r++) {
    const decl = registry.records[r];
    const set = readRecordIds(decl);
    recordSets[decl.type] = set;
    for (let i = 0; i < set.problems.length; i++) push(problems, { where: 'records ' + decl.type, problem: set.problems[i] });
    const total = set.ids.length;
    const ids = [];
    let bytes = 0;
    for (let i = 0; i < total && i < idCap; i++) {
      bytes += set.ids[i].length + 3;
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
      const item = recordItem(decl, set.objects[i], set.ids[i], acc);
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
    const info = { id: region.id, name: region.name, purpose: region.purpose, role: region.role, parent: region.parent, actions: actionCounts[region.id] || 0 };
    if (totalByRegion[region.id] !== undefined) info.records = { shown: shownByRegion[region.id], total: totalByRegion[region.id] };
    info.more = null;
    if (region.more) {
      try {
        const more = region.more();
        if (more !== null && more !== undefined) info.more = bound(more, LIMITS.field, acc);
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
    const read = stateValue(entry, acc);
    if (read.error) push(problems, { where: 'state ' + entry.key, problem: read.error });
    state[entry.key] = { value: read.error ? null : read.value, description: entry.description };
  }

  const feedbackProblems = [];
  const feedback = readFeedback(feedbackProblems);
  for (let i = 0; i < feedbackProblems.length; i++) push(problems, { where: 'feedback', problem: feedbackProblems[i] });

  const model = {
    page: {
      id: registry.page ? registry.page.id : null,
      name: registry.page ? registry.page.name : null,
      url: cut(locationHref(), 2000),
      title: cut(StringCtor(documentTitle(documentObject)), 300),
    },
    regions,
    actions,
    records,
    state,
    feedback,
    omitted: {
      regions: MathMax(0, registry.regions.length - regions.length),
      actions: MathMax(0, registry.actions.length - actions.length),
      state: MathMax(0, registry.state.length - 200),
      chars: acc.chars,
      items: acc.items,
      keys: acc.keys,
      depth: acc.depth,
    },
    problems,
  };
  if (acc.errors) push(problems, { where: 'values', problem: acc.errors + ' values could not be read (a getter or proxy threw); they are shown as <error: …>' });
  let json = toJSON(model);
  // A last guard for the byte budget: halve the item windows until the model fits.
  let rounds = 0;
  while (json.length > MODEL_DEFAULTS.maxBytes && rounds < 12) {
    rounds += 1;
    const types = keys(records);
    for (let t = 0; t < types.length; t++) {
      const entry = records[types[t]];
      const keep = MathFloor(entry.items.length / 2);
      entry.items.length = keep;
      entry.omitted.items = entry.total - keep;
      if (rounds > 6) {
        const keepIds = MathFloor(entry.ids.length / 2);
        entry.ids.length = keepIds;
        entry.omitted.ids = entry.total - keepIds;
      }
    }
    if (rounds > 8) { model.feedback = []; model.problems = problems; }
    json = toJSON(model);
  }
  if (rounds) {
    push(problems, { where: 'model', problem: 'the model was larger than ' + MODEL_DEFAULTS.maxBytes + ' bytes; record windows were cut to fit' });
    json = toJSON(model);
  }
  return json;
}
