// known.js: a plain function action in one call (issue 31). A plain function action (no target, no
// steps) that the controller described before in this document is not described again: the controller
// names the declaration it holds (the document's id, the declaration's `seq`, revealed.js, and the risk
// it was declared at) and, when the page still declares that very one, the reveal (availability, the
// before snapshot), run() and the expectation with the page settled and the after snapshot (ran.js)
// answer in this one call. Anything else (another document, the action declared again or gone, its
// risk raised) answers `stale` before anything runs: the controller then takes the full path. A read
// that changed nothing on the page settles without waiting for a frame (observe.js `quietSince`):
// there is nothing to render; any other action settles as on the full path.

import { answerOf } from './prelude.js';
import { findAction } from './declarations.js';
import { startObserving, stopObserving } from './observe.js';
import { runThenExpect } from './ran.js';
import { reveal, stillDeclared } from './reveal.js';
import { splitRef } from './resolve.js';
import { plainFunction } from './revealed.js';

export async function knownAction(arg) {
  const action = findAction(splitRef(arg.ref).id);
  if (!plainFunction(action) || !stillDeclared(action, arg)) {
    return answerOf({ ok: false, code: 'stale' });
  }
  const revealed = await reveal({ ref: arg.ref, capMs: arg.capMs, evidence: arg.evidence === true, aim: false,
                                  args: {}, nested: false });
  if (revealed.ok !== true) return answerOf({ ok: true, revealed });
  // Mutations are counted while it runs, evidence on or off: a read that wrote nothing needs no frame.
  startObserving();
  try {
    const ran = await runThenExpect({ ref: arg.ref, args: arg.args, timeoutMs: arg.timeoutMs, nested: false,
                                      expect: { ...arg.expect, quiet: arg.risk === 'read' } });
    return answerOf({ ok: true, revealed, ran });
  } finally {
    stopObserving();
  }
}
