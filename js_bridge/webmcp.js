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
// toolactivated / toolcancel (Chromium's ToolActivatedEvent and ToolCancelEvent, with `toolName`) where
// Pling runs a tool: fired at the ModelContext, the browser's or the shim's. A run that outlives its
// budget (execute.js) aborts the `signal` its execute got (`client.signal`, as Chromium passes) and
// fires toolcancel.
let eventsTarget = null;
const AbortControllerForTools = G.AbortController;
const abortTool = G.AbortController ? uncurry(G.AbortController.prototype.abort) : null;
const signalOfTool = G.AbortController ? getterOf(G.AbortController.prototype, 'signal') : null;
const EventForTools = G.Event;

function toolEvent(type, name) {
  const Ctor = type === 'toolactivated' ? G.ToolActivatedEvent : G.ToolCancelEvent;
  let event = null;
  try { if (typeof Ctor === 'function') event = new Ctor(type, { toolName: name }); } catch (e) { event = null; }
  if (!event) {
    event = new EventForTools(type);
    try { defineProperty(event, 'toolName', { value: name, enumerable: true }); } catch (e) { /* ignore */ }
  }
  if (!eventsTarget) return;
  try { eventTargetDispatch(eventsTarget, event); } catch (e) { /* a listener threw */ }
}

function toolStarted(name) {
  const controller = AbortControllerForTools ? new AbortControllerForTools() : null;
  inFlight.toolCancel = controller ? () => { abortTool(controller); toolEvent('toolcancel', name); } : null;
  toolEvent('toolactivated', name);
  return controller ? signalOfTool(controller) : undefined;
}

let registerExport = null; // (tool) → its remover, or null: registers a tool with whichever WebMCP is used
const exportedTools = new SetCtor(); // the shim's tools that are Pling's exports

