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

import {
  G, ReflectApply, SetCtor, create, defineProperty, eventTargetDispatch, getterOf, uncurry,
} from './prelude.js';
import { cut } from './bound.js';
import { own, registry } from './declarations.js';
import { add, commonAction } from './registry.js';
import { clientFor } from './interaction.js';
import { inFlight } from './reveal.js';

export const WEBMCP_DESCRIPTION_MAX = 4000;
export const WEBMCP_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
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

export function toolStarted(name) {
  const controller = AbortControllerForTools ? new AbortControllerForTools() : null;
  inFlight.toolCancel = controller ? () => { abortTool(controller); toolEvent('toolcancel', name); } : null;
  toolEvent('toolactivated', name);
  return controller ? signalOfTool(controller) : undefined;
}

export let registerExport = null; // (tool) → its remover, or null: registers a tool with whichever WebMCP is used
let webmcpSource = 'none'; // whose WebMCP the page's tools go to: 'browser', 'bridge' (the shim), 'none'

// The WebMCP in use, chosen once at install (webmcp_browser.js): whose it is, where the tool events
// fire, and how export.js registers a tool with it.
export function useWebMCP(source, events, register) {
  webmcpSource = source;
  eventsTarget = events;
  registerExport = register;
}
export const exportedTools = new SetCtor(); // the shim's tools that are Pling's exports
export const webmcpTools = create(null); // name → the tool as registered (the shim's getTools/executeTool read it)
const toolRemovers = create(null); // name → what takes its action out of the registry
export const signalAborted = G.AbortSignal ? getterOf(G.AbortSignal.prototype, 'aborted') : null;
export const signalReason = G.AbortSignal ? getterOf(G.AbortSignal.prototype, 'reason') : null;

// The tool as a Pling action (none when it is malformed: the reason is a problem in the model).
export function learnTool(tool) {
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
  if (toolRemovers[name]) toolRemovers[name]();
  toolRemovers[name] = add(registry.actions, entry, 'id');
  return entry;
}

export function forgetTool(name) {
  if (toolRemovers[name]) { toolRemovers[name](); delete toolRemovers[name]; }
  delete webmcpTools[name];
}
