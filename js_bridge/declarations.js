// declarations.js: what the page declared, as data: the registry `window.pling` (registry.js) fills and
// every stage reads, the problems stated about it, and reading a declaration's own properties without
// letting a getter throw at the bridge.

import { G, StringCtor, hasOwn, push } from './prelude.js';
import { cut, errorText } from './bound.js';

export const registry = {
  page: null,
  regions: [],
  records: [],
  state: [],
  actions: [],
  feedback: [],
  problems: [],
};

export function problem(where, message) {
  if (registry.problems.length >= 50) return;
  push(registry.problems, { where: cut(StringCtor(where), 120), problem: cut(StringCtor(message), 300) });
}

export function warn(where, message) {
  problem(where, message);
  try { G.console.warn('[pling] ' + where + ': ' + message); } catch (e) { /* console may be gone */ }
}

// Reads one own property of a declaration (or of the model options). A getter that throws makes the
// property absent and is stated as a problem (`warn`, above), never thrown at the page.
export function own(obj, name) {
  try {
    return obj !== null && (typeof obj === 'object' || typeof obj === 'function') && hasOwn(obj, name) ? obj[name] : undefined;
  } catch (e) {
    warn('declaration', 'reading its ' + cut(StringCtor(name), 64) + ' threw (' + errorText(e) + '); it was ignored');
    return undefined;
  }
}

export function findAction(id) {
  const list = registry.actions;
  for (let i = 0; i < list.length; i++) if (list[i].id === id) return list[i];
  return null;
}

export function findRecords(type) {
  const list = registry.records;
  for (let i = 0; i < list.length; i++) if (list[i].type === type) return list[i];
  return null;
}
