import {
  FLOW_MENU_MAX_RETRIES,
  type TFlowNode,
  type TFlowNodeType,
  type TFlowOpenAiSettings,
  type TFlowRunStatus,
  type TFlowTypebotSettings,
} from '@zelo/shared';
import { conditionHolds, menuText, nextNode, pickOption, type TGraph } from './graph';

/**
 * The flow engine's decisions, without I/O: from a run's state and what happened (the run starts, the
 * customer answered, an interval is due) to the steps executed, the messages to send (in order) and the
 * new state. It follows edges from the start node, keeps every variable, and stops on a node that waits
 * (menu, question, interval, OpenAI, Typebot), at the end of the flow, or at the step cap (a cycle).
 * The runner (runner.ts) applies the result under the run's row lock and sends after the commit.
 */

export type TRunWait = 'answer' | 'interval' | 'bot';

export type TWalkState = {
  status: TFlowRunStatus;
  wait: TRunWait | null;
  /** the node waited on, or null before the start */
  nodeId: string | null;
  variables: Record<string, string>;
  /**
   * unknown answers to the menu waited on; for a content block waiting on one of its intervals, the index
   * (in its order) of the element it goes on with
   */
  retries: number;
};

export type TWalkInput = { kind: 'start'; body?: string } | { kind: 'answer'; body: string } | { kind: 'due' };

export type TMediaKind = 'image' | 'audio' | 'video';

export type TAction =
  | { type: 'text'; body: string }
  | { type: 'media'; file: string; kind: TMediaKind; record: boolean }
  | { type: 'sleep'; ms: number }
  | { type: 'ai'; settings: TFlowOpenAiSettings; body: string; nodeId: string }
  | { type: 'typebot'; settings: TFlowTypebotSettings; body: string };

export type TStep = { nodeId: string | null; nodeType: TFlowNodeType | null; status: TFlowRunStatus; reason?: string };

/** where the ticket goes when the flow hands it over */
export type THandover = { kind: 'queue'; queueId: number } | { kind: 'connection' };

export type TWalkResult = {
  state: TWalkState;
  steps: TStep[];
  actions: TAction[];
  handover?: THandover;
  /** an interval started: the run goes on after this many seconds */
  resumeInSeconds?: number;
  reason?: string;
};

export type TWalkOptions = {
  /** 0..1; the randomizer's draw */
  rng: () => number;
  /** the content block's typing delay before each text (ms) and the gap between its elements (ms) */
  typingMs: number;
  gapMs: number;
  /** most nodes executed for one event (a cycle without a waiting node ends here) */
  stepCap: number;
};

const MEDIA: Record<string, TMediaKind> = { img: 'image', audio: 'audio', video: 'video' };

const asBool = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';

