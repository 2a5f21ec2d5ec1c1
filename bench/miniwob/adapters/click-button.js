// ==UserScript==
// @name   MiniWoB++ click-button: the buttons of the task, by their label
// @match  http://*/miniwob/click-button.html*
// ==/UserScript==
(function () {
  const task = () => (window.core ? core.getUtterance() : '');
  // A button's business id is its label; a label shown twice gets a second id (Submit, Submit~2).
  const buttons = () => {
    const seen = {};
    return Array.from(document.querySelectorAll('#area button')).map(el => {
      const label = el.textContent.trim();
      seen[label] = (seen[label] || 0) + 1;
      return { id: seen[label] > 1 ? label + '~' + seen[label] : label, label, el };
    });
  };
  const byId = id => buttons().find(b => b.id === id);
  pling.page({ id: 'click-button', name: 'MiniWoB++ click-button' });
  pling.state({ key: 'task', description: 'What the task asks', get: task });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.records({ type: 'button', list: buttons, label: b => b.label, fields: () => ({}),
                  element: id => byId(id)?.el });
  pling.action({ id: 'click', record: 'button', description: 'Click the button', risk: 'write',
                 target: id => byId(id)?.el });
})();
