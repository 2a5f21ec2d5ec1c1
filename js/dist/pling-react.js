// window.PlingReact: pling-declare 0.1.0 (js/ in the Pling browser repository; MIT). Built file: edit js/src and run `make js`.
"use strict";
var PlingReact = (() => {
  var __create = Object.create;
  var __defProp = Object.defineProperty;
  var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
  var __getOwnPropNames = Object.getOwnPropertyNames;
  var __getProtoOf = Object.getPrototypeOf;
  var __hasOwnProp = Object.prototype.hasOwnProperty;
  var __commonJS = (cb, mod) => function __require() {
    try {
      return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
    } catch (e) {
      throw mod = 0, e;
    }
  };
  var __export = (target, all) => {
    for (var name in all)
      __defProp(target, name, { get: all[name], enumerable: true });
  };
  var __copyProps = (to, from, except, desc) => {
    if (from && typeof from === "object" || typeof from === "function") {
      for (let key of __getOwnPropNames(from))
        if (!__hasOwnProp.call(to, key) && key !== except)
          __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
    }
    return to;
  };
  var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
    // If the importer is in node compatibility mode or this is not an ESM
    // file that has been converted to a CommonJS file using a Babel-
    // compatible transform (i.e. "__esModule" has not been set), then set
    // "default" to the CommonJS "module.exports" for node compatibility.
    isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
    mod
  ));
  var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);

  // global:react
  var require_react = __commonJS({
    "global:react"(exports, module) {
      module.exports = globalThis.React;
    }
  });

  // js/src/react.ts
  var react_exports = {};
  __export(react_exports, {
    action: () => action,
    bridge: () => bridge,
    defineAction: () => defineAction,
    defineFlow: () => defineFlow,
    feedback: () => feedback,
    flow: () => flow,
    handoff: () => handoff,
    page: () => page,
    pling: () => pling,
    records: () => records,
    region: () => region,
    startDevCheck: () => startDevCheck,
    state: () => state,
    usePlingAction: () => usePlingAction,
    usePlingFeedback: () => usePlingFeedback,
    usePlingFlow: () => usePlingFlow,
    usePlingHandoff: () => usePlingHandoff,
    usePlingPage: () => usePlingPage,
    usePlingRecords: () => usePlingRecords,
    usePlingRegion: () => usePlingRegion,
    usePlingState: () => usePlingState
  });
  var import_react = __toESM(require_react(), 1);

  // js/src/bridge.ts
  function bridge() {
    const found = globalThis.pling;
    return found && typeof found === "object" && typeof found.action === "function" ? found : void 0;
  }
  var listeners = /* @__PURE__ */ new Set();
  function declared() {
    listeners.forEach((listener) => {
      try {
        listener();
      } catch {
      }
    });
  }
  function onDeclared(listener) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  // js/src/devcheck.ts
  var PREFIX = "[pling]";
  var AFTER_DECLARING_MS = 120;
  function keyOf(problem) {
    return problem.where + "\0" + problem.problem;
  }
  function startDevCheck(options = {}) {
    const out = options.console ?? globalThis.console;
    const intervalMs = options.intervalMs ?? 2e3;
    let printed = /* @__PURE__ */ new Map();
    let told = false;
    let soon;
    let stopped = false;
    function check() {
      soon = void 0;
      if (stopped) return;
      const found = bridge();
      if (!found || typeof found.problems !== "function") {
        if (!told) {
          told = true;
          out.info(found ? `${PREFIX} this bridge cannot list problems (it is older than the declaration package); load a newer /pling.js` : `${PREFIX} no bridge on this page: declarations do nothing until Pling opens it (or the page loads /pling.js)`);
        }
        return;
      }
      let now;
      try {
        now = found.problems();
      } catch (error) {
        out.warn(`${PREFIX} the dev check could not read the problems:`, error);
        return;
      }
      const current = /* @__PURE__ */ new Map();
      for (const problem of now) current.set(keyOf(problem), problem);
      const added = [...current].filter(([key]) => !printed.has(key)).map(([, problem]) => problem);
      const gone = [...printed].filter(([key]) => !current.has(key)).map(([, problem]) => problem);
      if (added.length) {
        const lines = added.map((p) => `  - ${p.where}: ${p.problem}`).join("\n");
        out.warn(`${PREFIX} ${added.length} problem${added.length === 1 ? "" : "s"} in this page's declarations (an agent reads them in model.problems):
${lines}`);
      }
      if (gone.length) {
        const lines = gone.map((p) => `  - ${p.where}: ${p.problem}`).join("\n");
        out.info(`${PREFIX} ${gone.length} problem${gone.length === 1 ? " is" : "s are"} gone:
${lines}`);
      }
      printed = current;
    }
    function later() {
      if (stopped) return;
      if (soon !== void 0) clearTimeout(soon);
      soon = setTimeout(check, AFTER_DECLARING_MS);
    }
    const unsubscribe = onDeclared(later);
    const every = intervalMs > 0 ? setInterval(check, intervalMs) : void 0;
    later();
    return () => {
      stopped = true;
      unsubscribe();
      if (soon !== void 0) clearTimeout(soon);
      if (every !== void 0) clearInterval(every);
    };
  }

  // js/src/index.ts
  var nothing = () => false;
  function declare(kind, declaration) {
    const found = bridge();
    if (!found) return nothing;
    const remove = found[kind](declaration);
    declared();
    return () => {
      const removed = typeof remove === "function" ? remove() : false;
      declared();
      return removed;
    };
  }
  function page(declaration) {
    return declare("page", declaration);
  }
  function region(declaration) {
    return declare("region", declaration);
  }
  function records(declaration) {
    return declare("records", declaration);
  }
  function state(declaration) {
    return declare("state", declaration);
  }
  function action(declaration) {
    return declare("action", declaration);
  }
  function flow(declaration) {
    return declare("flow", declaration);
  }
  function handoff(declaration) {
    return declare("handoff", declaration);
  }
  function feedback(source) {
    return declare("feedback", source);
  }
  var pling = { page, region, records, state, action, flow, handoff, feedback };
  function defineAction(declaration) {
    return declaration;
  }
  function defineFlow(declaration) {
    return declaration;
  }

  // js/src/live.ts
  var LIVE_KEYS = { list: true, value: true, items: true };
  function shapeOf(options) {
    try {
      return JSON.stringify(options, function replacer(key, value) {
        if (this === options && LIVE_KEYS[key]) return void 0;
        if (typeof value === "function") return "<function>";
        return value;
      });
    } catch {
      return "<unwritable>";
    }
  }
  function valueOf(value, ...args) {
    return typeof value === "function" ? value(...args) : value;
  }
  function throughLatest(latest) {
    const first = latest();
    const out = {};
    for (const key of Object.keys(first)) {
      const value = first[key];
      if (LIVE_KEYS[key] || value === void 0) continue;
      if (typeof value === "function") {
        out[key] = (...args) => latest()[key](...args);
      } else if (key === "expect" && value !== null && typeof value === "object") {
        out.expect = { ...value, check: (...args) => {
          const expect = latest().expect;
          return expect.check(...args);
        } };
      } else {
        out[key] = value;
      }
    }
    return out;
  }
  function liveAction(latest) {
    const out = throughLatest(latest);
    if (latest().available !== void 0) {
      out.available = (...id) => valueOf(latest().available, ...id);
    }
    return out;
  }
  function liveRecords(latest) {
    const out = throughLatest(latest);
    out.list = () => valueOf(latest().list);
    return out;
  }
  function liveState(latest) {
    const out = throughLatest(latest);
    out.get = () => {
      const options = latest();
      return typeof options.get === "function" ? options.get() : options.value;
    };
    return out;
  }
  function liveFeedback(latest) {
    return () => valueOf(latest());
  }

  // js/src/react.ts
  var useCommitEffect = typeof document === "undefined" ? import_react.useEffect : import_react.useLayoutEffect;
  function useDeclaration(options, declare2) {
    const ref = (0, import_react.useRef)(options);
    const latest = (0, import_react.useRef)(() => ref.current).current;
    useCommitEffect(() => {
      ref.current = options;
    });
    const shape = shapeOf(options);
    useCommitEffect(() => {
      const remove = declare2(latest);
      return () => {
        remove();
      };
    }, [shape]);
  }
  function usePlingPage(declaration) {
    useDeclaration(declaration, (latest) => page(throughLatest(latest)));
  }
  function usePlingRegion(declaration) {
    useDeclaration(declaration, (latest) => region(throughLatest(latest)));
  }
  function usePlingRecords(declaration) {
    useDeclaration(declaration, (latest) => records(liveRecords(latest)));
  }
  function usePlingState(declaration) {
    useDeclaration(declaration, (latest) => state(liveState(latest)));
  }
  function usePlingAction(declaration) {
    useDeclaration(declaration, (latest) => action(liveAction(latest)));
  }
  function usePlingFlow(declaration) {
    useDeclaration(declaration, (latest) => flow(liveAction(latest)));
  }
  function usePlingHandoff(declaration) {
    useDeclaration(declaration, (latest) => handoff(liveAction(latest)));
  }
  function usePlingFeedback(items) {
    useDeclaration({ items }, (latest) => feedback(liveFeedback(() => latest().items)));
  }
  return __toCommonJS(react_exports);
})();
