import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { TQueueOption } from '@zelo/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** the server: option rows, numbered per level, renumbered after a delete (as modules/queue-options does) */
const server = vi.hoisted(() => {
  const rows: TQueueOption[] = [];
  const calls: string[] = [];
  const level = (parentId: number | null) => rows.filter((r) => r.parentId === parentId);

  return { rows, calls, level };
});

vi.mock('../../api/http', () => ({
  api: {
    get: async (_url: string, opts: { params: { parentId: number } }) => {
      server.calls.push(`GET ${opts.params.parentId}`);
      const parentId = opts.params.parentId === -1 ? null : opts.params.parentId;

      return server.level(parentId).map((r) => ({ ...r }));
    },
    post: async (_url: string, body: { queueId: number; parentId: number | null; title: string; message: string }) => {
      server.calls.push(`POST ${body.parentId}`);
      const row = { id: server.rows.length + 1, option: String(server.level(body.parentId).length + 1), ...body };
      server.rows.push(row);

      return row;
    },
    put: async (url: string, fields: { title: string; message: string }) => {
      server.calls.push(`PUT ${url}`);
      const row = server.rows.find((r) => url.endsWith(`/${r.id}`)) as TQueueOption;
      Object.assign(row, fields);

      return { ...row };
    },
    delete: async (url: string) => {
      server.calls.push(`DELETE ${url}`);
      const row = server.rows.find((r) => url.endsWith(`/${r.id}`)) as TQueueOption;
      server.rows.splice(server.rows.indexOf(row), 1);
      server.level(row.parentId).forEach((r, i) => {
        r.option = String(i + 1);
      });
    },
  },
}));

const { optionsLevelKey, optionsWrites } = await import('./useQueueOptions');
const { api } = await import('../../api/http');

/** a level as a screen watching it sees it (an active query refetches when invalidated) */
const watch = (client: QueryClient, parentId: number | null) => {
  const observer = new QueryObserver(client, {
    queryKey: optionsLevelKey(7, parentId),
    queryFn: () => api.get<TQueueOption[]>('/queue-options', { params: { queueId: 7, parentId: parentId ?? -1 } }),
  });
  const unsubscribe = observer.subscribe(() => undefined);
  const shown = () =>
    (client.getQueryData<TQueueOption[]>(optionsLevelKey(7, parentId)) ?? []).map((o) => `${o.option} ${o.title}`);

  return {
    shown,
    unsubscribe,
    settled: () => vi.waitFor(() => expect(observer.getCurrentResult().isFetching).toBe(false)),
  };
};

afterEach(() => {
  server.rows.splice(0);
  server.calls.splice(0);
});

describe('the options tree writes', () => {
  it('an added option shows in its level with the number the server gave it', async () => {
    const client = new QueryClient();
    const writes = optionsWrites(client, 7);
    const top = watch(client, null);
    await top.settled();
    await writes.add(null, { title: 'Vendas', message: '' });
    await writes.add(null, { title: 'Suporte', message: '' });
    expect(top.shown()).toEqual(['1 Vendas', '2 Suporte']);
    // a child goes to its parent's level, which is asked only once shown
    await writes.add(1, { title: 'Planos', message: 'R$ 10' });
    expect(server.calls.filter((c) => c === 'GET 1')).toEqual([]);
    const child = watch(client, 1);
    await child.settled();
    expect(child.shown()).toEqual(['1 Planos']);
    top.unsubscribe();
    child.unsubscribe();
  });

  it('a delete reloads its siblings renumbered and forgets its own sub-level; an edit stays in place', async () => {
    const client = new QueryClient();
    const writes = optionsWrites(client, 7);
    for (const title of ['A', 'B', 'C']) await writes.add(null, { title, message: '' });
    await writes.add(2, { title: 'B1', message: '' });
    const top = watch(client, null);
    const ofB = watch(client, 2);
    await top.settled();
    await ofB.settled();
    expect(ofB.shown()).toEqual(['1 B1']);
    ofB.unsubscribe();

    const b = client.getQueryData<TQueueOption[]>(optionsLevelKey(7, null))?.[1] as TQueueOption;
    await writes.remove(b);
    await top.settled();
    expect(top.shown()).toEqual(['1 A', '2 C']);
    expect(client.getQueryData(optionsLevelKey(7, 2))).toBeUndefined();

    const c = client.getQueryData<TQueueOption[]>(optionsLevelKey(7, null))?.[1] as TQueueOption;
    const gets = server.calls.length;
    await writes.update(c, { title: 'C renamed', message: 'Hi' });
    expect(top.shown()).toEqual(['1 A', '2 C renamed']);
    // the answer of the PUT is enough: no level read again
    expect(server.calls.slice(gets)).toEqual([`PUT /queue-options/${c.id}`]);
    top.unsubscribe();
  });
});
