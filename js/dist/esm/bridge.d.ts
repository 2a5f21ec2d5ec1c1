import type { Pling } from './types.js';
/** The bridge's `window.pling`, or undefined where no bridge is loaded. */
export declare function bridge(): Pling | undefined;
export declare function declared(): void;
export declare function onDeclared(listener: () => void): () => void;
