// Pling operator console: the live view of a session's page. Frames arrive as server-sent events
// from GET console/sessions/{sid}/view; the person's clicks, scrolling and typing go, in order, to
// POST console/sessions/{sid}/input, where they reach the page as trusted input. console.js creates
// it with what it needs from the rest of the console.
window.PlingLiveView = function createLiveView({ api, streamUrl, place, nameOf, selected }) {
  const $ = (id) => document.getElementById(id);

  const screen = $('screen');
  const img = $('screen-img');
  let viewSource = null;
  let viewport = { width: 1280, height: 800 };

  function viewStatus(text) { $('view-status').textContent = text; }

  function watch(sid) {
    if (viewSource) { viewSource.close(); viewSource = null; }
    img.hidden = true;
    $('screen-empty').hidden = false;
    $('screen-empty').textContent = sid ? 'Connecting to the page…' : 'Choose a session to see its page.';
    $('view-page').textContent = '';
    screen.setAttribute('aria-label', sid ? 'Live view of ' + nameOf(sid) : 'Live view: no session chosen');
    screen.dataset.masked = 'false';
    viewStatus('');
    if (!sid) return;
    const open = () => {
      const es = new EventSource(streamUrl(`console/sessions/${encodeURIComponent(sid)}/view`));
      viewSource = es;
      es.addEventListener('hello', (e) => {
        const data = JSON.parse(e.data);
        viewport = data.viewport || viewport;
        $('view-page').textContent = (data.title ? data.title + ' — ' : '') + place(data.url);
        viewStatus('');
      });
      es.addEventListener('frame', (e) => {
        const data = JSON.parse(e.data);
        viewport = data.viewport || viewport;
        img.src = `data:${data.mime};base64,${data.data}`;
        img.hidden = false;
        $('screen-empty').hidden = true;
        screen.dataset.masked = data.masked ? 'true' : 'false';
        screen.dataset.frames = String(Number(screen.dataset.frames || 0) + 1);
        $('view-page').textContent = (data.title ? data.title + ' — ' : '') + place(data.url);
        viewStatus('');
      });
      es.addEventListener('paused', (e) => viewStatus(JSON.parse(e.data).reason));
      es.addEventListener('gone', (e) => {
        es.close();
        viewStatus('The page is gone: ' + JSON.parse(e.data).reason);
      });
      es.addEventListener('bye', () => { es.close(); if (viewSource === es) open(); });
      es.addEventListener('error', () => {
        if (es.readyState === EventSource.CLOSED && viewSource === es) viewStatus('The live view is not available.');
      });
    };
    open();
  }

  // The person's input, in order; moves and wheel turns coalesce while one is on its way.
  const queue = [];
  let sending = false;
  function send(gesture) {
    if (!selected()) return;
    gesture.session = selected();
    const last = queue[queue.length - 1];
    if (last && last.session === gesture.session && (gesture.type === 'move' && last.type === 'move')) {
      queue[queue.length - 1] = gesture;
    } else if (last && last.session === gesture.session && gesture.type === 'wheel' && last.type === 'wheel') {
      last.dx += gesture.dx; last.dy += gesture.dy; last.x = gesture.x; last.y = gesture.y;
    } else {
      queue.push(gesture);
    }
    if (!sending) pump();
  }

  async function pump() {
    sending = true;
    while (queue.length) {
      const gesture = queue.shift();
      const sid = gesture.session;
      delete gesture.session;
      try {
        await api('POST', `console/sessions/${encodeURIComponent(sid)}/input`, gesture);
      } catch (error) {
        viewStatus('Input not delivered: ' + error.message);
      }
    }
    sending = false;
  }

  function point(event) {
    const rect = img.hidden ? screen.getBoundingClientRect() : img.getBoundingClientRect();
    // The image keeps its aspect ratio inside its box (object-fit: contain): find the picture in it.
    const scale = Math.min(rect.width / viewport.width, rect.height / viewport.height);
    const left = rect.left + (rect.width - viewport.width * scale) / 2;
    const top = rect.top + (rect.height - viewport.height * scale) / 2;
    return {
      x: Math.round(((event.clientX - left) / scale) * 10) / 10,
      y: Math.round(((event.clientY - top) / scale) * 10) / 10,
    };
  }

  const BUTTONS = ['left', 'middle', 'right'];
  let lastMove = 0;
  // Double and triple clicks: counted here, as the page would count them (500 ms, a few pixels).
  let streak = { count: 0, at: 0, x: 0, y: 0 };
  screen.addEventListener('pointerdown', (event) => {
    if (!selected() || img.hidden) return;
    event.preventDefault();
    screen.focus({ preventScroll: true });
    screen.setPointerCapture(event.pointerId);
    const at = point(event);
    const now = performance.now();
    const near = Math.abs(at.x - streak.x) < 6 && Math.abs(at.y - streak.y) < 6;
    streak = { count: now - streak.at < 500 && near ? Math.min(3, streak.count + 1) : 1, at: now, x: at.x, y: at.y };
    send({ type: 'down', ...at, button: BUTTONS[event.button] || 'left', clicks: streak.count });
  });
  screen.addEventListener('pointerup', (event) => {
    if (!selected() || img.hidden) return;
    event.preventDefault();
    send({ type: 'up', ...point(event), button: BUTTONS[event.button] || 'left', clicks: streak.count || 1 });
  });
  screen.addEventListener('pointermove', (event) => {
    if (!selected() || img.hidden) return;
    const now = performance.now();
    if (now - lastMove < (event.buttons ? 30 : 100)) return;
    lastMove = now;
    send({ type: 'move', ...point(event) });
  });
  screen.addEventListener('contextmenu', (event) => event.preventDefault());
  screen.addEventListener('wheel', (event) => {
    if (!selected() || img.hidden) return;
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? viewport.height : 1;
    send({ type: 'wheel', ...point(event), dx: event.deltaX * unit, dy: event.deltaY * unit });
  }, { passive: false });

  const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'Fn', 'OS']);
  screen.addEventListener('keydown', (event) => {
    if (!selected() || event.isComposing) return;
    if (event.key === 'Escape') {       // the way out of the view: never a keyboard trap
      event.preventDefault();
      $('send-escape').focus();
      return;
    }
    if (MODIFIERS.has(event.key) || event.key === 'Unidentified' || event.key === 'Dead') return;
    const command = event.ctrlKey || event.metaKey;
    if (command && event.key.toLowerCase() === 'v') return;  // the paste event brings the text
    event.preventDefault();
    if (event.key.length === 1 && !command && !event.altKey) {
      send({ type: 'text', text: event.key });
      return;
    }
    const parts = [];
    if (event.ctrlKey) parts.push('Control');
    if (event.altKey) parts.push('Alt');
    if (event.shiftKey && event.key.length !== 1) parts.push('Shift');
    if (event.metaKey) parts.push('Meta');
    parts.push(event.key === ' ' ? 'Space' : event.key);
    send({ type: 'key', key: parts.join('+') });
  });
  screen.addEventListener('paste', (event) => {
    if (!selected()) return;
    const text = (event.clipboardData && event.clipboardData.getData('text')) || '';
    event.preventDefault();
    if (text) send({ type: 'paste', text: text.slice(0, 2000) });
  });
  screen.addEventListener('compositionend', (event) => { if (event.data) send({ type: 'text', text: event.data }); });
  screen.addEventListener('focus', () => screen.classList.add('active'));
  screen.addEventListener('blur', () => screen.classList.remove('active'));
  $('send-escape').addEventListener('click', () => send({ type: 'key', key: 'Escape' }));
  $('view-size').addEventListener('click', (event) => {
    const large = screen.classList.toggle('large');
    event.currentTarget.setAttribute('aria-pressed', large ? 'true' : 'false');
  });

  return { watch, status: viewStatus };
};
