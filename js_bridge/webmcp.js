// webmcp.js: tools a page registers with WebMCP (`navigator.modelContext.registerTool`, and
// `document.modelContext` as newer drafts name it) become function actions: inputSchema → params,
// annotations.readOnlyHint → risk read (else write), the tool's result → bounded data. When the browser
// has its own WebMCP, its object is kept and its methods are wrapped, so the page still registers with
// the browser; otherwise the bridge provides the API itself.

(function installWebMCP() {
  const removers = create(null);
  const agent = freeze({ requestUserInteraction: (callback) => new PromiseCtor((resolve) => resolve(callback())) });

  function registerTool(tool) {
    const name = own(tool, 'name');
    const execute = own(tool, 'execute');
    if (typeof name !== 'string' || typeof execute !== 'function') {
      warn('webmcp', 'registerTool needs a name and an execute function');
      return;
    }
    if (removers[name]) removers[name]();
    const annotations = own(tool, 'annotations');
    const readOnly = own(annotations, 'readOnlyHint') === true;
    removers[name] = declareAction({
      id: name,
      description: own(tool, 'description'),
      params: own(tool, 'inputSchema'),
      risk: readOnly ? 'read' : 'write',
      run: (args) => ReflectApply(execute, tool, [args, agent]),
    });
  }

  function unregisterTool(name) {
    if (removers[name]) { removers[name](); delete removers[name]; }
  }

  function clearContext() {
    const names = keys(removers);
    for (let i = 0; i < names.length; i++) unregisterTool(names[i]);
  }

  function provideContext(context) {
    clearContext();
    const tools = own(context, 'tools');
    if (isArray(tools)) for (let i = 0; i < tools.length; i++) registerTool(tools[i]);
  }

  const mine = { registerTool, unregisterTool, provideContext, clearContext };
  let navigatorObject = null;
  try { navigatorObject = G.navigator; } catch (e) { navigatorObject = null; }
  let native = null;
  try { native = navigatorObject && navigatorObject.modelContext; } catch (e) { native = null; }
  if (native && typeof native.registerTool === 'function') {
    // The browser's own WebMCP: keep it, and learn what the page registers with it.
    const names = keys(mine);
    for (let i = 0; i < names.length; i++) {
      const ours = mine[names[i]];
      const theirs = native[names[i]];
      try {
        native[names[i]] = function () {
          try { ReflectApply(ours, undefined, arguments); } catch (e) { /* the page's call must still reach the browser */ }
          return typeof theirs === 'function' ? ReflectApply(theirs, native, arguments) : undefined;
        };
      } catch (e) { /* a frozen native object: its tools stay the browser's alone */ }
    }
    webmcpSource = 'browser';
  } else {
    const shim = freeze(mine);
    try { defineProperty(Navigator.prototype, 'modelContext', { get: () => shim, configurable: true }); } catch (e) { /* ignore */ }
    try { defineProperty(Document.prototype, 'modelContext', { get: () => shim, configurable: true }); } catch (e) { /* ignore */ }
    webmcpSource = 'bridge';
  }
})();
