// ==UserScript==
// @name         Django admin
// @description  Django's admin site (django.contrib.admin): sign in, the models, a model's list, one object, deleting one or several
// @match        http://127.0.0.1/admin/*
// @match        http://localhost/admin/*
// @run-at       document-end
// ==/UserScript==

// Django renders every admin page on the server; its body's classes say which page it is (`login`,
// `dashboard`, `change-list`, `change-form`, `delete-confirmation`, `delete-selected-confirmation`) and
// which model (`app-auth model-group`). Ids are the objects' primary keys (the list's checkboxes, the
// change page's URL), never row positions. Page ids name the model's page (`group_list`,
// `group_change`, `group_delete`), so going from the list to an object and back is another page and
// back, and a delete posted back to the list is the same page (docs/receipt.md).

const $ = (selector) => document.querySelector(selector);
const $$ = (selector) => Array.from(document.querySelectorAll(selector));
if (!$('#container') || !$('#header, #site-name, .login')) return;  // not Django's admin: declare nothing
const classes = Array.from(document.body.classList);
const app = (classes.find((c) => c.startsWith('app-')) || '').slice(4);
const model = (classes.find((c) => c.startsWith('model-')) || '').slice(6);
const text = (el) => (el ? el.textContent.replace(/\s+/g, ' ').trim() : '');
const KIND = { success: 'success', warning: 'warning', error: 'error', info: 'info', debug: 'info' };

// Django's messages ("The group “Authors” was deleted successfully.") and a form's errors.
pling.feedback(() => [
  ...$$('ul.messagelist li').map((li) => ({ kind: KIND[li.className.split(' ')[0]] || 'info', text: text(li) })),
  ...$$('.errornote').map((el) => ({ kind: 'error', text: text(el) })),
]);
const listLink = () => $$('.breadcrumbs a').find((a) => a.getAttribute('href').endsWith('/' + app + '/' + model + '/'));

if (classes.includes('login')) {
  pling.page({ id: 'login', name: 'Sign in to the admin' });
  pling.action({
    id: 'log_in', description: 'Sign in with a staff user’s name and password', risk: 'write',
    params: { type: 'object', properties: { username: { type: 'string', minLength: 1, maxLength: 150 },
                                             password: { type: 'string', minLength: 1 } }, required: ['username', 'password'] },
    run: ({ username, password }) => {
      $('#id_username').value = username;
      $('#id_password').value = password;
      $('#login-form').requestSubmit();
    },
  });
} else if (classes.includes('dashboard')) {
  // The index: every model the user may manage, keyed `app.model` (auth.group).
  const rows = () => $$('#content-main div[class*="app-"] tr[class^="model-"]');
  const keyOf = (tr) => tr.closest('div[class*="app-"]').className.match(/app-([\w-]+)/)[1] + '.' + tr.className.match(/model-([\w-]+)/)[1];
  pling.page({ id: 'admin_index', name: 'Site administration' });
  pling.records({ type: 'model', list: rows, id: keyOf, label: (tr) => text(tr.querySelector('th')) });
  pling.action({ id: 'open_list', record: 'model', description: 'Open the model’s list', risk: 'read',
                 target: (key) => rows().find((tr) => keyOf(tr) === key)?.querySelector('th a') });
} else if (classes.includes('change-list')) {
  const rows = () => $$('#result_list tbody tr');
  const idOf = (tr) => tr.querySelector('input.action-select')?.value;
  const rowFor = (id) => rows().find((tr) => idOf(tr) === id) || null;
  const headers = () => $$('#result_list thead th').map((th) => text(th));
  pling.page({ id: model + '_list', name: text($('#content h1')) || model });
  pling.records({
    type: model, list: rows, id: idOf, label: (tr) => text(tr.querySelector('th')),
    fields: (tr) => Object.fromEntries(Array.from(tr.querySelectorAll('td:not(.action-checkbox)'))
      .map((td, i) => [headers()[i + 2] || 'column' + (i + 2), text(td)])),
    element: rowFor,
  });
  pling.state({ key: 'selected', description: 'How many rows are selected for an action', get: () => $$('input.action-select:checked').length });
  pling.action({ id: 'open', record: model, description: 'Open the ' + model + '’s page', risk: 'read',
                 target: (id) => rowFor(id)?.querySelector('th a') });
  pling.action({ id: 'select', record: model, description: 'Select the ' + model + ' for an action', risk: 'read',
                 target: (id) => rowFor(id)?.querySelector('input.action-select') });
  pling.action({
    id: 'delete_selected', description: 'Delete the selected ' + model + 's (asks to confirm on the next page)', risk: 'read',
    available: () => ($$('input.action-select:checked').length ? true : 'No ' + model + ' is selected'),
    run: () => {
      $('select[name="action"]').value = 'delete_selected';
      $('#changelist-form button[name="index"]').click();
    },
  });
  // Deleting one object, two ways: through the list's action (back to this list: the same page), or
  // through the object's own page (when the object is gone already, Django sends the browser to the index).
  pling.flow({ id: 'delete', record: model, description: 'Delete the ' + model + ' (select it, the delete action, confirm)', risk: 'danger',
               steps: [{ action: 'select@{record}' }, { action: 'delete_selected' }, { action: 'confirm_delete' }] });
  pling.flow({ id: 'remove', record: model, description: 'Delete the ' + model + ' from its own page', risk: 'danger',
               steps: [{ action: 'open@{record}' }, { action: 'delete_link' }, { action: 'confirm_delete' }] });
  const add = $('.object-tools a.addlink');
  if (add) pling.action({ id: 'add', description: 'Open the form for a new ' + model, risk: 'read', target: () => $('.object-tools a.addlink') });
} else if (classes.includes('change-form')) {
  const match = location.pathname.match(/\/([^/]+)\/change\/$/);
  const id = match ? decodeURIComponent(match[1]) : null;
  const inputs = () => $$('#content-main form input.vTextField, #content-main form input[type="text"], #content-main form textarea')
    .filter((el) => el.name);
  pling.page({ id: model + (id ? '_change' : '_add'), name: text($('#content h1')) });
  if (id) {
    pling.records({ type: model, list: () => [{ id }], label: () => text($('#content h2')) || id,
                    fields: () => Object.fromEntries(inputs().map((el) => [el.name, el.value])) });
  }
  pling.action({
    id: 'save', description: 'Save the ' + model + ' with these values (the list is shown after)', risk: 'write',
    params: { type: 'object', properties: Object.fromEntries(inputs().map((el) => [el.name, { type: 'string', maxLength: 1000 }])) },
    run: (values) => {
      for (const el of inputs()) if (values[el.name] !== undefined) el.value = values[el.name];
      $('#content-main form input[name="_save"]').click();
    },
  });
  if (id) pling.action({ id: 'delete_link', description: 'Delete the ' + model + ' (asks to confirm on the next page)', risk: 'read',
                         target: () => $('a.deletelink') });
  pling.action({ id: 'back', description: 'Back to the list', risk: 'read', target: listLink });
} else if (classes.includes('delete-confirmation') || classes.includes('delete-selected-confirmation')) {
  pling.page({ id: model + '_delete', name: 'Delete' });
  pling.state({ key: 'deleting', description: 'What Django will delete', get: () => $$('#deleted-objects li, #content ul li').map(text).slice(0, 20) });
  pling.action({ id: 'confirm_delete', description: 'Yes, delete (this cannot be undone)', risk: 'danger',
                 target: () => $('#content form input[type="submit"]') });
  pling.action({ id: 'back', description: 'Back to the list, deleting nothing', risk: 'read', target: listLink });
}
