// ==UserScript==
// @name   MiniWoB++ click-dialog and click-dialog-2: the dialog's buttons (its close button is "x")
// @match  http://*/miniwob/click-dialog.html*
// @match  http://*/miniwob/click-dialog-2.html*
// ==/UserScript==
(function () {
  // The task calls the title bar's close button "x"; the others go by their label (OK, Cancel).
  const buttons = () => Array.from(document.querySelectorAll('.ui-dialog button')).map(el => (
    { id: el.classList.contains('ui-dialog-titlebar-close') ? 'x' : el.textContent.trim(), el }));
  const byId = id => buttons().find(b => b.id === id);
  pling.page({ id: location.pathname.split('/').pop().replace('.html', ''), name: 'MiniWoB++ ' + location.pathname.split('/').pop().replace('.html', '') });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.state({ key: 'dialog', description: 'The text of the open dialog', get: () => document.querySelector('#dialog p')?.textContent ?? null });
  pling.region({ id: 'dialog', name: 'Dialog', purpose: 'A dialog box over the page', role: 'dialog' });
  pling.records({ type: 'dialog_button', region: 'dialog', list: buttons, label: b => (b.id === 'x' ? 'x (close)' : b.id),
                  fields: () => ({}), element: id => byId(id)?.el });
  pling.action({ id: 'press', record: 'dialog_button', region: 'dialog', description: 'Press the dialog button',
                 risk: 'write', target: id => byId(id)?.el });
})();
