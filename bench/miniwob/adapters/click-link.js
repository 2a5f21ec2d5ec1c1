// ==UserScript==
// @name   MiniWoB++ click-link: the links in the text, by their word
// @match  http://*/miniwob/click-link.html*
// ==/UserScript==
(function () {
  const links = () => {
    const seen = {};
    return Array.from(document.querySelectorAll('#area .alink')).map(el => {
      const label = el.textContent.trim();
      seen[label] = (seen[label] || 0) + 1;
      return { id: seen[label] > 1 ? label + '~' + seen[label] : label, label, el };
    });
  };
  const byId = id => links().find(l => l.id === id);
  pling.page({ id: 'click-link', name: 'MiniWoB++ click-link' });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.records({ type: 'link', list: links, label: l => l.label, fields: () => ({}), element: id => byId(id)?.el });
  pling.action({ id: 'follow', record: 'link', description: 'Click the link', risk: 'write', target: id => byId(id)?.el });
})();
