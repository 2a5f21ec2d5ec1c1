// bridge.ts: where the bridge is found, and the one signal the package keeps: that a declaration made
// through it was added or removed (the dev check looks again soon after).

import type { Pling } from './types.js';

/** The bridge's `window.pling`, or undefined where no bridge is loaded. */
export function bridge(): Pling | undefined {
  const found = (globalThis as { pling?: unknown }).pling as Pling | undefined;
  return found && typeof found === 'object' && typeof found.action === 'function' ? found : undefined;
}

const listeners = new Set<() => void>();

export function declared(): void {
  listeners.forEach((listener) => {
    try { listener(); } catch { /* a listener's failure is its own */ }
  });
}

export function onDeclared(listener: () => void): () => void {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}
