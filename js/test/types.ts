// types.ts: what the types must accept and refuse, checked by `tsc` (tests/test_declare_package.py).
// Each `@ts-expect-error` fails the compile when the line under it is NOT an error, so a type that
// became too loose (args typed `unknown`, a family's id no longer passed) breaks the build, and each
// `Same<…>` fails when an inferred type is not exactly the one named.

import { defineAction, pling } from 'pling-declare';
import type { Args, Remove } from 'pling-declare';
import { usePlingAction, usePlingRecords, usePlingState } from 'pling-declare/react';
import * as vue from 'pling-declare/vue';
import { ref } from 'vue';

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
function same<A, B>(_proof: Same<A, B>): void { /* a compile-time check */ }

interface Task { id: string; text: string; done: boolean }
const tasks: Task[] = [];

// `params` types `args`: required properties are required, others optional, nothing else allowed.
const removeAdd: Remove = pling.action({
  id: 'add_todo', description: 'Add a task', region: 'toolbar', risk: 'write',
  params: { type: 'object', properties: { text: { type: 'string', minLength: 1 }, due: { type: ['string', 'null'] } },
            required: ['text'], additionalProperties: false },
  run: (args) => { same<typeof args, { text: string; due?: string | null }>(true); return { id: 't1' }; },
  expect: { description: 'The task is in the list', check: ({ text }) => tasks.some((t) => t.text === text) },
});
void removeAdd;

pling.action({
  id: 'add_wrong', params: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
  // @ts-expect-error: count is a number, not a string
  run: ({ count }) => count.toUpperCase(),
});

// A schema kept in a variable keeps its literal types with `as const`; without it, `type` is a string.
const search = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } as const;
pling.action({ id: 'search_by', params: search, run: ({ q }) => q.trim() });
const widened = { type: 'object', properties: { q: { type: 'string' } } };
// @ts-expect-error: `type: string` is not a JSON Schema type name (write the schema `as const`)
pling.action({ id: 'search_widened', params: widened, run: () => 1 });

// Without params, args are JSON values by name.
pling.action({ id: 'clear', run: (args) => { same<typeof args, Args>(true); } });

// A family: callbacks get the record id after their arguments (SPEC's one rule).
pling.action({
  id: 'remove', record: 'task', risk: 'danger',
  target: (id) => { same<typeof id, string>(true); return document.getElementById(id); },
  available: (id) => (id === 'locked' ? 'The task is locked' : true),
  reveal: (id) => document.getElementById(id)?.scrollIntoView(),
  expect: { check: (_args, id) => !tasks.some((t) => t.id === id) },
});
pling.action({ id: 'rename', record: 'task', run: (args, id) => { same<typeof id, string>(true); return [args, id]; } });

// @ts-expect-error: a plain action's run() gets no record id
pling.action({ id: 'plain', run: (_args, id) => id });

// @ts-expect-error: an action needs run() or target()
pling.action({ id: 'nothing' });

// @ts-expect-error: with a target, run() would never be called
pling.action({ id: 'both', target: () => null, run: () => 1 });

// Gestures are SPEC's.
pling.action({ id: 'search', target: () => null, gesture: { press: 'Enter' } });
pling.action({ id: 'suggest', target: () => null, gesture: { type: true, commit: 'none' } });
pling.action({ id: 'move', record: 'task', target: () => null, gesture: { drag: 't2' } });
pling.action({ id: 'move_to', record: 'task', target: () => null, gesture: { drag: '{column}', record: 'column' },
               params: { type: 'object', properties: { column: { type: 'string' } }, required: ['column'] } });
pling.action({ id: 'slide', record: 'mark', target: () => null, gesture: { drag: '{record}' } });
// @ts-expect-error: a drag is alone (no keys with it)
pling.action({ id: 'drag_and_type', target: () => null, gesture: { drag: 't2', press: 'Enter' } });
// @ts-expect-error: a record type belongs to a drag only
pling.action({ id: 'typed', target: () => null, gesture: { type: true, record: 'task' } });
// @ts-expect-error: not a gesture
pling.action({ id: 'swipe', target: () => null, gesture: 'swipe' });

// @ts-expect-error: risk is read, write or danger
pling.action({ id: 'risky', risk: 'high', run: () => 1 });

// Records: the item type comes from list(); without id(), items need an `id`.
pling.records({ type: 'task', list: () => tasks, label: (t) => t.text, fields: (t) => ({ done: t.done }) });
// @ts-expect-error: these items have no id, so id() is required
pling.records({ type: 'row', list: () => [{ name: 'a' }] });
pling.records({ type: 'row', list: () => [{ name: 'a' }], id: (row) => row.name });

pling.state({ key: 'filter', description: 'Which tasks are shown', get: () => 'open' });
pling.region({ id: 'list', name: 'Tasks', role: 'list', more: () => ({ count: 3, hint: 'Load more' }) });
pling.region({ id: 'pages', more: () => ({ count: null, hint: 'There are more; how many is not known' }) });
pling.flow({
  id: 'rename_flow', record: 'task', params: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  steps: [{ action: 'edit@{record}' }, { action: 'edit_text', args: { text: '{text}' } }, { action: 'save_edit' }],
});
// @ts-expect-error: a flow has at least one step
pling.flow({ id: 'empty', steps: [] });
pling.handoff({ id: 'enter_otp', description: 'Type the code sent to your phone', done: () => true, timeoutMs: 120000 });
// @ts-expect-error: feedback kinds are error, warning, info and success
pling.feedback(() => [{ kind: 'fatal', text: 'x' }]);

// defineAction keeps the inference for a declaration made apart from its registration.
const double = defineAction({
  id: 'double', params: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  run: ({ n }) => n * 2,
});
pling.action(double);

// The window global is typed where the package is imported.
window.pling?.state({ key: 'k', get: () => 1 });

// React: a value for availability and for state; the list as the array from state.
export function TaskList({ locked }: { locked: boolean }): null {
  usePlingRecords({ type: 'task', list: tasks, label: (t) => t.text });
  usePlingState({ key: 'count', value: tasks.length });
  usePlingAction({
    id: 'add', params: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    available: locked ? 'The list is locked' : true,
    run: ({ text }) => text.toUpperCase(),
  });
  usePlingAction({ id: 'toggle', record: 'task', run: (_args, id) => id.toUpperCase(), available: (id) => id !== 'x' });
  // @ts-expect-error: state is given by value or get(), not both
  usePlingState({ key: 'both', value: 1, get: () => 2 });
  return null;
}

// Vue: refs and getters where values go, a getter for the whole declaration.
export function useTasks(): void {
  const list = ref<Task[]>([]);
  const locked = ref(false);
  vue.usePlingRecords({ type: 'task', list, label: (t) => t.text });
  vue.usePlingState({ key: 'count', value: () => list.value.length });
  vue.usePlingAction(() => ({ id: 'clear_done', available: locked.value ? 'Locked' : true, run: () => { list.value = []; } }));
  vue.usePlingAction({
    id: 'add', params: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    run: ({ text }) => { same<typeof text, string>(true); },
  });
}
