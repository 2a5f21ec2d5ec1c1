// ==UserScript==
// @name   MiniWoB++ choose-list: a drop-down list and Submit
// @match  http://*/miniwob/choose-list.html*
// ==/UserScript==
(function () {
  const select = () => document.getElementById('options');
  pling.page({ id: 'choose-list', name: 'MiniWoB++ choose-list' });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.state({ key: 'options', description: 'The choices in the list, in order',
                get: () => Array.from(select()?.options || []).map(o => o.textContent) });
  pling.state({ key: 'selected', description: 'The choice selected now',
                get: () => (select() && select().selectedIndex >= 0 ? select().options[select().selectedIndex].textContent : null) });
  pling.action({ id: 'choose', description: 'Select a choice in the list', risk: 'write', target: select,
                 params: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } });
  pling.action({ id: 'submit', description: 'Press Submit', risk: 'write', target: () => document.querySelector('#area button') });
  pling.flow({ id: 'choose_and_submit', description: 'Select a choice and press Submit', risk: 'write',
               params: { type: 'object', properties: { choice: { type: 'string' } }, required: ['choice'] },
               steps: [{ action: 'choose', args: { value: '{choice}' } }, { action: 'submit' }] });
})();
