// ==UserScript==
// @name   MiniWoB++ click-tab: three tabs
// @match  http://*/miniwob/click-tab.html*
// ==/UserScript==
(function () {
  // A tab's id is the panel it shows (tabs-1…), its label what the tab says (Tab #1…).
  const tabs = () => Array.from(document.querySelectorAll('#area ul a')).map(el => (
    { id: el.getAttribute('href').slice(1), label: el.textContent.trim(), el,
      active: el.closest('li')?.classList.contains('ui-tabs-active') || false }));
  const byId = id => tabs().find(t => t.id === id);
  pling.page({ id: 'click-tab', name: 'MiniWoB++ click-tab' });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.records({ type: 'tab', list: tabs, label: t => t.label, fields: t => ({ active: t.active }), element: id => byId(id)?.el });
  pling.action({ id: 'open', record: 'tab', description: 'Click the tab', risk: 'write', target: id => byId(id)?.el });
})();
