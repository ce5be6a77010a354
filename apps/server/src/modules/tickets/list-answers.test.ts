import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createListAnswers, type TListAnswers, type TListPatch, type TListScope } from './list-answers';

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

describe('answers kept with a patch', () => {
  const inQueue = (queueId: number) => (p: { queueId: number | null }) => p.queueId === queueId;
  const place = (queueId: number | null) => ({ status: 'open', queueId, userId: null });
  const tick = () => new Promise((r) => setTimeout(r, 5));
  /** a patch that appends the changed rows' ids once `release` is called (or answers `undefined`: cannot) */
  const patcher = () => {
    const calls: number[][] = [];
    const waiting: ((ok?: boolean) => void)[] = [];
    const patch = (kept: Buffer, change: { rows: number[] }) => {
      calls.push(change.rows);
      return new Promise<Buffer | undefined>((done) => {
        waiting.push((ok = true) => done(ok ? Buffer.from(`${kept.toString()}+${change.rows.join(',')}`) : undefined));
      });
    };
    /** the patches asked so far answer */
    const release = async (ok?: boolean) => {
      await tick();
      for (const answer of waiting.splice(0)) answer(ok);
    };

    return { calls, patch, release };
  };

  it('a change of rows patches the kept answer: requests after it wait for the patch, never get the old answer', async () => {
    const answers = createListAnswers();
    const { state, load } = source('page');
    const p = patcher();
    await answers.answer(1, 'k', load, inQueue(7), p.patch);
    answers.changed(1, { places: [place(7)], rows: [42] });
    const after = answers.answer(1, 'k', load, inQueue(7), p.patch);
    let answered = false;
    void after.then(() => {
      answered = true;
    });
    await tick();
    expect(answered).toBe(false);
    await p.release();
    expect(await text(after)).toBe('page+42');
    // kept as patched, and patched again from there
    answers.changed(1, { places: [place(7)], rows: [43] });
    const again = answers.answer(1, 'k', load, inQueue(7), p.patch);
    await p.release();
    expect(await text(again)).toBe('page+42+43');
    expect(state.reads).toBe(1);
    expect(p.calls).toEqual([[42], [43]]);
    expect(answers.counts()).toEqual({ patched: 2, dropped: 0 });
  });

  it('the changes between two requests make one patch, made by the request; one during a patch follows on from it', async () => {
    const answers = createListAnswers();
    const { state, load } = source('page');
    const p = patcher();
    await answers.answer(1, 'k', load, inQueue(7), p.patch);
    answers.changed(1, { places: [place(7)], rows: [1] });
    answers.changed(1, { places: [place(8)], rows: [2] });
    answers.changed(1, { places: [place(7)], rows: [3] });
    await tick();
    // nobody asked yet
    expect(p.calls).toEqual([]);
    const first = answers.answer(1, 'k', load, inQueue(7), p.patch);
    await tick();
    expect(p.calls).toEqual([[1, 3]]);
    answers.changed(1, { places: [place(7)], rows: [4] });
    const during = answers.answer(1, 'k', load, inQueue(7), p.patch);
    await p.release();
    expect(await text(first)).toBe('page+1,3');
    await p.release();
    expect(await text(during)).toBe('page+1,3+4');
    expect(p.calls).toEqual([[1, 3], [4]]);
    expect(state.reads).toBe(1);
  });

  it('a patch that cannot reads the whole answer again, after the change', async () => {
    const answers = createListAnswers();
    const { state, load } = source('one');
    const p = patcher();
    await answers.answer(1, 'k', load, inQueue(7), p.patch);
    answers.changed(1, { places: [place(7)], rows: [42] });
    state.value = 'two';
    const after = answers.answer(1, 'k', load, inQueue(7), p.patch);
    await p.release(false);
    expect(await text(after)).toBe('two');
    expect(state.reads).toBe(2);
  });

  it('is dropped by a change that is not of rows and by one during its first read, and left by one out of scope', async () => {
    const answers = createListAnswers();
    const { state, load } = source('one');
    const p = patcher();
    await answers.answer(1, 'k', load, inQueue(7), p.patch);
    answers.changed(1, { places: [place(8)], rows: [5] });
    answers.changed(1, { places: [place(7)] });
    state.value = 'two';
    expect(await text(answers.answer(1, 'k', load, inQueue(7), p.patch))).toBe('two');
    expect(p.calls).toEqual([]);

    // a change of rows while the answer is first read (that read may be from before it)
    let release!: (value: string) => void;
    const slow = () =>
      new Promise<Buffer>((done) => {
        release = (value) => done(Buffer.from(value));
      });
    answers.changed(1);
    const reading = answers.answer(1, 'k', slow, inQueue(7), p.patch);
    answers.changed(1, { places: [place(7)], rows: [42] });
    state.value = 'three';
    const after = answers.answer(1, 'k', load, inQueue(7), p.patch);
    release('read before');
    expect(await text(reading)).toBe('read before');
    expect(await text(after)).toBe('three');
    expect(p.calls).toEqual([]);
    expect(state.reads).toBe(3);
  });

  it('a patch that fails reads the whole answer again', async () => {
    const answers = createListAnswers();
    const { state, load } = source('one');
    await answers.answer(1, 'k', load, inQueue(7), () => Promise.reject(new Error('down')));
    state.value = 'two';
    answers.changed(1, { places: [place(7)], rows: [1] });
    expect(await text(answers.answer(1, 'k', load, inQueue(7)))).toBe('two');
    expect(state.reads).toBe(2);
  });
});

