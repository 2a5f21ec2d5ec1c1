// adapter.ts: types for an adapter (docs/adapters.md), plain JavaScript run with `pling` in scope as a
// variable rather than read from `window`. An adapter's first lines can ask the editor to check it:
//   // @ts-check
//   /// <reference types="pling-declare/adapter" />

import type { Pling } from './types.js';

declare global {
  /** The page API, handed to the adapter by the bridge. */
  const pling: Pling;
}

export {};
