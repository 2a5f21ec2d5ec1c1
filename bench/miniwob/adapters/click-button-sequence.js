// ==UserScript==
// @name   MiniWoB++ click-button-sequence: buttons ONE and TWO
// @match  http://*/miniwob/click-button-sequence.html*
// ==/UserScript==
(function () {
  const buttons = () => Array.from(document.querySelectorAll('#area button')).map(el => ({ id: el.textContent.trim(), el }));
  const byId = id => buttons().find(b => b.id === id);
  pling.page({ id: 'click-button-sequence', name: 'MiniWoB++ click-button-sequence' });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.state({ key: 'pressed', description: 'The buttons pressed so far, in order',
                get: () => (window.buttonsPushed || []).map(id => document.getElementById(id)?.textContent.trim()) });
  pling.records({ type: 'button', list: buttons, label: b => b.id, fields: () => ({}), element: id => byId(id)?.el });
  pling.action({ id: 'click', record: 'button', description: 'Click the button', risk: 'write', target: id => byId(id)?.el });
})();
