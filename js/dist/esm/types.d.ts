import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
/** `read` never asks a person; `write` asks when the action says `confirm: true` or the operator's
 * policy says so; `danger` always asks. */
export type Risk = 'read' | 'write' | 'danger';
/** What every declaration answers: removes that very declaration (true when it was still there). A
 * later declaration with the same id replaced it, so the remover of the earlier one does nothing. */
export type Remove = () => boolean;
/** A record's business id as callbacks receive it: always a string (a number id becomes a string). */
export type RecordId = string;
/** What an element action or a record points at: the element itself, or nothing when it is not on the
 * page now (then the action is unavailable, with that reason). */
export type Target = Element | null | undefined;
/** `true`, or the reason it cannot run now (unavailable is not absent). `false` is unavailable with no
 * reason; prefer a reason. */
export type Availability = boolean | string;
/** A JSON Schema (draft 2020-12 subset) for an action's arguments: an object schema. */
export type ParamsSchema = Exclude<JSONSchema, boolean>;
/** Arguments whose shape is not known from a schema: JSON values by name. */
export type Args = {
    [name: string]: unknown;
};
/** Whether the compiler checks nulls: json-schema-to-ts needs it (without it `undefined` fits every
 * type, and its types recurse without end: TS2589 in a project that is not `strict`). */
type NullsChecked = undefined extends string ? false : true;
/** What `params` takes. Where nulls are checked, a JSON Schema whose keywords are literals: an inline
 * schema is, a schema kept in a variable needs `as const` (or JSDoc's `@type {const}`) so that `type:
 * 'object'` is not widened to `string`. Where they are not (plain JavaScript checked loosely, say), any
 * object: such a project gets no typed `args` anyway. */
export type ParamsInput = NullsChecked extends false ? object : ParamsSchema;
/** Arguments in a project that does not check nulls: as loose as the rest of such a project. */
export type LooseArgs = {
    [name: string]: any;
};
/** The type of `args` for a `params` schema: inferred from a literal schema where nulls are checked,
 * `Args` for a schema that is not a literal, `LooseArgs` in a project that does not check nulls. */
export type ArgsOf<S> = NullsChecked extends false ? LooseArgs : [S] extends [ParamsSchema] ? (ParamsSchema extends S ? Args : FromSchema<S>) : Args;
/** The record id that a family's callbacks get after their arguments; nothing for a plain action. */
export type IdArg<Rec> = [Rec] extends [string] ? [id: RecordId] : [];
export interface PageDeclaration {
    /** The page's business id: the same id across documents means the same page (a diff by ids). */
    id: string;
    name?: string;
}
/** What a region says it holds beyond what is shown (a list with more to load). */
export interface More {
    /** How many more there are; `null` when there are more but how many is not known. */
    count: number | null;
    hint?: string;
}
export interface RegionDeclaration {
    id: string;
    name?: string;
    purpose?: string;
    /** An ARIA landmark or widget role: `list`, `form`, `main`, `dialog`… */
    role?: string;
    /** The id of the region this one is part of. */
    parent?: string;
    more?: () => More | null | undefined;
}
/** Without `id`, a record's id is its own `id` property, so the item type must have one. */
export type RecordIdRule<T> = T extends {
    readonly id: string | number;
} ? {
    id?: (item: T) => string | number;
} : {
    id: (item: T) => string | number;
};
export interface RecordsFields<T> {
    /** The record type: `task`, `order`. Families name it in `record`. */
    type: string;
    region?: string;
    /** The whole active set, in display order (ids for all of it; fields for a window). */
    list: () => readonly T[];
    /** Default: `label`, `name` or `title` of the item. */
    label?: (item: T) => string | number | null | undefined;
    /** The trimmed view of one record. Never the raw object: only what an agent should read. */
    fields?: (item: T) => {
        readonly [name: string]: unknown;
    };
    /** Field names shown only as `<secret>…</secret>` references. */
    sensitive?: readonly string[];
    /** The record's element, for visibility. */
    element?: (id: RecordId) => Target;
    /** Brings a record into view (may lazy-load); may answer a promise. */
    reveal?: (id: RecordId) => unknown;
}
export type RecordsDeclaration<T> = RecordsFields<T> & RecordIdRule<T>;
export interface StateDeclaration<V = unknown> {
    key: string;
    description?: string;
    /** A named, read-only view of the page's state. */
    get: () => V;
    /** Shown only as a `<secret>…</secret>` reference. */
    sensitive?: boolean;
}
/** Truthy once the action's effect is visible; may answer a promise. */
export type Check<A, Rec> = (args: A, ...id: IdArg<Rec>) => boolean | PromiseLike<boolean>;
export type Expectation<A, Rec> = Check<A, Rec> | {
    /** What should be true afterwards, in the page's words; the receipt repeats it. */
    description?: string;
    check: Check<A, Rec>;
    /** How long to poll the check (default: the action's timeout). */
    timeoutMs?: number;
};
/** How an element action operates its target when the control's own gesture is not the one (SPEC):
 * a click, a double click, focus or hover, or a key, keystrokes, how a fill ends, or a drag. */
