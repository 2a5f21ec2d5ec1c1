// ES module: pling-declare 0.1.0 (js/ in the Pling browser repository; MIT). Built file: edit js/src and run `make js`.
import { getCurrentInstance, getCurrentScope, onMounted, onScopeDispose, onUnmounted, toValue, watch } from "vue";
import * as core from "./index.js";
import { liveAction, liveFeedback, liveRecords, liveState, shapeOf, throughLatest } from "./live.js";
export * from "./index.js";
function useDeclaration(options, declare) {
  const latest = () => toValue(options);
  let remove = null;
  const start = () => {
    remove = declare(latest);
  };
  const stop = () => {
    const removed = remove ? remove() : false;
    remove = null;
    return removed;
  };
  if (getCurrentInstance()) {
    onMounted(start);
    onUnmounted(stop);
  } else {
    start();
    if (getCurrentScope()) onScopeDispose(stop);
  }
  watch(() => shapeOf(latest()), () => {
    if (remove) {
      stop();
      start();
    }
  });
  return stop;
}
function usePlingPage(declaration) {
  return useDeclaration(declaration, (latest) => core.page(throughLatest(latest)));
}
function usePlingRegion(declaration) {
  return useDeclaration(declaration, (latest) => core.region(throughLatest(latest)));
}
function usePlingRecords(declaration) {
  return useDeclaration(declaration, (latest) => core.records(liveRecords(() => {
    const options = latest();
    return { ...options, list: () => toValue(options.list) };
  })));
}
function usePlingState(declaration) {
  return useDeclaration(declaration, (latest) => core.state(liveState(() => {
    const options = latest();
    return options.get ? options : { ...options, get: () => toValue(options.value) };
  })));
}
function usePlingAction(declaration) {
  return useDeclaration(declaration, (latest) => core.action(liveAction(latest)));
}
function usePlingFlow(declaration) {
  return useDeclaration(declaration, (latest) => core.flow(liveAction(latest)));
}
function usePlingHandoff(declaration) {
  return useDeclaration(declaration, (latest) => core.handoff(liveAction(latest)));
}
function usePlingFeedback(items) {
  return useDeclaration({ items }, () => core.feedback(liveFeedback(() => toValue(items))));
}
export {
  usePlingAction,
  usePlingFeedback,
  usePlingFlow,
  usePlingHandoff,
  usePlingPage,
  usePlingRecords,
  usePlingRegion,
  usePlingState
};
