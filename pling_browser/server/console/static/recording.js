// Pling operator console: "Record" in the live view. While recording, each click, fill, choice and
// tick the person makes in the view becomes a step (the service looks at what each input reached:
// server/console/recording.py); "Stop" writes a draft adapter, shown here in full before it is
// downloaded. console.js creates it and tells it which session is watched.
window.PlingRecording = function createRecording({ api, announce, selected }) {
  const $ = (id) => document.getElementById(id);
  const panel = $('record');
  const start = $('record-start');
  const stop = $('record-stop');
  const status = $('record-status');
  const steps = $('record-steps');
  const draft = $('record-draft');
  let timer = null;
  let href = null;

  const path = (sid, rest = '') => `console/sessions/${encodeURIComponent(sid)}/recording${rest}`;

  function showSteps(shown) {
    steps.replaceChildren(...shown.steps.map((step) => {
      const li = document.createElement('li');
      li.textContent = step.said;
      return li;
    }));
    const unread = shown.unread ? ` (${shown.unread} input${shown.unread === 1 ? '' : 's'} the page did not describe)` : '';
    status.textContent = (shown.recording ? 'Recording: ' : 'Recorded: ') + shown.steps.length +
      (shown.steps.length === 1 ? ' step' : ' steps') + unread;
  }

  function showDraft(text, filename) {
    if (href) URL.revokeObjectURL(href);
    href = text ? URL.createObjectURL(new Blob([text], { type: 'text/javascript' })) : null;
    draft.hidden = !text;
    $('record-text').textContent = text || '';
    const link = $('record-download');
    if (href) { link.href = href; link.download = filename || 'draft.js'; }
  }

  function recording(on) {
    start.hidden = on;
    stop.hidden = !on;
    panel.dataset.recording = on ? 'true' : 'false';
    if (timer) { window.clearInterval(timer); timer = null; }
    if (on) timer = window.setInterval(refresh, 700);
  }

  async function refresh() {
    const sid = selected();
    if (!sid) return;
    try { showSteps(await api('GET', path(sid))); } catch (error) { /* the next tick tries again */ }
  }

  start.addEventListener('click', async () => {
    const sid = selected();
    if (!sid) return;
    try {
      const shown = await api('POST', path(sid));
      showDraft(null);
      showSteps(shown);
      recording(true);
      announce('Recording. Do the task once in the live view, then press Stop.');
      $('screen').focus({ preventScroll: true });
    } catch (error) {
      status.textContent = 'Not recording: ' + error.message;
    }
  });

  stop.addEventListener('click', async () => {
    const sid = selected();
    if (!sid) return;
    try {
      const shown = await api('POST', path(sid, '/stop'));
      recording(false);
      showSteps(shown);
      showDraft(shown.draft, shown.filename);
      announce(`Recorded ${shown.steps.length} steps; the draft is below.`);
    } catch (error) {
      status.textContent = 'Not stopped: ' + error.message;
    }
  });

  // Another session watched (or none): its recording, if it has one, is shown.
  async function watch(sid) {
    recording(false);
    showDraft(null);
    steps.replaceChildren();
    status.textContent = '';
    panel.hidden = !sid;
    if (!sid) return;
    try {
      const shown = await api('GET', path(sid));
      showSteps(shown);
      if (shown.recording) recording(true); else showDraft(shown.draft, shown.filename);
    } catch (error) { /* nothing recorded there yet */ }
  }

  return { watch };
};
