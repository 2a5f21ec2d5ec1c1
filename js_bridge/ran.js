// ran.js: a function action's run() and its expectation in one call (issue 31). Each call into the page
// costs a round trip through the service, Playwright's driver and Chromium, so `run` asked with `expect`
// goes straight on to stage 7 (expect.js) once run() answered in a document that is not leaving, and
// answers both: the run's answer (its document as run() left it) with the expectation's in `expected`.
// While the expectation is polled, run()'s answer is kept: if that part hangs and the controller stops
// the page's script, `ran` hands it over, so the run is not taken for the part that hung. Asked `quiet`
// (a read: known.js), a page the action did not change settles without a frame (observe.js).

import { answerOf } from './prelude.js';
import { runAction } from './execute.js';
import { expectEffect } from './expect.js';
import { withLeaving } from './navigate.js';
import { mutationMark } from './observe.js';
import { inFlight } from './reveal.js';

let kept = null;

export async function runThenExpect(args) {
  kept = null;
  const mark = args.expect && args.expect.quiet === true ? mutationMark() : null;  // known.js: a read
  const ran = withLeaving(await runAction(args));
  const asked = args.expect;
  if (!asked || ran.ok !== true || inFlight.leaving) return ran;
  kept = ran;
  const expected = await expectEffect({ ref: args.ref, args: args.args, timeoutMs: asked.timeoutMs,
                                        settleMs: asked.settleMs, diff: asked.diff === true, quiet: mark });
  kept = null;
  ran.expected = withLeaving(expected);
  return ran;
}

// run()'s answer, kept while its expectation was polled in the same call (once), else `gone`.
export function ranBefore() {
  const ran = kept;
  kept = null;
  return ran || answerOf({ ok: false, code: 'gone', error: 'no run() answer is kept' });
}