export const walk = (graph: TGraph, before: TWalkState, input: TWalkInput, opts: TWalkOptions): TWalkResult => {
  const state: TWalkState = { ...before, variables: { ...before.variables } };
  const steps: TStep[] = [];
  const actions: TAction[] = [];
  const result: TWalkResult = { state, steps, actions };

  const end = (status: 'done' | 'failed', reason: string | undefined, node: TFlowNode | null) => {
    state.status = status;
    state.wait = null;
    result.reason = reason;
    steps.push({ nodeId: node?.id ?? null, nodeType: node?.type ?? null, status, reason });

    return result;
  };
  const park = (node: TFlowNode, wait: TRunWait) => {
    state.status = 'waiting';
    state.wait = wait;
    state.nodeId = node.id;
    steps.push({ nodeId: node.id, nodeType: node.type, status: 'waiting' });

    return result;
  };

  /**
   * a content block's elements in their order from `from`, with the typing delay before each text and the gap
   * between elements (short in-process pauses); an interval element parks the run like an interval node
   * (restart-safe: the state says where the block goes on). Answers whether the run parked.
   */
  const block = (node: Extract<TFlowNode, { type: 'singleBlock' }>, from: number) => {
    const byNumber = new Map(node.data.elements.map((e) => [e.number, e]));
    const order = node.data.seq.length > 0 ? node.data.seq : node.data.elements.map((e) => e.number);
    for (let i = from; i < order.length; i++) {
      const el = byNumber.get(order[i]!);
      if (!el) continue;
      if (i > 0 && opts.gapMs > 0) actions.push({ type: 'sleep', ms: opts.gapMs });
      if (el.type === 'message') {
        if (opts.typingMs > 0) actions.push({ type: 'sleep', ms: opts.typingMs });
        if (String(el.value).trim()) actions.push({ type: 'text', body: String(el.value) });
      } else if (el.type === 'interval') {
        const sec = Math.min(120, Math.max(0, Number(el.value) || 0));
        if (sec > 0) {
          result.resumeInSeconds = sec;
          park(node, 'interval');
          state.retries = i + 1;
          return true;
        }
      } else if (String(el.value).trim()) {
        actions.push({ type: 'media', file: String(el.value), kind: MEDIA[el.type]!, record: asBool(el.record) });
      }
    }

    return false;
  };

  let current: TFlowNode | null = null;
  let next: ReturnType<typeof nextNode>;

  // 1. where the walk starts
  if (input.kind === 'start') {
    if (!graph.start) return end('failed', 'no-start', null);
    current = graph.start;
    next = { kind: 'node', node: graph.start };
  } else {
    const waiting = state.nodeId ? graph.nodes.get(state.nodeId) : undefined;
    if (!waiting) return end('failed', 'node-missing', null);
    current = waiting;
    if (input.kind === 'due') {
      if (state.wait !== 'interval') return result;
      if (waiting.type === 'singleBlock' && state.retries > 0) {
        // the rest of a content block after its interval
        const from = state.retries;
        Object.assign(state, { retries: 0, wait: null, status: 'running' });
        if (block(waiting, from)) return result;
        steps.push({ nodeId: waiting.id, nodeType: waiting.type, status: 'running' });
      }
      next = nextNode(graph, waiting.id);
    } else if (state.wait === 'bot') {
      // a parked OpenAI / Typebot node answers every message while the ticket has no queue
      if (waiting.type === 'openai')
        actions.push({ type: 'ai', settings: waiting.data.typebotIntegration, body: input.body, nodeId: waiting.id });
      if (waiting.type === 'typebot') {
        actions.push({ type: 'typebot', settings: waiting.data.typebotIntegration, body: input.body });
      }
      steps.push({ nodeId: waiting.id, nodeType: waiting.type, status: 'waiting' });
      return result;
    } else if (waiting.type === 'question') {
      state.variables[waiting.data.typebotIntegration.answerKey.trim()] = input.body.trim();
      next = nextNode(graph, waiting.id);
    } else if (waiting.type === 'menu') {
      const option = pickOption(waiting, input.body);
      if (!option) {
        if (state.retries >= FLOW_MENU_MAX_RETRIES) {
          result.handover = { kind: 'connection' };
          return end('done', 'menu-retries', waiting);
        }
        state.retries += 1;
        actions.push({ type: 'text', body: menuText(waiting) });
        steps.push({ nodeId: waiting.id, nodeType: waiting.type, status: 'waiting', reason: 'menu-repeat' });
        return result;
      }
      next = nextNode(graph, waiting.id, `a${option.number}`);
    } else {
      // waiting on a node that does not wait (a document changed under the run): go on from it
      next = nextNode(graph, waiting.id);
    }
    state.retries = 0;
    state.wait = null;
    state.status = 'running';
  }

  // 2. execute nodes until one waits or the flow ends
  for (let executed = 0; ; executed++) {
    if (next.kind === 'end') return end('done', undefined, current);
    if (next.kind === 'dangling') return end('failed', 'dangling-edge', current);
    if (executed >= opts.stepCap) return end('failed', 'step-cap', current);
    const node: TFlowNode = next.node;
    current = node;
    state.nodeId = node.id;
    state.status = 'running';
    state.wait = null;
    let handle: string | undefined;

    switch (node.type) {
      case 'start':
      case 'condition':
        if (node.type === 'condition') {
          const key = (node.data.key ?? '').trim();
          handle = conditionHolds(state.variables[key], node.data.condition, node.data.value) ? 'a' : 'b';
        }
        break;
      case 'message':
        if (node.data.label.trim()) actions.push({ type: 'text', body: node.data.label });
        break;
      case 'img':
      case 'audio':
      case 'video':
        actions.push({
          type: 'media',
          file: node.data.url,
          kind: MEDIA[node.type]!,
          record: node.type !== 'img' && asBool((node.data as { record?: unknown }).record),
        });
        break;
      case 'singleBlock':
        if (block(node, 0)) return result;
        break;
      case 'interval':
        result.resumeInSeconds = node.data.sec;
        return park(node, 'interval');
      case 'menu':
        actions.push({ type: 'text', body: menuText(node) });
        state.retries = 0;
        return park(node, 'answer');
      case 'question':
        actions.push({ type: 'text', body: node.data.typebotIntegration.message });
        return park(node, 'answer');
      case 'randomizer':
        handle = opts.rng() * 100 < node.data.percent ? 'a' : 'b';
        break;
      case 'ticket':
        result.handover = { kind: 'queue', queueId: node.data.data.id };
        return end('done', 'handover', node);
      case 'openai': {
        const body = input.kind === 'due' ? '' : (input.body ?? '');
        actions.push({ type: 'ai', settings: node.data.typebotIntegration, body, nodeId: node.id });
        return park(node, 'bot');
      }
      case 'typebot': {
        const body = input.kind === 'due' ? '' : (input.body ?? '');
        actions.push({ type: 'typebot', settings: node.data.typebotIntegration, body });
        return park(node, 'bot');
      }
    }
    steps.push({ nodeId: node.id, nodeType: node.type, status: 'running' });
    next = nextNode(graph, node.id, handle);
  }
};
