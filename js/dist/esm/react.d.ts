import type { Live, LiveActionDeclaration, LiveFlowDeclaration, LiveHandoffDeclaration, LiveRecordsDeclaration, LiveStateDeclaration } from './live.js';
import type { FeedbackItem, PageDeclaration, ParamsInput, ParamsSchema, RegionDeclaration } from './types.js';
export * from './index.js';
export type { Live, LiveActionDeclaration, LiveFlowDeclaration, LiveHandoffDeclaration, LiveRecordsDeclaration, LiveStateDeclaration, LiveAvailable } from './live.js';
/** The page's business id and name, while the component is mounted (a route's page). */
export declare function usePlingPage(declaration: PageDeclaration): void;
export declare function usePlingRegion(declaration: RegionDeclaration): void;
/** A record type; `list` may be the array from state: the bridge reads the one of the last commit. */
export declare function usePlingRecords<T>(declaration: LiveRecordsDeclaration<T>): void;
/** A named read-only view: `value` (the one of the last commit) or `get()`. */
export declare function usePlingState<V>(declaration: LiveStateDeclaration<V>): void;
/** An action; `available` may be `true` or a reason as a value, kept up to date by rendering. */
export declare function usePlingAction<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(declaration: LiveActionDeclaration<S, Rec>): void;
export declare function usePlingFlow<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(declaration: LiveFlowDeclaration<S, Rec>): void;
export declare function usePlingHandoff(declaration: LiveHandoffDeclaration): void;
/** What the page shows now (toasts, inline errors): the items of the last commit, or a function. */
export declare function usePlingFeedback(items: Live<readonly FeedbackItem[]>): void;