(function installWebMCP() {
  const removers = create(null);
  const tools = create(null); // name → the tool as registered (the shim's getTools/executeTool read it)
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
      timeoutMs: own(tool, 'timeoutMs'), // Pling's per-action budget, where a page gives its tool one
    }, 'action');
    if (!entry) return null;
    entry.description = typeof description === 'string' ? cut(description, WEBMCP_DESCRIPTION_MAX) : null;
    entry.title = typeof title === 'string' && title ? cut(title, 200) : null;
    entry.untrusted = own(annotations, 'untrustedContentHint') === true;
    entry.webmcp = true;
    entry.run = (args) => { // Pling calls the tool itself: toolactivated, and a signal its budget aborts
      const signal = toolStarted(name);
      return ReflectApply(execute, tool, [args, clientFor(name, signal)]); // interaction.js
    };
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
  const handlers = create(null); // event type → the on<type> handler
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
    const exposedTo = own(options, 'exposedTo');
    if (exposedTo !== undefined && !exposable(exposedTo)) {
      return rejected(new DOMExceptionCtor('exposedTo takes potentially trustworthy origins only', 'SecurityError'));
    }
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

  // exposedTo (the current specification): origins of other documents in the page's tree that may see the
  // tool. The shim checks them as the specification does (each a potentially trustworthy origin) and
  // otherwise has nothing to do: Pling reads the top document's tools, and no other agent sees the shim.
  function exposable(list) {
    if (!isArray(list)) return false;
    for (let i = 0; i < list.length; i++) {
      let url;
      try { url = new G.URL(StringCtor(list[i])); } catch (e) { return false; }
      const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
      if (!(url.protocol === 'https:' || url.protocol === 'wss:' || (url.protocol === 'http:' && local))) return false;
    }
    return true;
  }

  function unregisterTool(name) {
    if (!tools[name]) return;
    forget(name);
    toolchange();
  }

  function clearContext() {
    const names = keys(tools);
    let cleared = 0;
    for (let i = 0; i < names.length; i++) {
      if (setHas(exportedTools, tools[names[i]])) continue; // Pling's own exports (export.js) stay
      forget(names[i]);
      cleared += 1;
    }
    if (cleared) toolchange();
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
      const hints = own(tool, 'annotations');
      const annotations = { readOnlyHint: own(hints, 'readOnlyHint') === true, untrustedContentHint: own(hints, 'untrustedContentHint') === true,
        consequentialHint: own(hints, 'consequentialHint') === true };
      const info = { name: names[i], title: typeof title === 'string' ? title : '', description: own(tool, 'description'), annotations,
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
    const signal = toolStarted(name);
    return new PromiseCtor((resolve) => resolve(ReflectApply(own(tool, 'execute'), tool, [args, clientFor(name, signal)])))
      .then((value) => jsonStringify(value === undefined ? null : value));
  }

  function ModelContext() { throw new TypeError('Illegal constructor'); }
  ModelContext.prototype = create(EventTargetCtor.prototype);
  const methods = { registerTool, unregisterTool, provideContext, clearContext, getTools, executeTool };
  const names = keys(methods);
  for (let i = 0; i < names.length; i++) {
    defineProperty(ModelContext.prototype, names[i], { value: methods[names[i]], writable: true, configurable: true });
  }
  const types = ['toolchange', 'toolactivated', 'toolcancel'];
  for (let i = 0; i < types.length; i++) {
    const type = types[i];
    defineProperty(ModelContext.prototype, 'on' + type, {
      configurable: true,
      get: () => handlers[type] || null,
      set: (fnGiven) => {
        if (handlers[type]) try { ReflectApply(EventTargetCtor.prototype.removeEventListener, context, [type, handlers[type]]); } catch (e) { /* ignore */ }
        handlers[type] = typeof fnGiven === 'function' ? fnGiven : null;
        if (handlers[type]) eventTargetAddListener(context, type, handlers[type]);
      },
    });
  }
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
    eventsTarget = native;
    // export.js: the page's pling actions, registered with the browser itself (never learned back).
    registerExport = (tool) => {
      const controller = new AbortControllerCtor();
      try { promiseThen(ReflectApply(theirs, native, [tool, { signal: signalOf(controller) }]), undefined, () => {}); } catch (e) { return null; }
      return () => abortOf(controller);
    };
  } else {
    context = new EventTargetCtor();
    setPrototypeOf(context, ModelContext.prototype);
    try { defineProperty(Navigator.prototype, 'modelContext', { get: () => context, configurable: true }); } catch (e) { /* ignore */ }
    try { defineProperty(Document.prototype, 'modelContext', { get: () => context, configurable: true }); } catch (e) { /* ignore */ }
    webmcpSource = 'bridge';
    eventsTarget = context;
    registerExport = (tool) => {
      const name = tool.name;
      if (tools[name]) return null;
      tools[name] = tool;
      setAdd(exportedTools, tool);
      toolchange();
      return () => { if (tools[name] === tool) { delete tools[name]; toolchange(); } };
    };
  }
})();

// ---- declarative tools: <form toolname tooldescription> ---------------------------------------------
// Read from the form's attributes before every bridge call (`syncDeclarativeTools`), in both browsers:
// the form's named fields become params (`toolparamdescription`, else the field's label, describes
// each), run() fills them as a person's typing would (input and change events) and, with
// `toolautosubmit`, submits the form; the submit event then has `agentInvoked` and `respondWith(p)`, whose
// promise becomes the data. Without `toolautosubmit` the form is left filled for a person to check and submit.

