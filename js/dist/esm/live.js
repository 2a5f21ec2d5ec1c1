// ES module: pling-declare 0.1.0 (js/ in the Pling browser repository; MIT). Built file: edit js/src and run `make js`.
const LIVE_KEYS = { list: true, value: true, items: true };
function shapeOf(options) {
  try {
    return JSON.stringify(options, function replacer(key, value) {
      if (this === options && LIVE_KEYS[key]) return void 0;
      if (typeof value === "function") return "<function>";
      return value;
    });
  } catch {
    return "<unwritable>";
  }
}
function valueOf(value, ...args) {
  return typeof value === "function" ? value(...args) : value;
}
function throughLatest(latest) {
  const first = latest();
  const out = {};
  for (const key of Object.keys(first)) {
    const value = first[key];
    if (LIVE_KEYS[key] || value === void 0) continue;
    if (typeof value === "function") {
      out[key] = (...args) => latest()[key](...args);
    } else if (key === "expect" && value !== null && typeof value === "object") {
      out.expect = { ...value, check: (...args) => {
        const expect = latest().expect;
        return expect.check(...args);
      } };
    } else {
      out[key] = value;
    }
  }
  return out;
}
function liveAction(latest) {
  const out = throughLatest(latest);
  if (latest().available !== void 0) {
    out.available = (...id) => valueOf(latest().available, ...id);
  }
  return out;
}
function liveRecords(latest) {
  const out = throughLatest(latest);
  out.list = () => valueOf(latest().list);
  return out;
}
function liveState(latest) {
  const out = throughLatest(latest);
  out.get = () => {
    const options = latest();
    return typeof options.get === "function" ? options.get() : options.value;
  };
  return out;
}
function liveFeedback(latest) {
  return () => valueOf(latest());
}
export {
  liveAction,
  liveFeedback,
  liveRecords,
  liveState,
  shapeOf,
  throughLatest
};
