import type { Edge, Node } from '@xyflow/react';
import {
  FLOW_DUPLICATE_OFFSET,
  FLOW_NEW_NODE_GAP,
  FLOW_NODE_ID_LENGTH,
  FLOW_NODE_TYPES,
  FLOW_START_LABEL,
  FLOW_START_NODE_ID,
  FLOW_START_POSITION,
  type TFlowNodeType,
} from '@zelo/shared';

/*
 * The flow document as the ancestor's editor saves it (spec 3 §3, §4): `{nodes, connections}`, React Flow's
 * own node and edge objects. Everything here is pure: the editor's state changes (add, duplicate, delete, the
 * single start node), the `{{variable}}` list and the round trip between the canvas and the saved JSON.
 */

export const NODE_TYPES = FLOW_NODE_TYPES;
export type TNodeType = TFlowNodeType;

export const START_NODE_ID = FLOW_START_NODE_ID;
export const START_LABEL = FLOW_START_LABEL;
export const START_POSITION = FLOW_START_POSITION;
export const NODE_ID_LENGTH = FLOW_NODE_ID_LENGTH;
export const DUPLICATE_OFFSET = FLOW_DUPLICATE_OFFSET;
export const NEW_NODE_GAP = FLOW_NEW_NODE_GAP;
/** a node not yet measured by the canvas (a fresh load) is taken as this wide */
export const DEFAULT_NODE_WIDTH = 220;
/** every edge is drawn with the delete button at its midpoint */
export const EDGE_TYPE = 'buttonedge';

export type TFlowNode = Node<Record<string, unknown>, string>;
export type TFlowEdge = Edge;
/** what GET /flowbuilder/flow answers in `flow.flow` and POST /flowbuilder/flow sends */
export type TFlowDocument = { nodes: TFlowNode[]; connections: TFlowEdge[] };

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A node id: 30 random letters and digits (the ancestor's shape, drawn from the crypto source). */
export const randomNodeId = (length = NODE_ID_LENGTH) => {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);

  return Array.from(bytes, (b) => ID_CHARS[b % ID_CHARS.length]).join('');
};

export const startNode = (position: { x: number; y: number } = START_POSITION): TFlowNode => ({
  id: START_NODE_ID,
  type: 'start',
  position: { ...position },
  data: { label: START_LABEL },
});

/** An empty flow (a new one, or a saved body of `null`) holds the start node alone. */
export const emptyFlow = (): TFlowDocument => ({ nodes: [startNode()], connections: [] });

const widthOf = (node: TFlowNode) => node.measured?.width ?? node.width ?? DEFAULT_NODE_WIDTH;

/** Where a new node goes: right of the last node, a gap of 40 after its width, at its height (spec 3 §4). */
export const newNodePosition = (nodes: TFlowNode[]) => {
  const last = nodes.at(-1);
  if (!last) {
    return { ...START_POSITION };
  }

  return { x: last.position.x + widthOf(last) + NEW_NODE_GAP, y: last.position.y };
};

/**
 * Adds a node of `type` with `data`. A start node replaces the old one (there is only ever one; edges leaving
 * the old start are kept, as its id is the same).
 */
export const addNode = (nodes: TFlowNode[], type: TNodeType, data: Record<string, unknown>): TFlowNode[] => {
  const position = newNodePosition(nodes);
  if (type === 'start') {
    return [...nodes.filter((n) => n.type !== 'start'), startNode(position)];
  }

  return [...nodes, { id: randomNodeId(), type, position, data }];
};

/** Edit mode: the node with the same id gets the new data. */
export const updateNodeData = (nodes: TFlowNode[], id: string, data: Record<string, unknown>): TFlowNode[] =>
  nodes.map((n) => (n.id === id ? { ...n, data } : n));

/** A copy with a new id, 240 right of the rightmost node, unselected; the start node is never copied. */
export const duplicateNode = (nodes: TFlowNode[], id: string): TFlowNode[] => {
  const source = nodes.find((n) => n.id === id);
  if (!source || source.type === 'start') {
    return nodes;
  }
  const maxX = Math.max(...nodes.map((n) => n.position.x));
  const lastY = nodes.at(-1)?.position.y ?? source.position.y;
  const copy: TFlowNode = {
    ...source,
    id: randomNodeId(),
    position: { x: maxX + DUPLICATE_OFFSET, y: lastY },
    data: structuredClone(source.data),
    selected: false,
    dragging: false,
  };

  return [...nodes, copy];
};

/** Removes a node and every edge touching it; the start node cannot be removed. */
export const removeNode = (doc: TFlowDocument, id: string): TFlowDocument => {
  const node = doc.nodes.find((n) => n.id === id);
  if (!node || node.type === 'start') {
    return doc;
  }

  return {
    nodes: doc.nodes.filter((n) => n.id !== id),
    connections: doc.connections.filter((e) => e.source !== id && e.target !== id),
  };
};

