// vue.ts: composables that declare while a component is mounted: on `onMounted`, removed on
// `onUnmounted` (outside a component, at once and until the surrounding effect scope ends). Options
// may be a getter (or a ref): callbacks always read the latest options, and a new declaration is made
// only when what the bridge copies changed (an id, a description, params, risk); the record list and a
// state's value may be refs or getters too, read when the bridge asks.

import { getCurrentInstance, getCurrentScope, onMounted, onScopeDispose, onUnmounted, toValue, watch } from 'vue';
import type { MaybeRefOrGetter } from 'vue';
import * as core from './index.js';
import { liveAction, liveFeedback, liveRecords, liveState, shapeOf, throughLatest } from './live.js';
import type { LiveActionDeclaration, LiveFlowDeclaration, LiveHandoffDeclaration, LiveRecordsDeclaration,
  LiveStateDeclaration } from './live.js';
import type { FeedbackItem, PageDeclaration, ParamsInput, ParamsSchema, RegionDeclaration, Remove } from './types.js';

export * from './index.js';
export type { Live, LiveActionDeclaration, LiveFlowDeclaration, LiveHandoffDeclaration, LiveRecordsDeclaration,
  LiveStateDeclaration, LiveAvailable } from './live.js';

/** Records whose `list` may be a ref, a getter or the array. */
export type VueRecordsDeclaration<T> = Omit<LiveRecordsDeclaration<T>, 'list'> & { list: MaybeRefOrGetter<readonly T[]> };

/** State whose `value` may be a ref or a getter. */
export type VueStateDeclaration<V> = Omit<LiveStateDeclaration<V>, 'value' | 'get'> &
  ({ value: MaybeRefOrGetter<V>; get?: undefined } | { get: () => V; value?: undefined });

/** Declares while mounted; answers a function that removes the declaration early. */
function useDeclaration<O extends object>(options: MaybeRefOrGetter<O>, declare: (latest: () => O) => Remove): Remove {
  const latest = () => toValue(options);
  let remove: Remove | null = null;
  const start = () => { remove = declare(latest); };
  const stop = () => {
    const removed = remove ? remove() : false;
    remove = null;
    return removed;
  };
  if (getCurrentInstance()) {
    onMounted(start);
    onUnmounted(stop);
  } else {
    start();
    if (getCurrentScope()) onScopeDispose(stop);
  }
  // Stopped with the component (or scope) it was made in.
  watch(() => shapeOf(latest()), () => {
    if (remove) { stop(); start(); }
  });
  return stop;
}

export function usePlingPage(declaration: MaybeRefOrGetter<PageDeclaration>): Remove {
  return useDeclaration(declaration, (latest) => core.page(throughLatest(latest) as unknown as PageDeclaration));
}

export function usePlingRegion(declaration: MaybeRefOrGetter<RegionDeclaration>): Remove {
  return useDeclaration(declaration, (latest) => core.region(throughLatest(latest) as unknown as RegionDeclaration));
}

export function usePlingRecords<T>(declaration: MaybeRefOrGetter<VueRecordsDeclaration<T>>): Remove {
  return useDeclaration(declaration, (latest) => core.records<T>(liveRecords(() => {
    const options = latest();
    return { ...options, list: () => toValue(options.list) } as unknown as LiveRecordsDeclaration<T>;
  })));
}

export function usePlingState<V>(declaration: MaybeRefOrGetter<VueStateDeclaration<V>>): Remove {
  return useDeclaration(declaration, (latest) => core.state<V>(liveState(() => {
    const options = latest();
    return (options.get ? options : { ...options, get: () => toValue(options.value) }) as LiveStateDeclaration<V>;
  })));
}

export function usePlingAction<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(
  declaration: MaybeRefOrGetter<LiveActionDeclaration<S, Rec>>): Remove {
  return useDeclaration(declaration, (latest) => core.action(liveAction(latest) as never));
}

export function usePlingFlow<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(
  declaration: MaybeRefOrGetter<LiveFlowDeclaration<S, Rec>>): Remove {
  return useDeclaration(declaration, (latest) => core.flow(liveAction(latest) as never));
}

export function usePlingHandoff(declaration: MaybeRefOrGetter<LiveHandoffDeclaration>): Remove {
  return useDeclaration(declaration, (latest) => core.handoff(liveAction(latest) as never));
}

export function usePlingFeedback(items: MaybeRefOrGetter<readonly FeedbackItem[]>): Remove {
  return useDeclaration({ items }, () => core.feedback(liveFeedback(() => toValue(items))));
}