const formQuery = uncurry(Document.prototype.querySelectorAll);
const formElements = getterOf(HTMLFormElement.prototype, 'elements');
const formRequestSubmit = uncurry(HTMLFormElement.prototype.requestSubmit);
const formCheckValidity = uncurry(HTMLFormElement.prototype.checkValidity);
const setInputValue = uncurry(Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set);
const setTextAreaValue = uncurry(Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set);
const setSelectValue = uncurry(Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set);
const setChecked = uncurry(Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked').set);
const getChecked = getterOf(HTMLInputElement.prototype, 'checked');
const inputType = getterOf(HTMLInputElement.prototype, 'type');
const controlName = (el) => { try { return elementGetAttribute(el, 'name'); } catch (e) { return null; } };
const declarativeForms = new G.Map();
const mapGet = uncurry(G.Map.prototype.get);
const mapSet = uncurry(G.Map.prototype.set);
const mapDelete = uncurry(G.Map.prototype.delete);
const mapForEach = uncurry(G.Map.prototype.forEach);
const EventCtorForForms = G.Event;

function fieldsOf(form) {
  const list = [];
  const elements = formElements(form);
  for (let i = 0; i < MathMin(elements.length, 200); i++) {
    const el = elements[i];
    const name = controlName(el);
    if (!name || elementHasAttribute(el, 'disabled')) continue;
    const tag = elementTagName(el);
    const type = tag === 'INPUT' ? inputType(el) : tag === 'SELECT' ? 'select' : tag === 'TEXTAREA' ? 'textarea' : null;
    if (!type || type === 'submit' || type === 'button' || type === 'reset' || type === 'image' || type === 'file' || type === 'hidden') continue;
    push(list, { el, name, type });
  }
  return list;
}

function labelOf(el) {
  const described = elementGetAttribute(el, 'toolparamdescription');
  if (described) return cut(described, 500);
  const labels = el.labels;
  const text = labels && labels.length ? StringCtor(labels[0].textContent || '').trim() : '';
  return text ? cut(text, 500) : null;
}

function schemaOf(form) {
  const properties = create(null);
  const required = [];
  const fields = fieldsOf(form);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    let prop = properties[f.name];
    if (f.type === 'radio') {
      if (!prop) { prop = properties[f.name] = { type: 'string', enum: [] }; }
      push(prop.enum, StringCtor(f.el.value));
    } else if (!prop) {
      if (f.type === 'checkbox') prop = { type: 'boolean' };
      else if (f.type === 'number' || f.type === 'range') {
        prop = { type: 'number' };
        const min = elementGetAttribute(f.el, 'min');
        const max = elementGetAttribute(f.el, 'max');
        if (min !== null && min !== '' && isFiniteNumber(+min)) prop.minimum = +min;
        if (max !== null && max !== '' && isFiniteNumber(+max)) prop.maximum = +max;
      } else if (f.type === 'select') {
        const values = [];
        const options = f.el.options;
        // A required select's empty option is its placeholder ("Select a reason"): never a valid answer.
        const placeholderOut = elementHasAttribute(f.el, 'required');
        for (let j = 0; j < MathMin(options.length, 200); j++) {
          const value = StringCtor(options[j].value);
          if (!(placeholderOut && value === '')) push(values, value);
        }
        prop = f.el.multiple ? { type: 'array', items: { type: 'string', enum: values } } : { type: 'string', enum: values };
      } else {
        prop = { type: 'string' };
        if (f.type === 'email') prop.format = 'email';
        const minLength = elementGetAttribute(f.el, 'minlength');
        const maxLength = elementGetAttribute(f.el, 'maxlength');
        if (minLength && isFiniteNumber(+minLength)) prop.minLength = +minLength;
        if (maxLength && isFiniteNumber(+maxLength)) prop.maxLength = +maxLength;
      }
      properties[f.name] = prop;
    }
    const description = labelOf(f.el);
    if (description && !prop.description) prop.description = description;
    if (elementHasAttribute(f.el, 'required') && strIndexOf('\u0000' + required.join('\u0000') + '\u0000', '\u0000' + f.name + '\u0000') < 0) push(required, f.name);
  }
  const schema = { type: 'object', properties };
  if (required.length) schema.required = required;
  return schema;
}

function fire(el, type) { eventTargetDispatch(el, new EventCtorForForms(type, { bubbles: true })); }

