import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher';

const tick = () => new Promise((r) => setImmediate(r));

describe('createBatcher (group commit)', () => {
  it('takes what arrived in one turn as one batch, and what arrives during a batch as the next', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const batcher = createBatcher<number, string>({
      maxSize: 100,
      concurrency: 1,
      run: async (items) => {
        batches.push(items);
        if (batches.length === 1) {
          await new Promise<void>((r) => {
            release = r;
          });
        }
        return items.map((n) => `#${n}`);
      },
    });
    const first = [1, 2, 3].map((n) => batcher.submit(n));
    await tick();
    const second = [4, 5].map((n) => batcher.submit(n));
    await tick();
    expect(batches).toEqual([[1, 2, 3]]);
    expect(batcher.pending()).toBe(3);
    release();
    expect(await Promise.all([...first, ...second])).toEqual(['#1', '#2', '#3', '#4', '#5']);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(batcher.pending()).toBe(0);
  });

  it('cuts batches at maxSize, runs up to `concurrency` at once and keeps the arrival order', async () => {
    const batches: number[][] = [];
    let running = 0;
    let most = 0;
    const batcher = createBatcher<number, number>({
      maxSize: 4,
      concurrency: 2,
      run: async (items) => {
        running += 1;
        most = Math.max(most, running);
        batches.push(items);
        await new Promise((r) => setTimeout(r, 5));
        running -= 1;
        return items.map((n) => n * 10);
      },
    });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => batcher.submit(i)));
    expect(answers).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(batches.flat()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(Math.max(...batches.map((b) => b.length))).toBe(4);
    expect(most).toBe(2);
  });

  it('fails every item of a batch that throws, and goes on with the next batch', async () => {
    const batcher = createBatcher<number, number>({
      maxSize: 10,
      concurrency: 1,
      run: async (items) => {
        if (items.includes(13)) throw new Error('unlucky batch');
        return items;
      },
    });
    const bad = [batcher.submit(12), batcher.submit(13)];
    const outcomes = await Promise.allSettled(bad);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(await batcher.submit(14)).toBe(14);
  });
});
