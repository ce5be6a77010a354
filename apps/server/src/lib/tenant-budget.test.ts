import { afterEach, describe, expect, it } from 'vitest';
import { createTenantBudget, type TBudgetLimits, type TRelease } from './tenant-budget';

/**
 * The fair share of lib/tenant-budget.ts: a company over its budget waits (or is refused) while another proceeds,
 * and nothing that waits is lost. Orders and counts are asserted, never durations.
 */

const budgets: { stop: () => void }[] = [];
/** the budgets' clock: time passes only when a test says so */
let clock = 0;
const budget = (limits: Partial<TBudgetLimits>) => {
  clock = 0;
  const b = createTenantBudget(
    'test',
    {
      ratePerSecond: 1000,
      burst: 1000,
      concurrency: 2,
      serverConcurrency: 100,
      ...limits,
    },
    () => clock,
  );
  budgets.push(b);

  return b;
};
afterEach(() => {
  for (const b of budgets.splice(0)) b.stop();
});

const A = 1;
const B = 2;
const tick = () => new Promise((r) => setImmediate(r));
/** lets `seconds` pass on the budgets' clock, then lets their timers and the tasks run */
const pass = async (seconds: number) => {
  clock += seconds * 1000;
  await new Promise((r) => setTimeout(r, 10));
};

describe('tenant budget', () => {
  it("serves a company arriving after another's long queue before the rest of that queue", async () => {
    const b = budget({ concurrency: 2 });
    const order: string[] = [];
    const held: TRelease[] = [];
    // company A queues 50 tasks; two run, 48 wait
    const a = Array.from({ length: 50 }, (_, i) =>
      b.take(A, 'wait').then((release) => {
        order.push(`A${i}`);
        held.push(release);
      }),
    );
    await tick();
    expect(order).toEqual(['A0', 'A1']);
    expect(b.state(A)).toMatchObject({ active: 2, waiting: 48 });
    // company B is not behind A's queue: it has slots of its own
    const releaseB = await b.take(B, 'wait');
    order.push('B0');
    expect(order).toEqual(['A0', 'A1', 'B0']);
    releaseB();
    // A's waiting tasks go one by one as its slots free, none lost
    while (held.length > 0) {
      held.shift()!();
      await tick();
    }
    await Promise.all(a);
    expect(order.filter((o) => o.startsWith('A'))).toHaveLength(50);
    expect(order.slice(3)).toEqual(Array.from({ length: 48 }, (_, i) => `A${i + 2}`));
  });

  it('takes turns between waiting companies when the server total is the limit', async () => {
    const b = budget({ concurrency: 10, serverConcurrency: 1 });
    const order: string[] = [];
    const first = await b.take(A, 'wait');
    // each task ends as soon as it starts
    const task = (company: number, name: string) =>
      b.take(company, 'wait').then((release) => {
        order.push(name);
        release();
      });
    const waits = [...[0, 1, 2].map((i) => task(A, `A${i}`)), ...[0, 1, 2].map((i) => task(B, `B${i}`))];
    first();
    await Promise.all(waits);
    // one slot on the server: A and B alternate instead of A's queue going first
    expect(order).toEqual(['A0', 'B0', 'A1', 'B1', 'A2', 'B2']);
  });

  it('refuses a company over its budget with ERR_TENANT_BUSY, and grants another', async () => {
    const b = budget({ concurrency: 1 });
    const release = await b.take(A, 'refuse');
    await expect(b.take(A, 'refuse')).rejects.toMatchObject({ code: 'ERR_TENANT_BUSY' });
    (await b.take(B, 'refuse'))();
    release();
    (await b.take(A, 'refuse'))();
  });

  it('spends tokens: past its burst a company waits for its rate, and every waiting task still runs', async () => {
    const b = budget({ ratePerSecond: 200, burst: 3, concurrency: 100 });
    const done: number[] = [];
    const tasks = Array.from({ length: 8 }, (_, i) => b.run(A, 'wait', async () => void done.push(i)));
    await tick();
    // the burst ran at once; the rest wait for tokens
    expect(done).toEqual([0, 1, 2]);
    await expect(b.take(A, 'refuse')).rejects.toMatchObject({ code: 'ERR_TENANT_BUSY' });
    // another company's bucket is its own
    (await b.take(B, 'refuse'))();
    // no time passed: nothing more ran; as time passes the rest run, in order, none lost
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toEqual([0, 1, 2]);
    while (done.length < 8) await pass(0.01);
    await Promise.all(tasks);
    expect(done).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('makes a company pay for what a task did: in debt, its next task waits while another company goes', async () => {
    const b = budget({ ratePerSecond: 100, burst: 5, concurrency: 10 });
    (await b.take(A, 'wait', 0))();
    b.charge(A, 20);
    expect(b.state(A).tokens).toBeLessThan(0);
    await expect(b.take(A, 'refuse', 0)).rejects.toMatchObject({ code: 'ERR_TENANT_BUSY' });
    const order: string[] = [];
    const a = b.run(A, 'wait', async () => void order.push('A'), 0);
    await b.run(B, 'wait', async () => void order.push('B'), 0);
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['B']);
    // the debt is paid off by its rate (0.16 s at 100 a second), then A's task runs
    await pass(0.1);
    expect(order).toEqual(['B']);
    await pass(0.1);
    await a;
    expect(order).toEqual(['B', 'A']);
  });
});
