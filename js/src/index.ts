// index.ts: typed declarations over the bridge's own `window.pling`. There is no second registry:
// each function looks the bridge up when it is called and hands the declaration to it, so what the
// model shows is what the bridge accepted (a malformed declaration is still the bridge's problem to
// state). Without a bridge (a person's browser, no Pling) declaring does nothing.

import { bridge, declared } from './bridge.js';
import type {
  ActionDeclaration, FeedbackSource, FlowDeclaration, HandoffDeclaration, PageDeclaration, ParamsInput, ParamsSchema,
  RecordsDeclaration, RegionDeclaration, Remove, StateDeclaration,
} from './types.js';

export type * from './types.js';
export { startDevCheck } from './devcheck.js';
export type { DevCheckOptions } from './devcheck.js';

export { bridge };

const nothing: Remove = () => false;

type Kind = 'page' | 'region' | 'records' | 'state' | 'action' | 'flow' | 'handoff' | 'feedback';

// The remover is wrapped only to tell the dev check that the declarations changed.
function declare(kind: Kind, declaration: unknown): Remove {
  const found = bridge();
  if (!found) return nothing;
  const remove = (found[kind] as (d: unknown) => Remove)(declaration);
  declared();
  return () => {
    const removed = typeof remove === 'function' ? remove() : false;
    declared();
    return removed;
  };
}

export function page(declaration: PageDeclaration): Remove {
  return declare('page', declaration);
}

export function region(declaration: RegionDeclaration): Remove {
  return declare('region', declaration);
}

export function records<T>(declaration: RecordsDeclaration<T>): Remove {
  return declare('records', declaration);
}

export function state<V>(declaration: StateDeclaration<V>): Remove {
  return declare('state', declaration);
}

export function action<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(
  declaration: ActionDeclaration<S, Rec>): Remove {
  return declare('action', declaration);
}

export function flow<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(
  declaration: FlowDeclaration<S, Rec>): Remove {
  return declare('flow', declaration);
}

export function handoff(declaration: HandoffDeclaration): Remove {
  return declare('handoff', declaration);
}

export function feedback(source: FeedbackSource): Remove {
  return declare('feedback', source);
}

/** The same functions under the names `window.pling` uses: `pling.action({…})` reads as in SPEC. */
export const pling = { page, region, records, state, action, flow, handoff, feedback } as const;

/** Returns its argument, typed: an action declared apart from the call that registers it (in a module
 * of its own, or handed to a hook) still gets `args` typed from its `params`. */
export function defineAction<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(
  declaration: ActionDeclaration<S, Rec>): ActionDeclaration<S, Rec> {
  return declaration;
}

/** `defineAction` for flows. */
export function defineFlow<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(
  declaration: FlowDeclaration<S, Rec>): FlowDeclaration<S, Rec> {
  return declaration;
}
