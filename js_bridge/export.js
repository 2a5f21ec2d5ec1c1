// export.js: every action a page declares through `pling` is also a tool of the browser's WebMCP (the
// browser's own document.modelContext where it has one, else the bridge's shim; webmcp_browser.js or
// webmcp_shim.js sets `registerExport`), so any WebMCP agent (an in-browser one, Playwright's page.webmcp, Playwright MCP)
// sees the same model: the description, params as inputSchema (a family adds a `record` parameter),
// `readOnlyHint` for read actions, `consequentialHint` for danger ones. Tools the page registered with
// WebMCP itself are not exported back, and exports are never learned as WebMCP actions.
//
// Calling an exported tool does not run the page's code from here: the call goes to the controller
// (`tellController('call', …)`), which runs the action through its whole lifecycle (validation, a
// person's confirmation for danger, the receipt), and answers with the receipt (`toolAnswer`).

import {
  G, MathMin, PromiseCtor, answerOf, create, isArray, jsonParse, keys, push, regexTest, setTimer,
} from './prelude.js';
import { errorText, toJSON } from './bound.js';
import { registry, warn } from './declarations.js';
import { riskOf } from './registry.js';
import { tellController } from './interaction.js';
import { WEBMCP_NAME, registerExport } from './webmcp.js';

const exportsById = create(null); // action id → { signature, remove }
const toolCalls = create(null);
let toolCallSeq = 0;
let exportScheduled = false;
const DOMExceptionForExport = G.DOMException;

export function scheduleExport() {
  if (exportScheduled) return;
  exportScheduled = true;
  setTimer(() => {
    exportScheduled = false;
    try { exportActions(); } catch (e) { warn('webmcp export', errorText(e)); }
  }, 0);
}

function exportName(id) {
  let name = '';
  for (let i = 0; i < MathMin(id.length, 128); i++) {
    const c = id[i];
    name += regexTest(WEBMCP_NAME, c) ? c : '_';
  }
  return name;
}

function exportSchema(action) {
  const params = action.params && typeof action.params === 'object' && !isArray(action.params) ? jsonParse(toJSON(action.params)) : null;
  if (!action.record) return params || { type: 'object', properties: {} };
  const schema = params || { type: 'object' };
  const properties = schema.properties && typeof schema.properties === 'object' ? schema.properties : {};
  properties.record = { type: 'string', description: 'Which ' + action.record + ' (its id in the page model)' };
  schema.properties = properties;
  schema.required = push(isArray(schema.required) ? schema.required : [], 'record');
  return schema;
}

function exportTool(action, name, risk) {
  const annotations = risk === 'read' ? { readOnlyHint: true } : risk === 'danger' ? { consequentialHint: true } : {};
  return {
    name,
    description: action.description || action.id,
    inputSchema: exportSchema(action),
    annotations,
    execute: (input) => callThroughController(action, input),
  };
}

function callThroughController(action, input) {
  return new PromiseCtor((resolve, reject) => {
    const args = create(null);
    const given = input && typeof input === 'object' ? input : {};
    const names = keys(given);
    for (let i = 0; i < names.length; i++) if (!(action.record && names[i] === 'record')) args[names[i]] = given[names[i]];
    let ref = action.id;
    if (action.record) {
      if (typeof given.record !== 'string' || !given.record) { reject(new TypeError('record: which ' + action.record + ' (its id) is required')); return; }
      ref = action.id + '@' + given.record;
    }
    toolCallSeq += 1;
    const cid = 'x' + toolCallSeq;
    toolCalls[cid] = { resolve, reject };
    if (!tellController('call', { cid, action: ref, args })) {
      delete toolCalls[cid];
      reject(new DOMExceptionForExport('Pling is not driving this page: its actions run only through its controller', 'NotAllowedError'));
    }
  });
}

// The controller's answer to a call: {cid, receipt}. The receipt is the tool's result, a failed one
// too ({ok: false, error: {code, message, started}}): a rejection would reach the agent only as the
// browser's generic "the invocation failed".
export function answerToolCall(arg) {
  const pending = toolCalls[arg.cid];
  if (!pending) return answerOf({ ok: false, code: 'gone', error: 'No tool call ' + arg.cid + ' is waiting' });
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
    if (action.webmcp || action.kind === 'handoff') continue;
    const name = exportName(action.id);
    if (!name || seen[name]) continue;
    seen[name] = action.id;
    const risk = riskOf(action);
    const signature = name + '\u0000' + (action.description || '') + '\u0000' + risk + '\u0000' + (action.record || '') + '\u0000' + toJSON(action.params);
    const known = exportsById[name];
    if (known && known.signature === signature) continue;
    if (known) known.remove();
    const remove = registerExport(exportTool(action, name, risk));
    if (remove) exportsById[name] = { signature, remove };
    else delete exportsById[name];
  }
  const names = keys(exportsById);
  for (let i = 0; i < names.length; i++) {
    if (!seen[names[i]]) { exportsById[names[i]].remove(); delete exportsById[names[i]]; }
  }
}