type TQuestionData = { typebotIntegration?: { answerKey?: unknown } };

/** The `{{variable}}` names: every question node's answer key, once each, in canvas order. */
export const collectVariables = (nodes: TFlowNode[]): string[] => {
  const names: string[] = [];
  for (const node of nodes) {
    if (node.type !== 'question') {
      continue;
    }
    const key = (node.data as TQuestionData).typebotIntegration?.answerKey;
    if (typeof key === 'string' && key.trim() && !names.includes(key.trim())) {
      names.push(key.trim());
    }
  }

  return names;
};

/** Edges as the canvas draws them: each with an id and the button edge type. */
const toCanvasEdge = (edge: TFlowEdge): TFlowEdge => ({
  ...edge,
  id: edge.id || `reactflow__edge-${edge.source}${edge.sourceHandle ?? ''}-${edge.target}${edge.targetHandle ?? ''}`,
  type: EDGE_TYPE,
});

/** Canvas-only state: measuring is left out; selection and dragging are saved as off (the ancestor's shape). */
const CANVAS_NODE_KEYS = ['measured', 'resizing'] as const;
const CANVAS_FLAGS = ['selected', 'dragging'] as const;
const CANVAS_EDGE_KEYS = ['selected'] as const;

const omit = <T extends object>(value: T, keys: readonly string[]): T =>
  Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k))) as T;

/**
 * What a saved node says of its look: kept aside on load (`savedLook`), put back on save. The canvas draws every
 * node its own way and measures it; a fixed `width`/`height` or the ancestor's dark `style` handed to React Flow
 * would draw a box of another size and colour behind the card. The size measured wins on save.
 */
const SAVED_LOOK_KEYS = ['style', 'width', 'height', 'positionAbsolute'] as const;
const LOOK_KEY = 'savedLook';

const asideLook = (node: TFlowNode): TFlowNode => {
  const look = Object.fromEntries(
    Object.entries(node).filter(([k, v]) => (SAVED_LOOK_KEYS as readonly string[]).includes(k) && v !== undefined),
  );
  const rest = omit(node, SAVED_LOOK_KEYS);

  return Object.keys(look).length > 0 ? ({ ...rest, [LOOK_KEY]: look } as TFlowNode) : rest;
};

const lookBack = (node: TFlowNode): TFlowNode => {
  const look = (node as Record<string, unknown>)[LOOK_KEY] as Partial<TFlowNode> | undefined;

  return { ...omit(node, [LOOK_KEY]), ...look } as TFlowNode;
};

/**
 * A saved body (or `null` for a flow never saved) as the canvas state. Unknown keys of nodes, data and edges
 * are kept (its look aside), so a flow from the ancestor comes back out as it went in; a flow without a start node
 * gets one.
 */
export const fromDocument = (doc: Partial<TFlowDocument> | null | undefined): TFlowDocument => {
  if (!doc || !Array.isArray(doc.nodes) || doc.nodes.length === 0) {
    return emptyFlow();
  }
  const nodes = doc.nodes.map((n) => ({
    ...asideLook(n),
    data: n.data ?? {},
    position: n.position ?? { x: 0, y: 0 },
  }));
  const withStart = nodes.some((n) => n.type === 'start') ? nodes : [startNode(), ...nodes];

  return { nodes: withStart, connections: (doc.connections ?? []).map(toCanvasEdge) };
};

const flagsOff = <T extends object>(value: T): T =>
  Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, (CANVAS_FLAGS as readonly string[]).includes(k) ? false : v]),
  ) as T;

/** The canvas state as the body of POST /flowbuilder/flow (the ancestor's `{nodes, connections}`). */
export const toDocument = (nodes: TFlowNode[], edges: TFlowEdge[]): TFlowDocument => ({
  nodes: nodes.map((n) => {
    const clean = flagsOff(omit(lookBack(n), CANVAS_NODE_KEYS));
    const width = n.measured?.width ?? n.width;
    const height = n.measured?.height ?? n.height;

    return { ...clean, ...(width ? { width } : {}), ...(height ? { height } : {}) };
  }),
  // the button edge is how this editor draws every edge, not part of the flow (the ancestor's edges carry no type)
  connections: edges.map((e) => omit(e, e.type === EDGE_TYPE ? [...CANVAS_EDGE_KEYS, 'type'] : CANVAS_EDGE_KEYS)),
});

/**
 * A fingerprint of what would be saved, for the unsaved-changes guard: positions, data and edges count;
 * selection and measuring do not.
 */
export const documentFingerprint = (nodes: TFlowNode[], edges: TFlowEdge[]) =>
  JSON.stringify({
    nodes: nodes.map((n) => [n.id, n.type, Math.round(n.position.x), Math.round(n.position.y), n.data]),
    edges: edges.map((e) => [e.source, e.sourceHandle ?? null, e.target, e.targetHandle ?? null]),
  });
