import type { ActionDeclaration, Availability, AvailableFn, FeedbackSource, FlowDeclaration, HandoffDeclaration, RecordIdRule, RecordsDeclaration, RecordsFields, StateDeclaration } from './types.js';
/** A value, or a function that answers it when asked. */
export type Live<T> = T | (() => T);
/** Availability as a value (kept up to date by re-rendering) or as the bridge's function. */
export type LiveAvailable<Rec> = Availability | AvailableFn<Rec>;
export type LiveActionDeclaration<S, Rec extends string | undefined> = ActionDeclaration<S, Rec, LiveAvailable<Rec>>;
export type LiveFlowDeclaration<S, Rec extends string | undefined> = FlowDeclaration<S, Rec, LiveAvailable<Rec>>;
export type LiveHandoffDeclaration = HandoffDeclaration<LiveAvailable<undefined>>;
/** Records whose `list` may be the array itself. */
export type LiveRecordsDeclaration<T> = Omit<RecordsFields<T>, 'list'> & {
    list: Live<readonly T[]>;
} & RecordIdRule<T>;
/** State given as its `value` (kept up to date by re-rendering) or as `get()`. */
export type LiveStateDeclaration<V> = Omit<StateDeclaration<V>, 'get'> & ({
    value: V;
    get?: undefined;
} | {
    get: () => V;
    value?: undefined;
});
/** The part of a declaration the bridge copies, as text: functions count only by being there. A value
 * JSON cannot write (a cycle, a BigInt) gives a fixed text: the declaration is then made again only
 * when the component mounts again, never for every render, and the app never breaks on it. */
export declare function shapeOf(options: object): string;
/** A declaration for the bridge made from `latest()`: static fields copied now, every function a
 * stand-in that calls the latest options' function of the same name. */
export declare function throughLatest(latest: () => object): Record<string, unknown>;
/** An action (or flow, or handoff) whose `available` may be a value. */
export declare function liveAction(latest: () => {
    available?: unknown;
}): Record<string, unknown>;
export declare function liveRecords<T>(latest: () => LiveRecordsDeclaration<T>): RecordsDeclaration<T>;
export declare function liveState<V>(latest: () => LiveStateDeclaration<V>): StateDeclaration<V>;
export declare function liveFeedback(latest: () => Live<ReturnType<FeedbackSource>>): FeedbackSource;
