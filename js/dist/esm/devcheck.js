// ES module: pling-declare 0.1.0 (js/ in the Pling browser repository; MIT). Built file: edit js/src and run `make js`.
import { bridge, onDeclared } from "./bridge.js";
const PREFIX = "[pling]";
const AFTER_DECLARING_MS = 120;
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
export {
  startDevCheck
};
