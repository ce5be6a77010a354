import { FLOW_START_NODE_ID, type TFlowConnection, type TFlowDocument, type TFlowNode } from '@zelo/shared';

/**
 * A saved flow as the engine reads it: nodes by id, edges by source, and the start node found by its
 * type (never by array order, the ancestor's bug). Built from the stored document, which the save route
 * validated; a document stored before (or imported around) that check is read defensively.
 */
export type TGraph = {
  nodes: Map<string, TFlowNode>;
  out: Map<string, TFlowConnection[]>;
  start: TFlowNode | null;
};

export const buildGraph = (doc: Pick<TFlowDocument, 'nodes' | 'connections'> | null | undefined): TGraph => {
  const nodes = new Map<string, TFlowNode>();
  const out = new Map<string, TFlowConnection[]>();
  for (const node of doc?.nodes ?? []) if (!nodes.has(node.id)) nodes.set(node.id, node);
  for (const edge of doc?.connections ?? []) {
    const list = out.get(edge.source) ?? [];
    list.push(edge);
    out.set(edge.source, list);
  }
  const starts = [...nodes.values()].filter((n) => n.type === 'start');
  const start = starts.find((n) => n.id === FLOW_START_NODE_ID) ?? starts[0] ?? null;

  return { nodes, out, start };
};

export type TNext = { kind: 'node'; node: TFlowNode } | { kind: 'end' } | { kind: 'dangling'; target: string };

/**
 * the node an edge leaving `from` leads to: by `handle` when given (menu `a<number>`, randomizer and
 * condition `a` / `b`), else the node's first edge. No edge: the flow ends; an edge to a missing node: dangling.
 */
export const nextNode = (graph: TGraph, from: string, handle?: string): TNext => {
  const edges = graph.out.get(from) ?? [];
  const edge = handle === undefined ? edges[0] : edges.find((e) => e.sourceHandle === handle);
  if (!edge) return { kind: 'end' };
  const node = graph.nodes.get(edge.target);

  return node ? { kind: 'node', node } : { kind: 'dangling', target: edge.target };
};

/** ancestor condition codes: 1 ==, 2 >=, 3 <=, 4 <, 5 > (numbers compared as numbers when both are) */
export const conditionHolds = (left: string | undefined, rule: unknown, right: unknown): boolean => {
  const a = (left ?? '').trim();
  const b = String(right ?? '').trim();
  const numeric = a !== '' && b !== '' && !Number.isNaN(Number(a)) && !Number.isNaN(Number(b));
  const cmp = numeric ? Math.sign(Number(a) - Number(b)) : a.localeCompare(b, undefined, { sensitivity: 'base' });
  switch (String(rule ?? '1')) {
    case '2':
      return cmp >= 0;
    case '3':
      return cmp <= 0;
    case '4':
      return cmp < 0;
    case '5':
      return cmp > 0;
    default:
      return cmp === 0;
  }
};

/** the menu text as the ancestor sends it: the message, a blank line, `[n] value` lines */
export const menuText = (node: Extract<TFlowNode, { type: 'menu' }>) => {
  const options = node.data.arrayOption.map((o) => `[${o.number}] ${o.value}`).join('\n');

  return options ? `${node.data.message}\n\n${options}` : node.data.message;
};

/** the option a customer's answer picks: its number, or its text (case- and accent-insensitive) */
export const pickOption = (node: Extract<TFlowNode, { type: 'menu' }>, body: string) => {
  const text = body.trim();
  const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

  return (
    node.data.arrayOption.find((o) => String(o.number) === text) ??
    node.data.arrayOption.find((o) => plain(o.value) !== '' && plain(o.value) === plain(text)) ??
    null
  );
};
