// problems.js: `pling.problems()`, what the declaration package's dev check prints in the console
// (js/src/devcheck.ts). The problems an agent would read in the model now, and references the model
// cannot state as problems of their own: an action or a record type in a region that is not declared,
// a family of a record type that is not declared. Only the page asks; the controller never does.

import { create, jsonParse, push } from './prelude.js';
import { findRecords, registry } from './declarations.js';
import { modelSnapshot } from './model.js';

let problemsBusy = false;

export function pageProblems() {
  // A page function that asks while the model is being read (from its list(), say) gets nothing.
  if (problemsBusy) return [];
  problemsBusy = true;
  try {
    const model = jsonParse(modelSnapshot(null));
    const out = [];
    for (let i = 0; i < model.problems.length; i++) push(out, { where: model.problems[i].where, problem: model.problems[i].problem });
    const regions = create(null);
    for (let i = 0; i < registry.regions.length; i++) regions[registry.regions[i].id] = true;
    for (let i = 0; i < registry.actions.length; i++) {
      const action = registry.actions[i];
      const where = action.kind + ' ' + action.id;
      if (action.region && !regions[action.region]) push(out, { where, problem: "names region '" + action.region + "', which is not declared" });
      if (action.record && !findRecords(action.record)) push(out, { where, problem: "is a family of record type '" + action.record + "', which is not declared" });
    }
    for (let i = 0; i < registry.records.length; i++) {
      const decl = registry.records[i];
      if (decl.region && !regions[decl.region]) push(out, { where: 'records ' + decl.type, problem: "names region '" + decl.region + "', which is not declared" });
    }
    return out;
  } finally {
    problemsBusy = false;
  }
}
