// ES module: pling-declare 0.1.0 (js/ in the Pling browser repository; MIT). Built file: edit js/src and run `make js`.
import { useEffect, useLayoutEffect, useRef } from "react";
import * as core from "./index.js";
import { liveAction, liveFeedback, liveRecords, liveState, shapeOf, throughLatest } from "./live.js";
export * from "./index.js";
const useCommitEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;
function useDeclaration(options, declare) {
  const ref = useRef(options);
  const latest = useRef(() => ref.current).current;
  useCommitEffect(() => {
    ref.current = options;
  });
  const shape = shapeOf(options);
  useCommitEffect(() => {
    const remove = declare(latest);
    return () => {
      remove();
    };
  }, [shape]);
}
function usePlingPage(declaration) {
  useDeclaration(declaration, (latest) => core.page(throughLatest(latest)));
}
function usePlingRegion(declaration) {
  useDeclaration(declaration, (latest) => core.region(throughLatest(latest)));
}
function usePlingRecords(declaration) {
  useDeclaration(declaration, (latest) => core.records(liveRecords(latest)));
}
function usePlingState(declaration) {
  useDeclaration(declaration, (latest) => core.state(liveState(latest)));
}
function usePlingAction(declaration) {
  useDeclaration(declaration, (latest) => core.action(liveAction(latest)));
}
function usePlingFlow(declaration) {
  useDeclaration(declaration, (latest) => core.flow(liveAction(latest)));
}
function usePlingHandoff(declaration) {
  useDeclaration(declaration, (latest) => core.handoff(liveAction(latest)));
}
function usePlingFeedback(items) {
  useDeclaration({ items }, (latest) => core.feedback(liveFeedback(() => latest().items)));
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
