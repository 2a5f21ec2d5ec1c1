// ==UserScript==
// @name   MiniWoB++ enter-text and enter-text-2: one text field and Submit
// @match  http://*/miniwob/enter-text.html*
// @match  http://*/miniwob/enter-text-2.html*
// ==/UserScript==
(function () {
  const $ = id => document.getElementById(id);
  pling.page({ id: location.pathname.split('/').pop().replace('.html', ''), name: 'MiniWoB++ ' + location.pathname.split('/').pop().replace('.html', '') });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.state({ key: 'text', description: 'What the text field holds', get: () => $('tt')?.value ?? '' });
  pling.action({ id: 'type_text', description: 'Type into the text field', risk: 'write', target: () => $('tt'),
                 params: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } });
  pling.action({ id: 'submit', description: 'Press Submit', risk: 'write', target: () => $('subbtn') });
  pling.flow({ id: 'enter', description: 'Type the text and press Submit', risk: 'write',
               params: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
               steps: [{ action: 'type_text', args: { value: '{text}' } }, { action: 'submit' }] });
})();
