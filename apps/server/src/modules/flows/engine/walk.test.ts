import { FLOW_MENU_MAX_RETRIES, type TFlowDocument, ZFlowDocument } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import { buildGraph } from './graph';
import { type TWalkInput, type TWalkState, walk } from './walk';

const opts = { rng: () => 0.5, typingMs: 0, gapMs: 0, stepCap: 50 };
const fresh: TWalkState = { status: 'running', wait: null, nodeId: null, variables: {}, retries: 0 };

const at = { x: 0, y: 0 };
const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: at, data });
const edge = (source: string, target: string, sourceHandle: string | null = null) => ({
  id: `${source}-${target}-${sourceHandle}`,
  source,
  target,
  sourceHandle,
});

const graphOf = (nodes: unknown[], connections: unknown[]) =>
  buildGraph(ZFlowDocument.parse({ nodes, connections }) as TFlowDocument);

const run = (graph: ReturnType<typeof graphOf>, inputs: TWalkInput[], o = opts) => {
  let state = fresh;
  const all = [];
  for (const input of inputs) {
    const r = walk(graph, state, input, o);
    all.push(r);
    state = r.state;
  }
  return all;
};

const texts = (r: { actions: { type: string; body?: string }[] }) =>
  r.actions.filter((a) => a.type === 'text').map((a) => a.body);

const start = node('1', 'start', { label: 'Inicio do fluxo' });

