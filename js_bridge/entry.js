// entry.js: installs `window.pling` for the page and one frozen, non-configurable entry point for the
// controller. The controller never goes through `window.pling`, so a page that replaces or freezes it
// cannot change what the controller reads.

// The operations the controller calls (core/bridge.py names each one). Those in ASYNC answer a
// promise of the bridge's own; the others answer at once.
const operations = {
  model: (arg) => modelSnapshot(arg),
  describe: (arg) => describe(arg.ref),
  reveal: (arg) => reveal(arg),
  run: (arg) => promiseThen(runAction(arg), withLeaving),
  synthetic: () => syntheticClick(),
  release: () => releaseTarget(),
  landed: () => landed(),
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
  pointedAt: (arg) => pointedAt(arg),
  pointedAgain: () => pointedAgain(),
  focused: () => focusedElement(),
};
const ASYNC = { reveal: true, run: true, expect: true, settle: true };

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
  if (hasOwn(ASYNC, name)) return promiseThen(result, answer, bug);
  return answer(result);
}

defineProperty(G, '__plingBridge', {
  value: freeze({ version: BRIDGE_VERSION, call, target: currentTarget, adapter: runAdapter, demonstrated }),
  writable: false,
  enumerable: false,
  configurable: false,
});
G.pling = plingApi;
