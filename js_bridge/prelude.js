// prelude.js: builtins captured when the bridge installs, before any page script runs.
// A page may later patch Array.prototype, JSON, Promise or Map; nothing below looks them up again.
// The bridge also avoids syntax that consults patchable protocols: no spread in calls, no for-of
// over arrays, no array destructuring (each goes through Array.prototype[Symbol.iterator]).

export const G = globalThis;
export const ReflectApply = Reflect.apply;
export const uncurry = (fn) => (self, ...args) => ReflectApply(fn, self, args);
export const getterOf = (proto, name) => {
  const d = Object.getOwnPropertyDescriptor(proto, name);
  const get = d && d.get;
  return (self) => ReflectApply(get, self, []);
};

export const create = Object.create;
export const keys = Object.keys;
export const defineProperty = Object.defineProperty;
export const freeze = Object.freeze;
export const setPrototypeOf = Object.setPrototypeOf;
export const getOwnDescriptor = Object.getOwnPropertyDescriptor;
// An object the bridge resolves a promise with or awaits: without a prototype, so a `then` the page
// puts on Object.prototype is never looked up on it (resolving looks up `then`).
export const answerOf = (o) => setPrototypeOf(o, null);
export const hasOwn = uncurry(Object.prototype.hasOwnProperty);
export const ObjectPrototype = Object.prototype;
export const ArrayPrototype = Array.prototype;
export const getPrototypeOf = Object.getPrototypeOf;
export const isArray = Array.isArray;
export const jsonStringify = JSON.stringify;
export const jsonParse = JSON.parse;
export const StringCtor = String;
export const isFiniteNumber = Number.isFinite;
export const MathMin = Math.min;
export const MathMax = Math.max;
export const MathFloor = Math.floor;
export const strSlice = uncurry(String.prototype.slice);
export const strIndexOf = uncurry(String.prototype.indexOf);
export const strToLowerCase = uncurry(String.prototype.toLowerCase);
export const strCharCodeAt = uncurry(String.prototype.charCodeAt);
export const strIsWellFormed = String.prototype.isWellFormed ? uncurry(String.prototype.isWellFormed) : null;
export const strToWellFormed = String.prototype.toWellFormed ? uncurry(String.prototype.toWellFormed) : null;
const arraySort = uncurry(Array.prototype.sort);
export const regexTest = uncurry(RegExp.prototype.test);
export const SetCtor = Set;
export const setAdd = uncurry(Set.prototype.add);
export const setHas = uncurry(Set.prototype.has);
export const setDelete = uncurry(Set.prototype.delete);
export const PromiseCtor = Promise;
export const promiseThen = uncurry(Promise.prototype.then);
export const dateGetTime = uncurry(Date.prototype.getTime);
export const dateToISOString = uncurry(Date.prototype.toISOString);
export const Uint8ArrayCtor = Uint8Array;
export const getRandomValues = uncurry(Crypto.prototype.getRandomValues);
export const cryptoObject = G.crypto;

const nativeSetTimeout = G.setTimeout;
const nativeClearTimeout = G.clearTimeout;
const nativeSetInterval = G.setInterval;
const nativeClearInterval = G.clearInterval;
export const nativeRequestAnimationFrame = G.requestAnimationFrame;
export const setTimer = (fn, ms) => ReflectApply(nativeSetTimeout, G, [fn, ms]);
export const clearTimer = (id) => ReflectApply(nativeClearTimeout, G, [id]);
export const setRepeat = (fn, ms) => ReflectApply(nativeSetInterval, G, [fn, ms]);
export const clearRepeat = (id) => ReflectApply(nativeClearInterval, G, [id]);
const performanceNow = uncurry(Performance.prototype.now);
const performanceObject = G.performance;
export const now = () => performanceNow(performanceObject);

export const MutationObserverCtor = G.MutationObserver;
export const observerObserve = uncurry(MutationObserver.prototype.observe);
export const observerDisconnect = uncurry(MutationObserver.prototype.disconnect);
export const MessageChannelCtor = G.MessageChannel;
export const portPostMessage = uncurry(MessagePort.prototype.postMessage);
export const portOnMessageSet = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage').set;

export const documentObject = G.document;
export const nodeType = getterOf(Node.prototype, 'nodeType');
export const nodeIsConnected = getterOf(Node.prototype, 'isConnected');
export const elementTagName = getterOf(Element.prototype, 'tagName');
export const elementId = getterOf(Element.prototype, 'id');
export const elementGetAttribute = uncurry(Element.prototype.getAttribute);
export const elementHasAttribute = uncurry(Element.prototype.hasAttribute);
export const elementMatches = uncurry(Element.prototype.matches);
export const nodeGetRootNode = uncurry(Node.prototype.getRootNode);
export const nodeParentNode = getterOf(Node.prototype, 'parentNode');
export const nodeOwnerDocument = getterOf(Node.prototype, 'ownerDocument');
export const shadowRootMode = getterOf(ShadowRoot.prototype, 'mode');
export const shadowRootHost = getterOf(ShadowRoot.prototype, 'host');
export const elementQuerySelectorAll = uncurry(Element.prototype.querySelectorAll);
export const elementGetBoundingClientRect = uncurry(Element.prototype.getBoundingClientRect);
export const elementIsContentEditable = getterOf(HTMLElement.prototype, 'isContentEditable');
export const nativeGetComputedStyle = G.getComputedStyle;
export const styleGetPropertyValue = uncurry(CSSStyleDeclaration.prototype.getPropertyValue);
export const eventTargetDispatch = uncurry(EventTarget.prototype.dispatchEvent);
export const eventTargetAddListener = uncurry(EventTarget.prototype.addEventListener);
export const MouseEventCtor = G.MouseEvent;
export const PointerEventCtor = G.PointerEvent || G.MouseEvent;
export const documentTitle = getterOf(Document.prototype, 'title');
export const locationHref = () => { try { return StringCtor(G.location.href); } catch (e) { return ''; } };

// Array helpers that never touch Array.prototype.
export const push = (arr, value) => { arr[arr.length] = value; return arr; };
