// ==UserScript==
// @name         TodoMVC: React
// @description  The TodoMVC React build (fixtures/apps/todomvc-react): todos to add, toggle, remove and filter
// @match        *://*/*todomvc-react/*
// @match        http://localhost:7002/*
// @match        http://127.0.0.1:7002/*
// @run-at       document-end
// ==/UserScript==
//
// The app renders todos without any id in the DOM; each one's business id is the `id` of the todo
// object the app's reducer made (nanoid). It is read from the props React gave the row's component
// (the `__reactFiber$…` key React puts on its elements): the app's own id, never a row position.
// That fiber may be the previous render's (React keeps two), so only the id, which never changes, is
// read from it; the title and whether it is completed are read from the row as shown.

const rows = () => Array.from(document.querySelectorAll('.todo-list > li'));

function todoOf(li) {
  const key = Object.keys(li).find((k) => k.startsWith('__reactFiber$'));
  for (let fiber = key ? li[key] : null; fiber; fiber = fiber.return) {
    const todo = fiber.memoizedProps && fiber.memoizedProps.todo;
    if (todo && typeof todo.id === 'string') return todo;
  }
  return null;
}

const rowFor = (id) => rows().find((li) => todoOf(li)?.id === id);
const titleOf = (li) => li.querySelector('label')?.textContent ?? '';
const completed = (li) => li.classList.contains('completed');
const filter = () => (location.hash.replace(/^#\/?/, '') || 'all');
const completedCount = () => rows().filter(completed).length;

pling.page({ id: 'todomvc', name: 'TodoMVC' });
pling.region({ id: 'header', name: 'New todo', purpose: 'Where todos are added' });
pling.region({ id: 'list', name: 'Todos', purpose: 'The todos the filter shows', role: 'list' });
pling.region({ id: 'footer', name: 'Filters', purpose: 'Filter and clean up the list' });

pling.records({
  type: 'todo', region: 'list',
  list: () => rows().filter(todoOf),
  id: (li) => todoOf(li).id,
  label: titleOf,
  fields: (li) => ({ completed: completed(li) }),
  element: rowFor,
});

pling.state({ key: 'filter', description: 'Which todos are shown: all, active or completed', get: filter });
pling.state({ key: 'items_left', description: 'How many todos are not completed',
              get: () => Number((document.querySelector('.todo-count')?.textContent.match(/\d+/) || [0])[0]) });

pling.action({
  id: 'add_todo', description: 'Add a todo', region: 'header', risk: 'write',
  params: { type: 'object', properties: { title: { type: 'string', minLength: 1, maxLength: 500 } }, required: ['title'] },
  target: () => document.querySelector('input.new-todo'),
  gesture: { press: 'Enter' },  // the app adds on Enter
  expect: { description: 'A todo with that title is in the list',
            check: ({ title }) => filter() === 'completed' || rows().some((li) => titleOf(li) === title.trim()) },
});

pling.action({
  id: 'toggle', record: 'todo', description: 'Mark the todo completed, or active again', region: 'list', risk: 'write',
  target: (id) => rowFor(id)?.querySelector('input.toggle'),
});

pling.action({
  // The delete button shows only while the pointer is over the row, so it is pressed from run()
  // (a real click event on the app's own button), not by Playwright's pointer, which would wait for it to show.
  id: 'remove', record: 'todo', description: 'Delete the todo', region: 'list', risk: 'danger',
  run: (args, id) => {
    const button = rowFor(id)?.querySelector('button.destroy');
    if (!button) throw new Error('the todo is not shown');
    button.click();
  },
  expect: { description: 'The todo is no longer in the list', check: (args, id) => !rowFor(id) },
});

pling.action({
  id: 'clear_completed', description: 'Delete every completed todo', region: 'footer', risk: 'danger',
  available: () => (completedCount() > 0 ? true : 'No todo is completed'),
  target: () => document.querySelector('button.clear-completed'),
});

pling.action({
  id: 'show', description: 'Show all, active or completed todos', region: 'footer', risk: 'read',
  params: { type: 'object', properties: { filter: { enum: ['all', 'active', 'completed'] } }, required: ['filter'] },
  run: ({ filter: which }) => { location.hash = which === 'all' ? '#/' : '#/' + which; },
  expect: { description: 'The filter is the one asked for', check: ({ filter: which }) => filter() === which },
});
