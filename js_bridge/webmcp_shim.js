// webmcp_shim.js: the bridge's own ModelContext, where the browser has no WebMCP (a build without it,
// PLING_BROWSER_WEBMCP=0, a remote browser without the flag): the current specification's API on
// `document.modelContext` and the legacy `navigator.modelContext` (webmcp.js says what a tool becomes).

import {
  G, PromiseCtor, ReflectApply, StringCtor, create, defineProperty, eventTargetAddListener,
  eventTargetDispatch, isArray, jsonParse, jsonStringify, keys, push, regexTest, setAdd, setHas,
  setPrototypeOf, setTimer,
} from './prelude.js';
import { own, warn } from './declarations.js';
import { clientFor } from './interaction.js';
import {
  WEBMCP_NAME, exportedTools, forgetTool, learnTool, signalAborted, signalReason, toolStarted, useWebMCP,
  webmcpTools,
} from './webmcp.js';

const DOMExceptionCtor = G.DOMException;
const EventCtor = G.Event;
const EventTargetCtor = G.EventTarget;

const rejected = (error) => new PromiseCtor((resolve, reject) => reject(error));

function invalid(message) {
  warn('webmcp', message);
  return new DOMExceptionCtor(message, 'InvalidStateError');
}

// The shim's ModelContext, once installed, and its on<type> handlers (event type → handler).
let context = null;
const eventHandlers = create(null);
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
  if (webmcpTools[name]) return invalid('A tool named ' + name + ' is already registered');
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
  if (signal && signalAborted && signalAborted(signal)) return rejected(signalReason(signal));
  const exposedTo = own(options, 'exposedTo');
  if (exposedTo !== undefined && !exposable(exposedTo)) {
    return rejected(new DOMExceptionCtor('exposedTo takes potentially trustworthy origins only', 'SecurityError'));
  }
  const name = own(tool, 'name');
  webmcpTools[name] = tool;
  learnTool(tool);
  toolchange();
  if (signal && typeof signal === 'object') {
    try {
      eventTargetAddListener(signal, 'abort', () => {
        if (webmcpTools[name] !== tool) return;
        forgetTool(name);
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
  if (!webmcpTools[name]) return;
  forgetTool(name);
  toolchange();
}

function clearContext() {
  const names = keys(webmcpTools);
  let cleared = 0;
  for (let i = 0; i < names.length; i++) {
    if (setHas(exportedTools, webmcpTools[names[i]])) continue; // Pling's own exports (export.js) stay
    forgetTool(names[i]);
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
  const names = keys(webmcpTools);
  const list = [];
  for (let i = 0; i < names.length; i++) {
    const tool = webmcpTools[names[i]];
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
  const tool = typeof name === 'string' ? webmcpTools[name] : undefined;
  if (!tool) return rejected(new DOMExceptionCtor('No tool named ' + name + ' is registered', 'NotFoundError'));
  if (input !== undefined && (input === null || typeof input !== 'object')) return rejected(new TypeError('invalid input object: value is not an object'));
  const args = input === undefined ? {} : input;
  const signal = toolStarted(name);
  return new PromiseCtor((resolve) => resolve(ReflectApply(own(tool, 'execute'), tool, [args, clientFor(name, signal)])))
    .then((value) => jsonStringify(value === undefined ? null : value));
}

// The ModelContext interface: not constructible from script, the methods and on<type> handlers on its
// prototype, as a browser's own interface object has them.
function modelContextInterface() {
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
      get: () => eventHandlers[type] || null,
      set: (fnGiven) => {
        if (eventHandlers[type]) try { ReflectApply(EventTargetCtor.prototype.removeEventListener, context, [type, eventHandlers[type]]); } catch (e) { /* ignore */ }
        eventHandlers[type] = typeof fnGiven === 'function' ? fnGiven : null;
        if (eventHandlers[type]) eventTargetAddListener(context, type, eventHandlers[type]);
      },
    });
  }
  defineProperty(ModelContext.prototype, 'constructor', { value: ModelContext, configurable: true, writable: true });
  return ModelContext;
}

export function installWebMCPShim() {
  const ModelContext = modelContextInterface();
  context = new EventTargetCtor();
  setPrototypeOf(context, ModelContext.prototype);
  try { defineProperty(Navigator.prototype, 'modelContext', { get: () => context, configurable: true }); } catch (e) { /* ignore */ }
  try { defineProperty(Document.prototype, 'modelContext', { get: () => context, configurable: true }); } catch (e) { /* ignore */ }
  useWebMCP('bridge', context, (tool) => {
    const name = tool.name;
    if (webmcpTools[name]) return null;
    webmcpTools[name] = tool;
    setAdd(exportedTools, tool);
    toolchange();
    return () => { if (webmcpTools[name] === tool) { delete webmcpTools[name]; toolchange(); } };
  });
}
