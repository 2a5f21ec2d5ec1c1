// Pling bridge: defines window.pling (see SPEC, 'The page side'). Loading it twice is harmless.
// Built file: edit the modules of js_bridge/ and run `make js` (js_bridge/build.mjs).
(function () {
'use strict';
if (Object.getOwnPropertyDescriptor(globalThis, '__plingBridge')) return;
(() => {
  // js_bridge/operations.json
  var version = "1";
  var operations = {
    model: { answer: "PageModel", promise: false, does: "the bounded page model (model.js)" },
    describe: { answer: "Described", promise: true, does: "stage 1: the action (and a family's record) as declared now (resolve.js); asked with `reveal`, a function action's stage 5 in the same call (revealed.js)" },
    reveal: { answer: "Revealed", promise: true, does: "stage 5: availability, reveal, the target marked, the before snapshot (reveal.js); named with the declaration the controller holds (`known`), `stale` before anything is touched when the page no longer declares it so" },
    release: { answer: "Done", promise: false, does: "the target unmarked (reveal.js)" },
    landed: { answer: "Landed", promise: false, does: "where a direct click's events went (gesture.js)" },
    choose: { answer: "Chosen", promise: false, does: "the direct path of a select: the option set and input and change dispatched as Playwright's select_option does, or why not (choose.js)" },
    typed: { answer: "Landed", promise: true, does: "where a direct fill's text went; landed, the field left and the target released; asked with `expect`, stage 7 in the same call (fill.js)" },
    run: { answer: "Ran", promise: true, does: "stage 6: a function action's run(); asked with `expect`, stage 7 in the same call (execute.js, ran.js)" },
    known: { answer: "KnownAnswer", promise: true, does: "a plain function action the controller described before in this document, as declared then (its seq and risk): stage 5, run() and stage 7 in one call, or `stale` (known.js)" },
    ran: { answer: "Ran", promise: false, does: "run()'s answer, kept while its expectation hung in the same call (ran.js)" },
    synthetic: { answer: "Done", promise: false, does: "stage 6: synthetic events on a control Playwright cannot operate (execute.js)" },
    expect: { answer: "Expected", promise: true, does: "stage 7: the declared expectation polled, the page settled (expect.js)" },
    settle: { answer: "Settling", promise: true, does: "requests and queued work since the start mark, waited for (observe.js)" },
    diff: { answer: "Diffed", promise: false, does: "stage 8: the keyed diff against the before snapshot (evidence.js)" },
    whoami: { answer: "Whoami", promise: false, does: "which document answers, what it declared, whether it is leaving (navigate.js)" },
    begin: { answer: "Begun", promise: false, does: "a resumed flow's before snapshot or start mark (navigate.js)" },
    adopt: { answer: "Adopted", promise: false, does: "this document takes the carry binding (navigate.js)" },
    diffFrom: { answer: "Diffed", promise: false, does: "the diff against a before snapshot another document handed over (navigate.js)" },
    hold: { answer: "Done", promise: false, does: "a before snapshot another document handed over, kept for the expect call's diff (navigate.js)" },
    handoff: { answer: "HandoffState", promise: false, does: "whether the person is done with a handoff (handoff.js)" },
    restore: { answer: "Restored", promise: false, does: "references the page kept, restored to values (handoff.js)" },
    configure: { answer: "Done", promise: false, does: "the operator's raised risks (registry.js)" },
    protect: { answer: "Protected", promise: false, does: "values the runtime restored, masked wherever they show again (protect.js)" },
    mask: { answer: "Masked", promise: false, does: "fields holding a protected value marked for a screenshot (protect.js)" },
    interaction: { answer: "Done", promise: false, does: "a person's answer to a tool's requestUserInteraction (interaction.js)" },
    toolAnswer: { answer: "Done", promise: false, does: "the receipt of an exported tool's call (export.js)" },
    pointedAt: { answer: "Reached", promise: false, does: "the control under a viewport point (demonstration.js)" },
    pointedAgain: { answer: "Reached", promise: false, does: "that control, described again (demonstration.js)" },
    focused: { answer: "Reached", promise: false, does: "the control with the focus (demonstration.js)" }
  };

  // js_bridge/prelude.js
  var G = globalThis;
  var ReflectApply = Reflect.apply;
  var uncurry = (fn2) => (self, ...args) => ReflectApply(fn2, self, args);
  var getterOf = (proto, name) => {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    const get = d && d.get;
    return (self) => ReflectApply(get, self, []);
  };
  var create = Object.create;
  var keys = Object.keys;
  var defineProperty = Object.defineProperty;
  var freeze = Object.freeze;
  var setPrototypeOf = Object.setPrototypeOf;
  var getOwnDescriptor = Object.getOwnPropertyDescriptor;
  var answerOf = (o) => setPrototypeOf(o, null);
  var hasOwn = uncurry(Object.prototype.hasOwnProperty);
  var ObjectPrototype = Object.prototype;
  var ArrayPrototype = Array.prototype;
  var getPrototypeOf = Object.getPrototypeOf;
  var isArray = Array.isArray;
  var jsonStringify = JSON.stringify;
  var jsonParse = JSON.parse;
  var StringCtor = String;
  var isFiniteNumber = Number.isFinite;
  var MathMin = Math.min;
  var MathMax = Math.max;
  var MathFloor = Math.floor;
  var strSlice = uncurry(String.prototype.slice);
  var strIndexOf = uncurry(String.prototype.indexOf);
  var strToLowerCase = uncurry(String.prototype.toLowerCase);
  var strCharCodeAt = uncurry(String.prototype.charCodeAt);
  var strIsWellFormed = String.prototype.isWellFormed ? uncurry(String.prototype.isWellFormed) : null;
  var strToWellFormed = String.prototype.toWellFormed ? uncurry(String.prototype.toWellFormed) : null;
  var arraySort = uncurry(Array.prototype.sort);
  var regexTest = uncurry(RegExp.prototype.test);
  var SetCtor = Set;
  var setAdd = uncurry(Set.prototype.add);
  var setHas = uncurry(Set.prototype.has);
  var setDelete = uncurry(Set.prototype.delete);
  var PromiseCtor = Promise;
  var promiseThen = uncurry(Promise.prototype.then);
  var dateGetTime = uncurry(Date.prototype.getTime);
  var dateToISOString = uncurry(Date.prototype.toISOString);
  var Uint8ArrayCtor = Uint8Array;
  var getRandomValues = uncurry(Crypto.prototype.getRandomValues);
  var cryptoObject = G.crypto;
  var nativeSetTimeout = G.setTimeout;
  var nativeClearTimeout = G.clearTimeout;
  var nativeSetInterval = G.setInterval;
  var nativeClearInterval = G.clearInterval;
  var nativeRequestAnimationFrame = G.requestAnimationFrame;
  var setTimer = (fn2, ms) => ReflectApply(nativeSetTimeout, G, [fn2, ms]);
  var clearTimer = (id) => ReflectApply(nativeClearTimeout, G, [id]);
  var setRepeat = (fn2, ms) => ReflectApply(nativeSetInterval, G, [fn2, ms]);
  var clearRepeat = (id) => ReflectApply(nativeClearInterval, G, [id]);
  var performanceNow = uncurry(Performance.prototype.now);
  var performanceObject = G.performance;
  var now = () => performanceNow(performanceObject);
  var MutationObserverCtor = G.MutationObserver;
  var observerObserve = uncurry(MutationObserver.prototype.observe);
  var observerDisconnect = uncurry(MutationObserver.prototype.disconnect);
  var MessageChannelCtor = G.MessageChannel;
  var portPostMessage = uncurry(MessagePort.prototype.postMessage);
  var portOnMessageSet = Object.getOwnPropertyDescriptor(MessagePort.prototype, "onmessage").set;
  var documentObject = G.document;
  var nodeType = getterOf(Node.prototype, "nodeType");
  var nodeIsConnected = getterOf(Node.prototype, "isConnected");
  var elementTagName = getterOf(Element.prototype, "tagName");
  var elementId = getterOf(Element.prototype, "id");
  var elementGetAttribute = uncurry(Element.prototype.getAttribute);
  var elementHasAttribute = uncurry(Element.prototype.hasAttribute);
  var elementMatches = uncurry(Element.prototype.matches);
  var nodeGetRootNode = uncurry(Node.prototype.getRootNode);
  var nodeParentNode = getterOf(Node.prototype, "parentNode");
  var nodeOwnerDocument = getterOf(Node.prototype, "ownerDocument");
  var shadowRootMode = getterOf(ShadowRoot.prototype, "mode");
  var shadowRootHost = getterOf(ShadowRoot.prototype, "host");
  var elementQuerySelectorAll = uncurry(Element.prototype.querySelectorAll);
  var elementGetBoundingClientRect = uncurry(Element.prototype.getBoundingClientRect);
  var elementIsContentEditable = getterOf(HTMLElement.prototype, "isContentEditable");
  var nativeGetComputedStyle = G.getComputedStyle;
  var styleGetPropertyValue = uncurry(CSSStyleDeclaration.prototype.getPropertyValue);
  var eventTargetDispatch = uncurry(EventTarget.prototype.dispatchEvent);
  var eventTargetAddListener = uncurry(EventTarget.prototype.addEventListener);
  var MouseEventCtor = G.MouseEvent;
  var PointerEventCtor = G.PointerEvent || G.MouseEvent;
  var documentTitle = getterOf(Document.prototype, "title");
  var locationHref = () => {
    try {
      return StringCtor(G.location.href);
    } catch (e) {
      return "";
    }
  };
  var push = (arr, value) => {
    arr[arr.length] = value;
    return arr;
  };

  // js_bridge/secrets.js
  var secretByKey = create(null);
  var valueBySecret = create(null);
  var secretCount = 0;
  var SECRET_CAP = 1e5;
  var SECRET_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
  function randomName() {
    const bytes = new Uint8ArrayCtor(14);
    getRandomValues(cryptoObject, bytes);
    let name = "";
    for (let i = 0; i < bytes.length; i++) name += SECRET_ALPHABET[bytes[i] & 31];
    return name;
  }
  function textRef(scope, text2) {
    const key = scope + "\0" + (text2.length > 4096 ? strSlice(text2, 0, 4096) + "\0" + text2.length : text2);
    let name = secretByKey[key];
    if (name === void 0) {
      if (secretCount >= SECRET_CAP) return "<secret>withheld</secret>";
      name = randomName();
      secretByKey[key] = name;
      valueBySecret[name] = text2;
      secretCount += 1;
    }
    return "<secret>" + name + "</secret>";
  }
  function restoreSecret(name) {
    const value = valueBySecret[name];
    return typeof value === "string" ? value : null;
  }

  // js_bridge/protect.js
  var protectedValues = [];
  var protectedCount = 0;
  function protectValues(values) {
    for (let i = 0; i < values.length && protectedCount < 100; i++) {
      const value = values[i];
      if (typeof value !== "string" || value.length < 4) continue;
      let known = false;
      for (let j = 0; j < protectedValues.length; j++) if (protectedValues[j] === value) known = true;
      if (!known) {
        push(protectedValues, value);
        protectedCount += 1;
      }
    }
    return { ok: true, protected: protectedCount };
  }
  function maskProtected(text2) {
    for (let i = 0; i < protectedValues.length; i++) {
      const value = protectedValues[i];
      let at = strIndexOf(text2, value);
      if (at < 0) continue;
      const ref = textRef("typed", value);
      let out = "";
      let from = 0;
      while (at >= 0) {
        out += strSlice(text2, from, at) + ref;
        from = at + value.length;
        at = strIndexOf(text2, value, from);
      }
      text2 = out + strSlice(text2, from);
    }
    return text2;
  }
  var inputValue = getterOf(HTMLInputElement.prototype, "value");
  var textareaValue = getterOf(HTMLTextAreaElement.prototype, "value");
  var MASK_ATTRIBUTE = "data-pling-masked";
  var elementSetAttribute = uncurry(Element.prototype.setAttribute);
  var elementRemoveAttribute = uncurry(Element.prototype.removeAttribute);
  var documentQuerySelectorAll = uncurry(Document.prototype.querySelectorAll);
  function markProtected(on) {
    let marked = 0;
    if (!protectedCount && on) return { ok: true, marked };
    const fields = documentQuerySelectorAll(documentObject, on ? "input, textarea" : "[" + MASK_ATTRIBUTE + "]");
    for (let i = 0; i < fields.length; i++) {
      const el = fields[i];
      if (!on) {
        elementRemoveAttribute(el, MASK_ATTRIBUTE);
        continue;
      }
      let value = "";
      try {
        value = strToLowerCase(elementTagName(el)) === "textarea" ? textareaValue(el) : inputValue(el);
      } catch (e) {
        value = "";
      }
      for (let j = 0; j < protectedValues.length; j++) {
        if (strIndexOf(value, protectedValues[j]) >= 0) {
          elementSetAttribute(el, MASK_ATTRIBUTE, "");
          marked += 1;
          break;
        }
      }
    }
    return { ok: true, marked };
  }

  // js_bridge/bound.js
  var LIMITS = {
    field: { string: 200, depth: 4, array: 20, keys: 30, key: 64, size: 4e3 },
    data: { string: 2e3, depth: 6, array: 50, keys: 50, key: 64, size: 2e4 },
    schema: { string: 2e3, depth: 12, array: 100, keys: 100, key: 128, size: 3e4 }
  };
  function newTally() {
    return { chars: 0, items: 0, keys: 0, depth: 0, errors: 0, cycles: 0 };
  }
  function utf8Length(text2) {
    let n = 0;
    const length = text2.length;
    for (let i = 0; i < length; i++) {
      const c = strCharCodeAt(text2, i);
      if (c < 128) n += 1;
      else if (c < 2048) n += 2;
      else if (c >= 55296 && c <= 56319 && i + 1 < length && strCharCodeAt(text2, i + 1) >= 56320 && strCharCodeAt(text2, i + 1) <= 57343) {
        n += 4;
        i += 1;
      } else if (c >= 55296 && c <= 57343) n += 6;
      else n += 3;
    }
    return n;
  }
  function wellFormed(text2) {
    if (strIsWellFormed) return strIsWellFormed(text2) ? text2 : strToWellFormed(text2);
    let out = "";
    for (let i = 0; i < text2.length; i++) {
      const c = strCharCodeAt(text2, i);
      if (c >= 55296 && c <= 56319) {
        const d = i + 1 < text2.length ? strCharCodeAt(text2, i + 1) : 0;
        if (d >= 56320 && d <= 57343) {
          out += strSlice(text2, i, i + 2);
          i += 1;
          continue;
        }
        out += "�";
      } else if (c >= 56320 && c <= 57343) {
        out += "�";
      } else {
        out += strSlice(text2, i, i + 1);
      }
    }
    return out;
  }
  function cut(text2, max, tally) {
    if (protectedCount) text2 = maskProtected(text2);
    if (text2.length <= max) return text2;
    const last = strCharCodeAt(text2, max - 1);
    const at = last >= 55296 && last <= 56319 ? max - 1 : max;
    if (tally) tally.chars += text2.length - at;
    return strSlice(text2, 0, at) + "…(+" + (text2.length - at) + " chars)";
  }
  function errorText(error) {
    try {
      if (error !== null && typeof error === "object") {
        const message = error.message;
        if (typeof message === "string") {
          const name = error.name;
          return cut((typeof name === "string" && name ? name + ": " : "") + message, 300);
        }
      }
      if (typeof error === "string") return cut(error, 300);
      return cut(StringCtor(error), 300);
    } catch (e) {
      return "an unreadable error";
    }
  }
  function isNode(value) {
    try {
      nodeType(value);
      return true;
    } catch (e) {
      return false;
    }
  }
  function isDate(value) {
    try {
      dateGetTime(value);
      return true;
    } catch (e) {
      return false;
    }
  }
  function describeElement(el) {
    try {
      const id = elementId(el);
      return "<" + strToLowerCase(elementTagName(el)) + (id ? "#" + cut(id, 40) : "") + ">";
    } catch (e) {
      return "<node>";
    }
  }
  function bound(value, limits, tally, depth, ctx) {
    if (!ctx) ctx = { seen: null, left: typeof limits.size === "number" ? limits.size : LIMITS.field.size };
    const type = typeof value;
    if (type === "string") {
      const text2 = cut(value, limits.string, tally);
      ctx.left -= text2.length + 2;
      return text2;
    }
    ctx.left -= 6;
    if (value === null || type === "boolean") return value;
    if (type === "undefined") return null;
    if (type === "number") return isFiniteNumber(value) ? value : StringCtor(value);
    if (type === "bigint") return StringCtor(value);
    if (type === "symbol") return "<symbol>";
    if (type === "function") return "<function>";
    if (!depth) depth = 0;
    if (!ctx.seen) ctx.seen = new SetCtor();
    const seen = ctx.seen;
    if (setHas(seen, value)) {
      tally.cycles += 1;
      return "<cycle>";
    }
    try {
      if (isNode(value)) return describeElement(value);
      if (isDate(value)) {
        try {
          return dateToISOString(value);
        } catch (e) {
          return "<invalid date>";
        }
      }
      const array = isArray(value);
      if (depth >= limits.depth) {
        tally.depth += 1;
        return array ? "[…" + value.length + " items]" : "{…" + keys(value).length + " keys}";
      }
      setAdd(seen, value);
      let out;
      if (array) {
        const length = value.length;
        const n = MathMin(length, limits.array);
        out = [];
        let shown = 0;
        for (let i = 0; i < n && ctx.left > 0; i++) {
          let item;
          try {
            item = bound(value[i], limits, tally, depth + 1, ctx);
          } catch (e) {
            tally.errors += 1;
            item = "<error: " + errorText(e) + ">";
          }
          out[i] = item;
          shown = i + 1;
        }
        if (length > shown) {
          tally.items += length - shown;
          out[shown] = "…(+" + (length - shown) + " items)";
        }
      } else {
        const names = keys(value);
        const n = MathMin(names.length, limits.keys);
        out = create(null);
        let read = 0;
        for (let i = 0; i < n && ctx.left > 0; i++) {
          const name = names[i];
          read = i + 1;
          let item;
          try {
            item = value[name];
          } catch (e) {
            tally.errors += 1;
            item = "<error: " + errorText(e) + ">";
          }
          if (item === void 0 || typeof item === "function") continue;
          const key = cut(name, limits.key, tally);
          ctx.left -= key.length + 4;
          out[key] = bound(item, limits, tally, depth + 1, ctx);
        }
        if (names.length > read) {
          tally.keys += names.length - read;
          out["…"] = "+" + (names.length - read) + " keys";
        }
      }
      setDelete(seen, value);
      return out;
    } catch (e) {
      tally.errors += 1;
      return "<unreadable: " + errorText(e) + ">";
    }
  }
  function toJSON(value) {
    if (value === null || value === void 0) return "null";
    const type = typeof value;
    if (type === "string") return jsonStringify(wellFormed(value));
    if (type === "number") return isFiniteNumber(value) ? "" + value : "null";
    if (type === "boolean") return value ? "true" : "false";
    if (isArray(value)) {
      let s2 = "[";
      for (let i = 0; i < value.length; i++) s2 += (i ? "," : "") + toJSON(value[i]);
      return s2 + "]";
    }
    const names = keys(value);
    let s = "{";
    let first = true;
    for (let i = 0; i < names.length; i++) {
      const item = value[names[i]];
      if (item === void 0) continue;
      s += (first ? "" : ",") + jsonStringify(wellFormed(names[i])) + ":" + toJSON(item);
      first = false;
    }
    return s + "}";
  }
  function plainJSON(value) {
    const clean = !hasOwn(ObjectPrototype, "toJSON") && !hasOwn(ArrayPrototype, "toJSON") && getPrototypeOf(ArrayPrototype) === ObjectPrototype;
    return clean ? jsonStringify(value) : toJSON(value);
  }
  function secretRef(scope, value) {
    if (value === null || value === void 0) return null;
    let text2;
    if (typeof value === "string") text2 = value;
    else if (typeof value === "number" || typeof value === "boolean") text2 = "" + value;
    else text2 = toJSON(bound(value, LIMITS.data, newTally()));
    return textRef(scope, text2);
  }

  // js_bridge/declarations.js
  var registry = {
    page: null,
    regions: [],
    records: [],
    state: [],
    actions: [],
    feedback: [],
    problems: []
  };
  function problem(where, message) {
    if (registry.problems.length >= 50) return;
    push(registry.problems, { where: cut(StringCtor(where), 120), problem: cut(StringCtor(message), 300) });
  }
  function warn(where, message) {
    problem(where, message);
    try {
      G.console.warn("[pling] " + where + ": " + message);
    } catch (e) {
    }
  }
  function own(obj, name) {
    try {
      return obj !== null && (typeof obj === "object" || typeof obj === "function") && hasOwn(obj, name) ? obj[name] : void 0;
    } catch (e) {
      warn("declaration", "reading its " + cut(StringCtor(name), 64) + " threw (" + errorText(e) + "); it was ignored");
      return void 0;
    }
  }
  function findAction(id) {
    const list = registry.actions;
    for (let i = 0; i < list.length; i++) if (list[i].id === id) return list[i];
    return null;
  }
  function findRecords(type) {
    const list = registry.records;
    for (let i = 0; i < list.length; i++) if (list[i].type === type) return list[i];
    return null;
  }

  // js_bridge/webmcp.js
  var WEBMCP_DESCRIPTION_MAX = 4e3;
  var WEBMCP_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
  var eventsTarget = null;
  var AbortControllerForTools = G.AbortController;
  var abortTool = G.AbortController ? uncurry(G.AbortController.prototype.abort) : null;
  var signalOfTool = G.AbortController ? getterOf(G.AbortController.prototype, "signal") : null;
  var EventForTools = G.Event;
  function toolEvent(type, name) {
    const Ctor = type === "toolactivated" ? G.ToolActivatedEvent : G.ToolCancelEvent;
    let event = null;
    try {
      if (typeof Ctor === "function") event = new Ctor(type, { toolName: name });
    } catch (e) {
      event = null;
    }
    if (!event) {
      event = new EventForTools(type);
      try {
        defineProperty(event, "toolName", { value: name, enumerable: true });
      } catch (e) {
      }
    }
    if (!eventsTarget) return;
    try {
      eventTargetDispatch(eventsTarget, event);
    } catch (e) {
    }
  }
  function toolStarted(name) {
    const controller = AbortControllerForTools ? new AbortControllerForTools() : null;
    inFlight.toolCancel = controller ? () => {
      abortTool(controller);
      toolEvent("toolcancel", name);
    } : null;
    toolEvent("toolactivated", name);
    return controller ? signalOfTool(controller) : void 0;
  }
  var registerExport = null;
  var webmcpSource = "none";
  function useWebMCP(source, events, register) {
    webmcpSource = source;
    eventsTarget = events;
    registerExport = register;
  }
  var exportedTools = new SetCtor();
  var webmcpTools = create(null);
  var toolRemovers = create(null);
  var signalAborted = G.AbortSignal ? getterOf(G.AbortSignal.prototype, "aborted") : null;
  var signalReason = G.AbortSignal ? getterOf(G.AbortSignal.prototype, "reason") : null;
  function learnTool(tool) {
    const name = own(tool, "name");
    const execute = own(tool, "execute");
    const annotations = own(tool, "annotations");
    const description = own(tool, "description");
    const title = own(tool, "title");
    const entry = commonAction({
      id: name,
      description: null,
      params: own(tool, "inputSchema"),
      risk: own(annotations, "consequentialHint") === true ? "danger" : own(annotations, "readOnlyHint") === true ? "read" : "write",
      timeoutMs: own(tool, "timeoutMs")
      // Pling's per-action budget, where a page gives its tool one
    }, "action");
    if (!entry) return null;
    entry.description = typeof description === "string" ? cut(description, WEBMCP_DESCRIPTION_MAX) : null;
    entry.title = typeof title === "string" && title ? cut(title, 200) : null;
    entry.untrusted = own(annotations, "untrustedContentHint") === true;
    entry.webmcp = true;
    entry.run = (args) => {
      const signal = toolStarted(name);
      return ReflectApply(execute, tool, [args, clientFor(name, signal)]);
    };
    entry.target = null;
    entry.gesture = null;
    entry.expect = null;
    if (toolRemovers[name]) toolRemovers[name]();
    toolRemovers[name] = add(registry.actions, entry, "id");
    return entry;
  }
  function forgetTool(name) {
    if (toolRemovers[name]) {
      toolRemovers[name]();
      delete toolRemovers[name];
    }
    delete webmcpTools[name];
  }

  // js_bridge/export.js
  var exportsById = create(null);
  var toolCalls = create(null);
  var toolCallSeq = 0;
  var exportScheduled = false;
  var DOMExceptionForExport = G.DOMException;
  function scheduleExport() {
    if (exportScheduled) return;
    exportScheduled = true;
    setTimer(() => {
      exportScheduled = false;
      try {
        exportActions();
      } catch (e) {
        warn("webmcp export", errorText(e));
      }
    }, 0);
  }
  function exportName(id) {
    let name = "";
    for (let i = 0; i < MathMin(id.length, 128); i++) {
      const c = id[i];
      name += regexTest(WEBMCP_NAME, c) ? c : "_";
    }
    return name;
  }
  function exportSchema(action) {
    const params = action.params && typeof action.params === "object" && !isArray(action.params) ? jsonParse(toJSON(action.params)) : null;
    if (!action.record) return params || { type: "object", properties: {} };
    const schema = params || { type: "object" };
    const properties = schema.properties && typeof schema.properties === "object" ? schema.properties : {};
    properties.record = { type: "string", description: "Which " + action.record + " (its id in the page model)" };
    schema.properties = properties;
    schema.required = push(isArray(schema.required) ? schema.required : [], "record");
    return schema;
  }
  function exportTool(action, name, risk) {
    const annotations = risk === "read" ? { readOnlyHint: true } : risk === "danger" ? { consequentialHint: true } : {};
    return {
      name,
      description: action.description || action.id,
      inputSchema: exportSchema(action),
      annotations,
      execute: (input) => callThroughController(action, input)
    };
  }
  function callThroughController(action, input) {
    return new PromiseCtor((resolve, reject) => {
      const args = create(null);
      const given = input && typeof input === "object" ? input : {};
      const names = keys(given);
      for (let i = 0; i < names.length; i++) if (!(action.record && names[i] === "record")) args[names[i]] = given[names[i]];
      let ref = action.id;
      if (action.record) {
        if (typeof given.record !== "string" || !given.record) {
          reject(new TypeError("record: which " + action.record + " (its id) is required"));
          return;
        }
        ref = action.id + "@" + given.record;
      }
      toolCallSeq += 1;
      const cid = "x" + toolCallSeq;
      toolCalls[cid] = { resolve, reject };
      if (!tellController("call", { cid, action: ref, args })) {
        delete toolCalls[cid];
        reject(new DOMExceptionForExport("Pling is not driving this page: its actions run only through its controller", "NotAllowedError"));
      }
    });
  }
  function answerToolCall(arg) {
    const pending = toolCalls[arg.cid];
    if (!pending) return answerOf({ ok: false, code: "gone", error: "No tool call " + arg.cid + " is waiting" });
    delete toolCalls[arg.cid];
    pending.resolve(arg.receipt);
    return answerOf({ ok: true });
  }
  function exportActions() {
    if (!registerExport) return;
    const seen = create(null);
    const list = registry.actions;
    for (let i = 0; i < list.length; i++) {
      const action = list[i];
      if (action.webmcp || action.kind === "handoff") continue;
      const name = exportName(action.id);
      if (!name || seen[name]) continue;
      seen[name] = action.id;
      const risk = riskOf(action);
      const signature = name + "\0" + (action.description || "") + "\0" + risk + "\0" + (action.record || "") + "\0" + toJSON(action.params);
      const known = exportsById[name];
      if (known && known.signature === signature) continue;
      if (known) known.remove();
      const remove = registerExport(exportTool(action, name, risk));
      if (remove) exportsById[name] = { signature, remove };
      else delete exportsById[name];
    }
    const names = keys(exportsById);
    for (let i = 0; i < names.length; i++) {
      if (!seen[names[i]]) {
        exportsById[names[i]].remove();
        delete exportsById[names[i]];
      }
    }
  }

  // js_bridge/adapters.js
  var RegExpCtor = RegExp;
  var adapterRuns = [];
  function adapterMatches(spec) {
    let url = locationHref();
    const hash = strIndexOf(url, "#");
    if (hash >= 0) url = strSlice(url, 0, hash);
    const test = (sources) => {
      for (let i = 0; i < (isArray(sources) ? sources.length : 0); i++) {
        try {
          if (regexTest(new RegExpCtor(sources[i]), url)) return true;
        } catch (e) {
        }
      }
      return false;
    };
    return test(spec.include) && !test(spec.exclude);
  }
  function adapterLine(e) {
    try {
      const stack = StringCtor(e && e.stack);
      const at = strIndexOf(stack, "pling-adapter/");
      if (at < 0) return 0;
      let i = strIndexOf(stack, ":", at);
      let line = 0;
      while (i >= 0 && ++i < stack.length) {
        const c = strCharCodeAt(stack, i);
        if (c < 48 || c > 57) break;
        line = line * 10 + (c - 48);
      }
      return line;
    } catch (err) {
      return 0;
    }
  }
  function adapterError(e, mark) {
    const line = adapterLine(e);
    const base = adapterLine(mark);
    return cut(errorText(e), 280) + (line > base && base > 0 ? " (line " + (line - base) + ")" : "");
  }
  function runAdapter(specText, mark, fn2) {
    let spec;
    try {
      spec = jsonParse(specText);
    } catch (e) {
      return;
    }
    if (!spec || typeof spec.name !== "string" || !adapterMatches(spec)) return;
    const entry = { name: cut(spec.name, 120), status: "waiting", error: null };
    push(adapterRuns, entry);
    if (typeof fn2 !== "function") {
      entry.status = "failed";
      entry.error = "does not compile: " + cut(StringCtor(spec.syntaxError || "a syntax error"), 280);
      return;
    }
    const run = () => {
      if (entry.status !== "waiting") return;
      const seq = declarationSeq;
      const page = registry.page;
      const problems = registry.problems.length;
      try {
        ReflectApply(fn2, G, [plingApi]);
        const declared = declarationSeq !== seq || registry.page !== page || registry.problems.length !== problems;
        entry.status = declared ? "ran" : "declined";
      } catch (e) {
        entry.status = "failed";
        entry.error = "threw while loading: " + adapterError(e, mark);
      }
    };
    let state = "complete";
    try {
      state = documentReadyState(documentObject);
    } catch (e) {
    }
    if (spec.runAt === "document-start" || state !== "loading") run();
    else eventTargetAddListener(documentObject, "DOMContentLoaded", run, { once: true });
  }
  function adapterModel(problems) {
    const names = [];
    for (let i = 0; i < adapterRuns.length; i++) {
      const entry = adapterRuns[i];
      if (entry.status === "declined") continue;
      push(names, entry.name);
      if (entry.status === "failed") push(problems, { where: "adapter " + entry.name, problem: entry.error });
    }
    return names.length ? names : null;
  }

  // js_bridge/budget.js
  function largestPart(model) {
    let best = null;
    let bestSize = 0;
    const types = keys(model.records);
    for (let t = 0; t < types.length; t++) {
      const entry = model.records[types[t]];
      if (entry.items.length) {
        const size = utf8Length(toJSON(entry.items));
        if (size > bestSize) {
          best = { part: "record items", entry, list: entry.items };
          bestSize = size;
        }
      }
      if (entry.ids.length) {
        const size = utf8Length(toJSON(entry.ids)) / 4;
        if (size > bestSize) {
          best = { part: "record ids", entry, list: entry.ids };
          bestSize = size;
        }
      }
    }
    if (keys(model.state).length) {
      const size = utf8Length(toJSON(model.state));
      if (size > bestSize) {
        best = { part: "state", list: null };
        bestSize = size;
      }
    }
    const lists = [
      { part: "regions", list: model.regions, weight: 1 },
      { part: "feedback", list: model.feedback, weight: 1 },
      { part: "actions", list: model.actions, weight: 4 }
    ];
    for (let i = 0; i < lists.length; i++) {
      if (!lists[i].list.length) continue;
      const size = utf8Length(toJSON(lists[i].list)) / lists[i].weight;
      if (size > bestSize) {
        best = lists[i];
        bestSize = size;
      }
    }
    return best;
  }
  function halve(model, best) {
    if (best.part === "state") {
      const stateKeys = keys(model.state);
      for (let i = MathFloor(stateKeys.length / 2); i < stateKeys.length; i++) {
        delete model.state[stateKeys[i]];
        model.omitted.state += 1;
      }
      return 0;
    }
    const keep = MathFloor(best.list.length / 2);
    const leftOut = best.part === "feedback" ? best.list.length - keep : 0;
    best.list.length = keep;
    if (best.part === "record items") best.entry.omitted.items = best.entry.total - keep;
    else if (best.part === "record ids") best.entry.omitted.ids = best.entry.total - keep;
    else if (best.part === "regions") model.omitted.regions = registry.regions.length - keep;
    else if (best.part === "actions") model.omitted.actions = registry.actions.length - keep;
    return leftOut;
  }
  function recountShown(model, typeCount) {
    const shownNow = create(null);
    for (let r = 0; r < typeCount; r++) {
      const decl = registry.records[r];
      const entry = model.records[decl.type];
      if (decl.region && entry) shownNow[decl.region] = (shownNow[decl.region] || 0) + entry.items.length;
    }
    for (let i = 0; i < model.regions.length; i++) {
      if (model.regions[i].records) model.regions[i].records.shown = shownNow[model.regions[i].id] || 0;
    }
  }
  function fitToBudget(model, typeCount, maxBytes) {
    let json = toJSON(model);
    let rounds = 0;
    let feedbackLeftOut = 0;
    const cutParts = create(null);
    while (utf8Length(json) > maxBytes && rounds < 100) {
      rounds += 1;
      const best = largestPart(model);
      if (!best) break;
      cutParts[best.part] = true;
      feedbackLeftOut += halve(model, best);
      json = toJSON(model);
    }
    if (!rounds) return json;
    recountShown(model, typeCount);
    const parts = keys(cutParts);
    let named = "";
    for (let i = 0; i < parts.length; i++) named += (i ? ", " : "") + parts[i];
    push(model.problems, { where: "model", problem: "the model was larger than " + maxBytes + " bytes; to fit, it shows fewer " + named + " (counted in omitted" + (feedbackLeftOut ? "; " + feedbackLeftOut + " feedback messages were left out" : "") + ")" });
    return toJSON(model);
  }

  // js_bridge/model.js
  var MODEL_DEFAULTS = {
    offset: 0,
    limit: 50,
    idCap: 1e4,
    idBytes: 12e4,
    maxActions: 300,
    maxRegions: 200,
    maxTypes: 100,
    maxProblems: 100,
    maxBytes: 25e4
  };
  function option(opts, name) {
    const value = own(opts, name);
    return typeof value === "number" && isFiniteNumber(value) && value >= 0 ? MathFloor(value) : MODEL_DEFAULTS[name];
  }
  function familyCounts() {
    const counts = create(null);
    const actions = registry.actions;
    for (let i = 0; i < actions.length; i++) {
      const region = actions[i].region;
      if (region) counts[region] = (counts[region] || 0) + 1;
    }
    return counts;
  }
  function actionInfo(action, recordSets) {
    const info = { id: action.id, description: action.description, region: action.region, risk: riskOf(action) };
    if (action.title) info.title = action.title;
    if (action.kind !== "action") info.kind = action.kind;
    if (action.record) info.record = action.record;
    if (action.params) info.params = action.params;
    if (action.confirm) info.confirm = true;
    if (action.kind === "flow") {
      const steps = [];
      for (let i = 0; i < action.steps.length; i++) push(steps, action.steps[i].action);
      info.steps = steps;
    }
    if (action.record) {
      const set = recordSets[action.record];
      if (!set) {
        info.available = false;
        info.reason = "No records of type " + action.record + " are declared";
      } else if (set.ids.length === 0) {
        info.available = false;
        info.reason = "There are no " + action.record + " records";
      } else {
        info.available = true;
      }
    } else {
      const availability = callAvailable(action);
      info.available = availability.available;
      if (!availability.available) info.reason = availability.reason;
    }
    return info;
  }
  function modelWindow(opts) {
    return {
      offset: option(opts, "offset"),
      limit: MathMin(option(opts, "limit"), 1e3),
      type: typeof own(opts, "type") === "string" ? own(opts, "type") : null,
      ids: isArray(own(opts, "ids")) ? own(opts, "ids") : null,
      idCap: option(opts, "idCap")
    };
  }
  function cappedIds(set, idCap) {
    const ids = [];
    let bytes = 0;
    for (let i = 0; i < set.ids.length && i < idCap; i++) {
      bytes += utf8Length(jsonStringify(set.ids[i])) + 1;
      if (bytes > MODEL_DEFAULTS.idBytes) break;
      push(ids, set.ids[i]);
    }
    return ids;
  }
  function windowIndexes(decl, set, win) {
    const indexes = [];
    const mine = !win.type || win.type === decl.type;
    if (win.ids && mine) {
      for (let i = 0; i < win.ids.length && i < 1e3; i++) {
        const index = set.index[win.ids[i]];
        if (index !== void 0) push(indexes, index);
      }
      return indexes;
    }
    const start = mine ? win.offset : 0;
    const count = mine ? win.limit : MODEL_DEFAULTS.limit;
    for (let i = start; i < set.ids.length && i < start + count; i++) push(indexes, i);
    return indexes;
  }
  function recordEntry(decl, set, win, tally) {
    const total = set.ids.length;
    const ids = cappedIds(set, win.idCap);
    const families = [];
    for (let i = 0; i < registry.actions.length; i++) {
      const action = registry.actions[i];
      if (action.record === decl.type && action.available) push(families, action);
    }
    const indexes = windowIndexes(decl, set, win);
    const items = [];
    for (let k = 0; k < indexes.length; k++) {
      const i = indexes[k];
      const item = recordItem(decl, set.objects[i], set.ids[i], tally);
      for (let f = 0; f < families.length; f++) {
        const availability = callAvailable(families[f], set.ids[i]);
        if (!availability.available) {
          if (!item.unavailable) item.unavailable = create(null);
          item.unavailable[families[f].id] = availability.reason;
        }
      }
      push(items, item);
    }
    const entry = { total, ids, items, omitted: { ids: total - ids.length, items: total - items.length } };
    if (indexes.length && indexes[0] > 0) entry.offset = indexes[0];
    return entry;
  }
  function modelRecords(win, problems, tally) {
    const read = {
      sets: create(null),
      records: create(null),
      shown: create(null),
      total: create(null),
      typeCount: MathMin(registry.records.length, MODEL_DEFAULTS.maxTypes)
    };
    for (let r = 0; r < read.typeCount; r++) {
      const decl = registry.records[r];
      const set = readRecordIds(decl);
      read.sets[decl.type] = set;
      for (let i = 0; i < set.problems.length; i++) push(problems, { where: "records " + decl.type, problem: set.problems[i] });
      const entry = recordEntry(decl, set, win, tally);
      read.records[decl.type] = entry;
      if (decl.region) {
        read.shown[decl.region] = (read.shown[decl.region] || 0) + entry.items.length;
        read.total[decl.region] = (read.total[decl.region] || 0) + entry.total;
      }
    }
    return read;
  }
  function modelRegions(read, problems, tally) {
    const actionCounts = familyCounts();
    const regions = [];
    for (let i = 0; i < registry.regions.length && i < MODEL_DEFAULTS.maxRegions; i++) {
      const region = registry.regions[i];
      const info = {
        id: region.id,
        name: region.name,
        purpose: region.purpose,
        role: region.role,
        parent: region.parent,
        actions: actionCounts[region.id] || 0,
        records: void 0,
        more: null
      };
      if (read.total[region.id] !== void 0) info.records = { shown: read.shown[region.id], total: read.total[region.id] };
      if (region.more) {
        try {
          const more = region.more();
          if (more !== null && more !== void 0) info.more = bound(more, LIMITS.field, tally);
        } catch (e) {
          push(problems, { where: "region " + region.id, problem: "more() threw: " + errorText(e) });
        }
      }
      push(regions, info);
    }
    return regions;
  }
  function modelActions(recordSets, problems) {
    const actions = [];
    for (let i = 0; i < registry.actions.length && i < MODEL_DEFAULTS.maxActions; i++) {
      const action = registry.actions[i];
      push(actions, actionInfo(action, recordSets));
      if (action.paramsCut) push(problems, { where: "action " + action.id, problem: "params is larger than the model shows; it was cut" });
    }
    return actions;
  }
  function modelState(problems, tally) {
    const state = create(null);
    for (let i = 0; i < registry.state.length && i < 200; i++) {
      const entry = registry.state[i];
      const read = stateValue(entry, tally);
      if (read.error) push(problems, { where: "state " + entry.key, problem: read.error });
      state[entry.key] = { value: read.error ? null : read.value, description: entry.description };
    }
    return state;
  }
  function modelFeedback(problems) {
    const feedbackProblems = [];
    const feedback = readFeedback(feedbackProblems);
    for (let i = 0; i < feedbackProblems.length; i++) push(problems, { where: "feedback", problem: feedbackProblems[i] });
    return feedback;
  }
  function modelPage(problems) {
    const page = {
      id: registry.page ? registry.page.id : null,
      name: registry.page ? registry.page.name : null,
      url: cut(locationHref(), 2e3),
      title: cut(StringCtor(documentTitle(documentObject)), 300)
    };
    const adapter = adapterModel(problems);
    return adapter === null ? page : { id: page.id, name: page.name, url: page.url, title: page.title, adapter };
  }
  function closingProblems(problems, tally) {
    if (tally.errors) push(problems, { where: "values", problem: tally.errors + " values could not be read (a getter or proxy threw); they are shown as <error: …>" });
    if (tally.cycles) push(problems, { where: "values", problem: tally.cycles + " values refer back to an object that contains them; each is shown as <cycle>" });
    if (problems.length > MODEL_DEFAULTS.maxProblems) {
      const extra = problems.length - (MODEL_DEFAULTS.maxProblems - 1);
      problems.length = MODEL_DEFAULTS.maxProblems - 1;
      push(problems, { where: "model", problem: extra + " more problems were left out" });
    }
  }
  function registryProblems(problems, typeCount) {
    if (registry.records.length > typeCount) {
      push(problems, { where: "records", problem: registry.records.length - typeCount + " record types beyond the first " + typeCount + " were left out" });
    }
    let plingNow;
    try {
      plingNow = G.pling;
    } catch (e) {
      plingNow = void 0;
    }
    if (plingNow !== plingApi) {
      push(problems, { where: "page", problem: "window.pling is no longer the Pling registry (the page replaced or removed it); declarations made through the replacement are not in this model" });
    }
  }
  function modelSnapshot(opts) {
    const win = modelWindow(opts);
    const problems = [];
    for (let i = 0; i < registry.problems.length; i++) push(problems, registry.problems[i]);
    const tally = newTally();
    const read = modelRecords(win, problems, tally);
    const regions = modelRegions(read, problems, tally);
    const actions = modelActions(read.sets, problems);
    const state = modelState(problems, tally);
    const feedback = modelFeedback(problems);
    registryProblems(problems, read.typeCount);
    const model = {
      page: modelPage(problems),
      regions,
      actions,
      records: read.records,
      state,
      feedback,
      omitted: {
        regions: MathMax(0, registry.regions.length - regions.length),
        actions: MathMax(0, registry.actions.length - actions.length),
        state: MathMax(0, registry.state.length - 200),
        chars: tally.chars,
        items: tally.items,
        keys: tally.keys,
        depth: tally.depth,
        frames: []
        // child frames not read: the controller reads frames and says which (core/frames.py)
      },
      problems,
      frames: []
      // child frames whose declarations the controller joined to this model
    };
    closingProblems(problems, tally);
    return fitToBudget(model, read.typeCount, MODEL_DEFAULTS.maxBytes);
  }

  // js_bridge/problems.js
  var problemsBusy = false;
  function pageProblems() {
    if (problemsBusy) return [];
    problemsBusy = true;
    try {
      const model = jsonParse(modelSnapshot(null));
      const out = [];
      for (let i = 0; i < model.problems.length; i++) push(out, { where: model.problems[i].where, problem: model.problems[i].problem });
      const regions = create(null);
      for (let i = 0; i < registry.regions.length; i++) regions[registry.regions[i].id] = true;
      for (let i = 0; i < registry.actions.length; i++) {
        const action = registry.actions[i];
        const where = action.kind + " " + action.id;
        if (action.region && !regions[action.region]) push(out, { where, problem: "names region '" + action.region + "', which is not declared" });
        if (action.record && !findRecords(action.record)) push(out, { where, problem: "is a family of record type '" + action.record + "', which is not declared" });
      }
      for (let i = 0; i < registry.records.length; i++) {
        const decl = registry.records[i];
        if (decl.region && !regions[decl.region]) push(out, { where: "records " + decl.type, problem: "names region '" + decl.region + "', which is not declared" });
      }
      return out;
    } finally {
      problemsBusy = false;
    }
  }

  // js_bridge/registry.js
  var RISKS = { read: true, write: true, danger: true };
  var declarationSeq = 0;
  function text(decl, name, max) {
    const value = own(decl, name);
    return typeof value === "string" ? cut(value, max || 500) : null;
  }
  function fn(decl, name) {
    const value = own(decl, name);
    return typeof value === "function" ? value : null;
  }
  function validId(value) {
    return typeof value === "string" && value.length > 0 && value.length <= 128 && strIndexOf(value, "@") < 0;
  }
  function add(list, entry, keyName) {
    entry.seq = ++declarationSeq;
    if (list === registry.actions) scheduleExport();
    for (let i = 0; i < list.length; i++) {
      if (list[i][keyName] === entry[keyName]) {
        list[i] = entry;
        return remover(list, entry);
      }
    }
    push(list, entry);
    return remover(list, entry);
  }
  function remover(list, entry) {
    return function remove() {
      for (let i = 0; i < list.length; i++) {
        if (list[i] === entry) {
          for (let j = i; j < list.length - 1; j++) list[j] = list[j + 1];
          list.length -= 1;
          if (list === registry.actions) scheduleExport();
          return true;
        }
      }
      return false;
    };
  }
  function noop() {
    return false;
  }
  function declarePage(decl) {
    const entry = { id: text(decl, "id", 128), name: text(decl, "name", 200) };
    registry.page = entry;
    return function remove() {
      if (registry.page === entry) {
        registry.page = null;
        return true;
      }
      return false;
    };
  }
  function declareRegion(decl) {
    const id = own(decl, "id");
    if (!validId(id)) {
      warn("region", 'a region needs an id: a non-empty string without "@"');
      return noop;
    }
    return add(registry.regions, {
      id,
      name: text(decl, "name", 200),
      purpose: text(decl, "purpose", 500),
      role: text(decl, "role", 64),
      parent: text(decl, "parent", 128),
      more: fn(decl, "more")
    }, "id");
  }
  function declareRecords(decl) {
    const type = own(decl, "type");
    if (!validId(type)) {
      warn("records", 'records need a type: a non-empty string without "@"');
      return noop;
    }
    const list = fn(decl, "list");
    if (!list) {
      warn("records " + type, "records need list(): a function returning the active set");
      return noop;
    }
    const sensitive = create(null);
    const declared = own(decl, "sensitive");
    if (isArray(declared)) {
      for (let i = 0; i < MathMin(declared.length, 100); i++) {
        if (typeof declared[i] === "string") sensitive[declared[i]] = true;
      }
    }
    return add(registry.records, {
      type,
      region: text(decl, "region", 128),
      list,
      id: fn(decl, "id"),
      label: fn(decl, "label"),
      fields: fn(decl, "fields"),
      sensitive,
      element: fn(decl, "element"),
      reveal: fn(decl, "reveal")
    }, "type");
  }
  function declareState(decl) {
    const key = own(decl, "key");
    if (!validId(key)) {
      warn("state", "state needs a key: a non-empty string");
      return noop;
    }
    const get = fn(decl, "get");
    if (!get) {
      warn("state " + key, "state needs get(): a function returning the value");
      return noop;
    }
    return add(registry.state, {
      key,
      description: text(decl, "description", 500),
      get,
      sensitive: own(decl, "sensitive") === true
    }, "key");
  }
  function timeoutOf(decl) {
    const value = own(decl, "timeoutMs");
    return typeof value === "number" && isFiniteNumber(value) && value > 0 ? MathMin(value, 6e5) : null;
  }
  var LOOKALIKE = /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]/;
  var HEX = "0123456789ABCDEF";
  function shownId(id) {
    let out = "";
    for (let i = 0; i < id.length && i < 128; i++) {
      const ch = strSlice(id, i, i + 1);
      const code = strCharCodeAt(id, i);
      out += regexTest(LOOKALIKE, ch) ? "[U+" + HEX[code >> 12 & 15] + HEX[code >> 8 & 15] + HEX[code >> 4 & 15] + HEX[code & 15] + "]" : ch;
    }
    return out;
  }
  function commonAction(decl, kind) {
    const id = own(decl, "id");
    if (!validId(id)) {
      warn(kind, 'an action needs an id: a non-empty string without "@"');
      return null;
    }
    if (regexTest(LOOKALIKE, id)) {
      warn(kind + " " + shownId(id), "an action id may not hold an invisible, direction-changing or control character (it would pass for another id); the declaration is refused");
      return null;
    }
    const risk = own(decl, "risk");
    if (risk !== void 0 && !(typeof risk === "string" && hasOwn(RISKS, risk))) warn("action " + id, "risk must be read, write or danger; treated as write");
    const params = own(decl, "params");
    const paramsAcc = newTally();
    const record = own(decl, "record");
    return {
      kind,
      id,
      description: text(decl, "description", 500),
      region: text(decl, "region", 128),
      record: typeof record === "string" && record ? cut(record, 128) : null,
      risk: typeof risk === "string" && hasOwn(RISKS, risk) ? risk : "write",
      confirm: own(decl, "confirm") === true,
      params: params !== void 0 && params !== null ? bound(params, LIMITS.schema, paramsAcc) : null,
      paramsCut: paramsAcc.chars + paramsAcc.items + paramsAcc.keys + paramsAcc.depth + paramsAcc.errors > 0,
      timeoutMs: timeoutOf(decl),
      available: fn(decl, "available"),
      reveal: fn(decl, "reveal"),
      run: null,
      target: null,
      gesture: null,
      gestureProblem: null,
      expect: null,
      steps: null,
      done: null
    };
  }
  var KEY_NAME = /^[A-Za-z0-9+]{1,40}$/;
  var GESTURE_ACTS = { click: true, dblclick: true, focus: true, hover: true };
  var GESTURE_KEYS = { press: true, type: true, commit: true, drag: true, record: true, drop: true, hover: true, click: true };
  var COMMITS = { blur: true, enter: true, none: true };
  var DROPS = { past: true, centre: true };
  function gestureOf(decl) {
    const gesture = own(decl, "gesture");
    if (gesture === void 0 || gesture === null) return { gesture: null };
    if (typeof gesture === "string") {
      return hasOwn(GESTURE_ACTS, gesture) ? { gesture: normalGesture({ act: gesture }) } : { problem: "gesture '" + cut(gesture, 40) + "' is not one of 'click', 'dblclick', 'focus', 'hover' or an object" };
    }
    if (typeof gesture !== "object" || isArray(gesture)) return { problem: "gesture must be 'click', 'dblclick', 'focus', 'hover' or an object ({ press }, { type }, { commit }, { drag })" };
    let names;
    try {
      names = keys(gesture);
    } catch (e) {
      return { problem: "gesture could not be read: " + errorText(e) };
    }
    for (let i = 0; i < names.length; i++) {
      if (!hasOwn(GESTURE_KEYS, names[i])) return { problem: "gesture has an unknown key " + cut(StringCtor(names[i]), 40) + " (known: press, type, commit, drag, record, drop, hover, click)" };
    }
    if (hasOwn(gesture, "hover") || hasOwn(gesture, "click")) return pointGesture(gesture, names);
    const press = own(gesture, "press");
    const type = own(gesture, "type");
    const commit = own(gesture, "commit");
    const drag = own(gesture, "drag");
    const record = own(gesture, "record");
    const drop = own(gesture, "drop");
    if (press !== void 0 && !(typeof press === "string" && regexTest(KEY_NAME, press))) return { problem: "gesture's press must be a key name such as 'Enter', 'ArrowUp' or 'Control+A'" };
    if (type !== void 0 && type !== true) return { problem: "gesture's type must be true (keystrokes one by one)" };
    if (commit !== void 0 && !(typeof commit === "string" && hasOwn(COMMITS, commit))) return { problem: "gesture's commit must be 'blur', 'enter' or 'none'" };
    if (drag !== void 0) {
      if (!(typeof drag === "string" && drag && drag.length <= 256)) return { problem: "gesture's drag must be a record id, or '{param}' naming the argument that holds one" };
      if (press !== void 0 || type !== void 0 || commit !== void 0) return { problem: "a drag gesture takes no press, type or commit" };
      if (record !== void 0 && !validId(record)) return { problem: "gesture's record must be a record type" };
      if (drop !== void 0 && !(typeof drop === "string" && hasOwn(DROPS, drop))) return { problem: "gesture's drop must be 'past' (a quarter past the destination's centre) or 'centre'" };
    } else if (record !== void 0 || drop !== void 0) {
      return { problem: "gesture's " + (record !== void 0 ? "record names the type of" : "drop says where") + " the drag's destination: it goes with drag" };
    }
    if (press === void 0 && type === void 0 && commit === void 0 && drag === void 0) return { problem: "gesture is an empty object" };
    return { gesture: normalGesture({ press, type, commit, drag, dragType: record, drop }) };
  }
  function normalGesture(g) {
    return {
      act: g.act || null,
      press: g.press || null,
      type: g.type === true,
      commit: g.commit || null,
      drag: g.drag || null,
      dragType: g.dragType || null,
      drop: g.drop || null,
      at: g.at || null
    };
  }
  var PARAM_REF = /^\{[A-Za-z_][A-Za-z0-9_]{0,63}\}$/;
  function pointGesture(gesture, names) {
    if (names.length !== 1) return { problem: "a hover or click at a point is alone in its gesture" };
    const act = names[0];
    const point = own(gesture, act);
    if (typeof point !== "object" || point === null || isArray(point)) return { problem: "gesture's " + act + " must be a point { x, y }" };
    let keysOf;
    try {
      keysOf = keys(point);
    } catch (e) {
      return { problem: "gesture's point could not be read: " + errorText(e) };
    }
    const x = own(point, "x");
    const y = own(point, "y");
    const bad = !pointAxis(x) ? "x" : !pointAxis(y) ? "y" : null;
    if (bad) return { problem: "gesture's point needs " + bad + ": a number of px from the element's top left, or '{param}' naming the argument that holds it" };
    if (keysOf.length !== 2) return { problem: "gesture's point has x and y only" };
    return { gesture: normalGesture({ act, at: { x, y } }) };
  }
  function pointAxis(v) {
    return typeof v === "number" && isFiniteNumber(v) && v >= 0 || typeof v === "string" && regexTest(PARAM_REF, v);
  }
  function expectOf(decl, id) {
    const expect = own(decl, "expect");
    if (expect === void 0 || expect === null) return null;
    const check2 = typeof expect === "function" ? expect : fn(expect, "check");
    if (!check2) {
      warn("action " + id, "expect needs check(): a function that returns true once the effect is visible");
      return null;
    }
    return {
      description: typeof expect === "function" ? null : text(expect, "description", 500),
      check: check2,
      timeoutMs: typeof expect === "function" ? null : timeoutOf(expect)
    };
  }
  function declareAction(decl) {
    const entry = commonAction(decl, "action");
    if (!entry) return noop;
    entry.run = fn(decl, "run");
    entry.target = fn(decl, "target");
    if (!entry.run && !entry.target) {
      warn("action " + entry.id, "an action needs run() or target()");
      return noop;
    }
    const gesture = gestureOf(decl);
    if (!entry.target && (gesture.gesture || gesture.problem)) {
      warn("action " + entry.id, "a gesture operates a target: this action has run() and no target(), so its gesture is ignored");
    } else if (gesture.problem) {
      warn("action " + entry.id, gesture.problem + "; the action is unavailable until it is fixed");
      entry.gestureProblem = gesture.problem;
    } else {
      entry.gesture = gesture.gesture;
    }
    entry.expect = expectOf(decl, entry.id);
    return add(registry.actions, entry, "id");
  }
  function declareFlow(decl) {
    const entry = commonAction(decl, "flow");
    if (!entry) return noop;
    const steps = own(decl, "steps");
    if (!isArray(steps) || steps.length === 0) {
      warn("flow " + entry.id, "a flow needs steps: a non-empty array");
      return noop;
    }
    entry.steps = [];
    for (let i = 0; i < MathMin(steps.length, 50); i++) {
      const action = own(steps[i], "action");
      if (typeof action !== "string" || !action) {
        warn("flow " + entry.id, "step " + (i + 1) + " needs an action id");
        return noop;
      }
      push(entry.steps, { action: cut(action, 300), args: bound(own(steps[i], "args"), LIMITS.data, newTally()) });
    }
    entry.expect = expectOf(decl, entry.id);
    return add(registry.actions, entry, "id");
  }
  function declareHandoff(decl) {
    const entry = commonAction(decl, "handoff");
    if (!entry) return noop;
    entry.done = fn(decl, "done");
    if (!entry.done) {
      warn("handoff " + entry.id, "a handoff needs done(): true once the person has done the step");
      return noop;
    }
    entry.risk = "read";
    return add(registry.actions, entry, "id");
  }
  function declareFeedback(source) {
    if (typeof source !== "function") {
      warn("feedback", "feedback takes a function returning [{kind, text}]");
      return noop;
    }
    const entry = { source };
    entry.seq = ++declarationSeq;
    push(registry.feedback, entry);
    if (feedbackWatch) pollFeedback(feedbackWatch);
    return remover(registry.feedback, entry);
  }
  var RISK_ORDER = { read: 0, write: 1, danger: 2 };
  var operatorRisk = create(null);
  function configure(arg) {
    const risks = own(arg, "risks");
    if (risks && typeof risks === "object") {
      const ids = keys(risks);
      for (let i = 0; i < ids.length; i++) if (typeof risks[ids[i]] === "string" && hasOwn(RISKS, risks[ids[i]])) operatorRisk[ids[i]] = risks[ids[i]];
    }
    return { ok: true };
  }
  function riskOf(action) {
    const raised = operatorRisk[action.id] || operatorRisk["*"];
    return raised && RISK_ORDER[raised] > RISK_ORDER[action.risk] ? raised : action.risk;
  }
  var plingApi = freeze({
    version,
    page: declarePage,
    region: declareRegion,
    records: declareRecords,
    state: declareState,
    action: declareAction,
    flow: declareFlow,
    handoff: declareHandoff,
    feedback: declareFeedback,
    problems: pageProblems
    // problems.js: for the declaration package's dev check
  });

  // js_bridge/resolve.js
  function splitRef(ref) {
    const at = strIndexOf(ref, "@");
    return at < 0 ? { id: ref, record: null } : { id: strSlice(ref, 0, at), record: strSlice(ref, at + 1) };
  }
  function availableIds(max) {
    const ids = [];
    for (let i = 0; i < registry.actions.length && ids.length < max; i++) {
      const action = registry.actions[i];
      push(ids, action.record ? action.id + "@{" + action.record + "}" : action.id);
    }
    return ids;
  }
  function actionData(action) {
    const steps = [];
    if (action.steps) for (let i = 0; i < action.steps.length; i++) push(steps, action.steps[i]);
    return {
      id: action.id,
      kind: action.kind,
      description: action.description,
      region: action.region,
      record: action.record,
      risk: riskOf(action),
      confirm: action.confirm,
      params: action.params,
      timeoutMs: action.timeoutMs,
      expect: action.expect ? { description: action.expect.description, timeoutMs: action.expect.timeoutMs } : null,
      steps: action.steps ? steps : null,
      untrusted: action.untrusted === true,
      webmcp: action.webmcp === true,
      observes: registry.records.length + registry.state.length + registry.feedback.length > 0
    };
  }
  function describe(ref) {
    const parts = splitRef(ref);
    const action = findAction(parts.id);
    if (!action) return answerOf({ ok: false, code: "not_found", available: availableIds(100) });
    if (action.record && parts.record === null) return answerOf({ ok: false, code: "record_required", record: action.record, available: availableIds(100) });
    if (!action.record && parts.record !== null) return answerOf({ ok: false, code: "not_a_family", available: availableIds(100) });
    let record = null;
    if (action.record) {
      const decl = findRecords(action.record);
      if (!decl) return answerOf({ ok: false, code: "no_records", record: action.record, available: availableIds(100) });
      const set = readRecordIds(decl);
      const index = set.index[parts.record];
      if (index === void 0) return answerOf({ ok: false, code: "record_not_found", record: action.record, total: set.ids.length, available: availableIds(100) });
      record = { id: parts.record, type: action.record, label: recordLabel(decl, set.objects[index], parts.record, newTally()) };
    }
    return answerOf({ ok: true, action: actionData(action), record });
  }

  // js_bridge/execute.js
  async function callWithin(fnToCall, args, ms) {
    let timer = null;
    const timeout = new PromiseCtor((resolve) => {
      const fire2 = () => {
        if (interactionsOpen > 0) timer = setTimer(fire2, 250);
        else resolve(answerOf({ timedOut: true }));
      };
      timer = setTimer(fire2, ms);
    });
    try {
      const result = ReflectApply(fnToCall, void 0, args);
      const settled = isThenable(result) ? promiseThen(new PromiseCtor((resolve) => resolve(result)), (v) => answerOf({ value: v })) : new PromiseCtor((resolve) => resolve(answerOf({ value: result })));
      return await new PromiseCtor((resolve, reject) => {
        promiseThen(settled, resolve, reject);
        promiseThen(timeout, resolve, reject);
      });
    } finally {
      clearTimer(timer);
    }
  }
  async function runAction(args) {
    const ref = splitRef(args.ref);
    const action = findAction(ref.id);
    if (!action || !action.run) return answerOf({ ok: false, code: "gone", error: "The action " + ref.id + " is no longer declared" });
    const nested = args.nested === true;
    const outerCancel = nested ? inFlight.toolCancel : null;
    if (!inFlight.before && !nested) inFlight.since = now();
    inFlight.toolCancel = null;
    let result;
    try {
      result = await callWithin(action.run, action.record ? [args.args, ref.record] : [args.args], args.timeoutMs);
    } catch (e) {
      inFlight.toolCancel = outerCancel;
      return answerOf({ ok: false, code: "threw", error: errorText(e) });
    }
    if (!(args.expect && args.expect.quiet === true)) frameAfterAction();
    const cancel = inFlight.toolCancel;
    inFlight.toolCancel = outerCancel;
    if (result.timedOut) {
      if (cancel) cancel();
      return answerOf({ ok: false, code: "timeout", error: "run() did not finish within " + args.timeoutMs + " ms" });
    }
    if (result.value === void 0) return answerOf({ ok: true });
    const tally = newTally();
    const data = bound(result.value, LIMITS.data, tally);
    const omitted = tally.chars + tally.items + tally.keys + tally.depth;
    return omitted ? answerOf({ ok: true, data, omitted: { chars: tally.chars, items: tally.items, keys: tally.keys, depth: tally.depth } }) : answerOf({ ok: true, data });
  }
  function syntheticClick() {
    const el = inFlight.target;
    releaseTarget();
    if (!el) return answerOf({ ok: false, code: "gone", error: "The target is gone" });
    try {
      const init = { bubbles: true, cancelable: true, composed: true, view: G, button: 0 };
      eventTargetDispatch(el, new PointerEventCtor("pointerdown", init));
      eventTargetDispatch(el, new MouseEventCtor("mousedown", init));
      eventTargetDispatch(el, new PointerEventCtor("pointerup", init));
      eventTargetDispatch(el, new MouseEventCtor("mouseup", init));
      eventTargetDispatch(el, new MouseEventCtor("click", init));
    } catch (e) {
      return answerOf({ ok: false, code: "threw", error: errorText(e) });
    }
    return answerOf({ ok: true });
  }
  var objectProto = Object.prototype;
  function isThenable(value) {
    if (value === null || typeof value !== "object" && typeof value !== "function") return false;
    let then;
    try {
      then = value.then;
    } catch (e) {
      return false;
    }
    if (typeof then !== "function") return false;
    const polluted = getOwnDescriptor(objectProto, "then");
    return !polluted || polluted.value !== then && polluted.get === void 0;
  }

  // js_bridge/gesture.js
  var documentElementFromPoint = uncurry(Document.prototype.elementFromPoint);
  var shadowElementFromPoint = ShadowRoot.prototype.elementFromPoint ? uncurry(ShadowRoot.prototype.elementFromPoint) : null;
  var elementShadowRoot = getterOf(Element.prototype, "shadowRoot");
  var elementGetClientRects = uncurry(Element.prototype.getClientRects);
  var elementScrollIntoView = uncurry(Element.prototype.scrollIntoView);
  var nodeContains = uncurry(Node.prototype.contains);
  var eventIsTrusted = (event) => {
    try {
      return ReflectApply(getOwnDescriptor(event, "isTrusted").get, event, []) === true;
    } catch (e) {
      return false;
    }
  };
  var eventComposedPath = uncurry(Event.prototype.composedPath);
  var eventPreventDefault = uncurry(Event.prototype.preventDefault);
  var eventStopImmediate = uncurry(Event.prototype.stopImmediatePropagation);
  var eventType = getterOf(Event.prototype, "type");
  var checkedOf = getterOf(HTMLInputElement.prototype, "checked");
  var windowGetter = (name) => {
    const d = getOwnDescriptor(G, name) || getOwnDescriptor(Object.getPrototypeOf(G), name);
    const get = d && d.get;
    return () => get ? ReflectApply(get, G, []) : 0;
  };
  var viewportWidth = windowGetter("innerWidth");
  var viewportHeight = windowGetter("innerHeight");
  var GUARD_MS = 1e4;
  var GUARDED = ["pointerdown", "mousedown", "pointerup", "mouseup", "click"];
  var guard = null;
  function guardEvent(event) {
    const armed = guard;
    if (!armed || !eventIsTrusted(event)) return;
    if (now() - armed.at > GUARD_MS) {
      guard = null;
      return;
    }
    if (armed.decided === null) armed.decided = pathHolds(eventComposedPath(event), armed.el) ? "landed" : "missed";
    armed.events += 1;
    if (armed.decided === "missed") {
      eventStopImmediate(event);
      eventPreventDefault(event);
    }
    if (eventType(event) === "click") {
      armed.clicked = true;
      if (armed.decided === "landed") frameAfterAction();
    }
  }
  for (let i = 0; i < GUARDED.length; i++) {
    try {
      eventTargetAddListener(G, GUARDED[i], guardEvent, true);
    } catch (e) {
    }
  }
  function pathHolds(path, el) {
    for (let i = 0; i < path.length; i++) if (path[i] === el) return true;
    return false;
  }
  function deepElementFromPoint(x, y) {
    let hit = documentElementFromPoint(documentObject, x, y);
    for (let depth = 0; hit && shadowElementFromPoint && depth < 32; depth++) {
      const root = elementShadowRoot(hit);
      if (!root) break;
      const inner = shadowElementFromPoint(root, x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }
  function hits(el, hit) {
    for (let node = hit, depth = 0; node && depth < 1e3; depth++) {
      if (node === el) return true;
      const parent = nodeParentNode(node);
      node = parent && nodeType(parent) === 11 ? shadowRootHost(parent) : parent;
    }
    try {
      return nodeContains(el, hit);
    } catch (e) {
      return false;
    }
  }
  function firstBox(el) {
    const rects = elementGetClientRects(el);
    for (let i = 0; i < rects.length; i++) if (rects[i].width > 0 && rects[i].height > 0) return rects[i];
    return null;
  }
  function inView(box, width, height) {
    return box.top >= 0 && box.left >= 0 && box.bottom <= height && box.right <= width;
  }
  function aim() {
    const el = inFlight.target;
    guard = null;
    if (!el) return answerOf({ why: "the target is gone" });
    try {
      const width = viewportWidth();
      const height = viewportHeight();
      let box = firstBox(el);
      if (!box) return answerOf({ why: "the target has no box" });
      let scrolled = false;
      if (!inView(box, width, height)) {
        const options = answerOf({ block: "center", inline: "center", behavior: "instant" });
        elementScrollIntoView(el, options);
        scrolled = true;
        box = firstBox(el);
        if (!box || !inView(box, width, height)) return answerOf({ why: "the target does not fit in the viewport" });
      }
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const hit = deepElementFromPoint(x, y);
      if (!hit || !hits(el, hit)) {
        return answerOf({ why: "another element covers its centre (" + (hit ? strToLowerCase(elementTagName(hit)) : "nothing") + ")" });
      }
      guard = { el, at: now(), decided: null, events: 0, clicked: false };
      const answer2 = answerOf({ x, y, scrolled });
      try {
        answer2.checked = checkedOf(el);
      } catch (e) {
      }
      return answer2;
    } catch (e) {
      return answerOf({ why: "it could not be measured: " + errorText(e) });
    }
  }
  function landed() {
    const armed = guard;
    guard = null;
    if (!armed) return answerOf({ ok: true, landed: "unarmed", events: 0, doc: DOC_ID });
    const answer2 = answerOf({ ok: true, landed: armed.decided || "nowhere", events: armed.events, clicked: armed.clicked, doc: DOC_ID });
    if (armed.decided === "landed") {
      try {
        answer2.checked = checkedOf(armed.el);
      } catch (e) {
      }
      releaseTarget();
    }
    return answer2;
  }

  // js_bridge/expect.js
  function checkOnce(check2, action, ref, args) {
    try {
      const value = action.record ? check2(args, ref.record) : check2(args);
      return answerOf({ value });
    } catch (e) {
      return answerOf({ error: errorText(e) });
    }
  }
  async function checkHolds(check2, action, ref, args, capMs) {
    const result = checkOnce(check2, action, ref, args);
    if (result.error !== void 0) return result;
    let value = result.value;
    let thenable = false;
    try {
      thenable = value !== null && typeof value === "object" && typeof value.then === "function";
    } catch (e) {
      thenable = false;
    }
    if (thenable) {
      const waited = await callWithin(() => value, [], capMs);
      if (waited.timedOut) return answerOf({ error: "check() did not answer within " + capMs + " ms" });
      value = waited.value;
    }
    return answerOf({ value: !!value });
  }
  function withAfter(answer2, args) {
    if (hasOwn(args, "carried")) {
      const diffed = inFlight.leaving ? null : diffHeld(args.carried);
      if (diffed && diffed.ok) answer2.diffed = diffed;
    } else if (args.diff === true && !inFlight.leaving && inFlight.before) {
      const diffed = diffAgainstBefore();
      if (diffed.ok) answer2.diffed = diffed;
    }
    return answer2;
  }
  function invokedAction(id) {
    return inFlight.action && inFlight.action.id === id ? inFlight.action : findAction(id);
  }
  async function expectEffect(args) {
    const ref = splitRef(args.ref);
    const action = invokedAction(ref.id);
    const settleCap = args.settleMs;
    if (!action) return answerOf({ ok: false, code: "gone", error: "The action " + ref.id + " is no longer declared" });
    startObserving();
    try {
      const expect = action.expect;
      const since = inFlight.since;
      if (!expect) {
        const settled2 = quietSince(since, args.quiet) ? answerOf({ settled: true, ms: 0, frames: 0 }) : await settle(since, settleCap);
        return withAfter(answerOf({ ok: true, declared: false, settled: settled2 }), args);
      }
      const started = now();
      let polls = 0;
      let last = null;
      for (; ; ) {
        if (inFlight.leaving) return answerOf({ ok: true, declared: false, polls, ms: now() - started });
        polls += 1;
        last = await checkHolds(expect.check, action, ref, args.args, MathMax(1, args.timeoutMs - (now() - started)));
        if (last.value === true) break;
        const elapsed = now() - started;
        if (elapsed >= args.timeoutMs) {
          return answerOf({ ok: false, code: "never", polls, ms: elapsed, error: last.error || null });
        }
        await nextChange(MathMin(20, args.timeoutMs - elapsed));
      }
      const heldAfter = now() - started;
      const settled = await settle(since, settleCap);
      const again = await checkHolds(expect.check, action, ref, args.args, 1e3);
      if (again.value !== true) {
        return answerOf({ ok: false, code: "reverted", polls, ms: heldAfter, settled, error: again.error || null });
      }
      return withAfter(answerOf({ ok: true, declared: true, polls, ms: heldAfter, settled }), args);
    } finally {
      stopObserving();
      endPlainWatch();
    }
  }

  // js_bridge/fill.js
  var TYPED_INPUTS = { text: true, search: true, url: true, tel: true, email: true, password: true };
  var elementFocus = uncurry(HTMLElement.prototype.focus);
  var elementBlur = uncurry(HTMLElement.prototype.blur);
  var inputSelect = uncurry(HTMLInputElement.prototype.select);
  var textareaSelect = uncurry(HTMLTextAreaElement.prototype.select);
  var documentActiveElement = getterOf(Document.prototype, "activeElement");
  var eventType2 = getterOf(Event.prototype, "type");
  var GUARD_MS2 = 1e4;
  var guard2 = null;
  var waiting = null;
  function wakeTyped() {
    const wait = waiting;
    waiting = null;
    if (wait) setTimer(wait.wake, 0);
  }
  function insertion(waitMs) {
    return new PromiseCtor((resolve) => {
      const wait = { wake: resolve };
      waiting = wait;
      setTimer(() => {
        if (waiting === wait) waiting = null;
        resolve();
      }, waitMs);
    });
  }
  function guardInput(event) {
    const armed = guard2;
    if (!armed || !eventIsTrusted(event)) return;
    if (now() - armed.at > GUARD_MS2) {
      guard2 = null;
      return;
    }
    if (armed.decided === null) {
      if (eventType2(event) !== "beforeinput") return;
      armed.decided = pathHolds(eventComposedPath(event), armed.el) ? "landed" : "missed";
      wakeTyped();
    }
    armed.events += 1;
    if (armed.decided === "missed") {
      eventStopImmediate(event);
      eventPreventDefault(event);
    } else if (eventType2(event) === "input") {
      frameAfterAction();
    }
  }
  var GUARDED2 = ["beforeinput", "input"];
  for (let i = 0; i < GUARDED2.length; i++) {
    try {
      eventTargetAddListener(G, GUARDED2[i], guardInput, true);
    } catch (e) {
    }
  }
  function notTyped(el) {
    const tag = strToLowerCase(elementTagName(el));
    if (tag === "input") {
      const type = strToLowerCase(elementGetAttribute(el, "type") || "text");
      if (!TYPED_INPUTS[type]) return "an input of type " + type + " is filled by Playwright";
    } else if (tag !== "textarea") {
      return "a " + tag + " is filled by Playwright";
    }
    if (elementHasAttribute(el, "readonly")) return "the field is read-only";
    return null;
  }
  function aimFill() {
    const el = inFlight.target;
    guard2 = null;
    if (!el) return answerOf({ why: "the target is gone" });
    try {
      const why = notTyped(el);
      if (why) return answerOf({ why });
      elementFocus(el);
      if (documentActiveElement(documentObject) !== el) return answerOf({ why: "the field did not keep the focus" });
      if (strToLowerCase(elementTagName(el)) === "input") inputSelect(el);
      else textareaSelect(el);
      guard2 = { el, at: now(), decided: null, events: 0 };
      return answerOf({ fill: true });
    } catch (e) {
      return answerOf({ why: "it could not be focused: " + errorText(e) });
    }
  }
  var keptLanded = null;
  function landedNow() {
    const armed = guard2;
    guard2 = null;
    if (!armed) return answerOf({ ok: true, landed: "unarmed", events: 0, doc: DOC_ID });
    const answer2 = answerOf({ ok: true, landed: armed.decided || "nowhere", events: armed.events, doc: DOC_ID });
    if (armed.decided === "landed") {
      try {
        elementBlur(armed.el);
      } catch (e) {
      }
      releaseTarget();
    }
    return answer2;
  }
  async function typed(arg) {
    if (keptLanded && !guard2) {
      const kept2 = keptLanded;
      keptLanded = null;
      return kept2;
    }
    keptLanded = null;
    if (arg && arg.waitMs > 0 && guard2 && guard2.decided === null) {
      const armed = guard2;
      await insertion(arg.waitMs);
      if (guard2 !== armed || armed.decided === null) {
        return answerOf({ ok: true, landed: "waiting", events: 0, doc: DOC_ID });
      }
    }
    const answer2 = landedNow();
    const asked = arg && arg.expect;
    if (!asked || answer2.landed !== "landed" || inFlight.leaving) return withLeaving(answer2);
    keptLanded = answer2;
    const expected = await expectEffect({
      ref: asked.ref,
      args: asked.args,
      timeoutMs: asked.timeoutMs,
      settleMs: asked.settleMs,
      diff: asked.diff === true
    });
    keptLanded = null;
    answer2.expected = withLeaving(expected);
    return answer2;
  }

  // js_bridge/reveal.js
  var NATIVE_INPUT_SKIP = { hidden: true };
  var DIRECT_CONTROLS = { button: true, link: true, checkbox: true };
  var CLICK_INPUTS = { button: true, submit: true, reset: true, image: true, file: true };
  var inFlight = { target: null, drop: null, action: null, before: null, watch: null, since: 0, leaving: false, carried: false, toolCancel: null, observed: false };
  function isElement(value) {
    try {
      return nodeType(value) === 1;
    } catch (e) {
      return false;
    }
  }
  function isVisible(el) {
    try {
      if (!nodeIsConnected(el)) return false;
      const rect = elementGetBoundingClientRect(el);
      if (!(rect.width > 0 && rect.height > 0)) return false;
      const style = ReflectApply(nativeGetComputedStyle, G, [el]);
      return styleGetPropertyValue(style, "visibility") !== "hidden";
    } catch (e) {
      return false;
    }
  }
  function controlOf(el) {
    const tag = strToLowerCase(elementTagName(el));
    if (tag === "button") return "button";
    if (tag === "a" && elementHasAttribute(el, "href")) return "link";
    if (tag === "select") return "select";
    if (tag === "textarea") return "text";
    if (tag === "input") {
      const type = strToLowerCase(elementGetAttribute(el, "type") || "text");
      if (NATIVE_INPUT_SKIP[type]) return null;
      if (type === "checkbox" || type === "radio") return "checkbox";
      if (CLICK_INPUTS[type]) return "button";
      return "text";
    }
    try {
      if (elementIsContentEditable(el)) return "text";
    } catch (e) {
    }
    return null;
  }
  var NATIVE_SELECTOR = 'button, a[href], select, textarea, input:not([type=hidden]), [contenteditable=""], [contenteditable=true]';
  async function revealRecord(action, recordId, capMs) {
    let reveal2 = action.reveal;
    if (!reveal2 && action.record) {
      const decl = findRecords(action.record);
      reveal2 = decl && decl.reveal;
    }
    if (!reveal2) return answerOf({ revealed: false });
    const since = now();
    try {
      const result = await callWithin(reveal2, [recordId], capMs);
      if (result.timedOut) return answerOf({ revealed: false, error: "reveal() did not finish within " + capMs + " ms" });
    } catch (e) {
      return answerOf({ revealed: false, error: "reveal() threw: " + errorText(e) });
    }
    const settled = await settle(since, capMs);
    return answerOf({ revealed: true, settled: settled.settled });
  }
  function findTarget(action, recordId) {
    let el;
    try {
      el = action.record ? action.target(recordId) : action.target();
    } catch (e) {
      return answerOf({ error: "target() threw: " + errorText(e) });
    }
    if (!isElement(el)) return answerOf({ missing: true });
    return answerOf({ el, visible: isVisible(el) });
  }
  function stillDeclared(action, held2) {
    return !!action && held2.doc === DOC_ID && action.seq === held2.seq && riskOf(action) === held2.risk;
  }
  async function reveal(args) {
    if (args.known && !stillDeclared(findAction(splitRef(args.ref).id), args.known)) {
      return answerOf({ ok: false, code: "stale" });
    }
    const answer2 = await findAndMarkTarget(args);
    if (answer2.ok && args.aim === true && DIRECT_CONTROLS[answer2.control] && answer2.where === "document" && !answer2.gesture) {
      answer2.aim = aim();
    }
    if (answer2.ok && args.nested === true) {
      answer2.evidence = false;
      answer2.doc = DOC_ID;
    } else if (answer2.ok) {
      if (args.evidence === true) takeBefore();
      else markStart();
      answer2.evidence = args.evidence === true;
      armLeaving();
      answer2.doc = DOC_ID;
    }
    if (answer2.ok && args.fill === true && answer2.control === "text" && answer2.where === "document" && !answer2.gesture) {
      answer2.aim = aimFill();
    }
    return answer2;
  }
  async function visibleTarget(action, ref, name, capMs, log) {
    let found = findTarget(action, ref.record);
    if (found.error) return { refusal: answerOf({ ok: false, code: "unavailable", reason: "The target could not be found: " + found.error }) };
    if (found.el && found.visible) return { el: found.el };
    push(log, found.el ? "target is hidden" : "target is not on the page");
    const revealed = await revealRecord(action, ref.record, capMs);
    if (revealed.error) push(log, revealed.error);
    else if (revealed.revealed) push(log, "called reveal(" + (ref.record === null ? "" : ref.record) + ")" + (revealed.settled ? " and the page settled" : " (the page had not settled)"));
    if (revealed.revealed) found = findTarget(action, ref.record);
    const how = revealed.revealed ? ", even after reveal()" : " and nothing declares how to reveal it";
    if (found.error) return { refusal: answerOf({ ok: false, code: "unavailable", reason: "The target could not be found: " + found.error, log }) };
    if (!found.el) return { refusal: answerOf({ ok: false, code: "unavailable", reason: "The target of " + name + " is not on the page" + how, log }) };
    if (!found.visible) return { refusal: answerOf({ ok: false, code: "unavailable", reason: "The target of " + name + " is hidden" + how, log }) };
    return { el: found.el };
  }
  function operatedControl(el, action, log) {
    const control = controlOf(el);
    if (control) return { el, control, fidelity: "high" };
    if (action.gesture) return { el, control: "gesture", fidelity: "high" };
    let nested = [];
    try {
      nested = elementQuerySelectorAll(el, NATIVE_SELECTOR);
    } catch (e) {
      nested = [];
    }
    const visible = [];
    for (let i = 0; i < nested.length; i++) if (isVisible(nested[i]) && controlOf(nested[i])) push(visible, nested[i]);
    if (visible.length === 1) {
      push(log, "target is a container; operating the one control inside it, a " + strToLowerCase(elementTagName(visible[0])));
      return { el: visible[0], control: controlOf(visible[0]), fidelity: "auto" };
    }
    push(log, "target is not a native control and holds " + visible.length + " controls; synthetic events will be used");
    return { el, control: "synthetic", fidelity: "low" };
  }
  async function findAndMarkTarget(args) {
    const ref = splitRef(args.ref);
    const action = findAction(ref.id);
    if (!action) return answerOf({ ok: false, code: "gone", reason: "The action " + ref.id + " is no longer declared" });
    const capMs = args.capMs;
    inFlight.target = null;
    inFlight.drop = null;
    inFlight.action = action;
    const availability = callAvailable(action, ref.record);
    if (!availability.available) return answerOf({ ok: false, code: "unavailable", reason: availability.reason });
    if (action.kind === "handoff") return answerOf({ ok: true, control: "handoff", fidelity: "high", log: [] });
    if (action.kind === "flow") return answerOf({ ok: true, control: "flow", fidelity: "high", log: [] });
    if (!action.target) return answerOf({ ok: true, control: "function", fidelity: "high", log: [] });
    const log = [];
    const found = await visibleTarget(action, ref, args.ref, capMs, log);
    if (found.refusal) return found.refusal;
    const operated = operatedControl(found.el, action, log);
    const el = operated.el;
    const control = operated.control;
    const fidelity = operated.fidelity;
    if (control !== "synthetic") {
      const disabled = disabledReason(el);
      if (disabled) return answerOf({ ok: false, code: "unavailable", reason: "The target of " + args.ref + " (a " + strToLowerCase(elementTagName(el)) + ") " + disabled, log });
    }
    if (action.gesture && action.gesture.commit && control !== "text" && !action.gesture.type) {
      return answerOf({ ok: false, code: "unavailable", reason: "Its gesture ends a fill (commit), and its target (a " + strToLowerCase(elementTagName(el)) + ") is not a text field; declare { type: true, commit } to type into it", log });
    }
    const point = action.gesture && action.gesture.at ? pointIn(el, action.gesture.at, args.args) : null;
    if (point && point.reason) return answerOf({ ok: false, code: "unavailable", reason: point.reason, log });
    let drop = null;
    if (action.gesture && action.gesture.drag) {
      drop = await dropTarget(action, ref.record, args.args, capMs, log);
      if (drop.reason) return answerOf({ ok: false, code: "unavailable", reason: drop.reason, log });
    }
    inFlight.target = el;
    const mark = randomName();
    try {
      elementSetAttribute(el, TARGET_ATTRIBUTE, mark);
    } catch (e) {
      return answerOf({ ok: false, code: "unavailable", reason: "The target cannot be marked: " + errorText(e), log });
    }
    const where = whereIs(el);
    const gesture = point ? { act: action.gesture.act, press: null, type: false, commit: null, drag: null, dragType: null, drop: null, at: point.at } : action.gesture;
    const answer2 = answerOf({ ok: true, control, fidelity, tag: strToLowerCase(elementTagName(el)), mark, where, gesture: gesture || null, log });
    if (drop) {
      if (where === "closed_shadow" || whereIs(drop.el) !== where || nodeOwnerDocument(drop.el) !== nodeOwnerDocument(el)) {
        releaseTarget();
        return answerOf({ ok: false, code: "unavailable", reason: "The drag goes from and to elements Playwright cannot reach together (another frame, or a closed shadow root)", log });
      }
      inFlight.drop = drop.el;
      answer2.drop = randomName();
      answer2.dropId = drop.id;
      try {
        elementSetAttribute(drop.el, TARGET_ATTRIBUTE, answer2.drop);
      } catch (e) {
        releaseTarget();
        return answerOf({ ok: false, code: "unavailable", reason: "The drag destination cannot be marked: " + errorText(e), log });
      }
    }
    return answer2;
  }
  function pointIn(el, at, args) {
    const x = axisValue(at.x, args);
    const y = axisValue(at.y, args);
    if (x === null || y === null) return { reason: "The gesture goes to a point of its target, and the argument " + (x === null ? at.x : at.y) + " is not a number" };
    const rect = elementGetBoundingClientRect(el);
    if (x > rect.width || y > rect.height) {
      return { reason: "The point (" + x + ", " + y + ") is outside its target, which is " + rect.width + " x " + rect.height + " px" };
    }
    return { at: { x, y } };
  }
  function axisValue(v, args) {
    const value = typeof v === "string" ? own(args, strSlice(v, 1, -1)) : v;
    return typeof value === "number" && isFiniteNumber(value) && value >= 0 ? value : null;
  }
  async function dropTarget(action, recordId, args, capMs, log) {
    let id = action.gesture.drag;
    if (id.length > 2 && strSlice(id, 0, 1) === "{" && strSlice(id, -1) === "}") {
      const name = strSlice(id, 1, -1);
      const value = name === "record" && recordId !== null ? recordId : own(args, name);
      if (typeof value === "number" && isFiniteNumber(value)) id = StringCtor(value);
      else if (typeof value === "string" && value) id = value;
      else return { reason: "The drag goes onto the record named by the argument " + name + ", and none was given" };
    }
    const type = action.gesture.dragType || action.record;
    if (!type) return { reason: "Its drag gesture names no record type ({ drag, record: TYPE }) and the action acts on none" };
    const decl = findRecords(type);
    if (!decl || !decl.element) return { reason: "The drag goes onto a " + type + " record, and no records of that type declare element(id)" };
    if (readRecordIds(decl).index[id] === void 0) return { reason: "There is no " + type + " record " + cut(id, 100) + " to drag onto" };
    let el = recordElement(decl, id);
    if ((!el || !isVisible(el)) && decl.reveal) {
      try {
        await callWithin(decl.reveal, [id], capMs);
        await settle(now(), capMs);
        push(log, "called reveal(" + id + ") for the drag destination");
      } catch (e) {
      }
      el = recordElement(decl, id);
    }
    if (!el) return { reason: "The element of " + type + " " + cut(id, 100) + " (the drag destination) is not on the page" };
    if (!isVisible(el)) return { reason: "The element of " + type + " " + cut(id, 100) + " (the drag destination) is hidden" };
    return { el, id };
  }
  function recordElement(decl, id) {
    try {
      const el = decl.element(id);
      return isElement(el) ? el : null;
    } catch (e) {
      return null;
    }
  }
  var TARGET_ATTRIBUTE = "data-pling-target";
  function releaseTarget() {
    const marked = [inFlight.target, inFlight.drop];
    inFlight.target = null;
    inFlight.drop = null;
    for (let i = 0; i < 2; i++) {
      if (!marked[i]) continue;
      try {
        elementRemoveAttribute(marked[i], TARGET_ATTRIBUTE);
      } catch (e) {
      }
    }
    return answerOf({ ok: true });
  }
  function takeBefore() {
    endPlainWatch();
    inFlight.since = now();
    inFlight.watch = startFeedbackWatch();
    inFlight.before = captureEvidence();
    return answerOf({ ok: true });
  }
  function diffAgainstBefore() {
    const before = inFlight.before;
    const watch = stopFeedbackWatch();
    inFlight.before = null;
    inFlight.watch = null;
    if (!before) return answerOf({ ok: false, code: "no_snapshot" });
    return answerOf({ ok: true, changed: diffEvidence(before, watch) });
  }
  function markStart() {
    endPlainWatch();
    inFlight.since = now();
    startObserving();
    inFlight.observed = true;
    return answerOf({ ok: true });
  }
  function endPlainWatch() {
    if (!inFlight.observed) return;
    inFlight.observed = false;
    stopObserving();
  }
  function disabledReason(el) {
    try {
      if (elementMatches(el, ":disabled")) return "is disabled";
    } catch (e) {
    }
    let node = el;
    for (let depth = 0; node && depth < 1e3; depth++) {
      if (nodeType(node) === 1) {
        if (elementGetAttribute(node, "aria-disabled") === "true") return node === el ? "is aria-disabled" : "is inside an aria-disabled element";
        if (elementHasAttribute(node, "inert")) return "is inside an inert subtree";
      }
      const parent = nodeParentNode(node);
      if (parent && nodeType(parent) === 11) {
        try {
          node = shadowRootHost(parent);
        } catch (e) {
          node = null;
        }
      } else {
        node = parent;
      }
    }
    return null;
  }
  function whereIs(el) {
    try {
      if (nodeOwnerDocument(el) !== documentObject) return "frame";
      let root = nodeGetRootNode(el);
      for (let depth = 0; root && root !== documentObject && depth < 100; depth++) {
        if (shadowRootMode(root) === "closed") return "closed_shadow";
        root = nodeGetRootNode(shadowRootHost(root));
      }
    } catch (e) {
    }
    return "document";
  }
  function currentTarget() {
    return inFlight.target;
  }

  // js_bridge/records.js
  var MAX_RECORDS = 1e5;
  var MAX_ID_LENGTH = 256;
  var RECORD_SIZE = 2 * LIMITS.field.size;
  function readRecordIds(decl) {
    const out = { objects: [], ids: [], index: create(null), problems: [] };
    let raw;
    try {
      raw = decl.list();
    } catch (e) {
      push(out.problems, "list() threw: " + errorText(e));
      return out;
    }
    let length;
    try {
      if (!isArray(raw)) {
        push(out.problems, "list() returned " + (raw === null ? "null" : typeof raw) + ", expected an array");
        return out;
      }
      length = raw.length;
    } catch (e) {
      push(out.problems, "list() returned an unreadable value: " + errorText(e));
      return out;
    }
    if (length > MAX_RECORDS) push(out.problems, "list() returned " + length + " records; only the first " + MAX_RECORDS + " are read");
    const n = MathMin(length, MAX_RECORDS);
    let missing = 0;
    let tooLong = 0;
    let duplicate = 0;
    let firstError = null;
    for (let i = 0; i < n; i++) {
      let id;
      let obj;
      try {
        obj = raw[i];
        id = decl.id ? decl.id(obj) : obj.id;
      } catch (e) {
        if (!firstError) firstError = errorText(e);
        id = void 0;
      }
      if (typeof id === "number" && isFiniteNumber(id)) id = "" + id;
      if (typeof id === "string" && id.length > MAX_ID_LENGTH) {
        tooLong += 1;
        continue;
      }
      if (typeof id !== "string" || id.length === 0) {
        missing += 1;
        continue;
      }
      if (out.index[id] !== void 0) {
        duplicate += 1;
        continue;
      }
      out.index[id] = out.ids.length;
      push(out.objects, obj);
      push(out.ids, id);
    }
    if (missing) push(out.problems, missing + " records without a usable id (a non-empty string or a number) were skipped" + (firstError ? "; " + (decl.id ? "id()" : "reading .id") + " threw: " + firstError : ""));
    if (tooLong) push(out.problems, tooLong + " records with an id longer than " + MAX_ID_LENGTH + " characters were skipped");
    if (duplicate) push(out.problems, duplicate + " records repeated an id already seen and were skipped");
    return out;
  }
  function labelProperty(decl, obj, name) {
    if (decl.sensitive[name] || obj === null || typeof obj !== "object" || !hasOwn(obj, name)) return void 0;
    return obj[name];
  }
  function recordLabel(decl, obj, id, tally) {
    try {
      let label;
      if (decl.label) label = decl.label(obj);
      else {
        label = labelProperty(decl, obj, "label");
        if (typeof label !== "string") label = labelProperty(decl, obj, "name");
        if (typeof label !== "string") label = labelProperty(decl, obj, "title");
      }
      if (label === void 0 || label === null) return null;
      return typeof label === "string" ? cut(label, LIMITS.field.string, tally) : bound(label, LIMITS.field, tally);
    } catch (e) {
      tally.errors += 1;
      return "<error: " + errorText(e) + ">";
    }
  }
  function recordPairs(decl, obj, id, tally) {
    const out = [];
    if (!decl.fields) return out;
    let fields;
    try {
      fields = decl.fields(obj);
    } catch (e) {
      tally.errors += 1;
      out[0] = "!error";
      out[1] = "fields() threw: " + errorText(e);
      return out;
    }
    if (fields === null || typeof fields !== "object") return out;
    let names;
    try {
      names = keys(fields);
    } catch (e) {
      tally.errors += 1;
      return out;
    }
    const n = MathMin(names.length, LIMITS.field.keys);
    const ctx = { seen: null, left: RECORD_SIZE };
    let read = 0;
    for (let i = 0; i < n && ctx.left > 0; i++) {
      const name = names[i];
      read = i + 1;
      let value;
      try {
        value = fields[name];
      } catch (e) {
        tally.errors += 1;
        value = "<error: " + errorText(e) + ">";
      }
      if (value === void 0 || typeof value === "function") continue;
      const key = cut(name, LIMITS.field.key, tally);
      ctx.left -= key.length + 4;
      out[out.length] = key;
      if (decl.sensitive[name]) {
        ctx.left -= 30;
        out[out.length] = secretRef(decl.type + "\0" + id + "\0" + name, value);
      } else {
        out[out.length] = bound(value, LIMITS.field, tally, 1, ctx);
      }
    }
    if (names.length > read) {
      tally.keys += names.length - read;
      out[out.length] = "…";
      out[out.length] = "+" + (names.length - read) + " keys";
    }
    return out;
  }
  function fieldsOf(pairs) {
    const out = create(null);
    for (let i = 0; i < pairs.length; i += 2) out[pairs[i]] = pairs[i + 1];
    return out;
  }
  function recordFields(decl, obj, id, tally) {
    return fieldsOf(recordPairs(decl, obj, id, tally));
  }
  function recordItem(decl, obj, id, tally) {
    return { id, label: recordLabel(decl, obj, id, tally), region: decl.region, fields: recordFields(decl, obj, id, tally), unavailable: void 0 };
  }
  function stateValue(entry, tally) {
    let value;
    try {
      value = entry.get();
    } catch (e) {
      tally.errors += 1;
      return { value: null, error: "get() threw: " + errorText(e) };
    }
    if (entry.sensitive) return { value: secretRef("state\0" + entry.key, value), error: null };
    return { value: bound(value, LIMITS.field, tally), error: null };
  }
  function callAvailable(action, recordId) {
    if (action.gestureProblem) return { available: false, reason: "Its gesture is malformed: " + action.gestureProblem };
    const declared = declaredAvailability(action, recordId);
    if (!declared.available || action.record || !action.target || action.kind !== "action") return declared;
    let el = null;
    try {
      el = action.target();
    } catch (e) {
      return declared;
    }
    if (!isElement(el)) return declared;
    const disabled = disabledReason(el);
    return disabled ? { available: false, reason: "Its control (a " + strToLowerCase(elementTagName(el)) + ") " + disabled } : declared;
  }
  function declaredAvailability(action, recordId) {
    if (!action.available) return { available: true, reason: null };
    let result;
    try {
      result = action.record ? action.available(recordId) : action.available();
    } catch (e) {
      return { available: false, reason: "The availability check threw: " + errorText(e) };
    }
    if (result === true) return { available: true, reason: null };
    if (typeof result === "string" && result) return { available: false, reason: cut(result, 300) };
    return { available: false, reason: null };
  }
  var FEEDBACK_KINDS = { error: true, warning: true, info: true, success: true };
  function readFeedback(problems) {
    const out = [];
    const list = registry.feedback;
    for (let i = 0; i < list.length; i++) {
      let entries;
      try {
        entries = list[i].source();
      } catch (e) {
        if (problems) push(problems, "feedback() threw: " + errorText(e));
        continue;
      }
      if (!isArray(entries)) continue;
      const n = MathMin(entries.length, 50);
      for (let j = 0; j < n; j++) {
        let kind;
        let message;
        try {
          kind = entries[j].kind;
          message = entries[j].text;
        } catch (e) {
          continue;
        }
        if (typeof message !== "string") continue;
        push(out, { kind: typeof kind === "string" && hasOwn(FEEDBACK_KINDS, kind) ? kind : "info", text: cut(message, 300) });
      }
    }
    return out;
  }

  // js_bridge/observe.js
  var inflight = create(null);
  var requestSeq = 0;
  var mutationCount = 0;
  var mutationListeners = [];
  function requestStarted() {
    requestSeq += 1;
    const id = "r" + requestSeq;
    inflight[id] = now();
    return id;
  }
  function requestEnded(id) {
    delete inflight[id];
    notifyMutationListeners();
  }
  function pendingSince(since) {
    const ids = keys(inflight);
    let n = 0;
    for (let i = 0; i < ids.length; i++) if (inflight[ids[i]] >= since) n += 1;
    return n;
  }
  (function trackRequests() {
    const nativeFetch = G.fetch;
    if (typeof nativeFetch === "function") {
      const fetch = function fetch2(input, init) {
        const id = requestStarted();
        let promise;
        try {
          promise = ReflectApply(nativeFetch, this === void 0 || this === null ? G : this, arguments);
        } catch (e) {
          requestEnded(id);
          throw e;
        }
        try {
          promiseThen(promise, () => requestEnded(id), () => requestEnded(id));
        } catch (e) {
          requestEnded(id);
        }
        return promise;
      };
      try {
        G.fetch = fetch;
      } catch (e) {
      }
    }
    const ResponseCtor = G.Response;
    if (typeof ResponseCtor === "function") {
      const bodyReaders = ["json", "text", "arrayBuffer", "blob", "formData", "bytes"];
      for (let i = 0; i < bodyReaders.length; i++) {
        const name = bodyReaders[i];
        const native = ResponseCtor.prototype[name];
        if (typeof native !== "function") continue;
        const reader = {
          [name]() {
            const id = requestStarted();
            let promise;
            try {
              promise = ReflectApply(native, this, arguments);
            } catch (e) {
              requestEnded(id);
              throw e;
            }
            try {
              promiseThen(promise, () => requestEnded(id), () => requestEnded(id));
            } catch (e) {
              requestEnded(id);
            }
            return promise;
          }
        }[name];
        try {
          ResponseCtor.prototype[name] = reader;
        } catch (e) {
        }
      }
    }
    const XHR = G.XMLHttpRequest;
    if (typeof XHR === "function") {
      const nativeSend = XHR.prototype.send;
      XHR.prototype.send = function send(body) {
        const id = requestStarted();
        try {
          eventTargetAddListener(this, "loadend", () => requestEnded(id), { once: true });
        } catch (e) {
          requestEnded(id);
        }
        try {
          return ReflectApply(nativeSend, this, arguments);
        } catch (e) {
          requestEnded(id);
          throw e;
        }
      };
    }
  })();
  var observer = null;
  function notifyMutationListeners() {
    const listeners = mutationListeners;
    mutationListeners = [];
    for (let i = 0; i < listeners.length; i++) {
      try {
        listeners[i]();
      } catch (e) {
      }
    }
  }
  var mutationType = getterOf(MutationRecord.prototype, "type");
  var mutationAttributeName = getterOf(MutationRecord.prototype, "attributeName");
  function onlyOurMarks(records) {
    try {
      for (let i = 0; i < records.length; i++) {
        if (mutationType(records[i]) !== "attributes" || mutationAttributeName(records[i]) !== TARGET_ATTRIBUTE) return false;
      }
      return records.length > 0;
    } catch (e) {
      return false;
    }
  }
  function onMutations(records) {
    if (onlyOurMarks(records)) return;
    mutationCount += 1;
    if (feedbackWatch) watchFeedback(feedbackWatch);
    notifyMutationListeners();
  }
  var observing = 0;
  function startObserving() {
    observing += 1;
    if (observer) return;
    try {
      observer = new MutationObserverCtor(onMutations);
      observerObserve(observer, documentObject, { subtree: true, childList: true, attributes: true, characterData: true });
    } catch (e) {
      observer = null;
    }
  }
  function stopObserving() {
    observing = MathMax(0, observing - 1);
    if (observing === 0 && observer) {
      try {
        observerDisconnect(observer);
      } catch (e) {
      }
      observer = null;
    }
  }
  function nextChange(ms) {
    return new PromiseCtor((resolve) => {
      let done = false;
      const finish = () => {
        if (!done) {
          done = true;
          resolve();
        }
      };
      push(mutationListeners, finish);
      setTimer(finish, ms);
    });
  }
  var tickChannel = new MessageChannelCtor();
  var tickWaiters = [];
  ReflectApply(portOnMessageSet, tickChannel.port1, [() => {
    const waiters = tickWaiters;
    tickWaiters = [];
    for (let i = 0; i < waiters.length; i++) waiters[i]();
  }]);
  function tick() {
    return new PromiseCtor((resolve) => {
      push(tickWaiters, resolve);
      if (tickWaiters.length === 1) portPostMessage(tickChannel.port2, null);
    });
  }
  function animationFrame(capMs) {
    return new PromiseCtor((resolve) => {
      let done = false;
      const finish = (rendered) => {
        if (!done) {
          done = true;
          resolve(rendered);
        }
      };
      try {
        ReflectApply(nativeRequestAnimationFrame, G, [() => finish(true)]);
      } catch (e) {
      }
      setTimer(() => finish(false), capMs);
    });
  }
  var queuedWork = create(null);
  var SHORT_TIMER_MS = 500;
  var TIMER_GENERATIONS = 2;
  var timerGeneration = 0;
  (function trackQueuedWork() {
    const wrapScheduler = (name, cancelName, track, isTimer) => {
      const schedule = G[name];
      const cancel = G[cancelName];
      if (typeof schedule !== "function") return;
      const wrapped = {
        [name](callback, delay) {
          if (typeof callback !== "function" || !track(delay)) return ReflectApply(schedule, G, arguments);
          let key = null;
          const args = arguments;
          const generation = timerGeneration;
          args[0] = function() {
            if (key !== null) delete queuedWork[key];
            const outer = timerGeneration;
            timerGeneration = isTimer ? generation + 1 : outer;
            try {
              return ReflectApply(callback, this, arguments);
            } finally {
              timerGeneration = outer;
            }
          };
          const id = ReflectApply(schedule, G, args);
          key = name + id;
          queuedWork[key] = { at: now(), timer: isTimer, generation };
          return id;
        }
      }[name];
      try {
        G[name] = wrapped;
      } catch (e) {
        return;
      }
      if (typeof cancel === "function") {
        try {
          G[cancelName] = {
            [cancelName](id) {
              delete queuedWork[name + id];
              return ReflectApply(cancel, G, arguments);
            }
          }[cancelName];
        } catch (e) {
        }
      }
    };
    wrapScheduler("requestAnimationFrame", "cancelAnimationFrame", () => true, false);
    wrapScheduler("setTimeout", "clearTimeout", (delay) => !(delay > SHORT_TIMER_MS), true);
  })();
  function queuedSince(since) {
    const ids = keys(queuedWork);
    const out = { frames: 0, timers: 0 };
    for (let i = 0; i < ids.length; i++) {
      const work = queuedWork[ids[i]];
      if (work.at < since) continue;
      if (!work.timer) out.frames += 1;
      else if (work.generation <= TIMER_GENERATIONS) out.timers += 1;
    }
    return out;
  }
  var QUEUED_ROUNDS = 3;
  var afterAction = null;
  function frameAfterAction() {
    if (!observer) return;
    const mark = { observer, at: -1, count: -1, rendered: false };
    afterAction = mark;
    try {
      ReflectApply(nativeRequestAnimationFrame, G, [() => {
        mark.at = now();
        mark.count = mutationCount;
        promiseThen(tick(), () => {
          mark.rendered = true;
        });
      }]);
    } catch (e) {
      afterAction = null;
    }
  }
  function renderedAfterAction(since) {
    const mark = afterAction;
    afterAction = null;
    return !!mark && mark.rendered && mark.at >= since && mark.observer === observer && mark.count === mutationCount;
  }
  async function settle(since, capMs) {
    startObserving();
    const started = now();
    let rounds = 0;
    let frames = 0;
    try {
      if (renderedAfterAction(since)) {
        const queued = queuedSince(since);
        if (pendingSince(since) === 0 && queued.timers === 0 && queued.frames === 0) {
          return answerOf({ settled: true, ms: 0, frames: 0 });
        }
      }
      let lastFrame = started;
      for (; ; ) {
        const before = mutationCount;
        const rendered = await animationFrame(20);
        await tick();
        if (rendered) {
          frames += 1;
          lastFrame = now();
        }
        const framed = rendered || now() - lastFrame >= capMs / 2;
        const pending = pendingSince(since);
        const queued = queuedSince(since);
        const quiet = mutationCount === before;
        if (framed && pending === 0 && quiet && queued.timers === 0 && (queued.frames === 0 || rounds >= QUEUED_ROUNDS)) {
          return answerOf({ settled: true, ms: now() - started, frames });
        }
        const elapsed = now() - started;
        if (elapsed >= capMs) return answerOf({ settled: false, ms: elapsed, frames, pending, timers: queued.timers });
        if (!quiet || pending > 0) rounds = 0;
        else if (framed) rounds += 1;
        if (pending > 0) await nextChange(MathMin(50, MathMax(1, capMs - elapsed)));
      }
    } finally {
      stopObserving();
    }
  }
  var feedbackWatch = null;
  function feedbackKey(entry) {
    return entry.kind + "\0" + entry.text;
  }
  function feedbackCounts(entries) {
    const counts = create(null);
    for (let i = 0; i < entries.length; i++) {
      const key = feedbackKey(entries[i]);
      counts[key] = (counts[key] || 0) + 1;
    }
    return counts;
  }
  function watchFeedback(watch) {
    const entries = readFeedback(null);
    const counts = feedbackCounts(entries);
    if (watch.last === null) {
      watch.last = counts;
      return;
    }
    for (let i = 0; i < entries.length; i++) {
      const key = feedbackKey(entries[i]);
      const was = watch.last[key] || 0;
      const seen = watch.risen[key] || 0;
      if (counts[key] - was > seen) {
        watch.risen[key] = seen + 1;
        push(watch.appeared, entries[i]);
      }
    }
    watch.risen = create(null);
    watch.last = counts;
  }
  function pollFeedback(watch) {
    if (watch.timer === null && registry.feedback.length > 0) watch.timer = setRepeat(() => watchFeedback(watch), 16);
  }
  function startFeedbackWatch() {
    stopFeedbackWatch();
    const watch = { last: null, risen: create(null), appeared: [], timer: null };
    feedbackWatch = watch;
    watchFeedback(watch);
    startObserving();
    pollFeedback(watch);
    return watch;
  }
  function stopFeedbackWatch() {
    const watch = feedbackWatch;
    if (!watch) return null;
    watchFeedback(watch);
    if (watch.timer !== null) clearRepeat(watch.timer);
    feedbackWatch = null;
    stopObserving();
    return watch;
  }
  function mutationMark() {
    return { observer, count: mutationCount };
  }
  function quietSince(since, mark) {
    if (!mark || !observer || mark.observer !== observer || mark.count !== mutationCount) return false;
    if (pendingSince(since) !== 0) return false;
    const queued = queuedSince(since);
    return queued.timers === 0 && queued.frames === 0;
  }

  // js_bridge/views.js
  function samePage(before, after) {
    if (!before || !after) return true;
    if (before.id !== null || after.id !== null) return before.id === after.id;
    return pagePath(before.url) === pagePath(after.url);
  }
  function pagePath(url) {
    let text2 = typeof url === "string" ? url : "";
    const hash = strIndexOf(text2, "#");
    if (hash >= 0) text2 = strSlice(text2, 0, hash);
    const query = strIndexOf(text2, "?");
    return query >= 0 ? strSlice(text2, 0, query) : text2;
  }
  function diffViews(before, after) {
    const out = create(null);
    const types = keys(after);
    const beforeTypes = keys(before);
    for (let t = 0; t < beforeTypes.length; t++) {
      if (after[beforeTypes[t]] === void 0) out[beforeTypes[t]] = { declared: "before" };
    }
    for (let t = 0; t < types.length; t++) {
      const type = types[t];
      const b = after[type];
      const a = before[type];
      if (a === void 0) {
        out[type] = { declared: "after" };
        continue;
      }
      const change = {
        entered: [],
        left: [],
        updated: [],
        omitted: { entered: 0, left: 0, updated: 0 },
        total: { from: a.ids.length, to: b.ids.length }
      };
      const wasAt = positions(a);
      const isAt = positions(b);
      for (let i = 0; i < b.ids.length; i++) {
        const id = b.ids[i];
        const at = wasAt[id];
        if (at === void 0) {
          if (change.entered.length < DIFF_LIMITS.ids) push(change.entered, id);
          else change.omitted.entered += 1;
          continue;
        }
        if (!entryChanged(a.entries[at], b.entries[i])) continue;
        const changes = viewFieldChanges(a.entries[at], b.entries[i]);
        if (!keys(changes).length) continue;
        if (change.updated.length >= DIFF_LIMITS.updated) {
          change.omitted.updated += 1;
          continue;
        }
        push(change.updated, { id, changes });
      }
      for (let i = 0; i < a.ids.length; i++) {
        if (isAt[a.ids[i]] !== void 0) continue;
        if (change.left.length < DIFF_LIMITS.ids) push(change.left, a.ids[i]);
        else change.omitted.left += 1;
      }
      const counted = change.entered.length + change.left.length + change.updated.length;
      if (counted + change.omitted.entered + change.omitted.left + change.omitted.updated > 0) out[type] = change;
    }
    return out;
  }
  function viewFieldChanges(from, to) {
    const changes = create(null);
    if (!sameValue(from[0], to[0])) changes.label = { from: from[0], to: to[0] };
    const was = fieldsOf(from[1]);
    const is = fieldsOf(to[1]);
    const names = keys(was);
    for (let i = 0; i < names.length; i++) {
      if (!hasOwn(is, names[i])) continue;
      if (!sameValue(was[names[i]], is[names[i]])) changes[names[i]] = { from: was[names[i]], to: is[names[i]] };
    }
    return changes;
  }
  function diffViewActions(before, after, out) {
    const afterIds = keys(after);
    for (let i = 0; i < afterIds.length; i++) {
      const id = afterIds[i];
      const is = after[id];
      const was = before[id];
      if (is.member) continue;
      if (was === void 0) {
        actionChange(out, "added", id);
        continue;
      }
      if (is.family || was.family) continue;
      if (was.available !== is.available) {
        if (keys(out.availability).length < DIFF_LIMITS.actions) out.availability[id] = { from: was.available, to: is.available };
        else out.omitted.availability += 1;
      }
    }
    const beforeIds = keys(before);
    for (let i = 0; i < beforeIds.length; i++) {
      const was = before[beforeIds[i]];
      if (!was.member && after[beforeIds[i]] === void 0) actionChange(out, "removed", beforeIds[i]);
    }
  }
  function diffViewState(before, after) {
    const both = create(null);
    const afterOnly = create(null);
    const declared = create(null);
    let named = 0;
    let omitted = 0;
    const names = keys(after);
    for (let i = 0; i < names.length; i++) {
      if (before[names[i]] !== void 0) both[names[i]] = after[names[i]];
      else afterOnly[names[i]] = true;
    }
    const beforeNames = keys(before);
    const beforeBoth = create(null);
    for (let i = 0; i < beforeNames.length; i++) {
      const key = beforeNames[i];
      if (after[key] !== void 0) {
        beforeBoth[key] = before[key];
        continue;
      }
      if (named < DIFF_LIMITS.state) {
        declared[key] = "before";
        named += 1;
      } else omitted += 1;
    }
    for (let i = 0; i < names.length; i++) {
      if (!afterOnly[names[i]]) continue;
      if (named < DIFF_LIMITS.state) {
        declared[names[i]] = "after";
        named += 1;
      } else omitted += 1;
    }
    const out = diffState(beforeBoth, both);
    out.omitted += omitted;
    if (keys(declared).length) out.declared = declared;
    return out;
  }

  // js_bridge/evidence.js
  var DIFF_LIMITS = { ids: 20, updated: 10, state: 20, feedback: 20, actions: 20 };
  var MEMBER_CHECKS = 500;
  function captureEvidence() {
    const records = create(null);
    for (let r = 0; r < registry.records.length; r++) {
      const decl = registry.records[r];
      const set = readRecordIds(decl);
      const entries2 = [];
      const tally = newTally();
      for (let i = 0; i < set.ids.length; i++) {
        const id = set.ids[i];
        entries2[i] = [recordLabel(decl, set.objects[i], id, tally), recordPairs(decl, set.objects[i], id, tally)];
      }
      records[decl.type] = { ids: set.ids, entries: entries2 };
    }
    const actions = create(null);
    let checks = MEMBER_CHECKS;
    for (let i = 0; i < registry.actions.length; i++) {
      const action = registry.actions[i];
      if (action.record) {
        actions[action.id] = { family: action.record };
        const members = action.available && records[action.record];
        for (let m = 0; members && m < members.ids.length && checks > 0; m++, checks--) {
          const availability2 = callAvailable(action, members.ids[m]);
          actions[action.id + "@" + members.ids[m]] = { member: true, available: availability2.available ? true : availability2.reason === null ? false : availability2.reason };
        }
        continue;
      }
      const availability = callAvailable(action);
      actions[action.id] = { available: availability.available ? true : availability.reason === null ? false : availability.reason };
    }
    const state = create(null);
    for (let i = 0; i < registry.state.length; i++) {
      const entry = registry.state[i];
      const read = stateValue(entry, newTally());
      const value = read.error ? null : read.value;
      state[entry.key] = { value, signature: toJSON(value) };
    }
    const entries = readFeedback(null);
    const feedback = { entries, counts: feedbackCounts(entries) };
    return { records, actions, state, feedback, page: pageInfo() };
  }
  function ownCopy(value) {
    if (!value || typeof value !== "object" || isArray(value)) return null;
    const out = create(null);
    const names = keys(value);
    for (let i = 0; i < names.length; i++) out[names[i]] = value[names[i]];
    return out;
  }
  function ownEntries(value) {
    const out = create(null);
    const given = ownCopy(value);
    const names = given ? keys(given) : [];
    for (let i = 0; i < names.length; i++) {
      const entry = ownCopy(given[names[i]]);
      if (entry) out[names[i]] = entry;
    }
    return out;
  }
  function carriedSnapshot(parsed) {
    const before = ownCopy(parsed);
    if (!before || !before.records || typeof before.records !== "object") return null;
    const feedback = ownCopy(before.feedback);
    return {
      records: carriedRecords(before.records),
      actions: ownEntries(before.actions),
      state: ownEntries(before.state),
      feedback: { entries: feedback && isArray(feedback.entries) ? feedback.entries : [], counts: ownCopy(feedback && feedback.counts) || create(null) },
      page: ownCopy(before.page)
    };
  }
  function carriedRecords(records) {
    const out = create(null);
    const types = keys(records);
    for (let t = 0; t < types.length; t++) {
      const kept2 = ownCopy(records[types[t]]);
      const ids = kept2 && isArray(kept2.ids) ? kept2.ids : [];
      const given = kept2 && isArray(kept2.entries) ? kept2.entries : [];
      const entries = [];
      for (let i = 0; i < ids.length; i++) {
        const entry = given[i];
        entries[i] = isArray(entry) && isArray(entry[1]) ? entry : void 0;
      }
      out[types[t]] = { ids, entries };
    }
    return out;
  }
  function positions(set) {
    const out = create(null);
    for (let i = 0; i < set.ids.length; i++) {
      if (set.entries[i] !== void 0 && out[set.ids[i]] === void 0) out[set.ids[i]] = i;
    }
    return out;
  }
  function sameIds(a, b) {
    if (a.ids.length !== b.ids.length) return false;
    for (let i = 0; i < a.ids.length; i++) if (a.ids[i] !== b.ids[i] || a.entries[i] === void 0) return false;
    return true;
  }
  function sameValue(a, b) {
    if (a === void 0) a = null;
    if (b === void 0) b = null;
    if (a === b) return true;
    return a !== null && b !== null && typeof a === "object" && typeof b === "object" && toJSON(a) === toJSON(b);
  }
  function entryChanged(before, after) {
    if (!sameValue(before[0], after[0])) return true;
    const a = before[1];
    const b = after[1];
    if (a.length === b.length) {
      let i = 0;
      while (i < a.length && a[i] === b[i] && sameValue(a[i + 1], b[i + 1])) i += 2;
      if (i >= a.length) return false;
    }
    const from = fieldsOf(a);
    const to = fieldsOf(b);
    const names = keys(from);
    for (let i = 0; i < names.length; i++) if (!sameValue(from[names[i]], to[names[i]])) return true;
    const added = keys(to);
    for (let i = 0; i < added.length; i++) if (from[added[i]] === void 0 && !sameValue(null, to[added[i]])) return true;
    return false;
  }
  function fieldChanges(before, after) {
    const changes = create(null);
    if (!sameValue(before[0], after[0])) changes.label = { from: before[0], to: after[0] };
    const from = fieldsOf(before[1]);
    const to = fieldsOf(after[1]);
    const names = keys(from);
    for (let i = 0; i < names.length; i++) {
      const is = to[names[i]] === void 0 ? null : to[names[i]];
      if (!sameValue(from[names[i]], is)) changes[names[i]] = { from: from[names[i]], to: is };
    }
    const added = keys(to);
    for (let i = 0; i < added.length; i++) {
      if (from[added[i]] === void 0 && to[added[i]] !== null) changes[added[i]] = { from: null, to: to[added[i]] };
    }
    return changes;
  }
  function diffRecords(before, after, actionsOut) {
    const out = create(null);
    const types = keys(after);
    const beforeTypes = keys(before);
    for (let t = 0; t < beforeTypes.length; t++) if (after[beforeTypes[t]] === void 0) push(types, beforeTypes[t]);
    for (let t = 0; t < types.length; t++) {
      const type = types[t];
      const a = before[type] || { ids: [], entries: [] };
      const b = after[type] || { ids: [], entries: [] };
      const change = {
        added: [],
        removed: [],
        updated: [],
        reordered: false,
        omitted: { added: 0, removed: 0, updated: 0 },
        total: { from: a.ids.length, to: b.ids.length }
      };
      const added = [];
      const removed = [];
      if (sameIds(a, b)) {
        for (let i = 0; i < b.ids.length; i++) updatedRecord(change, b.ids[i], a.entries[i], b.entries[i]);
      } else {
        moved(a, b, change, added, removed);
      }
      for (let i = 0; i < added.length; i++) {
        if (change.added.length < DIFF_LIMITS.ids) push(change.added, added[i]);
        else change.omitted.added += 1;
      }
      for (let i = 0; i < removed.length; i++) {
        if (change.removed.length < DIFF_LIMITS.ids) push(change.removed, removed[i]);
        else change.omitted.removed += 1;
      }
      if (added.length + removed.length + change.updated.length + change.omitted.updated > 0 || change.reordered) out[type] = change;
      for (let f = 0; f < registry.actions.length; f++) {
        const action = registry.actions[f];
        if (action.record !== type) continue;
        for (let i = 0; i < added.length; i++) actionChange(actionsOut, "added", action.id + "@" + added[i]);
        for (let i = 0; i < removed.length; i++) actionChange(actionsOut, "removed", action.id + "@" + removed[i]);
      }
    }
    return out;
  }
  function moved(a, b, change, added, removed) {
    const was = positions(a);
    const is = positions(b);
    for (let i = 0; i < b.ids.length; i++) if (was[b.ids[i]] === void 0) push(added, b.ids[i]);
    for (let i = 0; i < a.ids.length; i++) if (is[a.ids[i]] === void 0) push(removed, a.ids[i]);
    let j = 0;
    for (let i = 0; i < a.ids.length && !change.reordered; i++) {
      if (is[a.ids[i]] === void 0) continue;
      while (j < b.ids.length && was[b.ids[j]] === void 0) j += 1;
      if (b.ids[j] !== a.ids[i]) change.reordered = true;
      j += 1;
    }
    for (let i = 0; i < b.ids.length; i++) {
      const at = was[b.ids[i]];
      if (at !== void 0) updatedRecord(change, b.ids[i], a.entries[at], b.entries[i]);
    }
  }
  function updatedRecord(change, id, was, is) {
    if (!entryChanged(was, is)) return;
    if (change.updated.length >= DIFF_LIMITS.updated) {
      change.omitted.updated += 1;
      return;
    }
    push(change.updated, { id, changes: fieldChanges(was, is) });
  }
  function actionChange(out, list, id) {
    if (out[list].length < DIFF_LIMITS.actions) push(out[list], id);
    else out.omitted[list] += 1;
  }
  function diffActions(before, after, out) {
    const afterIds = keys(after);
    for (let i = 0; i < afterIds.length; i++) {
      const id = afterIds[i];
      const was = before[id];
      const is = after[id];
      if (was === void 0) {
        if (!is.family && !is.member) actionChange(out, "added", id);
        continue;
      }
      if (is.family || was.family) continue;
      if (was.available !== is.available) {
        if (keys(out.availability).length < DIFF_LIMITS.actions) out.availability[id] = { from: was.available, to: is.available };
        else out.omitted.availability += 1;
      }
    }
    const beforeIds = keys(before);
    for (let i = 0; i < beforeIds.length; i++) {
      const was = before[beforeIds[i]];
      if (after[beforeIds[i]] === void 0 && !was.family && !was.member) actionChange(out, "removed", beforeIds[i]);
    }
  }
  function diffState(before, after) {
    const out = { changed: create(null), omitted: 0 };
    const names = keys(after);
    const beforeNames = keys(before);
    for (let i = 0; i < beforeNames.length; i++) if (after[beforeNames[i]] === void 0) push(names, beforeNames[i]);
    let n = 0;
    for (let i = 0; i < names.length; i++) {
      const a = before[names[i]];
      const b = after[names[i]];
      if (a && b && a.signature === b.signature) continue;
      if (n >= DIFF_LIMITS.state) {
        out.omitted += 1;
        continue;
      }
      out.changed[names[i]] = { from: a ? a.value : null, to: b ? b.value : null };
      n += 1;
    }
    return out;
  }
  function diffFeedback(before, after, watch) {
    const out = { added: [], removed: [], omitted: { added: 0, removed: 0 } };
    let appeared = watch ? watch.appeared : null;
    if (!appeared) {
      appeared = [];
      const rose = create(null);
      for (let i = 0; i < after.entries.length; i++) {
        const key = feedbackKey(after.entries[i]);
        rose[key] = (rose[key] || 0) + 1;
        if (rose[key] > (before.counts[key] || 0)) push(appeared, after.entries[i]);
      }
    }
    for (let i = 0; i < appeared.length; i++) {
      if (out.added.length < DIFF_LIMITS.feedback) push(out.added, appeared[i]);
      else out.omitted.added += 1;
    }
    const fell = create(null);
    for (let i = 0; i < before.entries.length; i++) {
      const key = feedbackKey(before.entries[i]);
      fell[key] = (fell[key] || 0) + 1;
      if (fell[key] <= (after.counts[key] || 0)) continue;
      if (out.removed.length < DIFF_LIMITS.feedback) push(out.removed, before.entries[i]);
      else out.omitted.removed += 1;
    }
    return out;
  }
  function diffEvidence(before, watch) {
    const after = captureEvidence();
    const actions = { added: [], removed: [], availability: create(null), omitted: { added: 0, removed: 0, availability: 0 } };
    const same = samePage(before.page, after.page);
    let records;
    let state;
    if (same) {
      records = diffRecords(before.records, after.records, actions);
      diffActions(before.actions, after.actions, actions);
      state = diffState(before.state, after.state);
    } else {
      records = diffViews(before.records, after.records);
      diffViewActions(before.actions, after.actions, actions);
      state = diffViewState(before.state, after.state);
    }
    const feedback = diffFeedback(before.feedback, after.feedback, watch);
    const observed = keys(records).length > 0 || actions.added.length + actions.removed.length + keys(actions.availability).length > 0 || keys(state.changed).length > 0 || feedback.added.length + feedback.removed.length > 0;
    const changed = { observed, records, actions, state: { changed: state.changed }, feedback };
    if (state.omitted) changed.state.omitted = state.omitted;
    if (state.declared) changed.state.declared = state.declared;
    const moved2 = before.page && after.page && (before.page.id !== after.page.id || before.page.id === null && before.page.url !== after.page.url);
    if (moved2) {
      changed.page = { from: before.page, to: after.page };
      changed.observed = true;
    }
    return changed;
  }

  // js_bridge/navigate.js
  var DOC_ID = randomName();
  var CARRY_BINDING = "__plingCarry";
  var carry = null;
  var carryTrusted = false;
  var navigationObject = G.navigation || null;
  var navigateDestination = G.NavigateEvent ? getterOf(G.NavigateEvent.prototype, "destination") : null;
  var navigateDownload = G.NavigateEvent ? getterOf(G.NavigateEvent.prototype, "downloadRequest") : null;
  var destinationSameDocument = G.NavigationDestination ? getterOf(G.NavigationDestination.prototype, "sameDocument") : null;
  var eventDefaultPrevented = getterOf(Event.prototype, "defaultPrevented");
  var documentReadyState = getterOf(Document.prototype, "readyState");
  function takeBinding() {
    try {
      const found = getOwnDescriptor(G, CARRY_BINDING);
      if (!found) return null;
      delete G[CARRY_BINDING];
      return hasOwn(found, "value") && typeof found.value === "function" ? found.value : null;
    } catch (e) {
      return null;
    }
  }
  function adoptCarry() {
    if (carry === null) carry = takeBinding();
    return answerOf({ ok: true, doc: DOC_ID, carry: carry !== null, trusted: carryTrusted });
  }
  carry = takeBinding();
  carryTrusted = carry !== null;
  function carryBefore() {
    if (!inFlight.before || inFlight.carried || !carry || !carryTrusted) return;
    inFlight.carried = true;
    try {
      ReflectApply(carry, G, ["carry:" + DOC_ID + "\n" + plainJSON({ before: inFlight.before })]);
    } catch (e) {
    }
  }
  function onNavigate(event) {
    let leaving = true;
    try {
      if (destinationSameDocument && navigateDestination) leaving = !destinationSameDocument(navigateDestination(event));
      if (leaving && navigateDownload && navigateDownload(event) !== null) leaving = false;
    } catch (e) {
      leaving = true;
    }
    if (!leaving) return;
    inFlight.leaving = true;
    carryBefore();
    setTimer(() => {
      try {
        if (eventDefaultPrevented(event)) inFlight.leaving = false;
      } catch (e) {
      }
    }, 0);
  }
  function stayed() {
    inFlight.leaving = false;
  }
  if (navigationObject) {
    try {
      eventTargetAddListener(navigationObject, "navigate", onNavigate, true);
      eventTargetAddListener(navigationObject, "navigatesuccess", stayed, true);
      eventTargetAddListener(navigationObject, "navigateerror", stayed, true);
    } catch (e) {
    }
  }
  try {
    eventTargetAddListener(G, "pagehide", () => {
      inFlight.leaving = true;
      carryBefore();
    }, true);
  } catch (e) {
  }
  function begin(arg) {
    if (arg && arg.evidence === true) takeBefore();
    else markStart();
    armLeaving();
    return answerOf({ ok: true, evidence: !!(arg && arg.evidence === true), doc: DOC_ID });
  }
  function armLeaving() {
    inFlight.leaving = false;
    inFlight.carried = false;
    held = null;
  }
  function withLeaving(value) {
    if (value && typeof value === "object") {
      if (inFlight.leaving) value.leaving = true;
      value.doc = DOC_ID;
    }
    return value;
  }
  function pageInfo() {
    let title = "";
    try {
      title = StringCtor(documentTitle(documentObject));
    } catch (e) {
      title = "";
    }
    return { id: registry.page ? registry.page.id : null, url: locationHref(), title: strSlice(title, 0, 300) };
  }
  function whoami() {
    let ready = "complete";
    try {
      ready = documentReadyState(documentObject);
    } catch (e) {
      ready = "complete";
    }
    const declared = registry.page !== null || registry.actions.length > 0 || registry.records.length > 0;
    return answerOf({ ok: true, doc: DOC_ID, page: pageInfo(), ready, declared, leaving: inFlight.leaving === true });
  }
  function carriedBefore(arg) {
    return arg && hasOwn(arg, "before") ? carriedSnapshot(arg.before) : null;
  }
  function diffCarried(before) {
    const changed = diffEvidence(before, null);
    changed.page = { from: before.page || { id: null, url: "", title: "" }, to: pageInfo() };
    changed.observed = true;
    return answerOf({ ok: true, changed });
  }
  function diffFrom(arg) {
    const before = carriedBefore(arg);
    return before ? diffCarried(before) : answerOf({ ok: false, code: "no_snapshot" });
  }
  var held = null;
  function hold(arg) {
    const before = carriedBefore(arg);
    if (!before || !hasOwn(arg, "from") || typeof arg.from !== "string") return answerOf({ ok: false, code: "no_snapshot" });
    held = { from: arg.from, before };
    return answerOf({ ok: true });
  }
  function diffHeld(from) {
    const kept2 = held;
    held = null;
    return kept2 !== null && kept2.from === from ? diffCarried(kept2.before) : null;
  }

  // js_bridge/interaction.js
  var interactions = create(null);
  var DOMExceptionForInteraction = G.DOMException;
  var interactionSeq = 0;
  var interactionsOpen = 0;
  function tellController(kind, message) {
    if (!carry) return false;
    const payload = create(null);
    payload[kind] = message;
    try {
      ReflectApply(carry, G, [toJSON(payload)]);
      return true;
    } catch (e) {
      return false;
    }
  }
  function clientFor(toolName, signal) {
    return freeze({
      signal,
      requestUserInteraction: (callback) => new PromiseCtor((resolve, reject) => {
        if (typeof callback !== "function") {
          reject(new TypeError("requestUserInteraction needs a callback"));
          return;
        }
        interactionSeq += 1;
        const id = "i" + interactionSeq;
        interactions[id] = { resolve, reject, callback };
        interactionsOpen += 1;
        if (!tellController("interact", { id, tool: toolName, phase: "ask" })) {
          delete interactions[id];
          interactionsOpen -= 1;
          reject(new DOMExceptionForInteraction("No person can be asked (no controller is listening)", "NotAllowedError"));
        }
      })
    });
  }
  function answerInteraction(arg) {
    const pending = interactions[arg.id];
    if (!pending) return answerOf({ ok: false, code: "gone", error: "No interaction " + arg.id + " is waiting" });
    delete interactions[arg.id];
    const settle2 = (fn2, value) => {
      interactionsOpen -= 1;
      tellController("interact", { id: arg.id, phase: "done" });
      fn2(value);
    };
    if (arg.approve !== true) {
      settle2(pending.reject, new DOMExceptionForInteraction("The person did not take part: " + StringCtor(arg.reason || "denied"), "NotAllowedError"));
      return answerOf({ ok: true });
    }
    setTimer(() => {
      let result;
      try {
        result = ReflectApply(pending.callback, void 0, []);
      } catch (e) {
        settle2(pending.reject, e);
        return;
      }
      promiseThen(new PromiseCtor((resolve) => resolve(result)), (v) => settle2(pending.resolve, v), (e) => settle2(pending.reject, e));
    }, 0);
    return answerOf({ ok: true });
  }

  // js_bridge/webmcp_shim.js
  var DOMExceptionCtor = G.DOMException;
  var EventCtor = G.Event;
  var EventTargetCtor = G.EventTarget;
  var rejected = (error) => new PromiseCtor((resolve, reject) => reject(error));
  function invalid(message) {
    warn("webmcp", message);
    return new DOMExceptionCtor(message, "InvalidStateError");
  }
  var context = null;
  var eventHandlers = create(null);
  function toolchange() {
    if (!context) return;
    setTimer(() => {
      try {
        eventTargetDispatch(context, new EventCtor("toolchange"));
      } catch (e) {
      }
    }, 0);
  }
  function check(tool) {
    const name = own(tool, "name");
    if (typeof name !== "string" || !regexTest(WEBMCP_NAME, name)) return invalid("registerTool needs a name of 1-128 letters, digits, _ - or .");
    const description = own(tool, "description");
    if (typeof description !== "string" || !description) return invalid("registerTool " + name + " needs a description");
    if (typeof own(tool, "execute") !== "function") return invalid("registerTool " + name + " needs an execute function");
    if (webmcpTools[name]) return invalid("A tool named " + name + " is already registered");
    const schema = own(tool, "inputSchema");
    if (schema !== void 0) {
      try {
        if (jsonStringify(schema) === void 0) return new TypeError("inputSchema of " + name + " is not JSON");
      } catch (e) {
        return e;
      }
    }
    return null;
  }
  function registerTool(tool, options) {
    const error = check(tool);
    if (error) return rejected(error);
    const signal = own(options, "signal");
    if (signal && signalAborted && signalAborted(signal)) return rejected(signalReason(signal));
    const exposedTo = own(options, "exposedTo");
    if (exposedTo !== void 0 && !exposable(exposedTo)) {
      return rejected(new DOMExceptionCtor("exposedTo takes potentially trustworthy origins only", "SecurityError"));
    }
    const name = own(tool, "name");
    webmcpTools[name] = tool;
    learnTool(tool);
    toolchange();
    if (signal && typeof signal === "object") {
      try {
        eventTargetAddListener(signal, "abort", () => {
          if (webmcpTools[name] !== tool) return;
          forgetTool(name);
          toolchange();
        }, { once: true });
      } catch (e) {
        warn("webmcp", "the signal of " + name + " is not an AbortSignal; it cannot unregister the tool");
      }
    }
    return new PromiseCtor((resolve) => resolve(void 0));
  }
  function exposable(list) {
    if (!isArray(list)) return false;
    for (let i = 0; i < list.length; i++) {
      let url;
      try {
        url = new G.URL(StringCtor(list[i]));
      } catch (e) {
        return false;
      }
      const local = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
      if (!(url.protocol === "https:" || url.protocol === "wss:" || url.protocol === "http:" && local)) return false;
    }
    return true;
  }
  function unregisterTool(name) {
    if (!webmcpTools[name]) return;
    forgetTool(name);
    toolchange();
  }
  function clearContext() {
    const names = keys(webmcpTools);
    let cleared = 0;
    for (let i = 0; i < names.length; i++) {
      if (setHas(exportedTools, webmcpTools[names[i]])) continue;
      forgetTool(names[i]);
      cleared += 1;
    }
    if (cleared) toolchange();
  }
  function provideContext(given) {
    clearContext();
    const list = own(given, "tools");
    if (isArray(list)) for (let i = 0; i < list.length; i++) registerTool(list[i]);
  }
  function getTools() {
    const names = keys(webmcpTools);
    const list = [];
    for (let i = 0; i < names.length; i++) {
      const tool = webmcpTools[names[i]];
      const schema = own(tool, "inputSchema");
      const title = own(tool, "title");
      const hints = own(tool, "annotations");
      const annotations = {
        readOnlyHint: own(hints, "readOnlyHint") === true,
        untrustedContentHint: own(hints, "untrustedContentHint") === true,
        consequentialHint: own(hints, "consequentialHint") === true
      };
      const info = {
        name: names[i],
        title: typeof title === "string" ? title : "",
        description: own(tool, "description"),
        annotations,
        inputSchema: schema !== void 0 ? jsonParse(jsonStringify(schema)) : { type: "object", properties: {} },
        origin: G.location.origin,
        window: G
      };
      push(list, info);
    }
    return new PromiseCtor((resolve) => resolve(list));
  }
  function executeTool(registered, input) {
    const name = typeof registered === "string" ? registered : own(registered, "name");
    const tool = typeof name === "string" ? webmcpTools[name] : void 0;
    if (!tool) return rejected(new DOMExceptionCtor("No tool named " + name + " is registered", "NotFoundError"));
    if (input !== void 0 && (input === null || typeof input !== "object")) return rejected(new TypeError("invalid input object: value is not an object"));
    const args = input === void 0 ? {} : input;
    const signal = toolStarted(name);
    return new PromiseCtor((resolve) => resolve(ReflectApply(own(tool, "execute"), tool, [args, clientFor(name, signal)]))).then((value) => jsonStringify(value === void 0 ? null : value));
  }
  function modelContextInterface() {
    function ModelContext() {
      throw new TypeError("Illegal constructor");
    }
    ModelContext.prototype = create(EventTargetCtor.prototype);
    const methods = { registerTool, unregisterTool, provideContext, clearContext, getTools, executeTool };
    const names = keys(methods);
    for (let i = 0; i < names.length; i++) {
      defineProperty(ModelContext.prototype, names[i], { value: methods[names[i]], writable: true, configurable: true });
    }
    const types = ["toolchange", "toolactivated", "toolcancel"];
    for (let i = 0; i < types.length; i++) {
      const type = types[i];
      defineProperty(ModelContext.prototype, "on" + type, {
        configurable: true,
        get: () => eventHandlers[type] || null,
        set: (fnGiven) => {
          if (eventHandlers[type]) try {
            ReflectApply(EventTargetCtor.prototype.removeEventListener, context, [type, eventHandlers[type]]);
          } catch (e) {
          }
          eventHandlers[type] = typeof fnGiven === "function" ? fnGiven : null;
          if (eventHandlers[type]) eventTargetAddListener(context, type, eventHandlers[type]);
        }
      });
    }
    defineProperty(ModelContext.prototype, "constructor", { value: ModelContext, configurable: true, writable: true });
    return ModelContext;
  }
  function installWebMCPShim() {
    const ModelContext = modelContextInterface();
    context = new EventTargetCtor();
    setPrototypeOf(context, ModelContext.prototype);
    try {
      defineProperty(Navigator.prototype, "modelContext", { get: () => context, configurable: true });
    } catch (e) {
    }
    try {
      defineProperty(Document.prototype, "modelContext", { get: () => context, configurable: true });
    } catch (e) {
    }
    useWebMCP("bridge", context, (tool) => {
      const name = tool.name;
      if (webmcpTools[name]) return null;
      webmcpTools[name] = tool;
      setAdd(exportedTools, tool);
      toolchange();
      return () => {
        if (webmcpTools[name] === tool) {
          delete webmcpTools[name];
          toolchange();
        }
      };
    });
  }

  // js_bridge/webmcp_browser.js
  function wrapBrowserWebMCP(native) {
    const theirs = native.registerTool;
    const AbortControllerCtor = G.AbortController;
    const abortAny = G.AbortSignal && G.AbortSignal.any;
    const abortOf = AbortControllerCtor ? uncurry(AbortControllerCtor.prototype.abort) : null;
    const signalOf = AbortControllerCtor ? getterOf(AbortControllerCtor.prototype, "signal") : null;
    const controllers = create(null);
    const withdraw = (name) => {
      const controller = controllers[name];
      delete controllers[name];
      forgetTool(name);
      if (controller) abortOf(controller);
    };
    const withdrawAll = () => {
      const n = keys(webmcpTools);
      for (let i = 0; i < n.length; i++) withdraw(n[i]);
    };
    const wrapped = {
      registerTool(tool, options) {
        const name = own(tool, "name");
        const signal = own(options, "signal");
        const fresh = typeof name === "string" && typeof own(tool, "execute") === "function" && !webmcpTools[name] && !(signal && signalAborted && signalAborted(signal));
        let given = options;
        let controller = null;
        if (fresh && AbortControllerCtor && abortAny) {
          controller = new AbortControllerCtor();
          const joined = signal ? ReflectApply(abortAny, G.AbortSignal, [[signal, signalOf(controller)]]) : signalOf(controller);
          given = { signal: joined };
          const exposedTo = own(options, "exposedTo");
          if (exposedTo !== void 0) given.exposedTo = exposedTo;
          eventTargetAddListener(joined, "abort", () => {
            if (webmcpTools[name] === tool) {
              delete controllers[name];
              forgetTool(name);
            }
          }, { once: true });
        }
        const answer2 = ReflectApply(theirs, native, [tool, given]);
        if (fresh) {
          webmcpTools[name] = tool;
          if (controller) controllers[name] = controller;
          learnTool(tool);
          try {
            promiseThen(answer2, void 0, (e) => {
              if (webmcpTools[name] !== tool) return;
              withdraw(name);
              problem("webmcp tool " + name, "the browser refused to register it: " + errorText(e));
            });
          } catch (e) {
          }
        }
        return answer2;
      },
      unregisterTool(name) {
        withdraw(name);
      },
      clearContext() {
        withdrawAll();
      },
      provideContext(given) {
        withdrawAll();
        const list = own(given, "tools");
        if (isArray(list)) for (let i = 0; i < list.length; i++) wrapped.registerTool(list[i]);
      }
    };
    const methodNames = keys(wrapped);
    for (let i = 0; i < methodNames.length; i++) {
      try {
        defineProperty(native, methodNames[i], { value: wrapped[methodNames[i]], writable: true, configurable: true });
      } catch (e) {
      }
    }
    try {
      if (!("modelContext" in G.navigator)) defineProperty(Navigator.prototype, "modelContext", { get: () => native, configurable: true });
    } catch (e) {
    }
    useWebMCP("browser", native, (tool) => {
      const controller = new AbortControllerCtor();
      try {
        promiseThen(ReflectApply(theirs, native, [tool, { signal: signalOf(controller) }]), void 0, () => {
        });
      } catch (e) {
        return null;
      }
      return () => abortOf(controller);
    });
  }
  (function chooseWebMCP() {
    let native = null;
    try {
      native = documentObject && documentObject.modelContext;
    } catch (e) {
      native = null;
    }
    if (!(native && typeof native.registerTool === "function")) {
      try {
        native = G.navigator && G.navigator.modelContext;
      } catch (e) {
        native = null;
      }
    }
    if (native && typeof native.registerTool === "function") wrapBrowserWebMCP(native);
    else installWebMCPShim();
  })();

  // js_bridge/demonstration.js
  var CLICKABLE_ROLES = {
    button: true,
    link: true,
    checkbox: true,
    radio: true,
    tab: true,
    menuitem: true,
    menuitemcheckbox: true,
    menuitemradio: true,
    option: true,
    switch: true,
    treeitem: true,
    gridcell: true,
    row: true
  };
  var FIELD_ROLES = { textbox: true, searchbox: true, combobox: true, spinbutton: true, slider: true, listbox: true };
  var INPUT_ROLES = {
    button: "button",
    submit: "button",
    reset: "button",
    image: "button",
    checkbox: "checkbox",
    radio: "radio",
    range: "slider",
    number: "spinbutton",
    search: "searchbox",
    text: "textbox",
    email: "textbox",
    tel: "textbox",
    url: "textbox",
    password: "textbox"
  };
  var TEXT_TYPES = {
    text: true,
    email: true,
    tel: true,
    url: true,
    password: true,
    search: true,
    number: true,
    date: true,
    time: true,
    "datetime-local": true,
    month: true,
    week: true,
    color: false
  };
  var SENSITIVE_AUTOCOMPLETE = /(password|cc-number|cc-csc|cc-exp|one-time-code)/i;
  var SENSITIVE_NAME = /(pass|secret|token|otp|cvv|cvc|card.?number|iban|ssn)/i;
  var selectValue = getterOf(HTMLSelectElement.prototype, "value");
  var selectOptions = getterOf(HTMLSelectElement.prototype, "options");
  var optionText = getterOf(HTMLOptionElement.prototype, "text");
  var optionSelected = getterOf(HTMLOptionElement.prototype, "selected");
  var inputChecked = getterOf(HTMLInputElement.prototype, "checked");
  var labelControl = getterOf(HTMLLabelElement.prototype, "control");
  var documentActiveElement2 = getterOf(Document.prototype, "activeElement");
  var shadowActiveElement = getterOf(ShadowRoot.prototype, "activeElement");
  var strTrim = uncurry(String.prototype.trim);
  var nodeTextContent = getterOf(Node.prototype, "textContent");
  var strSplit = uncurry(String.prototype.split);
  var demonstration = { last: null };
  function tagOf(el) {
    return strToLowerCase(elementTagName(el));
  }
  function attr(el, name) {
    const value = elementGetAttribute(el, name);
    return value === null ? null : StringCtor(value);
  }
  function roleOf(el) {
    const explicit = attr(el, "role");
    if (explicit && strTrim(explicit)) return strSplit(strTrim(explicit), " ")[0];
    const tag = tagOf(el);
    if (tag === "a") return elementHasAttribute(el, "href") ? "link" : null;
    if (tag === "button" || tag === "summary") return "button";
    if (tag === "textarea") return "textbox";
    if (tag === "option") return "option";
    if (tag === "select") return elementHasAttribute(el, "multiple") || +(attr(el, "size") || 0) > 1 ? "listbox" : "combobox";
    if (tag === "input") {
      const type = strToLowerCase(attr(el, "type") || "text");
      return hasOwn(INPUT_ROLES, type) ? INPUT_ROLES[type] : null;
    }
    try {
      if (elementIsContentEditable(el)) return "textbox";
    } catch (e) {
    }
    return null;
  }
  function interactive(el) {
    const role = roleOf(el);
    if (role && (hasOwn(CLICKABLE_ROLES, role) || hasOwn(FIELD_ROLES, role))) return true;
    const tag = tagOf(el);
    return tag === "input" || tag === "select" || tag === "textarea" || tag === "button" || tag === "a";
  }
  function meant(hit) {
    let looksClickable = null;
    for (let node = hit, depth = 0; node && depth < 40; depth++) {
      if (nodeType(node) === 1) {
        if (interactive(node)) return node;
        if (tagOf(node) === "label") {
          let control = null;
          try {
            control = labelControl(node);
          } catch (e) {
            control = null;
          }
          if (control) return control;
        }
        if (!looksClickable) {
          try {
            const style = ReflectApply(nativeGetComputedStyle, G, [node]);
            if (styleGetPropertyValue(style, "cursor") === "pointer" || elementHasAttribute(node, "tabindex")) looksClickable = node;
          } catch (e) {
          }
        }
        if (tagOf(node) === "body") break;
      }
      const parent = nodeParentNode(node);
      node = parent && nodeType(parent) === 11 ? shadowRootHost(parent) : parent;
    }
    return looksClickable;
  }
  function kindOf(el, role) {
    const tag = tagOf(el);
    if (tag === "select") return "select";
    if (tag === "textarea") return "text";
    if (tag === "input") {
      const type = strToLowerCase(attr(el, "type") || "text");
      if (type === "checkbox" || type === "radio") return "check";
      if (hasOwn(TEXT_TYPES, type) && TEXT_TYPES[type]) return "text";
      if (type === "hidden" || type === "file" || type === "color" || type === "range") return "other";
      return "click";
    }
    try {
      if (elementIsContentEditable(el)) return "text";
    } catch (e) {
    }
    if (role === "checkbox" || role === "radio" || role === "switch") return "check";
    return "click";
  }
  function describeControl(el) {
    if (!isElement(el)) return answerOf({ ok: true, found: false });
    const tag = tagOf(el);
    const kind = kindOf(el, roleOf(el));
    const answer2 = answerOf({ ok: true, found: true, kind, tag, type: tag === "input" ? strToLowerCase(attr(el, "type") || "text") : null });
    const autocomplete = attr(el, "autocomplete") || "";
    answer2.sensitive = answer2.type === "password" || regexTest(SENSITIVE_AUTOCOMPLETE, autocomplete) || regexTest(SENSITIVE_NAME, (attr(el, "id") || "") + " " + (attr(el, "name") || ""));
    try {
      if (kind === "text") answer2.value = cut(tag === "input" ? inputValue(el) : tag === "textarea" ? textareaValue(el) : nodeTextContent(el), 2e3);
      if (kind === "check" && tag === "input") answer2.checked = inputChecked(el);
      if (kind === "check" && tag !== "input") answer2.checked = attr(el, "aria-checked") === "true";
      if (kind === "select") {
        const options = selectOptions(el);
        const labels = [];
        let chosen = null;
        for (let i = 0; i < options.length && i < 100; i++) {
          const text2 = cut(strTrim(optionText(options[i])), 200);
          push(labels, text2);
          if (chosen === null && optionSelected(options[i])) chosen = text2;
        }
        answer2.options = labels;
        answer2.value = chosen === null ? selectValue(el) : chosen;
      }
    } catch (e) {
    }
    return answer2;
  }
  function pointedAt(arg) {
    const hit = deepElementFromPoint(arg.x, arg.y);
    const el = hit ? meant(hit) : null;
    demonstration.last = el;
    return describeControl(el);
  }
  function focusedElement() {
    demonstration.last = null;
    let el = documentActiveElement2(documentObject);
    for (let depth = 0; el && depth < 32; depth++) {
      const root = elementShadowRoot(el);
      const inner = root ? shadowActiveElement(root) : null;
      if (!inner) break;
      el = inner;
    }
    if (!el || tagOf(el) === "body" || tagOf(el) === "html") return answerOf({ ok: true, found: false });
    demonstration.last = el;
    return describeControl(el);
  }
  function pointedAgain() {
    return describeControl(demonstration.last);
  }
  function demonstrated() {
    return demonstration.last;
  }

  // js_bridge/choose.js
  var selectOptions2 = getterOf(HTMLSelectElement.prototype, "options");
  var selectMultiple = getterOf(HTMLSelectElement.prototype, "multiple");
  var optionValue = getterOf(HTMLOptionElement.prototype, "value");
  var optionLabel = getterOf(HTMLOptionElement.prototype, "label");
  var optionSelectedSetter = getOwnDescriptor(HTMLOptionElement.prototype, "selected").set;
  var selectValueSetter = getOwnDescriptor(HTMLSelectElement.prototype, "value").set;
  var EventCtor2 = G.Event;
  var strReplace = uncurry(String.prototype.replace);
  var strTrim2 = uncurry(String.prototype.trim);
  var SPACES = /\s+/g;
  function normalized(text2) {
    return strTrim2(strReplace(text2, SPACES, " "));
  }
  function matching(options, value) {
    const label = normalized(value);
    for (let i = 0; i < options.length; i++) if (optionValue(options[i]) === value) return options[i];
    for (let i = 0; i < options.length; i++) {
      const own2 = optionLabel(options[i]);
      if (own2 === value || normalized(own2) === label) return options[i];
    }
    return null;
  }
  function chooseOption(arg) {
    const el = inFlight.target;
    if (!el) return answerOf({ ok: true, chosen: false, why: "the target is gone" });
    try {
      if (strToLowerCase(elementTagName(el)) !== "select") return answerOf({ ok: true, chosen: false, why: "the target is not a <select>" });
      if (selectMultiple(el)) return answerOf({ ok: true, chosen: false, why: "a multiple select is chosen in by Playwright" });
      const option2 = typeof arg.value === "string" ? matching(selectOptions2(el), arg.value) : null;
      if (!option2) return answerOf({ ok: true, chosen: false, why: "no option has that value or label now" });
      if (elementMatches(option2, ":disabled")) return answerOf({ ok: true, chosen: false, why: "that option is disabled" });
      ReflectApply(selectValueSetter, el, [void 0]);
      ReflectApply(optionSelectedSetter, option2, [true]);
      eventTargetDispatch(el, new EventCtor2("input", { bubbles: true, composed: true }));
      eventTargetDispatch(el, new EventCtor2("change", { bubbles: true }));
    } catch (e) {
      return answerOf({ ok: true, chosen: false, why: "it could not be set: " + errorText(e) });
    }
    frameAfterAction();
    releaseTarget();
    return answerOf({ ok: true, chosen: true });
  }

  // js_bridge/handoff.js
  function restore(names) {
    const values = create(null);
    for (let i = 0; i < names.length; i++) {
      const value = restoreSecret(names[i]);
      if (value !== null) values[names[i]] = value;
    }
    return answerOf({ ok: true, values });
  }
  function handoffDone(ref) {
    const action = findAction(splitRef(ref).id);
    if (!action || !action.done) return answerOf({ ok: false, code: "gone", error: "The handoff " + ref + " is no longer declared" });
    try {
      return answerOf({ ok: true, done: !!action.done() });
    } catch (e) {
      return answerOf({ ok: true, done: false, error: "done() threw: " + errorText(e) });
    }
  }

  // js_bridge/ran.js
  var kept = null;
  async function runThenExpect(args) {
    kept = null;
    const mark = args.expect && args.expect.quiet === true ? mutationMark() : null;
    const ran = withLeaving(await runAction(args));
    const asked = args.expect;
    if (!asked || ran.ok !== true || inFlight.leaving) return ran;
    kept = ran;
    const expected = await expectEffect({
      ref: args.ref,
      args: args.args,
      timeoutMs: asked.timeoutMs,
      settleMs: asked.settleMs,
      diff: asked.diff === true,
      quiet: mark
    });
    kept = null;
    ran.expected = withLeaving(expected);
    return ran;
  }
  function ranBefore() {
    const ran = kept;
    kept = null;
    return ran || answerOf({ ok: false, code: "gone", error: "no run() answer is kept" });
  }

  // js_bridge/revealed.js
  function plainFunction(action) {
    return !!action && action.kind === "action" && !!action.run && !action.target && !action.steps;
  }
  async function describeThenReveal(arg) {
    const described = describe(arg.ref);
    const asked = arg.reveal;
    const action = findAction(splitRef(arg.ref).id);
    if (described.ok === true) {
      described.seq = action.seq;
      described.doc = DOC_ID;
    }
    if (!asked || described.ok !== true || !plainFunction(action)) return described;
    described.revealed = await reveal({
      ref: arg.ref,
      capMs: asked.capMs,
      evidence: asked.evidence === true,
      aim: false,
      args: {},
      nested: asked.nested === true
    });
    return described;
  }

  // js_bridge/known.js
  async function knownAction(arg) {
    const action = findAction(splitRef(arg.ref).id);
    if (!plainFunction(action) || !stillDeclared(action, arg)) {
      return answerOf({ ok: false, code: "stale" });
    }
    const revealed = await reveal({
      ref: arg.ref,
      capMs: arg.capMs,
      evidence: arg.evidence === true,
      aim: false,
      args: {},
      nested: false
    });
    if (revealed.ok !== true) return answerOf({ ok: true, revealed });
    startObserving();
    try {
      const ran = await runThenExpect({
        ref: arg.ref,
        args: arg.args,
        timeoutMs: arg.timeoutMs,
        nested: false,
        expect: { ...arg.expect, quiet: arg.risk === "read" }
      });
      return answerOf({ ok: true, revealed, ran });
    } finally {
      stopObserving();
    }
  }

  // js_bridge/webmcp_forms.js
  var formQuery = uncurry(Document.prototype.querySelectorAll);
  var formElements = getterOf(HTMLFormElement.prototype, "elements");
  var formRequestSubmit = uncurry(HTMLFormElement.prototype.requestSubmit);
  var formCheckValidity = uncurry(HTMLFormElement.prototype.checkValidity);
  var setInputValue = uncurry(Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set);
  var setTextAreaValue = uncurry(Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set);
  var setSelectValue = uncurry(Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set);
  var setChecked = uncurry(Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "checked").set);
  var getChecked = getterOf(HTMLInputElement.prototype, "checked");
  var inputType = getterOf(HTMLInputElement.prototype, "type");
  var controlName = (el) => {
    try {
      return elementGetAttribute(el, "name");
    } catch (e) {
      return null;
    }
  };
  var declarativeForms = new G.Map();
  var mapGet = uncurry(G.Map.prototype.get);
  var mapSet = uncurry(G.Map.prototype.set);
  var mapDelete = uncurry(G.Map.prototype.delete);
  var mapForEach = uncurry(G.Map.prototype.forEach);
  var EventCtorForForms = G.Event;
  function fieldsOf2(form) {
    const list = [];
    const elements = formElements(form);
    for (let i = 0; i < MathMin(elements.length, 200); i++) {
      const el = elements[i];
      const name = controlName(el);
      if (!name || elementHasAttribute(el, "disabled")) continue;
      const tag = elementTagName(el);
      const type = tag === "INPUT" ? inputType(el) : tag === "SELECT" ? "select" : tag === "TEXTAREA" ? "textarea" : null;
      if (!type || type === "submit" || type === "button" || type === "reset" || type === "image" || type === "file" || type === "hidden") continue;
      push(list, { el, name, type });
    }
    return list;
  }
  function labelOf(el) {
    const described = elementGetAttribute(el, "toolparamdescription");
    if (described) return cut(described, 500);
    const labels = el.labels;
    const text2 = labels && labels.length ? StringCtor(labels[0].textContent || "").trim() : "";
    return text2 ? cut(text2, 500) : null;
  }
  function schemaOf(form) {
    const properties = create(null);
    const required = [];
    const fields = fieldsOf2(form);
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      let prop = properties[f.name];
      if (f.type === "radio") {
        if (!prop) {
          prop = properties[f.name] = { type: "string", enum: [] };
        }
        push(prop.enum, StringCtor(f.el.value));
      } else if (!prop) {
        if (f.type === "checkbox") prop = { type: "boolean" };
        else if (f.type === "number" || f.type === "range") {
          prop = { type: "number" };
          const min = elementGetAttribute(f.el, "min");
          const max = elementGetAttribute(f.el, "max");
          if (min !== null && min !== "" && isFiniteNumber(+min)) prop.minimum = +min;
          if (max !== null && max !== "" && isFiniteNumber(+max)) prop.maximum = +max;
        } else if (f.type === "select") {
          const values = [];
          const options = f.el.options;
          const placeholderOut = elementHasAttribute(f.el, "required");
          for (let j = 0; j < MathMin(options.length, 200); j++) {
            const value = StringCtor(options[j].value);
            if (!(placeholderOut && value === "")) push(values, value);
          }
          prop = f.el.multiple ? { type: "array", items: { type: "string", enum: values } } : { type: "string", enum: values };
        } else {
          prop = { type: "string" };
          if (f.type === "email") prop.format = "email";
          const minLength = elementGetAttribute(f.el, "minlength");
          const maxLength = elementGetAttribute(f.el, "maxlength");
          if (minLength && isFiniteNumber(+minLength)) prop.minLength = +minLength;
          if (maxLength && isFiniteNumber(+maxLength)) prop.maxLength = +maxLength;
        }
        properties[f.name] = prop;
      }
      const description = labelOf(f.el);
      if (description && !prop.description) prop.description = description;
      if (elementHasAttribute(f.el, "required") && strIndexOf("\0" + required.join("\0") + "\0", "\0" + f.name + "\0") < 0) push(required, f.name);
    }
    const schema = { type: "object", properties };
    if (required.length) schema.required = required;
    return schema;
  }
  function fire(el, type) {
    eventTargetDispatch(el, new EventCtorForForms(type, { bubbles: true }));
  }
  function fillForm(form, args) {
    const fields = fieldsOf2(form);
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (!args || !hasOwn(args, f.name)) continue;
      const value = args[f.name];
      if (f.type === "checkbox") setChecked(f.el, value === true);
      else if (f.type === "radio") setChecked(f.el, StringCtor(f.el.value) === StringCtor(value));
      else if (f.type === "select") {
        if (f.el.multiple && isArray(value)) {
          const options = f.el.options;
          for (let j = 0; j < options.length; j++) options[j].selected = strIndexOf("\0" + value.join("\0") + "\0", "\0" + options[j].value + "\0") >= 0;
        } else setSelectValue(f.el, StringCtor(value));
      } else if (f.type === "textarea") setTextAreaValue(f.el, StringCtor(value));
      else setInputValue(f.el, StringCtor(value));
      if (f.type !== "radio" || getChecked(f.el)) {
        fire(f.el, "input");
        fire(f.el, "change");
      }
    }
  }
  async function runForm(form, args) {
    if (!nodeIsConnected(form)) throw new TypeError("The form is gone");
    fillForm(form, args);
    if (!elementHasAttribute(form, "toolautosubmit")) {
      return { submitted: false, note: "The form is filled; it has no toolautosubmit, so a person checks it and submits it." };
    }
    if (!formCheckValidity(form)) {
      const fields = fieldsOf2(form);
      for (let i = 0; i < fields.length; i++) {
        if (fields[i].el.validationMessage) throw new TypeError(fields[i].name + ": " + fields[i].el.validationMessage);
      }
      throw new TypeError("The form is not valid");
    }
    let response;
    const marker = (event) => {
      if (event.target !== form) return;
      try {
        defineProperty(event, "agentInvoked", { value: true, configurable: true });
        defineProperty(event, "respondWith", { value: (promise) => {
          response = promise;
        }, configurable: true });
      } catch (e) {
      }
    };
    eventTargetAddListener(G, "submit", marker, { capture: true, once: true });
    try {
      formRequestSubmit(form);
    } finally {
      ReflectApply(EventTarget.prototype.removeEventListener, G, ["submit", marker, { capture: true }]);
    }
    if (response !== void 0) return await response;
    return void 0;
  }
  function syncDeclarativeTools() {
    if (!documentObject) return;
    const seen = new SetCtor();
    let forms;
    try {
      forms = formQuery(documentObject, "form[toolname]");
    } catch (e) {
      return;
    }
    for (let i = 0; i < MathMin(forms.length, 100); i++) {
      const form = forms[i];
      setAdd(seen, form);
      const name = elementGetAttribute(form, "toolname");
      const description = elementGetAttribute(form, "tooldescription");
      const known = mapGet(declarativeForms, form);
      if (!name || !description) {
        if (known) {
          known.remove();
          mapDelete(declarativeForms, form);
        }
        continue;
      }
      const schema = schemaOf(form);
      const signature = name + "\0" + description + "\0" + jsonStringify(schema) + (elementHasAttribute(form, "toolautosubmit") ? "1" : "0");
      if (known && known.signature === signature) continue;
      if (known) known.remove();
      const remove = declareAction({
        id: name,
        description: cut(description, WEBMCP_DESCRIPTION_MAX),
        params: schema,
        risk: "write",
        run: (args) => runForm(form, args)
      });
      const entry = findAction(name);
      if (entry) {
        entry.description = cut(description, WEBMCP_DESCRIPTION_MAX);
        entry.webmcp = true;
      }
      mapSet(declarativeForms, form, { signature, remove });
    }
    const gone = [];
    mapForEach(declarativeForms, (value, form) => {
      if (!setHas(seen, form)) push(gone, form);
    });
    for (let i = 0; i < gone.length; i++) {
      mapGet(declarativeForms, gone[i]).remove();
      mapDelete(declarativeForms, gone[i]);
    }
  }

  // js_bridge/entry.js
  var handlers = {
    model: (arg) => modelSnapshot(arg),
    describe: (arg) => describeThenReveal(arg),
    reveal: (arg) => reveal(arg),
    run: (arg) => runThenExpect(arg),
    ran: () => ranBefore(),
    known: (arg) => knownAction(arg),
    synthetic: () => syntheticClick(),
    release: () => releaseTarget(),
    landed: () => landed(),
    typed: (arg) => typed(arg),
    choose: (arg) => chooseOption(arg),
    expect: (arg) => promiseThen(expectEffect(arg), withLeaving),
    settle: (arg) => promiseThen(settle(inFlight.since, arg.capMs), (settled) => answerOf({ ok: true, settled })),
    diff: () => diffAgainstBefore(),
    restore: (arg) => restore(arg.names),
    configure: (arg) => configure(arg),
    protect: (arg) => protectValues(arg.values),
    mask: (arg) => markProtected(arg.on === true),
    handoff: (arg) => handoffDone(arg.ref),
    interaction: (arg) => answerInteraction(arg),
    toolAnswer: (arg) => answerToolCall(arg),
    whoami: () => whoami(),
    begin: (arg) => begin(arg),
    adopt: () => adoptCarry(),
    diffFrom: (arg) => diffFrom(arg),
    hold: (arg) => hold(arg),
    pointedAt: (arg) => pointedAt(arg),
    pointedAgain: () => pointedAgain(),
    focused: () => focusedElement()
  };
  var operations2 = create(null);
  var promised = create(null);
  var listed = keys(operations);
  for (let i = 0; i < listed.length; i++) {
    const name = listed[i];
    if (hasOwn(handlers, name)) operations2[name] = handlers[name];
    promised[name] = operations[name].promise === true;
  }
  function answer(value) {
    return typeof value === "string" ? value : toJSON(value);
  }
  function bug(e) {
    return toJSON({ ok: false, code: "bridge_bug", error: errorText(e) });
  }
  function call(name, argText) {
    const operation = hasOwn(operations2, name) ? operations2[name] : null;
    if (!operation) return toJSON({ ok: false, code: "bridge_bug", error: "unknown bridge operation " + name });
    let result;
    try {
      syncDeclarativeTools();
    } catch (e) {
    }
    try {
      const arg = typeof argText === "string" ? jsonParse(argText) : null;
      result = operation(arg);
    } catch (e) {
      return bug(e);
    }
    if (promised[name]) return promiseThen(result, answer, bug);
    return answer(result);
  }
  defineProperty(G, "__plingBridge", {
    value: freeze({ version, call, target: currentTarget, adapter: runAdapter, demonstrated }),
    writable: false,
    enumerable: false,
    configurable: false
  });
  G.pling = plingApi;
})();
})();
