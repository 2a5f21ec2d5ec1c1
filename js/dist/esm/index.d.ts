import { bridge } from './bridge.js';
import type { ActionDeclaration, FeedbackSource, FlowDeclaration, HandoffDeclaration, PageDeclaration, ParamsInput, ParamsSchema, RecordsDeclaration, RegionDeclaration, Remove, StateDeclaration } from './types.js';
export type * from './types.js';
export { startDevCheck } from './devcheck.js';
export type { DevCheckOptions } from './devcheck.js';
export { bridge };
export declare function page(declaration: PageDeclaration): Remove;
export declare function region(declaration: RegionDeclaration): Remove;
export declare function records<T>(declaration: RecordsDeclaration<T>): Remove;
export declare function state<V>(declaration: StateDeclaration<V>): Remove;
export declare function action<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(declaration: ActionDeclaration<S, Rec>): Remove;
export declare function flow<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(declaration: FlowDeclaration<S, Rec>): Remove;
export declare function handoff(declaration: HandoffDeclaration): Remove;
export declare function feedback(source: FeedbackSource): Remove;
/** The same functions under the names `window.pling` uses: `pling.action({…})` reads as in SPEC. */
export declare const pling: {
    readonly page: typeof page;
    readonly region: typeof region;
    readonly records: typeof records;
    readonly state: typeof state;
    readonly action: typeof action;
    readonly flow: typeof flow;
    readonly handoff: typeof handoff;
    readonly feedback: typeof feedback;
};
/** Returns its argument, typed: an action declared apart from the call that registers it (in a module
 * of its own, or handed to a hook) still gets `args` typed from its `params`. */
export declare function defineAction<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(declaration: ActionDeclaration<S, Rec>): ActionDeclaration<S, Rec>;
/** `defineAction` for flows. */
export declare function defineFlow<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(declaration: FlowDeclaration<S, Rec>): FlowDeclaration<S, Rec>;
