import type { Pling } from './types.js';
declare global {
    /** The page API, handed to the adapter by the bridge. */
    const pling: Pling;
}
export {};