function fillForm(form, args) {
  const fields = fieldsOf(form);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (!args || !hasOwn(args, f.name)) continue;
    const value = args[f.name];
    if (f.type === 'checkbox') setChecked(f.el, value === true);
    else if (f.type === 'radio') setChecked(f.el, StringCtor(f.el.value) === StringCtor(value));
    else if (f.type === 'select') {
      if (f.el.multiple && isArray(value)) {
        const options = f.el.options;
        for (let j = 0; j < options.length; j++) options[j].selected = strIndexOf('\u0000' + value.join('\u0000') + '\u0000', '\u0000' + options[j].value + '\u0000') >= 0;
      } else setSelectValue(f.el, StringCtor(value));
    } else if (f.type === 'textarea') setTextAreaValue(f.el, StringCtor(value));
    else setInputValue(f.el, StringCtor(value));
    if (f.type !== 'radio' || getChecked(f.el)) { fire(f.el, 'input'); fire(f.el, 'change'); }
  }
}

async function runForm(form, args) {
  if (!nodeIsConnected(form)) throw new TypeError('The form is gone');
  fillForm(form, args);
  if (!elementHasAttribute(form, 'toolautosubmit')) {
    return { submitted: false, note: 'The form is filled; it has no toolautosubmit, so a person checks it and submits it.' };
  }
  if (!formCheckValidity(form)) {
    const fields = fieldsOf(form);
    for (let i = 0; i < fields.length; i++) {
      if (fields[i].el.validationMessage) throw new TypeError(fields[i].name + ': ' + fields[i].el.validationMessage);
    }
    throw new TypeError('The form is not valid');
  }
  let response;
  const marker = (event) => {
    if (event.target !== form) return;
    try {
      defineProperty(event, 'agentInvoked', { value: true, configurable: true });
      defineProperty(event, 'respondWith', { value: (promise) => { response = promise; }, configurable: true });
    } catch (e) { /* the event could not be marked */ }
  };
  eventTargetAddListener(G, 'submit', marker, { capture: true, once: true });
  try {
    formRequestSubmit(form);
  } finally {
    ReflectApply(EventTarget.prototype.removeEventListener, G, ['submit', marker, { capture: true }]);
  }
  if (response !== undefined) return await response;
  return undefined;
}

function syncDeclarativeTools() {
  if (!documentObject) return;
  const seen = new SetCtor();
  let forms;
  try { forms = formQuery(documentObject, 'form[toolname]'); } catch (e) { return; }
  for (let i = 0; i < MathMin(forms.length, 100); i++) {
    const form = forms[i];
    setAdd(seen, form);
    const name = elementGetAttribute(form, 'toolname');
    const description = elementGetAttribute(form, 'tooldescription');
    const known = mapGet(declarativeForms, form);
    if (!name || !description) { if (known) { known.remove(); mapDelete(declarativeForms, form); } continue; }
    const schema = schemaOf(form);
    const signature = name + '\u0000' + description + '\u0000' + jsonStringify(schema) + (elementHasAttribute(form, 'toolautosubmit') ? '1' : '0');
    if (known && known.signature === signature) continue;
    if (known) known.remove();
    const remove = declareAction({
      id: name,
      description: cut(description, WEBMCP_DESCRIPTION_MAX),
      params: schema,
      risk: 'write',
      run: (args) => runForm(form, args),
    });
    const entry = findAction(name);
    if (entry) { entry.description = cut(description, WEBMCP_DESCRIPTION_MAX); entry.webmcp = true; }
    mapSet(declarativeForms, form, { signature, remove });
  }
  const gone = [];
  mapForEach(declarativeForms, (value, form) => { if (!setHas(seen, form)) push(gone, form); });
  for (let i = 0; i < gone.length; i++) { mapGet(declarativeForms, gone[i]).remove(); mapDelete(declarativeForms, gone[i]); }
}
