// revealed.js: stage 1 and, for a function action, stage 5 in one call (issue 31). Each call into the
// page is a round trip through the service, Playwright's driver and Chromium; a function action's
// reveal touches nothing on the page (no target to mark, scroll or aim at: its availability and the
// before snapshot), so `describe` asked with `reveal` goes on to it once the action is found, and
// answers the reveal's answer in `revealed`. The controller uses it only once every pre-check between
// the two stages passed without asking a person; otherwise it drops the snapshot taken (resolve.py).

import { findAction } from './declarations.js';
import { describe, splitRef } from './resolve.js';
import { DOC_ID } from './navigate.js';
import { reveal } from './reveal.js';

export function plainFunction(action) {
  return !!action && action.kind === 'action' && !!action.run && !action.target && !action.steps;
}

export async function describeThenReveal(arg) {
  const described = describe(arg.ref);
  const asked = arg.reveal;
  const action = findAction(splitRef(arg.ref).id);
  if (described.ok === true) {
    described.seq = action.seq;  // which declaration this is, and where: an action asked again names it (known.js, reveal.js)
    described.doc = DOC_ID;
  }
  if (!asked || described.ok !== true || !plainFunction(action)) return described;
  described.revealed = await reveal({ ref: arg.ref, capMs: asked.capMs, evidence: asked.evidence === true,
                                      aim: false, args: {}, nested: asked.nested === true });
  return described;
}
