// ==UserScript==
// @name   MiniWoB++ enter-password: a password typed twice, then Submit
// @match  http://*/miniwob/enter-password.html*
// ==/UserScript==
(function () {
  const $ = id => document.getElementById(id);
  const value = { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] };
  pling.page({ id: 'enter-password', name: 'MiniWoB++ enter-password' });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.state({ key: 'filled', description: 'Which fields hold something (their values are not shown)',
                get: () => ({ password: !!$('password')?.value, verify: !!$('verify')?.value }) });
  pling.action({ id: 'password', description: 'Type the password', risk: 'write', target: () => $('password'), params: value });
  pling.action({ id: 'verify', description: 'Type the password again', risk: 'write', target: () => $('verify'), params: value });
  pling.action({ id: 'submit', description: 'Press Submit', risk: 'write', target: () => $('subbtn') });
  pling.flow({ id: 'set_password', description: 'Type the password in both fields and press Submit', risk: 'write',
               params: { type: 'object', properties: { password: { type: 'string' } }, required: ['password'] },
               steps: [{ action: 'password', args: { value: '{password}' } }, { action: 'verify', args: { value: '{password}' } },
                       { action: 'submit' }] });
})();
