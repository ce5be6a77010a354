import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

// the feature's texts load i18n, which reads the stored language on import
vi.hoisted(() => {
  const store = new Map<string, string>([['i18nextLng', 'pt']]);
  globalThis.localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  } as Storage;
});
import { guardNavigator } from './editor/unsavedGuard';
import {
  addNode,
  collectVariables,
  documentFingerprint,
  duplicateNode,
  emptyFlow,
  fromDocument,
  randomNodeId,
  removeNode,
  type TFlowDocument,
  type TFlowNode,
  toDocument,
  updateNodeData,
} from './flowDocument';
import { exportFileName, parseFlowFile } from './flowFile';
import {
  addCard,
  cardsOf,
  contentData,
  contentProblem,
  moveCard,
  nextCardNumber,
  type TCard,
} from './nodes/contentCards';
import { mediaProblem } from './nodes/media';
import {
  intervalData,
  menuData,
  openAiData,
  ZIntervalForm,
  ZMenuForm,
  ZOpenAiForm,
  ZQuestionForm,
  ZTicketForm,
  ZTypebotForm,
} from './nodes/nodeForms';
import { insertVariable } from './nodes/VariableChips';
import { applyRunStep, emptyRunView, lastFailure } from './test-run/runView';

const ancestorText = readFileSync(new URL('../../../../../e2e/fixtures/ancestor-flow.json', import.meta.url), 'utf8');
const ancestor = (): TFlowDocument => JSON.parse(ancestorText);

const node = (id: string, type: string, x: number, y: number, data: Record<string, unknown> = {}): TFlowNode => ({
  id,
  type,
  position: { x, y },
  data,
});

