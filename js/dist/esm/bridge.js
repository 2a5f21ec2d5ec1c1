// ES module: pling-declare 0.1.0 (js/ in the Pling browser repository; MIT). Built file: edit js/src and run `make js`.
function bridge() {
  const found = globalThis.pling;
  return found && typeof found === "object" && typeof found.action === "function" ? found : void 0;
}
const listeners = /* @__PURE__ */ new Set();
function declared() {
  listeners.forEach((listener) => {
    try {
      listener();
    } catch {
    }
  });
}
function onDeclared(listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
export {
  bridge,
  declared,
  onDeclared
};
