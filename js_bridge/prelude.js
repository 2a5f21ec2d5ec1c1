// prelude.js: builtins captured when the bridge installs, before any page script runs.
// A page may later patch Array.prototype, JSON, Promise or Map; nothing below looks them up again.
// The bridge also avoids syntax that consults patchable protocols: no spread in calls, no for-of
// over arrays, no array destructuring (each goes through Array.prototype[Symbol.iterator]).

const G = globalThis;
const ReflectApply = Reflect.apply;
const uncurry = (fn) => (self, ...args) => ReflectApply(fn, self, args);
const getterOf = (proto, name) => {
  const d = Object.getOwnPropertyDescriptor(proto, name);
  const get = d && d.get;
  return (self) => ReflectApply(get, self, []);
};

const create = Object.create;
const keys = Object.keys;
const defineProperty = Object.defineProperty;
const freeze = Object.freeze;
const setPrototypeOf = Object.setPrototypeOf;
const getOwnDescriptor = Object.getOwnPropertyDescriptor;
// An object the bridge resolves a promise with or awaits: without a prototype, so a `then` the page
// puts on Object.prototype is never looked up on it (resolving looks up `then`).
const answerOf = (o) => setPrototypeOf(o, null);
const hasOwn = uncurry(Object.prototype.hasOwnProperty);
const isArray = Array.isArray;
const jsonStringify = JSON.stringify;
const jsonParse = JSON.parse;
const StringCtor = String;
const isFiniteNumber = Number.isFinite;
const MathMin = Math.min;
const MathMax = Math.max;
const MathFloor = Math.floor;
const strSlice = uncurry(String.prototype.slice);
const strIndexOf = uncurry(String.prototype.indexOf);
const strToLowerCase = uncurry(String.prototype.toLowerCase);
const strCharCodeAt = uncurry(String.prototype.charCodeAt);
const strIsWellFormed = String.prototype.isWellFormed ? uncurry(String.prototype.isWellFormed) : null;
const strToWellFormed = String.prototype.toWellFormed ? uncurry(String.prototype.toWellFormed) : null;
const arraySort = uncurry(Array.prototype.sort);
const regexTest = uncurry(RegExp.prototype.test);
const SetCtor = Set;
const setAdd = uncurry(Set.prototype.add);
const setHas = uncurry(Set.prototype.has);
const setDelete = uncurry(Set.prototype.delete);
const PromiseCtor = Promise;
const promiseThen = uncurry(Promise.prototype.then);
const dateGetTime = uncurry(Date.prototype.getTime);
const dateToISOString = uncurry(Date.prototype.toISOString);
const Uint8ArrayCtor = Uint8Array;
const getRandomValues = uncurry(Crypto.prototype.getRandomValues);
const cryptoObject = G.crypto;

const nativeSetTimeout = G.setTimeout;
const nativeClearTimeout = G.clearTimeout;
const nativeSetInterval = G.setInterval;
const nativeClearInterval = G.clearInterval;
const nativeRequestAnimationFrame = G.requestAnimationFrame;
const setTimer = (fn, ms) => ReflectApply(nativeSetTimeout, G, [fn, ms]);
const clearTimer = (id) => ReflectApply(nativeClearTimeout, G, [id]);
const setRepeat = (fn, ms) => ReflectApply(nativeSetInterval, G, [fn, ms]);
const clearRepeat = (id) => ReflectApply(nativeClearInterval, G, [id]);
const performanceNow = uncurry(Performance.prototype.now);
const performanceObject = G.performance;
const now = () => performanceNow(performanceObject);

const MutationObserverCtor = G.MutationObserver;
const observerObserve = uncurry(MutationObserver.prototype.observe);
const observerDisconnect = uncurry(MutationObserver.prototype.disconnect);
const MessageChannelCtor = G.MessageChannel;
const portPostMessage = uncurry(MessagePort.prototype.postMessage);
const portOnMessageSet = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage').set;

const documentObject = G.document;
const nodeType = getterOf(Node.prototype, 'nodeType');
const nodeIsConnected = getterOf(Node.prototype, 'isConnected');
const elementTagName = getterOf(Element.prototype, 'tagName');
const elementId = getterOf(Element.prototype, 'id');
const elementGetAttribute = uncurry(Element.prototype.getAttribute);
const elementHasAttribute = uncurry(Element.prototype.hasAttribute);
const elementMatches = uncurry(Element.prototype.matches);
const nodeGetRootNode = uncurry(Node.prototype.getRootNode);
const nodeParentNode = getterOf(Node.prototype, 'parentNode');
const nodeOwnerDocument = getterOf(Node.prototype, 'ownerDocument');
const shadowRootMode = getterOf(ShadowRoot.prototype, 'mode');
const shadowRootHost = getterOf(ShadowRoot.prototype, 'host');
const elementQuerySelectorAll = uncurry(Element.prototype.querySelectorAll);
const elementGetBoundingClientRect = uncurry(Element.prototype.getBoundingClientRect);
const elementIsContentEditable = getterOf(HTMLElement.prototype, 'isContentEditable');
const nativeGetComputedStyle = G.getComputedStyle;
const styleGetPropertyValue = uncurry(CSSStyleDeclaration.prototype.getPropertyValue);
const eventTargetDispatch = uncurry(EventTarget.prototype.dispatchEvent);
const eventTargetAddListener = uncurry(EventTarget.prototype.addEventListener);
const MouseEventCtor = G.MouseEvent;
const PointerEventCtor = G.PointerEvent || G.MouseEvent;
const documentTitle = getterOf(Document.prototype, 'title');
const locationHref = () => { try { return StringCtor(G.location.href); } catch (e) { return ''; } };

// Array helpers that never touch Array.prototype.
const push = (arr, value) => { arr[arr.length] = value; return arr; };
