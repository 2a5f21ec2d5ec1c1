// devcheck.ts: in development, the problems an agent would read in `model.problems` printed in the
// browser console as they appear, so a page author sees them without opening Pling. The bridge
// computes them (`pling.problems()`); this only asks, compares with what it printed last, and prints
// what is new and what went away.

import { bridge, onDeclared } from './bridge.js';
import type { Problem } from './types.js';

export interface DevCheckOptions {
  /** Look again this often even when nothing was declared, for problems in the data (a `list()` that
   * starts throwing, an id seen twice). Default 2000 ms; 0 looks only after declarations change. */
  intervalMs?: number;
  /** Where to print; default the browser console. */
  console?: Pick<Console, 'warn' | 'info'>;
}

const PREFIX = '[pling]';
// After a declaration changes, wait for the rest of the render to declare too. Longer than the 50 ms
// the bridge counts as work queued by an action, so the check never delays a receipt.
const AFTER_DECLARING_MS = 120;

function keyOf(problem: Problem): string {
  return problem.where + '\u0000' + problem.problem;
}

/** Starts checking; answers a function that stops it. Call it where your build knows it is in
 * development (`if (import.meta.env.DEV) startDevCheck()`): each check reads the whole model. */
export function startDevCheck(options: DevCheckOptions = {}): () => void {
  const out = options.console ?? globalThis.console;
  const intervalMs = options.intervalMs ?? 2000;
  let printed = new Map<string, Problem>();
  let told = false;
  let soon: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  function check(): void {
    soon = undefined;
    if (stopped) return;
    const found = bridge();
    if (!found || typeof found.problems !== 'function') {
      if (!told) {
        told = true;
        out.info(found
          ? `${PREFIX} this bridge cannot list problems (it is older than the declaration package); load a newer /pling.js`
          : `${PREFIX} no bridge on this page: declarations do nothing until Pling opens it (or the page loads /pling.js)`);
      }
      return;
    }
    let now: Problem[];
    try {
      now = found.problems!();
    } catch (error) {
      out.warn(`${PREFIX} the dev check could not read the problems:`, error);
      return;
    }
    const current = new Map<string, Problem>();
    for (const problem of now) current.set(keyOf(problem), problem);
    const added = [...current].filter(([key]) => !printed.has(key)).map(([, problem]) => problem);
    const gone = [...printed].filter(([key]) => !current.has(key)).map(([, problem]) => problem);
    if (added.length) {
      const lines = added.map((p) => `  - ${p.where}: ${p.problem}`).join('\n');
      out.warn(`${PREFIX} ${added.length} problem${added.length === 1 ? '' : 's'} in this page's declarations ` +
        `(an agent reads them in model.problems):\n${lines}`);
    }
    if (gone.length) {
      const lines = gone.map((p) => `  - ${p.where}: ${p.problem}`).join('\n');
      out.info(`${PREFIX} ${gone.length} problem${gone.length === 1 ? ' is' : 's are'} gone:\n${lines}`);
    }
    printed = current;
  }

  function later(): void {
    if (stopped) return;
    if (soon !== undefined) clearTimeout(soon);
    soon = setTimeout(check, AFTER_DECLARING_MS);
  }

  const unsubscribe = onDeclared(later);
  const every = intervalMs > 0 ? setInterval(check, intervalMs) : undefined;
  later();
  return () => {
    stopped = true;
    unsubscribe();
    if (soon !== undefined) clearTimeout(soon);
    if (every !== undefined) clearInterval(every);
  };
}