describe('flow engine walk', () => {
  it('finds the start node by type, not by array order, and follows edges', () => {
    const g = graphOf(
      [node('m2', 'message', { label: 'segunda' }), node('m1', 'message', { label: 'primeira' }), start],
      [edge('1', 'm1'), edge('m1', 'm2')],
    );
    const [r] = run(g, [{ kind: 'start' }]);
    expect(texts(r!)).toEqual(['primeira', 'segunda']);
    expect(r!.state.status).toBe('done');
    expect(r!.steps.map((s) => s.nodeId)).toEqual(['1', 'm1', 'm2', 'm2']);
  });

  it('a missing start node fails the run', () => {
    const g = graphOf([node('m1', 'message', { label: 'x' })], []);
    const [r] = run(g, [{ kind: 'start' }]);
    expect(r!.state.status).toBe('failed');
    expect(r!.reason).toBe('no-start');
    expect(r!.actions).toEqual([]);
  });

  it('a dangling edge ends the run as failed after what came before', () => {
    const g = graphOf([start, node('m1', 'message', { label: 'oi' })], [edge('1', 'm1'), edge('m1', 'ghost')]);
    const [r] = run(g, [{ kind: 'start' }]);
    expect(texts(r!)).toEqual(['oi']);
    expect(r!.state.status).toBe('failed');
    expect(r!.reason).toBe('dangling-edge');
  });

  it('a cycle without a waiting node stops at the step cap', () => {
    const g = graphOf(
      [start, node('a', 'message', { label: 'A' }), node('b', 'message', { label: 'B' })],
      [edge('1', 'a'), edge('a', 'b'), edge('b', 'a')],
    );
    const [r] = run(g, [{ kind: 'start' }], { ...opts, stepCap: 10 });
    expect(r!.state.status).toBe('failed');
    expect(r!.reason).toBe('step-cap');
    expect(texts(r!).length).toBe(9);
  });

  it('a question stores the answer under its key and fills {{key}} later; variables accumulate', () => {
    const g = graphOf(
      [
        start,
        node('q1', 'question', { typebotIntegration: { message: 'Seu nome?', answerKey: 'nome' } }),
        node('q2', 'question', { typebotIntegration: { message: 'Sua cidade?', answerKey: 'cidade' } }),
        node('m', 'message', { label: 'Obrigado {{nome}} de {{cidade}}' }),
      ],
      [edge('1', 'q1'), edge('q1', 'q2'), edge('q2', 'm')],
    );
    const [a, b, c] = run(g, [
      { kind: 'start' },
      { kind: 'answer', body: ' Ana ' },
      { kind: 'answer', body: 'Recife' },
    ]);
    expect(texts(a!)).toEqual(['Seu nome?']);
    expect(a!.state).toMatchObject({ status: 'waiting', wait: 'answer', nodeId: 'q1' });
    expect(texts(b!)).toEqual(['Sua cidade?']);
    expect(c!.state.variables).toEqual({ nome: 'Ana', cidade: 'Recife' });
    expect(texts(c!)).toEqual(['Obrigado {{nome}} de {{cidade}}']);
    expect(c!.state.status).toBe('done');
  });

  const menuFlow = () =>
    graphOf(
      [
        start,
        node('menu', 'menu', {
          message: 'Escolha',
          arrayOption: [
            { number: 1, value: 'Vendas' },
            { number: 2, value: 'Suporte' },
          ],
        }),
        node('v', 'message', { label: 'vendas' }),
        node('s', 'message', { label: 'suporte' }),
      ],
      [edge('1', 'menu'), edge('menu', 'v', 'a1'), edge('menu', 's', 'a2')],
    );

  it('a menu sends its options and follows the chosen option handle a<number> (or its text)', () => {
    const [first, two] = run(menuFlow(), [{ kind: 'start' }, { kind: 'answer', body: '2' }]);
    expect(texts(first!)).toEqual(['Escolha\n\n[1] Vendas\n[2] Suporte']);
    expect(texts(two!)).toEqual(['suporte']);
    const [, byText] = run(menuFlow(), [{ kind: 'start' }, { kind: 'answer', body: 'VENDAS' }]);
    expect(texts(byText!)).toEqual(['vendas']);
  });

  it(`an unknown menu answer repeats the menu ${FLOW_MENU_MAX_RETRIES} times, then hands over to the connection`, () => {
    const bad = Array.from({ length: FLOW_MENU_MAX_RETRIES + 1 }, (): TWalkInput => ({ kind: 'answer', body: '9' }));
    const results = run(menuFlow(), [{ kind: 'start' }, ...bad]);
    for (const r of results.slice(1, -1)) {
      expect(texts(r)).toEqual(['Escolha\n\n[1] Vendas\n[2] Suporte']);
      expect(r.state.status).toBe('waiting');
    }
    const last = results.at(-1)!;
    expect(texts(last)).toEqual([]);
    expect(last.handover).toEqual({ kind: 'connection' });
    expect(last.state.status).toBe('done');
    expect(last.reason).toBe('menu-retries');
  });

  it('the randomizer takes a by its percentage, b otherwise', () => {
    const g = graphOf(
      [
        start,
        node('r', 'randomizer', { percent: 30 }),
        node('a', 'message', { label: 'A' }),
        node('b', 'message', { label: 'B' }),
      ],
      [edge('1', 'r'), edge('r', 'a', 'a'), edge('r', 'b', 'b')],
    );
    expect(texts(run(g, [{ kind: 'start' }], { ...opts, rng: () => 0.29 })[0]!)).toEqual(['A']);
    expect(texts(run(g, [{ kind: 'start' }], { ...opts, rng: () => 0.3 })[0]!)).toEqual(['B']);
  });

  it('a condition compares a variable and follows a (true) or b (false)', () => {
    const g = graphOf(
      [
        start,
        node('q', 'question', { typebotIntegration: { message: 'Idade?', answerKey: 'idade' } }),
        node('c', 'condition', { key: 'idade', condition: 2, value: '18' }),
        node('a', 'message', { label: 'adulto' }),
        node('b', 'message', { label: 'menor' }),
      ],
      [edge('1', 'q'), edge('q', 'c'), edge('c', 'a', 'a'), edge('c', 'b', 'b')],
    );
    expect(texts(run(g, [{ kind: 'start' }, { kind: 'answer', body: '21' }])[1]!)).toEqual(['adulto']);
    expect(texts(run(g, [{ kind: 'start' }, { kind: 'answer', body: '9' }])[1]!)).toEqual(['menor']);
  });

  it('an interval waits for its due time, then goes on', () => {
    const g = graphOf(
      [
        start,
        node('i', 'interval', { label: 'Intervalo 5 seg.', sec: '5' }),
        node('m', 'message', { label: 'depois' }),
      ],
      [edge('1', 'i'), edge('i', 'm')],
    );
    const [a, resumed, again] = run(g, [{ kind: 'start' }, { kind: 'due' }, { kind: 'due' }]);
    expect(a!.resumeInSeconds).toBe(5);
    expect(a!.state).toMatchObject({ status: 'waiting', wait: 'interval', nodeId: 'i' });
    expect(texts(resumed!)).toEqual(['depois']);
    expect(again!.actions).toEqual([]);
  });

  it('an interval inside a content block parks the run where the block goes on (restart-safe), then the rest', () => {
    const g = graphOf(
      [
        start,
        node('blk', 'singleBlock', {
          seq: ['message0', 'interval1', 'message2', 'interval3', 'interval4'],
          elements: [
            { type: 'message', value: 'antes', number: 'message0' },
            { type: 'interval', value: '30', number: 'interval1' },
            { type: 'message', value: 'depois', number: 'message2' },
            { type: 'interval', value: '0', number: 'interval3' },
            { type: 'interval', value: '5', number: 'interval4' },
          ],
        }),
        node('m', 'message', { label: 'fim' }),
      ],
      [edge('1', 'blk'), edge('blk', 'm')],
    );
    const [a, b, c, d] = run(g, [{ kind: 'start' }, { kind: 'due' }, { kind: 'due' }, { kind: 'due' }]);
    expect(a!.actions).toEqual([{ type: 'text', body: 'antes' }]);
    expect(a!.resumeInSeconds).toBe(30);
    expect(a!.state).toMatchObject({ status: 'waiting', wait: 'interval', nodeId: 'blk', retries: 2 });
    // the due time (from the state alone, as after a restart): the rest up to the next interval
    expect(b!.actions).toEqual([{ type: 'text', body: 'depois' }]);
    expect(b!.resumeInSeconds).toBe(5);
    expect(b!.state).toMatchObject({ status: 'waiting', nodeId: 'blk', retries: 5 });
    expect(texts(c!)).toEqual(['fim']);
    expect(c!.state).toMatchObject({ status: 'done', retries: 0 });
    expect(c!.steps.map((s) => [s.nodeId, s.status])).toEqual([
      ['blk', 'running'],
      ['m', 'running'],
      ['m', 'done'],
    ]);
    expect(d!.actions).toEqual([]);
  });

  it('media nodes and a content block send in seq order with typing delays and pauses', () => {
    const g = graphOf(
      [
        start,
        node('img', 'img', { url: 'a.png' }),
        node('aud', 'audio', { url: 'b.ogg', record: true }),
        node('vid', 'video', { url: 'c.mp4' }),
        node('blk', 'singleBlock', {
          seq: ['img1', 'message0', 'interval2'],
          elements: [
            { type: 'message', value: 'texto {{nome}}', number: 'message0' },
            { type: 'img', value: 'd.png', original: 'x.png', number: 'img1' },
            { type: 'interval', value: '2', number: 'interval2' },
          ],
        }),
      ],
      [edge('1', 'img'), edge('img', 'aud'), edge('aud', 'vid'), edge('vid', 'blk')],
    );
    const [r] = run(g, [{ kind: 'start' }], { ...opts, typingMs: 3000, gapMs: 1000 });
    expect(r!.actions).toEqual([
      { type: 'media', file: 'a.png', kind: 'image', record: false },
      { type: 'media', file: 'b.ogg', kind: 'audio', record: true },
      { type: 'media', file: 'c.mp4', kind: 'video', record: false },
      { type: 'media', file: 'd.png', kind: 'image', record: false },
      { type: 'sleep', ms: 1000 },
      { type: 'sleep', ms: 3000 },
      { type: 'text', body: 'texto {{nome}}' },
      { type: 'sleep', ms: 1000 },
    ]);
    // the block's last element, an interval, parks the run
    expect(r!.resumeInSeconds).toBe(2);
    expect(r!.state).toMatchObject({ status: 'waiting', wait: 'interval', nodeId: 'blk', retries: 3 });
  });

  it('a ticket node hands over to its queue and ends the run', () => {
    const g = graphOf(
      [start, node('t', 'ticket', { data: { id: 7, name: 'Vendas' } }), node('m', 'message', { label: 'nunca' })],
      [edge('1', 't'), edge('t', 'm')],
    );
    const [r] = run(g, [{ kind: 'start' }]);
    expect(r!.handover).toEqual({ kind: 'queue', queueId: 7 });
    expect(r!.state.status).toBe('done');
    expect(texts(r!)).toEqual([]);
  });

  it('OpenAI and Typebot nodes park the run and answer every later message', () => {
    const g = graphOf(
      [start, node('ai', 'openai', { typebotIntegration: { name: 'Bot', apiKey: 'k', prompt: 'p' } })],
      [edge('1', 'ai')],
    );
    const [a, b] = run(g, [
      { kind: 'start', body: 'oi' },
      { kind: 'answer', body: 'preço?' },
    ]);
    expect(a!.actions).toMatchObject([{ type: 'ai', body: 'oi' }]);
    expect(a!.state).toMatchObject({ status: 'waiting', wait: 'bot' });
    expect(b!.actions).toMatchObject([{ type: 'ai', body: 'preço?' }]);
    const t = graphOf([start, node('tb', 'typebot', { typebotIntegration: { typebotSlug: 's' } })], [edge('1', 'tb')]);
    expect(run(t, [{ kind: 'start', body: 'x' }])[0]!.actions).toMatchObject([{ type: 'typebot', body: 'x' }]);
  });
});
