// ==UserScript==
// @name   MiniWoB++ click-collapsible: a section to expand, then Submit
// @match  http://*/miniwob/click-collapsible.html*
// ==/UserScript==
(function () {
  const header = () => document.querySelector('#area h3');
  pling.page({ id: 'click-collapsible', name: 'MiniWoB++ click-collapsible' });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.state({ key: 'section', description: 'The section and whether it is expanded',
                get: () => (header() ? { title: header().textContent.trim(), expanded: header().getAttribute('aria-expanded') === 'true' } : null) });
  pling.action({ id: 'toggle_section', description: 'Expand or collapse the section (its header)', risk: 'write', target: header });
  pling.action({ id: 'submit', description: 'Press Submit', risk: 'write', target: () => document.getElementById('subbtn') });
})();
