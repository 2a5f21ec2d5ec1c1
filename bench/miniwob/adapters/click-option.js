// ==UserScript==
// @name   MiniWoB++ click-option, click-checkboxes (and -large): labelled choices, then Submit
// @match  http://*/miniwob/click-option.html*
// @match  http://*/miniwob/click-checkboxes.html*
// @match  http://*/miniwob/click-checkboxes-large.html*
// ==/UserScript==
(function () {
  // A choice's business id is its label (the word the task names), made unique if shown twice.
  const choices = () => {
    const seen = {};
    return Array.from(document.querySelectorAll('#boxes label, #boxes-left label, #boxes-right label')).map(label => {
      const text = label.textContent.trim();
      seen[text] = (seen[text] || 0) + 1;
      return { id: seen[text] > 1 ? text + '~' + seen[text] : text, text, input: label.querySelector('input') };
    });
  };
  const byId = id => choices().find(c => c.id === id);
  pling.page({ id: location.pathname.split('/').pop().replace('.html', ''), name: 'MiniWoB++ ' + location.pathname.split('/').pop().replace('.html', '') });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.records({ type: 'choice', list: choices, label: c => c.text, fields: c => ({ checked: !!c.input?.checked }),
                  element: id => byId(id)?.input });
  pling.action({ id: 'tick', record: 'choice', description: 'Tick the choice (a second tick of a box clears it)', risk: 'write',
                 target: id => byId(id)?.input });
  pling.action({ id: 'submit', description: 'Press Submit', risk: 'write', target: () => document.getElementById('subbtn') });
  // Several boxes at once: each box whose state differs is clicked (the page's own click handling).
  pling.action({ id: 'set_choices', description: 'Tick exactly these choices (ids), clear the others', risk: 'write',
                 params: { type: 'object', properties: { ticked: { type: 'array', items: { type: 'string' } } }, required: ['ticked'] },
                 run: ({ ticked }) => {
                   const unknown = ticked.filter(id => !byId(id));
                   if (unknown.length) throw new Error('No such choice: ' + unknown.join(', '));
                   for (const c of choices()) if (c.input && c.input.checked !== ticked.includes(c.id)) c.input.click();
                   return choices().filter(c => c.input?.checked).map(c => c.id);
                 },
                 expect: { description: 'Exactly those choices are ticked',
                           check: ({ ticked }) => choices().every(c => !!c.input?.checked === ticked.includes(c.id)) } });
  pling.flow({ id: 'tick_and_submit', description: 'Tick exactly these choices and press Submit', risk: 'write',
               params: { type: 'object', properties: { ticked: { type: 'array', items: { type: 'string' } } }, required: ['ticked'] },
               steps: [{ action: 'set_choices', args: { ticked: '{ticked}' } }, { action: 'submit' }] });
  pling.flow({ id: 'choose_and_submit', record: 'choice', description: 'Tick the choice and press Submit', risk: 'write',
               steps: [{ action: 'tick@{record}' }, { action: 'submit' }] });
})();
