// adapters.js: the operator's adapters (pling_browser/adapters.py) for pages that do not declare
// themselves. Each adapter's init script, added after the bridge, hands its match rules and its code
// to `__plingBridge.adapter`: the document's own URL decides whether it runs, at `@run-at`, with
// `pling` in scope. How it went is kept here and shown in the model (`page.adapter`, `problems`):
// an adapter that does not compile or throws is a problem of the model, never the page's crash.

import {
  G, ReflectApply, StringCtor, documentObject, eventTargetAddListener, isArray, jsonParse, locationHref, push,
  regexTest, strCharCodeAt, strIndexOf, strSlice,
} from './prelude.js';
import { cut, errorText } from './bound.js';
import { registry } from './declarations.js';
import { declarationSeq, plingApi } from './registry.js';
import { documentReadyState } from './navigate.js';

const RegExpCtor = RegExp;
const adapterRuns = [];

function adapterMatches(spec) {
  let url = locationHref();
  const hash = strIndexOf(url, '#');
  if (hash >= 0) url = strSlice(url, 0, hash);
  const test = (sources) => {
    for (let i = 0; i < (isArray(sources) ? sources.length : 0); i++) {
      try { if (regexTest(new RegExpCtor(sources[i]), url)) return true; } catch (e) { /* checked in Python */ }
    }
    return false;
  };
  return test(spec.include) && !test(spec.exclude);
}

// The line of a stack's first frame in an adapter's init script (named by its sourceURL,
// pling-adapter/NAME), or 0.
function adapterLine(e) {
  try {
    const stack = StringCtor(e && e.stack);
    const at = strIndexOf(stack, 'pling-adapter/');
    if (at < 0) return 0;
    let i = strIndexOf(stack, ':', at);
    let line = 0;
    while (i >= 0 && ++i < stack.length) {
      const c = strCharCodeAt(stack, i);
      if (c < 48 || c > 57) break;
      line = line * 10 + (c - 48);
    }
    return line;
  } catch (err) { return 0; }
}

// "TypeError: x is undefined (line 12)": the line in the adapter's own file, counted from the line of
// `mark`, an Error made on the line before the adapter's first.
function adapterError(e, mark) {
  const line = adapterLine(e);
  const base = adapterLine(mark);
  return cut(errorText(e), 280) + (line > base && base > 0 ? ' (line ' + (line - base) + ')' : '');
}

export function runAdapter(specText, mark, fn) {
  let spec;
  try { spec = jsonParse(specText); } catch (e) { return; }
  if (!spec || typeof spec.name !== 'string' || !adapterMatches(spec)) return;
  const entry = { name: cut(spec.name, 120), status: 'waiting', error: null };
  push(adapterRuns, entry);
  if (typeof fn !== 'function') {
    entry.status = 'failed';
    entry.error = 'does not compile: ' + cut(StringCtor(spec.syntaxError || 'a syntax error'), 280);
    return;
  }
  const run = () => {
    if (entry.status !== 'waiting') return;
    const seq = declarationSeq;
    const page = registry.page;
    const problems = registry.problems.length;
    try {
      ReflectApply(fn, G, [plingApi]);
      // An adapter that declared nothing while it loaded looked at the page and declined it (not its app).
      const declared = declarationSeq !== seq || registry.page !== page || registry.problems.length !== problems;
      entry.status = declared ? 'ran' : 'declined';
    } catch (e) {
      entry.status = 'failed';
      entry.error = 'threw while loading: ' + adapterError(e, mark);
    }
  };
  let state = 'complete';
  try { state = documentReadyState(documentObject); } catch (e) { /* a document without one */ }
  if (spec.runAt === 'document-start' || state !== 'loading') run();
  else eventTargetAddListener(documentObject, 'DOMContentLoaded', run, { once: true });
}

// The model's part: which adapters this document runs, and what went wrong with them.
export function adapterModel(problems) {
  const names = [];
  for (let i = 0; i < adapterRuns.length; i++) {
    const entry = adapterRuns[i];
    if (entry.status === 'declined') continue;
    push(names, entry.name);
    if (entry.status === 'failed') push(problems, { where: 'adapter ' + entry.name, problem: entry.error });
  }
  return names.length ? names : null;
}
