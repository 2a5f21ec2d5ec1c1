// @ts-check
/// <reference types="pling-declare/adapter" />
// loose.js: declarations as operators write adapters (plain JavaScript, `pling` in scope), checked in a
// project that does not check nulls (js/tsconfig.loose.json). Such a project must get no
// "excessively deep" error (json-schema-to-ts's types need strict null checks), and a schema kept in a
// variable (its `type` widened to string) must be accepted.

const value = { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] };
const rowFor = (/** @type {string} */ id) => document.querySelector(`tr[data-id="${id}"]`);

pling.page({ id: 'orders', name: 'Orders' });
pling.region({ id: 'table', name: 'Orders', role: 'table', more: () => ({ count: null, hint: 'Next page' }) });
pling.records({ type: 'order', region: 'table', list: () => Array.from(document.querySelectorAll('tr[data-id]')),
                id: (tr) => tr.getAttribute('data-id'), label: (tr) => tr.textContent });
pling.action({ id: 'note', description: 'Type a note', risk: 'write', target: () => document.querySelector('#note'), params: value });
pling.action({
  id: 'add', description: 'Add an order', params: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] },
  run: ({ ref }) => ref.trim(),
  expect: { description: 'The order is listed', check: ({ ref }) => !!rowFor(ref) },
});
pling.action({ id: 'cancel', record: 'order', risk: 'danger', run: (args, id) => rowFor(id)?.remove() });
pling.action({ id: 'search', target: () => document.querySelector('#q'), gesture: { press: 'Enter' } });
pling.flow({ id: 'note_and_add', steps: [{ action: 'note', args: { value: '{ref}' } }, { action: 'add' }] });
pling.feedback(() => Array.from(document.querySelectorAll('.flash')).map((el) => ({ kind: 'info', text: el.textContent })));
// @ts-expect-error: even loosely checked, a gesture is one SPEC names
pling.action({ id: 'swipe', target: () => null, gesture: 'swipe' });