/** the first message of a failed parse */
const firstError = (result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  result.error?.issues[0];

describe('the flow document', () => {
  it('a new flow holds the start node alone, id 1 at 250,100', () => {
    expect(emptyFlow()).toEqual({
      nodes: [{ id: '1', type: 'start', position: { x: 250, y: 100 }, data: { label: 'Inicio do fluxo' } }],
      connections: [],
    });
    expect(fromDocument(null)).toEqual(emptyFlow());
  });

  it('adds a node 40 right of the last node’s width, at its height, with a 30-character id', () => {
    const nodes = [
      node('1', 'start', 250, 100),
      { ...node('x', 'message', 500, 80), measured: { width: 180, height: 60 } },
    ];
    const next = addNode(nodes, 'message', { label: 'Oi' });
    const added = next.at(-1);
    expect(added?.position).toEqual({ x: 500 + 180 + 40, y: 80 });
    expect(added?.id).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(added?.data).toEqual({ label: 'Oi' });
    expect(randomNodeId()).not.toBe(randomNodeId());
  });

  it('keeps a single start node: adding one replaces the old', () => {
    const next = addNode([node('1', 'start', 250, 100), node('m', 'message', 600, 100)], 'start', {});
    expect(next.filter((n) => n.type === 'start')).toHaveLength(1);
    expect(next.at(-1)).toMatchObject({ id: '1', type: 'start' });
  });

  it('duplicates a node 240 right of the rightmost one, unselected, with a new id; never the start', () => {
    const nodes = [
      node('1', 'start', 250, 100),
      { ...node('m', 'message', 900, 40, { label: 'a' }), selected: true },
      node('q', 'question', 600, 300),
    ];
    const next = duplicateNode(nodes, 'm');
    const copy = next.at(-1) as TFlowNode;
    expect(next).toHaveLength(4);
    expect(copy.id).not.toBe('m');
    expect(copy.position).toEqual({ x: 900 + 240, y: 300 });
    expect(copy.selected).toBe(false);
    expect(copy.data).toEqual({ label: 'a' });
    expect(copy.data).not.toBe(nodes[1].data);
    expect(duplicateNode(nodes, '1')).toBe(nodes);
  });

  it('removes a node with every edge touching it; the start node stays', () => {
    const doc: TFlowDocument = {
      nodes: [node('1', 'start', 0, 0), node('a', 'message', 1, 0), node('b', 'message', 2, 0)],
      connections: [
        { id: 'e1', source: '1', target: 'a' },
        { id: 'e2', source: 'a', target: 'b' },
        { id: 'e3', source: '1', target: 'b' },
      ],
    };
    expect(removeNode(doc, 'a')).toEqual({ nodes: [doc.nodes[0], doc.nodes[2]], connections: [doc.connections[2]] });
    expect(removeNode(doc, '1')).toBe(doc);
  });

  it('edit mode replaces the data of the node with the same id', () => {
    const nodes = [node('1', 'start', 0, 0), node('a', 'message', 1, 0, { label: 'old' })];
    expect(updateNodeData(nodes, 'a', { label: 'new' })[1].data).toEqual({ label: 'new' });
  });

  it('gathers the {{variables}} from the question nodes’ answer keys, once each', () => {
    const nodes = [
      node('q1', 'question', 0, 0, { typebotIntegration: { message: 'Nome?', answerKey: 'nome' } }),
      node('m', 'message', 0, 0, { label: '{{nome}}' }),
      node('q2', 'question', 0, 0, { typebotIntegration: { message: 'Cidade?', answerKey: 'cidade' } }),
      node('q3', 'question', 0, 0, { typebotIntegration: { message: 'De novo?', answerKey: 'nome' } }),
    ];
    expect(collectVariables(nodes)).toEqual(['nome', 'cidade']);
    expect(collectVariables(fromDocument(ancestor()).nodes)).toEqual(['nome']);
  });

  it('round-trips a flow the ancestor exported unchanged', () => {
    const canvas = fromDocument(ancestor());
    expect(canvas.connections.every((e) => e.type === 'buttonedge')).toBe(true);
    expect(toDocument(canvas.nodes, canvas.connections)).toEqual(ancestor());
  });

  it("draws a loaded node its own way: the saved size and the ancestor's dark style are not handed to the canvas", () => {
    const saved = ancestor().nodes[1] as Record<string, unknown>;
    expect(saved).toMatchObject({ width: 220, style: { backgroundColor: '#13111C' } });
    const node = fromDocument(ancestor()).nodes[1];
    expect(node.style).toBeUndefined();
    expect(node.width).toBeUndefined();
    expect(node.height).toBeUndefined();
  });

  it('saves what the canvas measured and leaves selection and dragging out', () => {
    const canvas = fromDocument(ancestor());
    const touched = canvas.nodes.map((n, i) =>
      i === 1 ? { ...n, selected: true, dragging: true, measured: { width: 300, height: 99 } } : n,
    );
    const saved = toDocument(touched, canvas.connections).nodes[1];
    expect(saved).toMatchObject({ width: 300, height: 99 });
    expect(saved).not.toHaveProperty('measured');
    expect(saved.selected).toBe(false);
    expect(saved.dragging).toBe(false);
  });

  it('tells a moved node or a new edge from a selection (the unsaved-changes fingerprint)', () => {
    const { nodes, connections } = fromDocument(ancestor());
    const base = documentFingerprint(nodes, connections);
    expect(
      documentFingerprint(
        nodes.map((n) => ({ ...n, selected: true, measured: { width: 1, height: 1 } })),
        connections,
      ),
    ).toBe(base);
    expect(
      documentFingerprint(
        nodes.map((n, i) => (i === 2 ? { ...n, position: { x: 9, y: 9 } } : n)),
        connections,
      ),
    ).not.toBe(base);
    expect(documentFingerprint(nodes, connections.slice(1))).not.toBe(base);
    expect(documentFingerprint(updateNodeData(nodes, '1', { label: 'x' }), connections)).not.toBe(base);
  });
});

describe('importing a flow file', () => {
  it('reads the ancestor’s JSON, bare or wrapped as its GET answers it', () => {
    for (const text of [
      ancestorText,
      JSON.stringify({ flow: { flow: ancestor() } }),
      JSON.stringify({ flow: ancestor() }),
    ]) {
      const result = parseFlowFile(text);
      expect('doc' in result && result.doc.nodes.map((n) => n.id)).toEqual(ancestor().nodes.map((n) => n.id));
    }
  });

  it('keeps the file’s values as written (an interval typed as text stays text)', () => {
    const result = parseFlowFile(ancestorText);
    expect('doc' in result && toDocument(result.doc.nodes, result.doc.connections)).toEqual(ancestor());
  });

  it('refuses what is not JSON or holds no flow', () => {
    expect(parseFlowFile('{nodes:')).toEqual({ error: 'json' });
    expect(parseFlowFile('{"nodes": "x"}')).toEqual({ error: 'shape' });
    expect(parseFlowFile('{"nodes": []}')).toEqual({ error: 'shape' });
    expect(parseFlowFile('[1,2]')).toEqual({ error: 'shape' });
  });

  it('names the export after the flow', () => {
    expect(exportFileName('Boas-vindas Padaria!')).toBe('Boas-vindas-Padaria.json');
    expect(exportFileName('???')).toBe('fluxo.json');
  });
});

describe('node dialogs’ validation (spec 3 §5)', () => {
  it('interval: 1 to 120 seconds, with the spec’s messages', () => {
    expect(firstError(ZIntervalForm.safeParse({ sec: '' }))?.message).toBe('flowIntervalMin');
    expect(firstError(ZIntervalForm.safeParse({ sec: '0' }))?.message).toBe('flowIntervalMin');
    expect(firstError(ZIntervalForm.safeParse({ sec: '121' }))?.message).toBe('flowIntervalMax');
    expect(firstError(ZIntervalForm.safeParse({ sec: '2.5' }))?.message).toBe('flowIntervalMin');
    const ok = ZIntervalForm.parse({ sec: '120' });
    expect(intervalData(ok.sec)).toEqual({ label: 'Intervalo 120 seg.', sec: 120 });
  });

  it('menu: a message and at least one option, numbered from 1', () => {
    expect(firstError(ZMenuForm.safeParse({ message: 'Escolha', options: [] }))?.message).toBe('flowOptionRequired');
    expect(firstError(ZMenuForm.safeParse({ message: ' ', options: [{ value: 'a' }] }))?.path).toEqual(['message']);
    expect(firstError(ZMenuForm.safeParse({ message: 'Escolha', options: [{ value: '' }] }))?.path).toEqual([
      'options',
      0,
      'value',
    ]);
    expect(
      menuData(ZMenuForm.parse({ message: 'Escolha', options: [{ value: 'Vendas' }, { value: 'Suporte' }] })),
    ).toEqual({
      message: 'Escolha',
      arrayOption: [
        { number: 1, value: 'Vendas' },
        { number: 2, value: 'Suporte' },
      ],
    });
  });

  it('ticket: a queue is required ("Adicione uma fila")', () => {
    expect(firstError(ZTicketForm.safeParse({ queueId: '' }))?.message).toBe('flowQueueRequired');
    expect(ZTicketForm.parse({ queueId: '4' })).toEqual({ queueId: 4 });
  });

  it('question: message and a variable-name answer key are required', () => {
    expect(firstError(ZQuestionForm.safeParse({ message: '', answerKey: 'nome' }))?.path).toEqual(['message']);
    expect(firstError(ZQuestionForm.safeParse({ message: 'Nome?', answerKey: '' }))?.path).toEqual(['answerKey']);
    expect(firstError(ZQuestionForm.safeParse({ message: 'Nome?', answerKey: 'meu nome' }))?.message).toBe('invalid');
    expect(ZQuestionForm.parse({ message: 'Nome?', answerKey: ' nome ' }).answerKey).toBe('nome');
  });

  it('OpenAI: name, key and prompt required; the spec’s defaults for the rest; projectName copied from the name', () => {
    const missing = ZOpenAiForm.safeParse({ name: '', apiKey: '', prompt: '' });
    expect(missing.error?.issues.map((i) => i.path[0]).sort()).toEqual(['apiKey', 'name', 'prompt']);
    const form = ZOpenAiForm.parse({
      name: 'Bot',
      apiKey: 'sk-1',
      prompt: 'Seja breve',
      temperature: '',
      maxTokens: '',
      maxMessages: '',
    });
    expect(form).toMatchObject({ voice: 'texto', temperature: 1, maxTokens: 100, maxMessages: 10 });
    expect(openAiData(form, undefined).typebotIntegration).toMatchObject({
      name: 'Bot',
      projectName: 'Bot',
      apiKey: 'sk-1',
    });
    expect(ZOpenAiForm.safeParse({ name: 'Bot', apiKey: 'k', prompt: 'p', voice: 'robot' }).success).toBe(false);
  });

  it('OpenAI: the provider as the prompts take it — a base URL of any compatible API and the model’s id', () => {
    const form = ZOpenAiForm.parse({
      name: 'Bot',
      apiKey: 'sk-1',
      prompt: 'Seja breve',
      baseUrl: ' https://llm.example.com/v1 ',
      model: 'llama-3.1-8b',
    });
    expect(openAiData(form, undefined).typebotIntegration).toMatchObject({
      baseUrl: 'https://llm.example.com/v1',
      model: 'llama-3.1-8b',
    });
    // empty = OpenAI's own API
    expect(ZOpenAiForm.parse({ name: 'Bot', apiKey: 'k', prompt: 'p', baseUrl: '' }).baseUrl).toBeNull();
    const bad = ZOpenAiForm.safeParse({ name: 'Bot', apiKey: 'k', prompt: 'p', baseUrl: 'ftp://x' });
    expect(bad.error?.issues.map((i) => i.path[0])).toEqual(['baseUrl']);
  });

  it('typebot: name, URL and slug required; delay 1000 and expiry 1 by default', () => {
    expect(ZTypebotForm.safeParse({ name: 'TB', urlN8N: '', typebotSlug: 's' }).success).toBe(false);
    expect(
      ZTypebotForm.parse({
        name: 'TB',
        urlN8N: 'https://bot',
        typebotSlug: 's',
        typebotExpires: '',
        typebotDelayMessage: '',
      }),
    ).toMatchObject({
      typebotExpires: 1,
      typebotDelayMessage: 1000,
    });
  });
});

describe('content cards', () => {
  const card = (type: TCard['type'], value = '', extra: Partial<TCard> = {}): TCard => ({
    number: `${type}${value}`,
    type,
    value,
    ...extra,
  });

  it('read in seq order, and saved as {seq, elements}', () => {
    const data = ancestor().nodes[1].data;
    const cards = cardsOf(data);
    expect(cards.map((c) => c.number)).toEqual(['message0', 'interval1', 'img2']);
    expect(contentData(cards)).toEqual(data);
    const reordered = moveCard(cards, 2, -1);
    expect(contentData(reordered).seq).toEqual(['message0', 'img2', 'interval1']);
    expect(moveCard(cards, 0, -1)).toBe(cards);
  });

  it('numbers a new card with a free id', () => {
    const cards = [card('message', '0'), card('message', '1')].map((c, i) => ({ ...c, number: `message${i}` }));
    expect(nextCardNumber(cards, 'message')).toBe('message2');
    expect(addCard(cards, 'audio').at(-1)).toEqual({ number: 'audio2', type: 'audio', value: '', record: false });
  });

  it('refuses empty media cards, empty messages and intervals outside 1–120, with the spec’s messages', () => {
    expect(contentProblem([])).toBe('noCardsError');
    expect(contentProblem([card('message', 'oi'), card('img')])).toBe('emptyCards');
    expect(contentProblem([card('message', ' ')])).toBe('emptyMessage');
    expect(contentProblem([card('interval', '0')])).toBe('badInterval');
    expect(contentProblem([card('interval', '121')])).toBe('badInterval');
    const file = new File(['x'], 'a.png');
    expect(contentProblem([card('message', 'oi'), card('interval', '120'), card('img', '', { file })])).toBeNull();
  });

  it('drops the chosen file from what is saved', () => {
    const file = new File(['x'], 'a.png');
    expect(contentData([card('img', 'stored.png', { file, original: 'a.png' })]).elements).toEqual([
      { number: 'imgstored.png', type: 'img', value: 'stored.png', original: 'a.png' },
    ]);
  });
});

describe('uploads (spec 3 §5)', () => {
  const MB = 1024 * 1024;
  it('accepts the kind’s types within its size, and says why not otherwise', () => {
    expect(mediaProblem('img', { name: 'a.JPG', size: 2 * MB })).toBeNull();
    expect(mediaProblem('img', { name: 'a.png', size: 2 * MB + 1 })).toEqual({ key: 'flows.dialogs.tooLarge', mb: 2 });
    expect(mediaProblem('img', { name: 'a.gif', size: 10 })).toMatchObject({ key: 'flows.dialogs.wrongType' });
    expect(mediaProblem('audio', { name: 'a.opus', size: 5 * MB })).toBeNull();
    expect(mediaProblem('audio', { name: 'a.ogg', size: 5 * MB + 1 })).toEqual({
      key: 'flows.dialogs.tooLarge',
      mb: 5,
    });
    expect(mediaProblem('video', { name: 'a.mov', size: 10 })).toMatchObject({
      key: 'flows.dialogs.wrongType',
      accept: 'mp4',
    });
    expect(mediaProblem('video', { name: 'a.mp4', size: 20 * MB + 1 })).toEqual({
      key: 'flows.dialogs.tooLarge',
      mb: 20,
    });
  });
});

describe('the {{variable}} list', () => {
  it('appends a variable to the text, spaced', () => {
    expect(insertVariable('', 'nome')).toBe('{{nome}}');
    expect(insertVariable('Olá', 'nome')).toBe('Olá {{nome}}');
    expect(insertVariable('Olá ', 'nome')).toBe('Olá {{nome}}');
  });
});

describe('the unsaved-changes guard', () => {
  it('holds a navigation while there are changes, and performs it when the user leaves', () => {
    const pushed: unknown[] = [];
    const navigator = {
      push: (to: never) => void pushed.push(to),
      replace: (to: never) => void pushed.push(`r:${to}`),
    };
    let dirty = true;
    const blocked = vi.fn<(proceed: () => void) => void>();
    const restore = guardNavigator(navigator, () => dirty, blocked);

    navigator.push('/flowbuilders' as never);
    expect(pushed).toEqual([]);
    expect(blocked).toHaveBeenCalledTimes(1);
    blocked.mock.calls[0][0]();
    expect(pushed).toEqual(['/flowbuilders']);

    dirty = false;
    navigator.replace('/tickets' as never);
    expect(pushed).toEqual(['/flowbuilders', 'r:/tickets']);
    expect(blocked).toHaveBeenCalledTimes(1);

    restore();
    dirty = true;
    navigator.push('/x' as never);
    expect(pushed.at(-1)).toBe('/x');
  });
});

describe('the test run’s view of a run', () => {
  const step = (
    nodeId: string,
    status: 'running' | 'waiting' | 'done' | 'failed',
    at: string,
    variables?: Record<string, string>,
  ) => ({
    nodeId,
    nodeType: 'message',
    status,
    at,
    variables,
  });

  it('lights the running node, marks the ones before as done, and keeps the variables so far', () => {
    let view = applyRunStep(emptyRunView(), step('1', 'running', 't1'));
    view = applyRunStep(view, step('q', 'waiting', 't2'));
    expect(view.states).toEqual({ '1': 'done', q: 'waiting' });
    view = applyRunStep(view, step('m', 'running', 't3', { nome: 'Ana' }));
    expect(view.states).toEqual({ '1': 'done', q: 'done', m: 'running' });
    expect(view.variables).toEqual({ nome: 'Ana' });
    view = applyRunStep(view, step('x', 'failed', 't4'));
    expect(view.states.x).toBe('failed');
    expect(view.status).toBe('failed');
    expect(applyRunStep(view, step('x', 'failed', 't4'))).toBe(view);
  });

  it('tells why the last failed node failed (an OpenAI provider error shown in the panel)', () => {
    let view = applyRunStep(emptyRunView(), step('1', 'running', 't1'));
    expect(lastFailure(view)).toBeNull();
    view = applyRunStep(view, { ...step('ai', 'failed', 't2'), nodeType: 'openai', reason: 'A IA falhou (500)' });
    expect(lastFailure(view)).toMatchObject({ nodeId: 'ai', nodeType: 'openai', reason: 'A IA falhou (500)' });
  });
});

describe('the condition node', () => {
  it('draws both outputs the engine takes: a when it holds, b when it does not (an imported false branch shows)', async () => {
    const { conditionSpec } = await import('./nodes/ConditionNode');
    const handles = conditionSpec.handles?.({ key: 'nome', condition: '==', value: 'Ana' }) ?? [];
    expect(handles.map((h) => h.id)).toEqual(['a', 'b']);
    await import('./i18n');
    const { i18n } = await import('../../i18n');
    expect(handles.map((h) => i18n.t(h.labelKey ?? ''))).toEqual(['Verdadeiro', 'Falso']);
  });
});
