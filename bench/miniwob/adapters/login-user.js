// ==UserScript==
// @name   MiniWoB++ login-user and login-user-popup: a login form (and a popup that may interrupt it)
// @match  http://*/miniwob/login-user.html*
// @match  http://*/miniwob/login-user-popup.html*
// ==/UserScript==
(function () {
  const $ = id => document.getElementById(id);
  const value = { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] };
  const popup = () => $('popup');
  pling.page({ id: location.pathname.split('/').pop().replace('.html', ''), name: 'MiniWoB++ ' + location.pathname.split('/').pop().replace('.html', '') });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.state({ key: 'username', description: 'What the username field holds', get: () => $('username')?.value ?? '' });
  pling.state({ key: 'password_filled', description: 'Whether the password field holds something', get: () => !!$('password')?.value });
  pling.state({ key: 'popup', description: 'The popup in front of the form, if one is open',
                get: () => (popup() ? popup().textContent.replace(/\s+/g, ' ').replace(/OK Cancel\s*$/, '').trim() : null) });
  pling.action({ id: 'username', description: 'Type the username', risk: 'write', target: () => $('username'), params: value });
  pling.action({ id: 'password', description: 'Type the password', risk: 'write', target: () => $('password'), params: value });
  pling.action({ id: 'login', description: 'Press the login button', risk: 'write', target: () => $('subbtn') });
  pling.action({ id: 'popup_ok', description: 'Answer the popup with OK', risk: 'write', available: () => (popup() ? true : 'No popup is open'),
                 target: () => $('popup-ok') });
  pling.action({ id: 'popup_cancel', description: 'Answer the popup with Cancel', risk: 'write',
                 available: () => (popup() ? true : 'No popup is open'), target: () => $('popup-cancel') });
  pling.flow({ id: 'log_in', description: 'Type the username and password and press the login button', risk: 'write',
               params: { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } },
                         required: ['username', 'password'] },
               steps: [{ action: 'username', args: { value: '{username}' } }, { action: 'password', args: { value: '{password}' } },
                       { action: 'login' }] });
})();
