// webmcp.js: tools a page registers with WebMCP become function actions: inputSchema → params,
// title and description kept (descriptions whole up to WEBMCP_DESCRIPTION_MAX characters, the omission
// said), annotations.readOnlyHint → risk read (else write), consequentialHint → danger,
// untrustedContentHint → the receipt marks the data as page-supplied, the tool's result → bounded data.
//
// Where the browser has its own WebMCP (`document.modelContext`), its object is kept: its methods are
// wrapped so Pling learns what the page registers, and the browser and the page's own polyfills still
// see every tool. Where it has none, the bridge provides the API of the current specification:
// `document.modelContext` (and the legacy `navigator.modelContext`, the same object), an EventTarget
// firing `toolchange`, `registerTool(tool, {signal})` answering a promise and unregistered by aborting
// the signal, `getTools()`, `executeTool(name, input)`; the legacy `unregisterTool`, `provideContext`
// and `clearContext` keep working.

const WEBMCP_DESCRIPTION_MAX = 4000;
const WEBMCP_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

(function installWebMCP() {
  const removers = create(null);
  const tools = create(null); // name → the tool as registered (the shim's getTools/executeTool read it)
  const agent = freeze({ requestUserInteraction: (callback) => new PromiseCtor((resolve) => resolve(callback())) });
  const DOMExceptionCtor = G.DOMException;
  const EventCtor = G.Event;
  const EventTargetCtor = G.EventTarget;
  const abortedOf = G.AbortSignal ? getterOf(G.AbortSignal.prototype, 'aborted') : null;
  const reasonOf = G.AbortSignal ? getterOf(G.AbortSignal.prototype, 'reason') : null;

  const rejected = (error) => new PromiseCtor((resolve, reject) => reject(error));

  function invalid(message) {
    warn('webmcp', message);
    return new DOMExceptionCtor(message, 'InvalidStateError');
  }

  // The tool as a Pling action (none when it is malformed: the reason is a problem in the model).
  function learn(tool) {
    const name = own(tool, 'name');
    const execute = own(tool, 'execute');
    const annotations = own(tool, 'annotations');
    const description = own(tool, 'description');
    const title = own(tool, 'title');
    const entry = commonAction({
      id: name,
      description: null,
      params: own(tool, 'inputSchema'),
      risk: own(annotations, 'consequentialHint') === true ? 'danger'
        : own(annotations, 'readOnlyHint') === true ? 'read' : 'write',
    }, 'action');
    if (!entry) return null;
    entry.description = typeof description === 'string' ? cut(description, WEBMCP_DESCRIPTION_MAX) : null;
    entry.title = typeof title === 'string' && title ? cut(title, 200) : null;
    entry.untrusted = own(annotations, 'untrustedContentHint') === true;
    entry.webmcp = true;
    entry.run = (args) => ReflectApply(execute, tool, [args, agent]);
    entry.target = null;
    entry.gesture = null;
    entry.expect = null;
    if (removers[name]) removers[name]();
    removers[name] = add(registry.actions, entry, 'id');
    return entry;
  }

  function forget(name) {
    if (removers[name]) { removers[name](); delete removers[name]; }
    delete tools[name];
  }

  // ---- the bridge's own ModelContext, where the browser has none -----------------------------------

  let context = null;
  let handler = null;
  function toolchange() {
    if (!context) return;
    setTimer(() => {
      try { eventTargetDispatch(context, new EventCtor('toolchange')); } catch (e) { /* a listener threw */ }
    }, 0);
  }

  function check(tool) {
    const name = own(tool, 'name');
    if (typeof name !== 'string' || !regexTest(WEBMCP_NAME, name)) return invalid('registerTool needs a name of 1-128 letters, digits, _ - or .');
    const description = own(tool, 'description');
    if (typeof description !== 'string' || !description) return invalid('registerTool ' + name + ' needs a description');
    if (typeof own(tool, 'execute') !== 'function') return invalid('registerTool ' + name + ' needs an execute function');
    if (tools[name]) return invalid('A tool named ' + name + ' is already registered');
    const schema = own(tool, 'inputSchema');
    if (schema !== undefined) {
      try {
        if (jsonStringify(schema) === undefined) return new TypeError('inputSchema of ' + name + ' is not JSON');
      } catch (e) { return e; }
    }
    return null;
  }

  function registerTool(tool, options) {
    const error = check(tool);
    if (error) return rejected(error);
    const signal = own(options, 'signal');
    if (signal && abortedOf && abortedOf(signal)) return rejected(reasonOf(signal));
    const name = own(tool, 'name');
    tools[name] = tool;
    learn(tool);
    toolchange();
    if (signal && typeof signal === 'object') {
      try {
        eventTargetAddListener(signal, 'abort', () => {
          if (tools[name] !== tool) return;
          forget(name);
          toolchange();
        }, { once: true });
      } catch (e) { warn('webmcp', 'the signal of ' + name + ' is not an AbortSignal; it cannot unregister the tool'); }
    }
    return new PromiseCtor((resolve) => resolve(undefined));
  }

  function unregisterTool(name) {
    if (!tools[name]) return;
    forget(name);
    toolchange();
  }

  function clearContext() {
    const names = keys(tools);
    for (let i = 0; i < names.length; i++) forget(names[i]);
    if (names.length) toolchange();
  }

  function provideContext(given) {
    clearContext();
    const list = own(given, 'tools');
    if (isArray(list)) for (let i = 0; i < list.length; i++) registerTool(list[i]);
  }

  function getTools() {
    const names = keys(tools);
    const list = [];
    for (let i = 0; i < names.length; i++) {
      const tool = tools[names[i]];
      const schema = own(tool, 'inputSchema');
      const title = own(tool, 'title');
      // The shape Chromium's own getTools() answers (a RegisteredTool): the schema as an object.
      const info = { name: names[i], title: typeof title === 'string' ? title : '', description: own(tool, 'description'),
        inputSchema: schema !== undefined ? jsonParse(jsonStringify(schema)) : { type: 'object', properties: {} }, origin: G.location.origin, window: G };
      push(list, info);
    }
    return new PromiseCtor((resolve) => resolve(list));
  }

  // As Chromium's: executeTool(a tool getTools() listed, or its name; an input object) answers the
  // result as JSON text.
  function executeTool(registered, input) {
    const name = typeof registered === 'string' ? registered : own(registered, 'name');
    const tool = typeof name === 'string' ? tools[name] : undefined;
    if (!tool) return rejected(new DOMExceptionCtor('No tool named ' + name + ' is registered', 'NotFoundError'));
    if (input !== undefined && (input === null || typeof input !== 'object')) return rejected(new TypeError('invalid input object: value is not an object'));
    const args = input === undefined ? {} : input;
    return new PromiseCtor((resolve) => resolve(ReflectApply(own(tool, 'execute'), tool, [args, agent])))
      .then((value) => jsonStringify(value === undefined ? null : value));
  }

  function ModelContext() { throw new TypeError('Illegal constructor'); }
  ModelContext.prototype = create(EventTargetCtor.prototype);
  const methods = { registerTool, unregisterTool, provideContext, clearContext, getTools, executeTool };
  const names = keys(methods);
  for (let i = 0; i < names.length; i++) {
    defineProperty(ModelContext.prototype, names[i], { value: methods[names[i]], writable: true, configurable: true });
  }
  defineProperty(ModelContext.prototype, 'ontoolchange', {
    configurable: true,
    get: () => handler,
    set: (fnGiven) => {
      if (handler) try { ReflectApply(EventTargetCtor.prototype.removeEventListener, context, ['toolchange', handler]); } catch (e) { /* ignore */ }
      handler = typeof fnGiven === 'function' ? fnGiven : null;
      if (handler) eventTargetAddListener(context, 'toolchange', handler);
    },
  });
  defineProperty(ModelContext.prototype, 'constructor', { value: ModelContext, configurable: true, writable: true });

  // ---- the browser's own, where it has one ----------------------------------------------------------

  let documentObject = null;
  try { documentObject = G.document; } catch (e) { documentObject = null; }
  let native = null;
  try { native = documentObject && documentObject.modelContext; } catch (e) { native = null; }
  if (!(native && typeof native.registerTool === 'function')) {
    try { native = G.navigator && G.navigator.modelContext; } catch (e) { native = null; }
  }
  if (native && typeof native.registerTool === 'function') {
    // Keep the browser's object, and learn what the page registers with it. Each registration also
    // gets a signal of the bridge's own (joined with the page's), so the older drafts' unregisterTool,
    // provideContext and clearContext, which the browser no longer has, still unregister it there.
    const theirs = native.registerTool;
    const AbortControllerCtor = G.AbortController;
    const abortAny = G.AbortSignal && G.AbortSignal.any;
    const abortOf = AbortControllerCtor ? uncurry(AbortControllerCtor.prototype.abort) : null;
    const signalOf = AbortControllerCtor ? getterOf(AbortControllerCtor.prototype, 'signal') : null;
    const controllers = create(null);
    const withdraw = (name) => {
      const controller = controllers[name];
      delete controllers[name];
      forget(name);
      if (controller) abortOf(controller);
    };
    const withdrawAll = () => { const n = keys(tools); for (let i = 0; i < n.length; i++) withdraw(n[i]); };
    const wrapped = {
      registerTool(tool, options) {
        const name = own(tool, 'name');
        const signal = own(options, 'signal');
        const fresh = typeof name === 'string' && typeof own(tool, 'execute') === 'function' && !tools[name] // else the browser refuses it
          && !(signal && abortedOf && abortedOf(signal));
        let given = options;
        let controller = null;
        if (fresh && AbortControllerCtor && abortAny) {
          controller = new AbortControllerCtor();
          const joined = signal ? ReflectApply(abortAny, G.AbortSignal, [[signal, signalOf(controller)]]) : signalOf(controller);
          given = { signal: joined };
          const exposedTo = own(options, 'exposedTo');
          if (exposedTo !== undefined) given.exposedTo = exposedTo;
          eventTargetAddListener(joined, 'abort', () => { if (tools[name] === tool) { delete controllers[name]; forget(name); } }, { once: true });
        }
        const answer = ReflectApply(theirs, native, [tool, given]);
        if (fresh) {
          tools[name] = tool;
          if (controller) controllers[name] = controller;
          learn(tool);
          // The browser refused it after all (an invalid schema, a policy): forget it again.
          try { promiseThen(answer, undefined, () => { if (tools[name] === tool) withdraw(name); }); } catch (e) { /* not a promise */ }
        }
        return answer;
      },
      unregisterTool(name) { withdraw(name); },
      clearContext() { withdrawAll(); },
      provideContext(given) {
        withdrawAll();
        const list = own(given, 'tools');
        if (isArray(list)) for (let i = 0; i < list.length; i++) wrapped.registerTool(list[i]);
      },
    };
    const methodNames = keys(wrapped);
    for (let i = 0; i < methodNames.length; i++) {
      try {
        defineProperty(native, methodNames[i], { value: wrapped[methodNames[i]], writable: true, configurable: true });
      } catch (e) { /* a frozen native object: its tools stay the browser's alone */ }
    }
    // The legacy name, for pages written against the older drafts: the browser's own object.
    try {
      if (!('modelContext' in G.navigator)) defineProperty(Navigator.prototype, 'modelContext', { get: () => native, configurable: true });
    } catch (e) { /* ignore */ }
    webmcpSource = 'browser';
  } else {
    context = new EventTargetCtor();
    setPrototypeOf(context, ModelContext.prototype);
    try { defineProperty(Navigator.prototype, 'modelContext', { get: () => context, configurable: true }); } catch (e) { /* ignore */ }
    try { defineProperty(Document.prototype, 'modelContext', { get: () => context, configurable: true }); } catch (e) { /* ignore */ }
    webmcpSource = 'bridge';
  }
})();
