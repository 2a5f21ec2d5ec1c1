// Pling operator console: the receipts of the selected session, newest first. The last 30 are read
// from GET console/sessions/{sid}/receipts when a session is chosen; new ones arrive with the event
// stream (console.js hands them over), and after a reconnect GET sessions/{sid}/receipts?after= fetches
// what came meanwhile. console.js creates it with what it needs from the rest of the console.
'use strict';

window.PlingReceipts = function createReceipts({ api, h, short, clock, selected }) {
  const $ = (id) => document.getElementById(id);
  const MAX_RECEIPTS = 100;
  let receipts = [];   // receipt entries of the selected session, oldest first
  let seen = new Set();

  function reset() {
    receipts = [];
    seen = new Set();
    renderReceipts();
  }

  async function loadReceipts(sid) {
    try {
      const data = await api('GET', `console/sessions/${encodeURIComponent(sid)}/receipts?limit=30`);
      if (selected() !== sid) return;
      for (const entry of data.receipts) rememberReceipt(entry, false);
      renderReceipts();
    } catch (error) {
      $('receipts-empty').textContent = 'The receipts could not be read: ' + error.message;
    }
  }

  async function catchUpReceipts() {
    // After a reconnect: what arrived while the stream was down (GET /sessions/{sid}/receipts?after).
    const sid = selected();
    const after = receipts.length ? receipts[receipts.length - 1].seq : 0;
    if (!after) { loadReceipts(sid); return; }
    try {
      const data = await api('GET', `sessions/${encodeURIComponent(sid)}/receipts?after=${after}&limit=100`);
      if (selected() !== sid) return;
      let added = false;
      for (const entry of data.receipts) added = rememberReceipt(entry, true) || added;
      if (added) renderReceipts();
    } catch (error) { /* the next event brings it */ }
  }

  function rememberReceipt(entry, fresh) {
    if (seen.has(entry.seq)) return false;
    seen.add(entry.seq);
    entry.fresh = fresh;
    receipts.push(entry);
    receipts.sort((a, b) => a.seq - b.seq);
    if (receipts.length > MAX_RECEIPTS) receipts.splice(0, receipts.length - MAX_RECEIPTS);
    return true;
  }

  function addReceipt(data) {  // a receipt event of the console's stream
    if (data.session === selected() && rememberReceipt({ seq: data.seq, created: data.created, receipt: data.receipt }, true)) {
      renderReceipts();
    }
  }

  function renderReceipts() {
    const list = $('receipts');
    const entries = receipts.slice().reverse();
    list.replaceChildren(...entries.map(receiptItem));
    for (const entry of entries) entry.fresh = false;
    $('receipts-empty').hidden = entries.length > 0;
    $('receipts-empty').textContent = selected() ? 'No receipts in this session yet.' : 'Choose a session to see its receipts.';
  }

  function changes(changed) {
    const out = [];
    if (!changed) return out;
    if (changed.observed === false) out.push('no observable change');
    const ids = (list, omitted) => (list || []).join(', ') + (omitted ? ` and ${omitted} more` : '');
    for (const [type, r] of Object.entries(changed.records || {})) {
      const om = r.omitted || {};
      if ((r.added || []).length || om.added) out.push([`${type} added: `, h('code', {}, ids(r.added, om.added))]);
      if ((r.removed || []).length || om.removed) out.push([`${type} removed: `, h('code', {}, ids(r.removed, om.removed))]);
      for (const u of (r.updated || [])) {
        const fields = Object.entries(u.changes || {}).map(([field, c]) => `${field} ${short(c.from, 40)} → ${short(c.to, 40)}`);
        out.push([`${type} `, h('code', {}, String(u.id)), ' updated: ', fields.join('; ')]);
      }
      if (om.updated) out.push(`${om.updated} more ${type} records updated`);
      if (r.reordered) out.push(`${type} records reordered`);
      if (r.total && r.total.from !== r.total.to) out.push(`${type} records: ${r.total.from} → ${r.total.to}`);
    }
    const st = (changed.state || {}).changed || {};
    for (const [key, change] of Object.entries(st)) {
      out.push(['state ', h('code', {}, key), ': ', h('code', {}, short(change.from, 40)), ' → ', h('code', {}, short(change.to, 40))]);
    }
    const a = changed.actions || {};
    if ((a.added || []).length) out.push(['actions added: ', h('code', {}, a.added.join(', '))]);
    if ((a.removed || []).length) out.push(['actions removed: ', h('code', {}, a.removed.join(', '))]);
    for (const [id, c] of Object.entries(a.availability || {})) {
      const said = (v) => (v === true ? 'available' : 'unavailable' + (typeof v === 'string' ? ' (' + v + ')' : ''));
      out.push(['action ', h('code', {}, id), ': ', said(c.from), ' → ', said(c.to)]);
    }
    for (const item of ((changed.feedback || {}).added || [])) out.push(`feedback (${item.kind}): “${item.text}”`);
    return out;
  }

  function receiptItem(entry) {
    const r = entry.receipt || {};
    const error = r.error || null;
    const action = (r.action && r.action.id) || '?';
    const status = r.ok
      ? h('span', { class: 'status ok' }, '✓ ok')
      : h('span', { class: 'status fail' }, '✗ ' + (error ? error.code + (error.stage ? ' at ' + error.stage : '') : 'failed'));
    const details = [];
    if (r.expect && typeof r.verified === 'boolean') details.push(h('li', {}, `expectation ${r.verified ? 'held' : 'did not hold'}: “${r.expect}”`));
    for (const line of changes(r.changed)) details.push(h('li', {}, line));
    if (r.fidelity && r.fidelity !== 'high') details.push(h('li', {}, 'fidelity: ' + r.fidelity));
    if (r.data !== undefined && r.data !== null) details.push(h('li', {}, ['data: ', h('code', {}, short(r.data, 120))]));
    const by = r.approved_by;
    if (by) {
      const how = by.via === 'grant' ? `a grant ${by.caller} made (until ${clock(by.until)})`
        : by.via === 'policy' ? `the operator’s policy (${by.policy || 'PLING_APPROVE'})` : `${by.caller}, a person`;
      details.push(h('li', { class: 'approved-by' }, 'approved by ' + how + ' at ' + clock(by.at)));
    }
    if (r.caller) details.push(h('li', { class: 'caller' }, 'invoked by ' + r.caller));
    let message = null;
    if (error) {
      let text = error.message || '';
      if (error.denied_by && !text.includes(error.denied_by)) text += ' (denied by ' + error.denied_by + ')';
      if (error.reason && !text.includes(error.reason)) text += ' (' + error.reason + ')';
      if (error.started === true) text += ' The page’s write path may have run.';
      message = h('p', { class: 'message' }, text);
    }
    const sid = selected();
    return h('li', { class: 'receipt ' + (r.ok ? 'ok' : 'fail') + (entry.fresh ? ' fresh' : ''), 'data-seq': entry.seq },
      h('div', { class: 'r-head' }, status, h('code', {}, action),
        r.action && r.action.description ? h('span', { class: 'desc' }, r.action.description) : null,
        h('time', { datetime: new Date(entry.created * 1000).toISOString() }, clock(entry.created))),
      message,
      r.warning ? h('p', { class: 'warning' }, '⚠ ' + r.warning) : null,
      details.length ? h('ul', { class: 'changes', 'aria-label': 'What changed' }, details) : null,
      r.trace ? h('p', { class: 'trace' },
        h('a', { href: `sessions/${encodeURIComponent(sid)}/receipts/${entry.seq}/trace`, download: `pling-trace-${entry.seq}.zip` },
          'Playwright trace', h('span', { class: 'visually-hidden' }, ' of receipt ' + entry.seq + ', ' + action)),
        ' (open it with ', h('code', {}, 'npx playwright show-trace'), ' or trace.playwright.dev)') : null,
      h('details', {},
        h('summary', {}, 'Raw JSON', h('span', { class: 'visually-hidden' }, ' of receipt ' + entry.seq + ', ' + action)),
        h('pre', {}, JSON.stringify(r, null, 2)),
        h('a', { href: `sessions/${encodeURIComponent(sid)}/receipts?after=${entry.seq - 1}&limit=1`, target: '_blank', rel: 'noopener' },
          'as stored (GET /sessions/…/receipts)')));
  }
  return { reset, load: loadReceipts, catchUp: catchUpReceipts, add: addReceipt };
};
