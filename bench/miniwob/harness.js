// The MiniWoB++ harness's side of a task page (not the agent's, not an adapter): the bench's task server
// puts this at the end of <body>. It starts the episode with the seed in the address (?seed=N), as the
// miniwob Python environment does with core.startEpisodeReal(), and reports the episode's end to the
// task server (synchronously, so the report is in before the action that ended the episode returns).
// The agent never sees this: rewards go only to the harness, for scoring.
(function () {
  var params = new URLSearchParams(location.search);
  var seed = params.get('seed'), run = params.get('run');
  if (seed === null || !window.core) return;
  var reported = false;
  var endEpisode = core.endEpisode;
  core.endEpisode = function (reward, timeProportional, reason) {
    endEpisode.apply(this, arguments);
    if (reported || !WOB_DONE_GLOBAL) return;
    reported = true;
    var xhr = new XMLHttpRequest();
    xhr.open('POST', '/__reward?run=' + encodeURIComponent(run), false);
    xhr.setRequestHeader('Content-Type', 'application/json');
    try {
      xhr.send(JSON.stringify({ reward: WOB_REWARD_GLOBAL, raw: WOB_RAW_REWARD_GLOBAL,
                                reason: WOB_REWARD_REASON === null ? null : String(WOB_REWARD_REASON) }));
    } catch (e) { /* the harness then sees no reward: the episode counts as not solved */ }
  };
  // What reached the page, as the page itself saw it: each input event (its type, whether the browser
  // marked it trusted, and where),
  // sent to the task server so the bench can hold a receipt's "ok" against it. Capture phase on the
  // window, ahead of the task's own handlers; the agent never sees this either.
  var TYPES = ['click', 'dblclick', 'input', 'change', 'focus', 'focusin', 'keydown', 'mouseover', 'mousemove', 'mousedown', 'mouseup', 'submit', 'drop'];
  TYPES.forEach(function (type) {
    window.addEventListener(type, function (event) {
      var el = event.target && event.target.tagName ? event.target : null;
      var where = el ? el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') : '';
      try {
        fetch('/__event?run=' + encodeURIComponent(run), { method: 'POST', keepalive: true,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ type: type, trusted: event.isTrusted, where: where }) });
      } catch (e) { /* the bench then sees no event for this step */ }
    }, true);
  });
  window.addEventListener('load', function () {   // after the task's own window.onload (startEpisode)
    // The task server's clock for the episode (its `patient` tests), else the task's own (10 s).
    if (typeof PLING_EPISODE_MS === 'number') core.EPISODE_MAX_TIME = PLING_EPISODE_MS;
    Math.seedrandom('miniwob-' + seed);
    core.startEpisodeReal();
  });
})();
