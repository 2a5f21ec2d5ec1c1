// ==UserScript==
// @name   MiniWoB++ social-media, -some, -all: a feed of posts and their buttons
// @match  http://*/miniwob/social-media.html*
// @match  http://*/miniwob/social-media-some.html*
// @match  http://*/miniwob/social-media-all.html*
// ==/UserScript==
(function () {
  const q = (sel, root) => (root || document).querySelector(sel);
  const text = (root, sel) => (q(sel, root)?.textContent ?? '').trim();
  // A post's id is the feed's own index of it (data-result).
  const posts = () => Array.from(document.querySelectorAll('#area .media'));
  const post = id => q('#area .media[data-result="' + String(id).slice(1) + '"]');
  // The icons are CSS images (content: url(…)): an icon has no size until its image has loaded.
  const untilSized = el => new Promise(done => {
    const start = Date.now();
    (function poll() {
      const box = el && el.getBoundingClientRect();
      if (!el || (box.width > 0 && box.height > 0) || Date.now() - start > 3000) done(); else setTimeout(poll, 20);
    })();
  });
  const TOGGLES = ['reply', 'retweet', 'like', 'share'];
  pling.page({ id: location.pathname.split('/').pop().replace('.html', ''), name: 'MiniWoB++ ' + location.pathname.split('/').pop().replace('.html', '') });
  pling.state({ key: 'task', description: 'What the task asks', get: () => (window.core ? core.getUtterance() : '') });
  pling.state({ key: 'episode', description: 'Whether the task is running or over', get: () => (window.WOB_DONE_GLOBAL ? 'over' : 'running') });
  pling.region({ id: 'feed', name: 'Feed', purpose: 'The posts', role: 'feed' });
  pling.records({ type: 'post', region: 'feed', list: posts, id: el => 'p' + el.getAttribute('data-result'),
                  label: el => text(el, '.body'),
                  fields: el => ({ name: text(el, '.name'), user: text(el, '.username'),
                                   active: TOGGLES.filter(c => q('.' + c + '.active', el)) }),
                  element: id => post(id) });
  const button = (id, description, cls) => pling.action({
    id, record: 'post', region: 'feed', description, risk: 'write', target: r => q('.' + cls, post(r)),
    available: r => (q('.' + cls, post(r)) ? true : 'This feed has no such button'),
    // A menu item is inside the post's "more" menu: open it (the page's own toggle) to reach it.
    reveal: r => {
      const ul = q('ul', post(r));
      if (ul && ul.classList.contains('hide') && q('li.' + cls, post(r))) q('.more', post(r)).click();
      const el = q('.' + cls, post(r));
      if (el) el.scrollIntoView({ block: 'nearest' });
      return untilSized(el);
    } });
  button('reply', 'Press Reply', 'reply');
  button('retweet', 'Press Retweet', 'retweet');
  button('like', 'Press Like', 'like');
  button('share', 'Press Share (the post\'s share button, or "Share via DM" in its menu)', 'share');
  button('copy', 'Menu: Copy link to Tweet', 'copy');
  button('embed', 'Menu: Embed Tweet', 'embed');
  button('mute', 'Menu: Mute the user', 'menu-user');
  button('block', 'Menu: Block the user', 'block-user');
  button('report', 'Menu: Report', 'report');
  pling.action({ id: 'submit', description: 'Press Submit', risk: 'write', target: () => q('#submitRow button'),
                 available: () => (q('#submitRow button') ? true : 'This feed has no Submit') });
})();
