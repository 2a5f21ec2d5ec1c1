// live.ts: what the React hooks and the Vue composables share. A component re-renders often; its
// declaration should not be removed and made again each time, only when what the bridge copies at
// declaration time changes (ids, descriptions, risk, params, which callbacks exist). So a declaration is
// made once from the options of the moment, with every callback reading the latest options when the
// bridge calls it; `shapeOf` says when the copied part changed and a new declaration is due.

import type {
  ActionDeclaration, Availability, AvailableFn, FeedbackSource, FlowDeclaration, HandoffDeclaration, RecordIdRule,
  RecordsDeclaration, RecordsFields, StateDeclaration,
} from './types.js';

/** A value, or a function that answers it when asked. */
export type Live<T> = T | (() => T);

/** Availability as a value (kept up to date by re-rendering) or as the bridge's function. */
export type LiveAvailable<Rec> = Availability | AvailableFn<Rec>;

export type LiveActionDeclaration<S, Rec extends string | undefined> = ActionDeclaration<S, Rec, LiveAvailable<Rec>>;
export type LiveFlowDeclaration<S, Rec extends string | undefined> = FlowDeclaration<S, Rec, LiveAvailable<Rec>>;
export type LiveHandoffDeclaration = HandoffDeclaration<LiveAvailable<undefined>>;

/** Records whose `list` may be the array itself. */
export type LiveRecordsDeclaration<T> = Omit<RecordsFields<T>, 'list'> & { list: Live<readonly T[]> } & RecordIdRule<T>;

/** State given as its `value` (kept up to date by re-rendering) or as `get()`. */
export type LiveStateDeclaration<V> = Omit<StateDeclaration<V>, 'get'> & ({ value: V; get?: undefined } | { get: () => V; value?: undefined });

// Keys whose values are read live and never copied: a change of them is not a change of shape.
const LIVE_KEYS: Record<string, true> = { list: true, value: true, items: true };

/** The part of a declaration the bridge copies, as text: functions count only by being there. A value
 * JSON cannot write (a cycle, a BigInt) gives a fixed text: the declaration is then made again only
 * when the component mounts again, never for every render, and the app never breaks on it. */
export function shapeOf(options: object): string {
  try {
    return JSON.stringify(options, function replacer(this: unknown, key: string, value: unknown) {
      if (this === options && LIVE_KEYS[key]) return undefined;
      if (typeof value === 'function') return '<function>';
      return value;
    });
  } catch {
    return '<unwritable>';
  }
}

function valueOf<T>(value: Live<T>, ...args: unknown[]): T {
  return typeof value === 'function' ? (value as (...a: unknown[]) => T)(...args) : value;
}

type AnyOptions = Record<string, unknown>;

/** A declaration for the bridge made from `latest()`: static fields copied now, every function a
 * stand-in that calls the latest options' function of the same name. */
export function throughLatest(latest: () => object): Record<string, unknown> {
  const first = latest() as AnyOptions;
  const out: AnyOptions = {};
  for (const key of Object.keys(first)) {
    const value = first[key];
    if (LIVE_KEYS[key] || value === undefined) continue;
    if (typeof value === 'function') {
      out[key] = (...args: unknown[]) => ((latest() as AnyOptions)[key] as (...a: unknown[]) => unknown)(...args);
    } else if (key === 'expect' && value !== null && typeof value === 'object') {
      out.expect = { ...(value as AnyOptions), check: (...args: unknown[]) => {
        const expect = (latest() as AnyOptions).expect as { check: (...a: unknown[]) => unknown };
        return expect.check(...args);
      } };
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** An action (or flow, or handoff) whose `available` may be a value. */
export function liveAction(latest: () => { available?: unknown }): Record<string, unknown> {
  const out = throughLatest(latest);
  if (latest().available !== undefined) {
    out.available = (...id: unknown[]) => valueOf(latest().available as Live<Availability>, ...id);
  }
  return out;
}

export function liveRecords<T>(latest: () => LiveRecordsDeclaration<T>): RecordsDeclaration<T> {
  const out = throughLatest(latest) as unknown as RecordsDeclaration<T>;
  out.list = () => valueOf(latest().list);
  return out;
}

export function liveState<V>(latest: () => LiveStateDeclaration<V>): StateDeclaration<V> {
  const out = throughLatest(latest) as unknown as StateDeclaration<V>;
  out.get = () => {
    const options = latest();
    return typeof options.get === 'function' ? options.get() : (options.value as V);
  };
  return out;
}

export function liveFeedback(latest: () => Live<ReturnType<FeedbackSource>>): FeedbackSource {
  return () => valueOf(latest());
}
