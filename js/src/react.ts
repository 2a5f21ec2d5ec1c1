// react.ts: hooks that declare while a component is mounted. Each declares in an effect and removes in
// its cleanup; callbacks read the latest props and state through a ref, so a re-render declares again
// only when what the bridge copies changed (an id, a description, params, risk), never for new data.
//
// The effects are layout effects: the declaration changes in the same commit as the DOM it describes,
// so a component that mounts shows its actions with its elements and one that unmounts takes them
// away before the browser paints. A passive effect would run later, in a task the bridge's settling
// does not wait for, and a receipt could miss it.

import { useEffect, useLayoutEffect, useRef } from 'react';
import * as core from './index.js';
import { liveAction, liveFeedback, liveRecords, liveState, shapeOf, throughLatest } from './live.js';
import type { Live, LiveActionDeclaration, LiveFlowDeclaration, LiveHandoffDeclaration, LiveRecordsDeclaration,
  LiveStateDeclaration } from './live.js';
import type { FeedbackItem, PageDeclaration, ParamsInput, ParamsSchema, RegionDeclaration, Remove } from './types.js';

export * from './index.js';
export type { Live, LiveActionDeclaration, LiveFlowDeclaration, LiveHandoffDeclaration, LiveRecordsDeclaration,
  LiveStateDeclaration, LiveAvailable } from './live.js';

// Server rendering has no layout effects (and no bridge): a passive effect keeps React quiet there.
const useCommitEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

function useDeclaration<O extends object>(options: O, declare: (latest: () => O) => Remove): void {
  const ref = useRef(options);
  const latest = useRef(() => ref.current).current;
  // Declared before the effect below, so it runs first in every commit: the callbacks see this render.
  useCommitEffect(() => { ref.current = options; });
  const shape = shapeOf(options);
  useCommitEffect(() => {
    const remove = declare(latest);
    return () => { remove(); };
  }, [shape]);
}

/** The page's business id and name, while the component is mounted (a route's page). */
export function usePlingPage(declaration: PageDeclaration): void {
  useDeclaration(declaration, (latest) => core.page(throughLatest(latest) as unknown as PageDeclaration));
}

export function usePlingRegion(declaration: RegionDeclaration): void {
  useDeclaration(declaration, (latest) => core.region(throughLatest(latest) as unknown as RegionDeclaration));
}

/** A record type; `list` may be the array from state: the bridge reads the one of the last commit. */
export function usePlingRecords<T>(declaration: LiveRecordsDeclaration<T>): void {
  useDeclaration(declaration, (latest) => core.records<T>(liveRecords(latest)));
}

/** A named read-only view: `value` (the one of the last commit) or `get()`. */
export function usePlingState<V>(declaration: LiveStateDeclaration<V>): void {
  useDeclaration(declaration, (latest) => core.state<V>(liveState(latest)));
}

/** An action; `available` may be `true` or a reason as a value, kept up to date by rendering. */
export function usePlingAction<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(
  declaration: LiveActionDeclaration<S, Rec>): void {
  useDeclaration(declaration, (latest) => core.action(liveAction(latest) as never));
}

export function usePlingFlow<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(
  declaration: LiveFlowDeclaration<S, Rec>): void {
  useDeclaration(declaration, (latest) => core.flow(liveAction(latest) as never));
}

export function usePlingHandoff(declaration: LiveHandoffDeclaration): void {
  useDeclaration(declaration, (latest) => core.handoff(liveAction(latest) as never));
}

/** What the page shows now (toasts, inline errors): the items of the last commit, or a function. */
export function usePlingFeedback(items: Live<readonly FeedbackItem[]>): void {
  useDeclaration({ items }, (latest) => core.feedback(liveFeedback(() => latest().items)));
}
