import type { TFlowRunStatus, TFlowRunStepEvent } from '@zelo/shared';
import type { TNodeRunState } from '../editor/editorContext';

/*
 * What the test run shows of a run: each node's state on the canvas, the variables collected so far, the run's
 * status and its steps — folded from the run-step events (and from the run's stored log, which may come first).
 */

export type TRunStep = Pick<TFlowRunStepEvent, 'nodeId' | 'status' | 'at'> & {
  nodeType: string | null;
  reason?: string | null;
};

export type TRunView = {
  states: Record<string, TNodeRunState>;
  variables: Record<string, string>;
  status: TFlowRunStatus | null;
  steps: TRunStep[];
};

export const emptyRunView = (): TRunView => ({ states: {}, variables: {}, status: null, steps: [] });

const sameStep = (a: TRunStep, b: TRunStep) => a.nodeId === b.nodeId && a.status === b.status && a.at === b.at;

/**
 * One more step: the node takes the step's state; a node that was running and is not this one has finished.
 * The run's end marks whatever still runs as done (or failed). A step already seen changes nothing.
 */
export const applyRunStep = (view: TRunView, step: TRunStep & { variables?: Record<string, string> }): TRunView => {
  if (view.steps.some((s) => sameStep(s, step))) {
    return view;
  }
  const states: Record<string, TNodeRunState> = {};
  for (const [id, state] of Object.entries(view.states)) {
    states[id] = state === 'running' || state === 'waiting' ? 'done' : state;
  }
  if (step.nodeId) {
    states[step.nodeId] = step.status;
  }
  const steps = [
    ...view.steps,
    { nodeId: step.nodeId, nodeType: step.nodeType, status: step.status, at: step.at, reason: step.reason },
  ];

  return {
    states,
    variables: step.variables ? { ...view.variables, ...step.variables } : view.variables,
    status: step.status,
    steps,
  };
};

/** the last failed step, when the run or one of its nodes failed (the panel tells why) */
export const lastFailure = (view: TRunView): TRunStep | null =>
  [...view.steps].reverse().find((s) => s.status === 'failed') ?? null;
