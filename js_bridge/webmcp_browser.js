// webmcp_browser.js: the browser's own WebMCP (`document.modelContext`), where it has one: its object is
// kept and its methods wrapped, so Pling learns what the page registers (webmcp.js) while the browser
// and the page's own polyfills still see every tool. Where it has none, the shim (webmcp_shim.js).

import {
  G, ReflectApply, create, defineProperty, documentObject, eventTargetAddListener, getterOf, isArray, keys,
  promiseThen, uncurry,
} from './prelude.js';
import { errorText } from './bound.js';
import { own, problem } from './declarations.js';
import { installWebMCPShim } from './webmcp_shim.js';
import { forgetTool, learnTool, signalAborted, useWebMCP, webmcpTools } from './webmcp.js';

function wrapBrowserWebMCP(native) {
  // Keep the browser's object, and learn what the page registers with it. Each registration also
  // gets a signal of the bridge's own (joined with the page's), so the older drafts' unregisterTool,
  // provideContext and clearContext, which the browser no longer has, still unregister it there.
  const theirs = native.registerTool;
  const AbortControllerCtor = G.AbortController;
  const abortAny = G.AbortSignal && G.AbortSignal.any;
  const abortOf = AbortControllerCtor ? uncurry(AbortControllerCtor.prototype.abort) : null;
  const signalOf = AbortControllerCtor ? getterOf(AbortControllerCtor.prototype, 'signal') : null;
  const controllers = create(null);
  const withdraw = (name) => {
    const controller = controllers[name];
    delete controllers[name];
    forgetTool(name);
    if (controller) abortOf(controller);
  };
  const withdrawAll = () => { const n = keys(webmcpTools); for (let i = 0; i < n.length; i++) withdraw(n[i]); };
  const wrapped = {
    registerTool(tool, options) {
      const name = own(tool, 'name');
      const signal = own(options, 'signal');
      const fresh = typeof name === 'string' && typeof own(tool, 'execute') === 'function' && !webmcpTools[name] // else the browser refuses it
        && !(signal && signalAborted && signalAborted(signal));
      let given = options;
      let controller = null;
      if (fresh && AbortControllerCtor && abortAny) {
        controller = new AbortControllerCtor();
        const joined = signal ? ReflectApply(abortAny, G.AbortSignal, [[signal, signalOf(controller)]]) : signalOf(controller);
        given = { signal: joined };
        const exposedTo = own(options, 'exposedTo');
        if (exposedTo !== undefined) given.exposedTo = exposedTo;
        eventTargetAddListener(joined, 'abort', () => { if (webmcpTools[name] === tool) { delete controllers[name]; forgetTool(name); } }, { once: true });
      }
      const answer = ReflectApply(theirs, native, [tool, given]);
      if (fresh) {
        webmcpTools[name] = tool;
        if (controller) controllers[name] = controller;
        learnTool(tool);
        // The browser refused it after all (an invalid schema, a policy: a frame of another origin
        // whose embedder did not delegate `allow="tools"`): forget it again, and say so in the model.
        try {
          promiseThen(answer, undefined, (e) => {
            if (webmcpTools[name] !== tool) return;
            withdraw(name);
            problem('webmcp tool ' + name, 'the browser refused to register it: ' + errorText(e));
          });
        } catch (e) { /* not a promise */ }
      }
      return answer;
    },
    unregisterTool(name) { withdraw(name); },
    clearContext() { withdrawAll(); },
    provideContext(given) {
      withdrawAll();
      const list = own(given, 'tools');
      if (isArray(list)) for (let i = 0; i < list.length; i++) wrapped.registerTool(list[i]);
    },
  };
  const methodNames = keys(wrapped);
  for (let i = 0; i < methodNames.length; i++) {
    try {
      defineProperty(native, methodNames[i], { value: wrapped[methodNames[i]], writable: true, configurable: true });
    } catch (e) { /* a frozen native object: its tools stay the browser's alone */ }
  }
  // The legacy name, for pages written against the older drafts: the browser's own object.
  try {
    if (!('modelContext' in G.navigator)) defineProperty(Navigator.prototype, 'modelContext', { get: () => native, configurable: true });
  } catch (e) { /* ignore */ }
  // export.js: the page's pling actions, registered with the browser itself (never learned back).
  useWebMCP('browser', native, (tool) => {
    const controller = new AbortControllerCtor();
    try { promiseThen(ReflectApply(theirs, native, [tool, { signal: signalOf(controller) }]), undefined, () => {}); } catch (e) { return null; }
    return () => abortOf(controller);
  });
}

// Which WebMCP: the browser's own where it has one (the legacy navigator.modelContext too), else the shim.
(function chooseWebMCP() {
  let native = null;
  try { native = documentObject && documentObject.modelContext; } catch (e) { native = null; }
  if (!(native && typeof native.registerTool === 'function')) {
    try { native = G.navigator && G.navigator.modelContext; } catch (e) { native = null; }
  }
  if (native && typeof native.registerTool === 'function') wrapBrowserWebMCP(native);
  else installWebMCPShim();
})();