describe('answers read again ahead of their time running out', () => {
  /** a load whose reads wait until released, each with what `value` holds at its release */
  const gated = (initial: string) => {
    const state = { value: initial, reads: 0 };
    const waiting: Array<() => void> = [];
    const load = () => {
      state.reads++;
      return new Promise<Buffer>((done) => {
        waiting.push(() => done(Buffer.from(state.value)));
      });
    };
    /** answers the reads waiting (the first `n` of them) */
    const release = async (n?: number) => {
      for (const done of waiting.splice(0, n ?? waiting.length)) done();
      await new Promise((r) => setTimeout(r, 0));
    };

    /** the first read of 'k', answered at once */
    const readFirst = async (answers: TListAnswers, ...kept: [TListScope?, TListPatch<Buffer>?]) => {
      const first = answers.answer(1, 'k', load, ...kept);
      await release();
      return text(first);
    };

    return { state, load, release, readFirst };
  };
  // the clock moved by hand (Date only: timers and promises run as usual)
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const advance = (ms: number) => {
    vi.setSystemTime(Date.now() + ms);
  };

  it('hands out the kept answer while it is read again near the end of its time, then the new one', async () => {
    // a read of ~0 ms is read again in the last 50 ms of its 200
    const answers = createListAnswers({ ttlMs: 200 });
    const { state, load, release, readFirst } = gated('one');
    expect(await readFirst(answers)).toBe('one');
    state.value = 'two';
    expect(await text(answers.answer(1, 'k', load))).toBe('one');
    expect(state.reads).toBe(1);
    advance(170);
    // answered at once with the kept answer, a read under way behind it (one, however many ask)
    expect(await text(answers.answer(1, 'k', load))).toBe('one');
    expect(await text(answers.answer(1, 'k', load))).toBe('one');
    expect(state.reads).toBe(2);
    await release();
    expect(await text(answers.answer(1, 'k', load))).toBe('two');
    expect(state.reads).toBe(2);
    // the new read lives its own time to live from when it began
    advance(60);
    expect(await text(answers.answer(1, 'k', load))).toBe('two');
    expect(state.reads).toBe(2);
  });

  it('a change announced while it is read again keeps that read out: the request after the change reads anew', async () => {
    const answers = createListAnswers({ ttlMs: 200 });
    const { state, load, release, readFirst } = gated('one');
    await readFirst(answers);
    advance(170);
    expect(await text(answers.answer(1, 'k', load))).toBe('one');
    expect(state.reads).toBe(2);
    answers.changed(1);
    const after = answers.answer(1, 'k', load);
    expect(state.reads).toBe(3);
    // the read ahead ends after the change, with what it read before it
    state.value = 'read before the change';
    await release(1);
    state.value = 'after the change';
    await release();
    expect(await text(after)).toBe('after the change');
    expect(await text(answers.answer(1, 'k', load))).toBe('after the change');
    expect(state.reads).toBe(3);
  });

  it('a change of rows while it is read again is patched into the kept answer, and the read is not kept', async () => {
    const answers = createListAnswers({ ttlMs: 200 });
    const { state, load, release, readFirst } = gated('page');
    const patch = async (kept: Buffer, change: { rows: number[] }) => Buffer.from(`${kept}+${change.rows}`);
    const scope = () => true;
    await readFirst(answers, scope, patch);
    advance(170);
    expect(await text(answers.answer(1, 'k', load, scope, patch))).toBe('page');
    expect(state.reads).toBe(2);
    answers.changed(1, { places: [{ status: 'open', queueId: 1, userId: null }], rows: [9] });
    state.value = 'read before the change';
    await release();
    expect(await text(answers.answer(1, 'k', load, scope, patch))).toBe('page+9');
    expect(state.reads).toBe(2);
  });

  it('is not read ahead when nobody asks: past its time it is read as before', async () => {
    const answers = createListAnswers({ ttlMs: 60 });
    const { state, load, release, readFirst } = gated('one');
    await readFirst(answers);
    advance(80);
    expect(state.reads).toBe(1);
    state.value = 'two';
    const later = answers.answer(1, 'k', load);
    await release();
    expect(await text(later)).toBe('two');
    expect(state.reads).toBe(2);
  });
});
