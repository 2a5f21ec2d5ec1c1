// ES module: pling-declare 0.1.0 (js/ in the Pling browser repository; MIT). Built file: edit js/src and run `make js`.
import { bridge, declared } from "./bridge.js";
import { startDevCheck } from "./devcheck.js";
const nothing = () => false;
function declare(kind, declaration) {
  const found = bridge();
  if (!found) return nothing;
  const remove = found[kind](declaration);
  declared();
  return () => {
    const removed = typeof remove === "function" ? remove() : false;
    declared();
    return removed;
  };
}
function page(declaration) {
  return declare("page", declaration);
}
function region(declaration) {
  return declare("region", declaration);
}
function records(declaration) {
  return declare("records", declaration);
}
function state(declaration) {
  return declare("state", declaration);
}
function action(declaration) {
  return declare("action", declaration);
}
function flow(declaration) {
  return declare("flow", declaration);
}
function handoff(declaration) {
  return declare("handoff", declaration);
}
function feedback(source) {
  return declare("feedback", source);
}
const pling = { page, region, records, state, action, flow, handoff, feedback };
function defineAction(declaration) {
  return declaration;
}
function defineFlow(declaration) {
  return declaration;
}
export {
  action,
  bridge,
  defineAction,
  defineFlow,
  feedback,
  flow,
  handoff,
  page,
  pling,
  records,
  region,
  startDevCheck,
  state
};
