// Pling operator console: plain JavaScript, no build step, no dependencies.
// State comes from GET console/events (server-sent events); answers go to the API's own routes
// (POST sessions/{sid}/confirmations/{cid}, POST sessions/{sid}/handoffs/{hid}); the live view is
// GET console/sessions/{sid}/view (server-sent JPEG frames), and the person's input goes to
// POST console/sessions/{sid}/input (liveview.js); the selected session's receipts are receipts.js.
// Everything is rendered with DOM calls and textContent: no value from a page or an agent is ever
// parsed as HTML.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);

  // The console session's CSRF token: handed over once, in the fragment of the address
  // /console?token=… redirects to (no server ever receives a fragment), then kept in this tab's
  // sessionStorage. The session cookie alone opens only this page: every request carries the token,
  // as a header, or as `csrf=` on an event stream's address (an EventSource cannot send headers).
  const CSRF_KEY = 'pling-console-csrf';
  const csrf = (() => {
    const given = /^#csrf=([A-Za-z0-9_-]+)$/.exec(window.location.hash);
    if (given) {
      window.sessionStorage.setItem(CSRF_KEY, given[1]);
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    return window.sessionStorage.getItem(CSRF_KEY) || '';
  })();
  const signed = (headers) => (csrf ? { ...headers, 'x-pling-csrf': csrf } : headers);
  const streamUrl = (path) => (csrf ? path + (path.includes('?') ? '&' : '?') + 'csrf=' + encodeURIComponent(csrf) : path);
  const state = {
    sessions: new Map(),   // sid -> session view (info + last receipts)
    pending: new Map(),    // id -> pending request
    selected: null,
    lastSeq: 0,
    ready: false,
  };

  // ---- small helpers ----------------------------------------------------------------------

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') el.className = value;
      else if (key === 'text') el.textContent = value;
      else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
      else el.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  function short(value, max = 80) {
    let text;
    try { text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value); } catch (e) { text = String(value); }
    if (text === undefined) text = String(value);
    return text.length > max ? text.slice(0, max - 1) + '…' : text;
  }

  function age(seconds) {
    seconds = Math.max(0, Math.round(seconds));
    if (seconds < 60) return seconds + ' s';
    if (seconds < 3600) return Math.round(seconds / 60) + ' min';
    const hours = Math.floor(seconds / 3600);
    return hours + ' h ' + Math.round((seconds % 3600) / 60) + ' min';
  }

  function clock(epoch) {
    return new Date(epoch * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  }

  function place(url) {
    try { const u = new URL(url); return u.host + u.pathname + u.search; } catch (e) { return url || ''; }
  }

  function sessionName(sid) {
    const s = state.sessions.get(sid);
    return s ? (s.title || place(s.url) || sid) : sid;
  }

  const announcer = $('announcer');
  function announce(text) {
    announcer.textContent = '';
    window.setTimeout(() => { announcer.textContent = text; }, 50);
  }

  async function api(method, path, body) {
    const answer = await fetch(path, {
      method, credentials: 'same-origin',
      headers: signed(body === undefined ? {} : { 'content-type': 'application/json' }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await answer.json(); } catch (e) { data = null; }
    if (!answer.ok) {
      const error = data || {};  // RFC 9457 problem details: detail, code, hint
      const problem = new Error(error.detail || ('HTTP ' + answer.status));
      problem.code = error.code;
      problem.status = answer.status;
      throw problem;
    }
    return data;
  }

  // ---- the event stream -------------------------------------------------------------------

  const connection = $('connection');
  function connected(mode, text) {
    connection.dataset.state = mode;
    connection.textContent = text;
  }

  let source = null;
  function connect() {
    if (source) source.close();
    source = new EventSource(streamUrl('console/events'));
    source.addEventListener('open', () => connected('live', 'Live'));
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) {
        // Refused (401, 403) or gone: find out which, then try again later.
        fetch('console/state', { credentials: 'same-origin', headers: signed({}) }).then((answer) => {
          if (answer.status === 401) connected('refused', 'Not signed in: open /console?token=… with the service\'s token');
          else if (answer.status === 403) connected('refused', 'Refused by the service (host or origin)');
          else connected('lost', 'Reconnecting…');
        }).catch(() => connected('lost', 'The service does not answer; reconnecting…'));
        window.setTimeout(connect, 3000);
      } else {
        connected('lost', 'Reconnecting…');
      }
    });
    source.addEventListener('state', (e) => applyState(JSON.parse(e.data)));
    source.addEventListener('session', (e) => { upsertSession(JSON.parse(e.data)); renderSessions(); autoSelect(); });
    source.addEventListener('closed', (e) => closed(JSON.parse(e.data).session));
    source.addEventListener('pending', (e) => addPending(JSON.parse(e.data), true));
    source.addEventListener('resolved', (e) => removePending(JSON.parse(e.data).id));
    source.addEventListener('receipt', (e) => {
      const data = JSON.parse(e.data);
      if (data.info) upsertSession(data.info);
      renderSessions();
      receipts.add(data);
    });
    // The service ends each stream after a while (so it can stop promptly); open the next at once.
    source.addEventListener('bye', () => connect());
  }

  function applyState(data) {
    const before = new Set(state.pending.keys());
    state.sessions = new Map(data.sessions.map((s) => [s.id, s]));
    state.pending = new Map();
    for (const request of data.pending) addPending(request, state.ready && !before.has(request.id), false);
    renderSessions();
    renderPending();
    if (state.selected && !state.sessions.has(state.selected)) select(null);
    if (state.ready && state.selected) receipts.catchUp();
    state.ready = true;
    autoSelect();
  }

  function upsertSession(view) {
    state.sessions.set(view.id, view);
  }

  function closed(sid) {
    state.sessions.delete(sid);
    for (const [id, request] of state.pending) if (request.session === sid) state.pending.delete(id);
    renderSessions();
    renderPending();
    if (state.selected === sid) {
      viewStatus('The session was closed.');
      select(null);
    }
    autoSelect();
  }

  function autoSelect() {
    if (state.selected || state.sessions.size === 0) return;
    const wanted = new URLSearchParams(location.hash.slice(1)).get('session');
    const waiting = [...state.pending.values()].find((p) => state.sessions.has(p.session));
    const sid = (wanted && state.sessions.has(wanted) && wanted) || (waiting && waiting.session) || state.sessions.keys().next().value;
    select(sid);
  }

  // ---- sessions -------------------------------------------------------------------------------

  function renderSessions() {
    const list = $('sessions');
    const now = Date.now() / 1000;
    list.replaceChildren(...[...state.sessions.values()].map((s) => {
      const waiting = [...state.pending.values()].filter((p) => p.session === s.id).length;
      const recent = (s.receipts || []).slice(-3).reverse();
      const button = h('button', {
        type: 'button', class: 'session', 'aria-current': s.id === state.selected ? 'true' : 'false',
        'data-session': s.id, onclick: () => select(s.id),
      },
      h('span', { class: 'title' }, s.title || '(untitled page)',
        waiting ? h('span', { class: 'waiting' }, waiting + ' waiting') : null),
      h('span', { class: 'url' }, place(s.url)),
      h('span', { class: 'meta' },
        h('span', { 'data-since': s.created }, 'opened ' + age(now - s.created) + ' ago'),
        ' · ' + s.invocations + (s.invocations === 1 ? ' action' : ' actions')),
      recent.length ? h('span', { class: 'recent' }, h('span', { class: 'visually-hidden' }, 'Last receipts: '),
        recent.map((r) => h('span', { class: 'chip ' + (r.ok ? 'ok' : 'fail') },
          (r.ok ? '✓ ' : '✗ ') + r.action + (r.ok ? '' : ' ' + r.code)))) : null);
      return h('li', {}, button);
    }));
    $('session-count').textContent = String(state.sessions.size);
    $('sessions-empty').hidden = state.sessions.size > 0;
  }

  function select(sid) {
    if (state.selected === sid && sid !== null) return;
    state.selected = sid;
    history.replaceState(null, '', sid ? '#session=' + encodeURIComponent(sid) : location.pathname);
    renderSessions();
    receipts.reset();
    $('receipts-of').textContent = sid ? '— ' + sessionName(sid) : '';
    watch(sid);
    showProfileForm(sid, false);
    if (sid) receipts.load(sid);
  }

  // ---- waiting requests -----------------------------------------------------------------------

  function addPending(request, fresh, render = true) {
    const known = state.pending.has(request.id);
    state.pending.set(request.id, request);
    if (render) { renderPending(); renderSessions(); }
    if (fresh && !known) {
      const what = request.kind === 'handoff' ? 'Handoff: do a step in the page' : 'Confirmation needed';
      announce(`${what}: ${request.action}, ${request.description || ''}${request.risk ? ', risk ' + request.risk : ''}, in ${sessionName(request.session)}.`);
      if (request.kind === 'handoff' && !state.selected) select(request.session);
    }
  }

  function removePending(id) {
    if (!state.pending.delete(id)) return;
    const card = document.querySelector(`[data-pending="${CSS.escape(id)}"]`);
    const hadFocus = card && card.contains(document.activeElement);
    renderPending();
    renderSessions();
    if (hadFocus) focusNextPending();
  }

  function focusNextPending() {
    const next = document.querySelector('#pending button.btn');
    (next || $('pending-heading')).focus();
  }

  // Each pending card is kept while what it shows is unchanged, and left in its place: a card built
  // again, or moved, would take the person's keyboard focus with it (a Space pressed on Cancel as
  // another request arrived was lost: the click comes on the key's release, on a button then gone).
  const cards = new Map();

  function renderPending() {
    const list = $('pending');
    const items = [...state.pending.values()].sort((a, b) => a.created - b.created);
    const nodes = items.map((p) => {
      const shown = JSON.stringify(p) + '|' + sessionName(p.session);
      const kept = cards.get(p.id);
      if (kept && kept.shown === shown) return kept.node;
      const node = pendingCard(p);
      cards.set(p.id, { shown, node });
      return node;
    });
    for (const id of [...cards.keys()]) if (!state.pending.has(id)) cards.delete(id);
    for (const child of [...list.children]) if (!nodes.includes(child)) child.remove();
    nodes.forEach((node, i) => { if (list.children[i] !== node) list.insertBefore(node, list.children[i] || null); });
    $('pending-count').textContent = String(items.length);
    $('pending-empty').hidden = items.length > 0;
    $('pending-panel').classList.toggle('has-items', items.length > 0);
    document.title = (items.length ? `(${items.length}) ` : '') + 'Pling operator console';
    tickExpiry();
  }

  const GRANT_MINUTES = 10;

  function pendingCard(p) {
    const titleId = 'pending-title-' + p.id;
    const handoff = p.kind === 'handoff';
    const facts = h('dl', { class: 'facts' });
    const fact = (name, value) => { if (value !== null && value !== undefined && value !== '') facts.append(h('dt', {}, name), h('dd', {}, value)); };
    fact('Session', sessionName(p.session));
    if (p.record) fact('Record', h('span', {}, h('code', {}, (p.record.type ? p.record.type + ' ' : '') + p.record.id), ' ', p.record.label ? '“' + p.record.label + '”' : ''));
    if (p.frame) fact('Declared by the frame of', h('code', {}, p.frame));
    if (p.region) fact('Region', p.region);
    const args = p.args && typeof p.args === 'object' && Object.keys(p.args).length ? p.args : null;
    fact('Arguments', args ? h('pre', {}, JSON.stringify(args, null, 2)) : 'none');
    if (!handoff) fact('Expectation', p.expect || 'none declared');
    if (p.interaction) fact('The tool asks for you', p.interaction);
    if (p.dialog) fact('The page asks (' + p.dialog.type + ')', h('pre', {}, p.dialog.message));
    const problem = h('p', { class: 'problem', role: 'alert', hidden: true });
    const named = (text) => [text, h('span', { class: 'visually-hidden' }, ' ' + p.action)];
    let buttons;
    if (handoff) {
      buttons = [
        h('button', { type: 'button', class: 'btn show', onclick: () => { select(p.session); $('screen').focus(); } }, 'Show the page'),
        h('button', { type: 'button', class: 'btn done', onclick: (e) => answer(p, 'handoffs', { outcome: 'done' }, e.currentTarget, problem) }, named('Done')),
        h('button', { type: 'button', class: 'btn cancel', onclick: (e) => answer(p, 'handoffs', { outcome: 'cancel' }, e.currentTarget, problem) }, named('Cancel')),
      ];
    } else {
      // An action's confirmation may be approved with a grant: the same action, in this session, for the
      // agent that asked, for GRANT_MINUTES (never a riskier one; SECURITY.md). A tool's interaction or a
      // dialog takes none.
      const grantable = !p.interaction && !p.dialog;
      const grant = { approve: true, grant: { scope: 'action', for_s: GRANT_MINUTES * 60 } };
      buttons = [
        h('button', { type: 'button', class: 'btn approve', onclick: (e) => answer(p, 'confirmations', { approve: true }, e.currentTarget, problem) }, named('Approve')),
        grantable ? h('button', { type: 'button', class: 'btn approve grant', onclick: (e) => answer(p, 'confirmations', grant, e.currentTarget, problem) },
          named(`Approve, and allow this for ${GRANT_MINUTES} minutes`)) : null,
        h('button', { type: 'button', class: 'btn deny', onclick: (e) => answer(p, 'confirmations', { approve: false }, e.currentTarget, problem) }, named('Deny')),
      ];
    }
    return h('li', { 'data-pending': p.id },
      h('article', { class: 'card ' + (handoff ? 'handoff' : 'risk-' + (p.risk || 'write')), 'aria-labelledby': titleId },
        h('div', { class: 'card-top' },
          h('span', { class: 'tag kind' }, handoff ? 'Handoff' : 'Confirmation'),
          p.risk ? h('span', { class: 'tag risk-' + p.risk }, p.risk) : null,
          h('span', { class: 'expires', 'data-expires': p.expires })),
        h('h3', { id: titleId }, h('code', {}, p.action), ' ', p.description || ''),
        handoff ? h('p', { class: 'help' }, 'Do this step yourself in the live view, then say Done (or Cancel).') : null,
        facts,
        h('div', { class: 'buttons' }, buttons),
        problem));
  }

  async function answer(p, kind, body, button, problem) {
    // Busy, not disabled: a disabled button would drop the keyboard focus.
    const row = button.closest('li');
    if (row.dataset.busy) return;
    row.dataset.busy = '1';
    const buttons = row.querySelectorAll('button');
    buttons.forEach((b) => b.setAttribute('aria-disabled', 'true'));
    try {
      await api('POST', `sessions/${encodeURIComponent(p.session)}/${kind}/${encodeURIComponent(p.id)}`, body);
      const said = kind === 'handoffs' ? (body.outcome === 'done' ? 'Done: ' : 'Cancelled: ')
        : (body.grant ? `Approved, and allowed for ${GRANT_MINUTES} minutes: ` : body.approve ? 'Approved ' : 'Denied ');
      announce(said + p.action + '.');
      removePending(p.id);
      if (kind === 'handoffs' && body.outcome === 'done' && p.session === state.selected) showProfileForm(p.session, true);
    } catch (error) {
      delete row.dataset.busy;
      buttons.forEach((b) => b.removeAttribute('aria-disabled'));
      problem.hidden = false;
      problem.textContent = error.message + (error.code ? ` (${error.code})` : '');
      if (error.status === 409 || error.status === 410 || error.status === 404) {
        window.setTimeout(() => removePending(p.id), 4000);
      }
    }
  }

  function tickExpiry() {
    const now = Date.now() / 1000;
    for (const el of document.querySelectorAll('[data-expires]')) {
      const left = Math.max(0, Math.round(Number(el.dataset.expires) - now));
      el.textContent = left >= 60 ? `${Math.floor(left / 60)} min ${String(left % 60).padStart(2, '0')} s left` : `${left} s left`;
    }
  }

  // ---- receipts (receipts.js) and the live view (liveview.js) ----------------------------------

  const receipts = window.PlingReceipts({ api, h, short, clock, selected: () => state.selected });

  const { watch: watchView, status: viewStatus } = window.PlingLiveView({ api, streamUrl, place, nameOf: sessionName, selected: () => state.selected });
  const recorder = window.PlingRecording({ api, announce, selected: () => state.selected });
  const watch = (sid) => { watchView(sid); recorder.watch(sid); };

  // ---- save as profile --------------------------------------------------------------------------
  // After a person signed in in the live view (a handoff such as "sign in", or on their own), the
  // session's sign-in is saved under a name: POST sessions/{sid}/profile. Only the name and the date
  // come back; the sign-in itself never reaches this page.

  function showProfileForm(sid, suggest) {  // called by select(), so it finds its elements itself
    const form = $('save-profile');
    form.hidden = !sid;
    form.dataset.session = sid || '';
    form.classList.toggle('suggested', Boolean(suggest));
    $('profile-status').textContent = suggest ? 'Step done. If it was a sign-in, save it as a profile.' : '';
  }
  const profileForm = $('save-profile');
  const profileStatus = $('profile-status');
  profileForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const sid = profileForm.dataset.session;
    const name = $('profile-name').value.trim();
    if (!sid || !name || profileForm.dataset.busy) return;
    profileForm.dataset.busy = '1';
    profileStatus.textContent = 'Saving…';
    try {
      const saved = await api('POST', `sessions/${encodeURIComponent(sid)}/profile`, { name });
      profileStatus.textContent = `Saved as profile “${saved.name}” at ${clock(saved.saved)}.`;
      profileForm.classList.remove('suggested');
      announce(`Saved as profile ${saved.name}.`);
    } catch (error) {
      profileStatus.textContent = 'Not saved: ' + error.message + (error.code ? ` (${error.code})` : '');
    } finally {
      delete profileForm.dataset.busy;
    }
  });

  // ---- sign-out -------------------------------------------------------------------------------

  const signOut = $('sign-out');
  signOut.hidden = !csrf;
  signOut.addEventListener('click', async () => {
    try { await api('POST', 'console/sign-out'); } catch (e) { /* signed out already */ }
    window.sessionStorage.removeItem(CSRF_KEY);
    if (source) source.close();
    signOut.hidden = true;
    connected('refused', 'Signed out: open /console?token=… with the service\'s token to sign in again');
  });

  // ---- clocks ----------------------------------------------------------------------------------

  window.setInterval(tickExpiry, 1000);
  window.setInterval(() => {
    const now = Date.now() / 1000;
    for (const el of document.querySelectorAll('[data-since]')) el.textContent = 'opened ' + age(now - Number(el.dataset.since)) + ' ago';
  }, 10000);

  connect();
})();
