import type { MaybeRefOrGetter } from 'vue';
import type { LiveActionDeclaration, LiveFlowDeclaration, LiveHandoffDeclaration, LiveRecordsDeclaration, LiveStateDeclaration } from './live.js';
import type { FeedbackItem, PageDeclaration, ParamsInput, ParamsSchema, RegionDeclaration, Remove } from './types.js';
export * from './index.js';
export type { Live, LiveActionDeclaration, LiveFlowDeclaration, LiveHandoffDeclaration, LiveRecordsDeclaration, LiveStateDeclaration, LiveAvailable } from './live.js';
/** Records whose `list` may be a ref, a getter or the array. */
export type VueRecordsDeclaration<T> = Omit<LiveRecordsDeclaration<T>, 'list'> & {
    list: MaybeRefOrGetter<readonly T[]>;
};
/** State whose `value` may be a ref or a getter. */
export type VueStateDeclaration<V> = Omit<LiveStateDeclaration<V>, 'value' | 'get'> & ({
    value: MaybeRefOrGetter<V>;
    get?: undefined;
} | {
    get: () => V;
    value?: undefined;
});
export declare function usePlingPage(declaration: MaybeRefOrGetter<PageDeclaration>): Remove;
export declare function usePlingRegion(declaration: MaybeRefOrGetter<RegionDeclaration>): Remove;
export declare function usePlingRecords<T>(declaration: MaybeRefOrGetter<VueRecordsDeclaration<T>>): Remove;
export declare function usePlingState<V>(declaration: MaybeRefOrGetter<VueStateDeclaration<V>>): Remove;
export declare function usePlingAction<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(declaration: MaybeRefOrGetter<LiveActionDeclaration<S, Rec>>): Remove;
export declare function usePlingFlow<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(declaration: MaybeRefOrGetter<LiveFlowDeclaration<S, Rec>>): Remove;
export declare function usePlingHandoff(declaration: MaybeRefOrGetter<LiveHandoffDeclaration>): Remove;
export declare function usePlingFeedback(items: MaybeRefOrGetter<readonly FeedbackItem[]>): Remove;
