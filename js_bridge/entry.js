// entry.js: installs `window.pling` for the page and one frozen, non-configurable entry point for the
// controller. The controller never goes through `window.pling`, so a page that replaces or freezes it
// cannot change what the controller reads.

import { operations as TABLE, version as BRIDGE_VERSION } from './operations.json';
import './webmcp_browser.js'; // the page's WebMCP chosen and wrapped (or the shim installed) at install
import {
  G, answerOf, create, defineProperty, freeze, hasOwn, jsonParse, keys, promiseThen,
} from './prelude.js';
import { markProtected, protectValues } from './protect.js';
import { errorText, toJSON } from './bound.js';
import { configure, plingApi } from './registry.js';
import { runAdapter } from './adapters.js';
import { demonstrated, focusedElement, pointedAgain, pointedAt } from './demonstration.js';
import { syntheticClick } from './execute.js';
import { expectEffect } from './expect.js';
import { answerToolCall } from './export.js';
import { landed } from './gesture.js';
import { typed } from './fill.js';
import { chooseOption } from './choose.js';
import { handoffDone, restore } from './handoff.js';
import { answerInteraction } from './interaction.js';
import { modelSnapshot } from './model.js';
import { ranBefore, runThenExpect } from './ran.js';
import { knownAction } from './known.js';
import { adoptCarry, begin, diffFrom, hold, whoami, withLeaving } from './navigate.js';
import { settle } from './observe.js';
import { describeThenReveal } from './revealed.js';
import { currentTarget, diffAgainstBefore, inFlight, releaseTarget, reveal } from './reveal.js';
import { syncDeclarativeTools } from './webmcp_forms.js';

// What each operation of the table (operations.json) does. The dispatch holds only what the table
// lists (a handler it does not list is never reached; tests/test_bridge_build.py checks both ways), and
// the table says which answer a promise of the bridge's own.
const handlers = {
  model: (arg) => modelSnapshot(arg),
  describe: (arg) => describeThenReveal(arg),
  reveal: (arg) => reveal(arg),
  run: (arg) => runThenExpect(arg),
  ran: () => ranBefore(),
  known: (arg) => knownAction(arg),
  synthetic: () => syntheticClick(),
  release: () => releaseTarget(),
  landed: () => landed(),
  typed: (arg) => typed(arg),
  choose: (arg) => chooseOption(arg),
  expect: (arg) => promiseThen(expectEffect(arg), withLeaving),
  settle: (arg) => promiseThen(settle(inFlight.since, arg.capMs), (settled) => answerOf({ ok: true, settled })),
  diff: () => diffAgainstBefore(),
  restore: (arg) => restore(arg.names),
  configure: (arg) => configure(arg),
  protect: (arg) => protectValues(arg.values),
  mask: (arg) => markProtected(arg.on === true),
  handoff: (arg) => handoffDone(arg.ref),
  interaction: (arg) => answerInteraction(arg),
  toolAnswer: (arg) => answerToolCall(arg),
  whoami: () => whoami(),
  begin: (arg) => begin(arg),
  adopt: () => adoptCarry(),
  diffFrom: (arg) => diffFrom(arg),
  hold: (arg) => hold(arg),
  pointedAt: (arg) => pointedAt(arg),
  pointedAgain: () => pointedAgain(),
  focused: () => focusedElement(),
};
const operations = create(null);
const promised = create(null);
const listed = keys(TABLE);
for (let i = 0; i < listed.length; i++) {
  const name = listed[i];
  if (hasOwn(handlers, name)) operations[name] = handlers[name];
  promised[name] = TABLE[name].promise === true;
}

function answer(value) {
  return typeof value === 'string' ? value : toJSON(value);
}

function bug(e) {
  return toJSON({ ok: false, code: 'bridge_bug', error: errorText(e) });
}

// Every call answers a JSON string: {ok: true, …} or {ok: false, code, …}. An exception escaping an
// operation is a bridge bug; it is still answered, tagged `bridge_bug`, so the controller can say so.
// No `await` here: awaiting an object looks up its `then`, which a page can define on
// Object.prototype to rewrite the answer. A promise of the bridge's own is chained with the `then`
// captured at install, and the answer is a string by the time it resolves.
function call(name, argText) {
  const operation = hasOwn(operations, name) ? operations[name] : null;
  if (!operation) return toJSON({ ok: false, code: 'bridge_bug', error: 'unknown bridge operation ' + name });
  let result;
  try { syncDeclarativeTools(); } catch (e) { /* a declarative form that cannot be read stays unknown */ }
  try {
    const arg = typeof argText === 'string' ? jsonParse(argText) : null;
    result = operation(arg);
  } catch (e) {
    return bug(e);
  }
  if (promised[name]) return promiseThen(result, answer, bug);
  return answer(result);
}

defineProperty(G, '__plingBridge', {
  value: freeze({ version: BRIDGE_VERSION, call, target: currentTarget, adapter: runAdapter, demonstrated }),
  writable: false,
  enumerable: false,
  configurable: false,
});
G.pling = plingApi;
