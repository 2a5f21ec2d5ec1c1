// The official TypeScript MCP SDK against a running Pling service, driven by tests/test_mcp_typescript.py.
// usage: node client.mjs SERVICE_URL PAGE_URL [PROTOCOL_VERSION]
// Prints one JSON object: what the SDK saw (capabilities, results, the tool lists its listChanged
// handler refreshed). With PROTOCOL_VERSION, the client's initialize asks for that older version (the
// SDK always asks for its latest; a transport wrapper rewrites the request, as an older client sends it).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [serviceUrl, pageUrl, askedVersion] = process.argv.slice(2);
const DEADLINE_MS = 60000;

function olderClient(transport, version) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (message.method === 'initialize') {
      message = { ...message, params: { ...message.params, protocolVersion: version } };
    }
    return send(message, options);
  };
  return transport;
}

const out = { errors: [], step: 'connect' };
const refreshed = [];  // every tool list the SDK fetched because the server said the list changed
let listChangedErrors = 0;
const client = new Client({ name: 'pling-ts-test', version: '1.0.0' }, {
  listChanged: {
    tools: {
      onChanged: (error, tools) => {
        if (error) listChangedErrors += 1;
        else refreshed.push(tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema })));
      },
    },
  },
});
let transport = new StreamableHTTPClientTransport(new URL(serviceUrl + '/mcp'));
if (askedVersion) transport = olderClient(transport, askedVersion);

async function until(condition, what) {
  out.step = 'waiting for ' + what;
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > DEADLINE_MS) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

try {
  await client.connect(transport);
  out.protocolVersion = transport.protocolVersion;
  out.capabilities = client.getServerCapabilities();
  out.fixed = (await client.listTools()).tools.map((tool) => tool.name);

  const opened = await client.callTool({ name: 'open_page', arguments: { url: pageUrl } });
  const sid = opened.structuredContent.session.id;
  out.session = sid;
  // Opening a page adds its tools: the server says so, and the SDK refreshes its list by itself.
  await until(() => refreshed.some((tools) => tools.some((tool) => tool.name.endsWith('_add_todo'))), 'the page tools');
  const tools = refreshed[refreshed.length - 1];
  const tag = tools.find((tool) => tool.name.endsWith('_add_todo')).name.split('_')[0];
  out.tag = tag;
  out.refreshesBeforeAdd = refreshed.length;

  out.step = 'calling add_todo';
  const added = await client.callTool({ name: `${tag}_add_todo`, arguments: { text: 'Seen by the TypeScript SDK' } });
  out.added = { isError: added.isError ?? false, receipt: added.structuredContent };
  const newId = added.structuredContent.changed.records.task.added[0];
  // The new task is a record of the family `remove`: its tool's enum changed, so the list changed again.
  const hasNewId = (list) => {
    const remove = list.find((tool) => tool.name === `${tag}_remove`);
    return Boolean(remove && remove.inputSchema.properties.record.enum.includes(newId));
  };
  await until(() => refreshed.slice(out.refreshesBeforeAdd).some(hasNewId), 'the refreshed remove tool');
  out.newId = newId;
  out.refreshesAfterAdd = refreshed.length - out.refreshesBeforeAdd;

  out.step = 'calls';
  const unknown = await client.callTool({ name: 'invoke', arguments: { session: sid, action: 'no_such_action' } });
  out.unknown = { isError: unknown.isError ?? false, receipt: unknown.structuredContent, text: unknown.content[0].text };
  const invalid = await client.callTool({ name: `${tag}_add_todo`, arguments: { text: '' } });
  out.invalid = { isError: invalid.isError ?? false, receipt: invalid.structuredContent };
  const missing = await client.callTool({ name: 'read_model', arguments: { session: 's_nope' } });
  out.missing = { isError: missing.isError ?? false, text: missing.content[0].text };

  await client.callTool({ name: 'close_page', arguments: { session: sid } });
  const closedAt = refreshed.length;
  await until(() => refreshed.slice(closedAt).some((list) => !list.some((tool) => tool.name.startsWith(tag + '_'))),
    'the list without the closed page');
  out.goneAfterClose = true;
} catch (error) {
  out.errors.push(String(error && error.stack ? error.stack : error) + (error && error.cause ? ' (cause: ' + String(error.cause && error.cause.stack ? error.cause.stack : error.cause) + ')' : ''));
} finally {
  out.listChangedErrors = listChangedErrors;
  try { await client.close(); } catch (error) { out.errors.push('close: ' + String(error)); }
}
process.stdout.write(JSON.stringify(out) + '\n');
