import { describe, expect, it } from 'vitest';
import { createListAnswers } from './list-answers';

/** a load that counts its reads and answers what `value` holds when it is read */
const source = (initial: string) => {
  const state = { value: initial, reads: 0 };
  const load = async () => {
    state.reads++;
    return Buffer.from(state.value);
  };

  return { state, load };
};

const text = async (answer: Promise<Buffer>) => (await answer).toString();

describe('the ticket list answers kept until a change', () => {
  it('keeps an answer until its company hears of a change, whatever other companies hear', async () => {
    const answers = createListAnswers();
    const { state, load } = source('one');
    expect(await text(answers.answer(1, 'k', load))).toBe('one');
    state.value = 'two';
    expect(await text(answers.answer(1, 'k', load))).toBe('one');
    answers.changed(2);
    expect(await text(answers.answer(1, 'k', load))).toBe('one');
    expect(state.reads).toBe(1);
    answers.changed(1);
    expect(await text(answers.answer(1, 'k', load))).toBe('two');
    expect(state.reads).toBe(2);
  });

  it('keeps answers apart by their statement', async () => {
    const answers = createListAnswers();
    expect(await text(answers.answer(1, 'a', async () => Buffer.from('A')))).toBe('A');
    expect(await text(answers.answer(1, 'b', async () => Buffer.from('B')))).toBe('B');
    expect(await text(answers.answer(1, 'a', async () => Buffer.from('other')))).toBe('A');
  });

  it('requests that arrive during a read share it', async () => {
    const answers = createListAnswers();
    let release!: () => void;
    let reads = 0;
    const load = () => {
      reads++;
      return new Promise<Buffer>((done) => {
        release = () => done(Buffer.from('shared'));
      });
    };
    const waiting = Array.from({ length: 20 }, () => answers.answer(1, 'k', load));
    release();
    expect(await Promise.all(waiting.map(text))).toEqual(Array(20).fill('shared'));
    expect(reads).toBe(1);
  });

  it('does not keep an answer read while a change was announced, nor hand it to a request made after it', async () => {
    const answers = createListAnswers();
    let release!: (value: string) => void;
    const slow = () =>
      new Promise<Buffer>((done) => {
        release = (value) => done(Buffer.from(value));
      });
    const before = answers.answer(1, 'k', slow);
    answers.changed(1);
    const { state, load } = source('after');
    const after = answers.answer(1, 'k', load);
    release('before');
    expect(await text(before)).toBe('before');
    expect(await text(after)).toBe('after');
    expect(await text(answers.answer(1, 'k', load))).toBe('after');
    expect(state.reads).toBe(1);
  });

  it('forgets an answer whose read was under way when its company changed', async () => {
    const answers = createListAnswers();
    let release!: () => void;
    const slow = () =>
      new Promise<Buffer>((done) => {
        release = () => done(Buffer.from('old'));
      });
    const first = answers.answer(1, 'k', slow);
    answers.changed(1);
    release();
    await first;
    const { state, load } = source('new');
    expect(await text(answers.answer(1, 'k', load))).toBe('new');
    expect(state.reads).toBe(1);
  });

  it('does not keep a failed read', async () => {
    const answers = createListAnswers();
    await expect(answers.answer(1, 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(answers.size()).toBe(0);
    expect(await text(answers.answer(1, 'k', async () => Buffer.from('up')))).toBe('up');
  });

  it('reads again once an answer is older than its time to live', async () => {
    const answers = createListAnswers({ ttlMs: 20 });
    const { state, load } = source('one');
    await answers.answer(1, 'k', load);
    state.value = 'two';
    await new Promise((r) => setTimeout(r, 30));
    expect(await text(answers.answer(1, 'k', load))).toBe('two');
  });

  it('keeps at most its number of answers, dropping the oldest', async () => {
    const answers = createListAnswers({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await answers.answer(1, key, async () => Buffer.from(key));
    expect(answers.size()).toBe(3);
    const { state, load } = source('a again');
    expect(await text(answers.answer(1, 'a', load))).toBe('a again');
    expect(await text(answers.answer(1, 'd', load))).toBe('d');
    expect(state.reads).toBe(1);
  });

  it('reads every time when turned off', async () => {
    const answers = createListAnswers({ enabled: false });
    const { state, load } = source('x');
    await answers.answer(1, 'k', load);
    await answers.answer(1, 'k', load);
    expect(state.reads).toBe(2);
  });
});

describe('answers kept with a scope', () => {
  const inQueue = (queueId: number) => (p: { queueId: number | null }) => p.queueId === queueId;
  const place = (queueId: number | null) => ({ status: 'open', queueId, userId: null });

  it('are stale only after a change of a ticket their scope admits, or an unsaid change', async () => {
    const answers = createListAnswers();
    const { state, load } = source('one');
    await answers.answer(1, 'k', load, inQueue(7));
    state.value = 'two';
    answers.changed(1, { places: [place(8), place(null)] });
    answers.changed(1, { places: [] });
    expect(await text(answers.answer(1, 'k', load, inQueue(7)))).toBe('one');
    answers.changed(1, { places: [place(8), place(7)] });
    expect(await text(answers.answer(1, 'k', load, inQueue(7)))).toBe('two');
    state.value = 'three';
    answers.changed(1);
    expect(await text(answers.answer(1, 'k', load, inQueue(7)))).toBe('three');
    expect(state.reads).toBe(3);
  });

  it('an answer without a scope is stale after every change of its company, a receipt too', async () => {
    const answers = createListAnswers();
    const { state, load } = source('one');
    await answers.answer(1, 'k', load);
    answers.changed(1, { places: [] });
    state.value = 'two';
    expect(await text(answers.answer(1, 'k', load))).toBe('two');
    expect(state.reads).toBe(2);
  });

  it('a read under way is kept through changes it does not touch and dropped by one it does', async () => {
    const answers = createListAnswers();
    let release!: (value: string) => void;
    const slow = () =>
      new Promise<Buffer>((done) => {
        release = (value) => done(Buffer.from(value));
      });
    const first = answers.answer(1, 'k', slow, inQueue(7));
    answers.changed(1, { places: [place(8)] });
    const { state, load } = source('fresh');
    // the change did not touch it: a request now shares the read
    const shared = answers.answer(1, 'k', load, inQueue(7));
    answers.changed(1, { places: [place(7)] });
    // this one did: a request made after it reads again
    const after = answers.answer(1, 'k', load, inQueue(7));
    release('read before');
    expect(await text(first)).toBe('read before');
    expect(await text(shared)).toBe('read before');
    expect(await text(after)).toBe('fresh');
    expect(await text(answers.answer(1, 'k', load, inQueue(7)))).toBe('fresh');
    expect(state.reads).toBe(1);
  });

  it("one company's changes leave another's scoped answers alone", async () => {
    const answers = createListAnswers();
    const { state, load } = source('one');
    await answers.answer(1, 'k', load, inQueue(7));
    answers.changed(2, { places: [place(7)] });
    answers.changed(2);
    expect(await text(answers.answer(1, 'k', load, inQueue(7)))).toBe('one');
    expect(state.reads).toBe(1);
  });
});
