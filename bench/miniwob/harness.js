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
  window.addEventListener('load', function () {   // after the task's own window.onload (startEpisode)
    Math.seedrandom('miniwob-' + seed);
    core.startEpisodeReal();
  });
})();
