// entry.js: installs `window.pling` for the page and one frozen, non-configurable entry point for the
// controller. The controller never goes through `window.pling`, so a page that replaces or freezes it
// cannot change what the controller reads.

const operations = {
  model: (arg) => modelSnapshot(arg),
  describe: (arg) => describe(arg.ref),
  prepare: (arg) => prepare(arg),
  run: (arg) => runAction(arg),
  synthetic: () => syntheticClick(),
  release: () => releaseTarget(),
  expect: (arg) => expectEffect(arg),
  settle: (arg) => promiseThen(settle(current.since, arg.capMs), (settled) => ({ ok: true, settled })),
  end: () => endEvidence(),
  restore: (arg) => restore(arg.names),
  configure: (arg) => configure(arg),
  protect: (arg) => protectValues(arg.values),
  mask: (arg) => markProtected(arg.on === true),
  handoff: (arg) => handoffDone(arg.ref),
  ping: () => ({ ok: true, version: BRIDGE_VERSION, webmcp: webmcpSource, declarations: registry.actions.length + registry.records.length + registry.state.length + registry.regions.length }),
};

function answer(value) {
  return typeof value === 'string' ? value : toJSON(value);
}

// Every call answers a JSON string: {ok: true, …} or {ok: false, code, …}. An exception escaping an
// operation is a bridge bug; it is still answered, tagged `bridge_bug`, so the controller can say so.
async function call(name, argText) {
  const operation = hasOwn(operations, name) ? operations[name] : null;
  if (!operation) return toJSON({ ok: false, code: 'bridge_bug', error: 'unknown bridge operation ' + name });
  try {
    const arg = typeof argText === 'string' ? jsonParse(argText) : null;
    return answer(await operation(arg));
  } catch (e) {
    return toJSON({ ok: false, code: 'bridge_bug', error: errorText(e) });
  }
}

defineProperty(G, '__plingBridge', {
  value: freeze({ version: BRIDGE_VERSION, call }),
  writable: false,
  enumerable: false,
  configurable: false,
});
G.pling = plingApi;
