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