export type Gesture = 'click' | 'dblclick' | 'focus' | 'hover' | GestureOptions;
/** Keys and how a fill ends; `press` goes with `type` or a fill, `commit` with either. */
export interface KeyGesture {
    /** A key (`'Enter'`, `'Control+a'`): alone, or after the fill of a text field. */
    press?: string;
    /** Keystrokes one by one, for widgets that listen to keys. */
    type?: true;
    /** How a fill ends: `'blur'` (default: the field also gets `change`), `'enter'`, or `'none'`
     * (focus stays, so an autocomplete can open). */
    commit?: 'blur' | 'enter' | 'none';
    drag?: never;
    record?: never;
    drop?: never;
}
/** A drag onto another record's element; always alone. */
export interface DragGesture {
    /** The destination record: its id literally, `'{param}'` (the argument that param names), or
     * `'{record}'` (in a family, the record the invocation names). */
    drag: RecordId | `{${string}}`;
    /** The destination's record type; default the action's own `record`. */
    record?: string;
    /** Where it lets go: `'past'` (default: a quarter past the destination's centre, the way it
     * travels, so a sortable list reorders) or `'centre'` (at the centre: a box put inside another). */
    drop?: 'past' | 'centre';
    press?: never;
    type?: never;
    commit?: never;
}
/** px from the element's top left: a number, or `'{param}'` (the argument that holds one). */
export type PointAxis = number | `{${string}}`;
/** The pointer at a point of the element rather than its centre (a map, a canvas, an area that
 * answers where the pointer is); always alone. A point outside the element is refused. */
export type PointGesture = {
    hover: {
        x: PointAxis;
        y: PointAxis;
    };
} | {
    click: {
        x: PointAxis;
        y: PointAxis;
    };
};
export type GestureOptions = KeyGesture | DragGesture | PointGesture;
export type AvailableFn<Rec> = (...id: IdArg<Rec>) => Availability;
/** What every action, flow and handoff declares. `Av` is how availability is given: a function for
 * `window.pling`; the hooks and composables also take a value. */
export interface ActionFields<S, Rec, Av> {
    /** The business id (no `@`): a family's instances are `ID@RECORD`. */
    id: string;
    description?: string;
    region?: string;
    /** Makes this a family: one action per record of this type, named `ID@RECORD`. */
    record?: Rec;
    /** Default `write`: an action that says nothing is not assumed harmless. */
    risk?: Risk;
    /** A `write` that asks a person every time. */
    confirm?: boolean;
    /** JSON Schema of the arguments (an object schema). */
    params?: S;
    /** How long `run()` or the gesture may take (default: the operator's PLING_ACTION_TIMEOUT). */
    timeoutMs?: number;
    available?: Av;
    /** Brings the target into view (may lazy-load); may answer a promise. */
    reveal?: (...id: IdArg<Rec>) => unknown;
    expect?: Expectation<ArgsOf<S>, Rec>;
}
/** A function action: the page's own write path, called with the arguments; may answer small data. */
export interface FunctionActionDeclaration<S, Rec, Av = AvailableFn<Rec>> extends ActionFields<S, Rec, Av> {
    run: (args: ArgsOf<S>, ...id: IdArg<Rec>) => unknown;
    target?: undefined;
    gesture?: undefined;
}
/** An element action: a control the runtime operates as a person would, with trusted input. */
export interface ElementActionDeclaration<S, Rec, Av = AvailableFn<Rec>> extends ActionFields<S, Rec, Av> {
    target: (...id: IdArg<Rec>) => Target;
    gesture?: Gesture;
    /** An action with a target is an element action: its target is operated, a `run` would be ignored. */
    run?: undefined;
}
export type ActionDeclaration<S = ParamsSchema, Rec extends string | undefined = string | undefined, Av = AvailableFn<Rec>> = FunctionActionDeclaration<S, Rec, Av> | ElementActionDeclaration<S, Rec, Av>;
export interface FlowStep {
    /** An action id, `ACTION@RECORD`, or `ACTION@{record}` for the flow's own record. */
    action: string;
    /** Arguments; `'{name}'` takes the flow's argument of that name. */
    args?: {
        readonly [name: string]: unknown;
    };
}
/** A composite action: one tool, one business operation, run step by step. */
export interface FlowDeclaration<S = ParamsSchema, Rec extends string | undefined = string | undefined, Av = AvailableFn<Rec>> extends ActionFields<S, Rec, Av> {
    steps: readonly [FlowStep, ...FlowStep[]];
}
/** A step only the user may do (type a code sent to their phone); never confirmed, never automated. */
export interface HandoffDeclaration<Av = AvailableFn<undefined>> {
    id: string;
    description?: string;
    region?: string;
    /** True once the person has done the step. */
    done: () => boolean;
    /** How long to wait for the person. */
    timeoutMs?: number;
    available?: Av;
}
export type FeedbackKind = 'error' | 'warning' | 'info' | 'success';
export interface FeedbackItem {
    kind: FeedbackKind;
    text: string;
}
/** What the page shows now: toasts, inline errors, flash messages. */
export type FeedbackSource = () => readonly FeedbackItem[];
/** One problem with the page's declarations or data, as an agent reads it in `model.problems`. */
export interface Problem {
    where: string;
    problem: string;
}
/** `window.pling`, as the bridge defines it. */
export interface Pling {
    readonly version: string;
    page(declaration: PageDeclaration): Remove;
    region(declaration: RegionDeclaration): Remove;
    records<T>(declaration: RecordsDeclaration<T>): Remove;
    state<V>(declaration: StateDeclaration<V>): Remove;
    action<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(declaration: ActionDeclaration<S, Rec>): Remove;
    flow<const S extends ParamsInput = ParamsSchema, const Rec extends string | undefined = undefined>(declaration: FlowDeclaration<S, Rec>): Remove;
    handoff(declaration: HandoffDeclaration): Remove;
    feedback(source: FeedbackSource): Remove;
    /** The problems an agent would read in the model now, and references the model cannot state (an
     * action's region or record type that is not declared). For development; bridges before this
     * package have none. */
    problems?(): Problem[];
}
declare global {
    interface Window {
        /** Defined by the Pling bridge before any page script runs (when Pling opened the page, or the
         * page loaded /pling.js); absent otherwise. */
        pling?: Pling;
    }
}
export {};
