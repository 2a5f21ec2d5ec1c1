// ==UserScript==
// @name   MiniWoB++ email-inbox (all variants): the inbox, an open email, reply and forward
// @match  http://*/miniwob/email-inbox.html*
// @match  http://*/miniwob/email-inbox-delete.html*
// @match  http://*/miniwob/email-inbox-forward.html*
// @match  http://*/miniwob/email-inbox-important.html*
// @match  http://*/miniwob/email-inbox-noscroll.html*
// @match  http://*/miniwob/email-inbox-reply.html*
// @match  http://*/miniwob/email-inbox-star-reply.html*
// ==/UserScript==
(function () {
  const q = (sel, root) => (root || document).querySelector(sel);
  const text = (root, sel) => (q(sel, root)?.textContent ?? '').trim();
  // An email's id is the inbox's own index of it (data-index), the same in the list and in search.
  const threads = () => Array.from(document.querySelectorAll('#main .email-thread'));
  const thread = id => q('#main .email-thread[data-index="' + String(id).slice(1) + '"]');
  const shown = sel => { const el = q(sel); return !!el && !el.closest('.hide'); };
  const open = () => shown('#email');
  // The icons are CSS images (content: url(…)): an icon has no size until its image has loaded.
  const untilSized = el => new Promise(done => {
    const start = Date.now();
    (function poll() {
      const box = el && el.getBoundingClientRect();
      if (!el || (box.width > 0 && box.height > 0) || Date.now() - start > 3000) done(); else setTimeout(poll, 20);
    })();
  });
  pling.page({ id: location.pathname.split('/').pop().replace('.html', ''), name: 'MiniWoB++ ' + location.pathname.split('/').pop().replace('.html', '') });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.state({ key: 'view', description: 'What the inbox shows: inbox, email, reply or forward',
                get: () => (shown('#reply') ? 'reply' : shown('#forward') ? 'forward' : open() ? 'email' : 'inbox') });
  pling.state({ key: 'open_email', description: 'The sender and subject of the open email',
                get: () => (q('#email') ? { sender: text(q('#email'), '.email-sender'), subject: text(q('#email'), '.email-subject') } : null) });
  pling.region({ id: 'inbox', name: 'Inbox', purpose: 'The emails, newest first', role: 'list' });
  pling.records({ type: 'email', region: 'inbox', list: threads, id: el => 'e' + el.getAttribute('data-index'),
                  label: el => text(el, '.email-subject'),
                  fields: el => ({ from: text(el, '.email-sender'), starred: !!q('.star.clicked', el) }),
                  element: id => thread(id) });
  const inInbox = () => (shown('#main') ? true : 'The inbox is not shown');
  pling.action({ id: 'open', record: 'email', region: 'inbox', description: 'Open the email', risk: 'read', available: inInbox,
                 target: id => q('.email-left', thread(id)) });
  pling.action({ id: 'delete', record: 'email', region: 'inbox', description: 'Delete the email (trash icon)', risk: 'danger',
                 available: inInbox, target: id => q('.trash', thread(id)), reveal: id => untilSized(q('.trash', thread(id))) });
  pling.action({ id: 'star', record: 'email', region: 'inbox', description: 'Star the email: mark it important', risk: 'write',
                 available: inInbox, target: id => q('.star', thread(id)), reveal: id => untilSized(q('.star', thread(id))) });
  const inEmail = () => (open() ? true : 'No email is open');
  pling.action({ id: 'reply', description: 'Reply to the open email', risk: 'write', available: inEmail,
                 target: () => q('#email .email-reply') });
  pling.action({ id: 'forward', description: 'Forward the open email', risk: 'write', available: inEmail,
                 target: () => q('#email .email-forward') });
  const inReply = () => (shown('#reply') ? true : 'No reply is being written');
  pling.action({ id: 'reply_text', description: 'Type the reply', risk: 'write', available: inReply,
                 target: () => q('#reply-text'),
                 params: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } });
  pling.action({ id: 'send_reply', description: 'Send the reply', risk: 'write', available: inReply,
                 target: () => q('#send-reply'), reveal: () => untilSized(q('#send-reply')) });
  const inForward = () => (shown('#forward') ? true : 'No forward is being written');
  pling.action({ id: 'forward_to', description: 'Type whom to forward to', risk: 'write', available: inForward,
                 target: () => q('#forward .forward-sender'),
                 params: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } });
  pling.action({ id: 'send_forward', description: 'Send the forward', risk: 'write', available: inForward,
                 target: () => q('#send-forward'), reveal: () => untilSized(q('#send-forward')) });
  pling.flow({ id: 'reply_with', record: 'email', description: 'Open the email and reply to its sender with a text',
               risk: 'write', params: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
               steps: [{ action: 'open@{record}' }, { action: 'reply' }, { action: 'reply_text', args: { value: '{text}' } },
                       { action: 'send_reply' }] });
  pling.flow({ id: 'forward_to_person', record: 'email', description: 'Open the email and forward it to someone',
               risk: 'write', params: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
               steps: [{ action: 'open@{record}' }, { action: 'forward' }, { action: 'forward_to', args: { value: '{to}' } },
                       { action: 'send_forward' }] });
})();
