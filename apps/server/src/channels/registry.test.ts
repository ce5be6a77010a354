import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness';
import type { TDatabase } from '../db/client';
import { createChannelRegistry } from './registry';
import type { TChannelEvents, TChannelSession, TConnectionState } from './types';

let database: TDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const silent = {
  child: () => silent,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as never;

describe('channel registry', () => {
  it('a replaced session’s late state report is dropped: it never overwrites the new session’s', async () => {
    const { rows } = await database.executeSql(
      "insert into companies (name, email) values ('Registry', 'registry@zelo.test') returning id",
    );
    const companyId = (rows[0] as { id: number }).id;
    const made = await database.executeSql(
      "insert into whatsapps (company_id, name, provider, status) values ($1, 'R', 'sandbox', 'OPENING') returning id",
      [companyId],
    );
    const id = (made.rows[0] as { id: number }).id;
    const created: { events: TChannelEvents }[] = [];
    const registry = createChannelRegistry({
      db: database.db,
      log: silent,
      singleNode: true,
      drivers: {
        sandbox: (connection, events) => {
          created.push({ events });
          return {
            connectionId: connection.id,
            provider: 'sandbox',
            start: async () => undefined,
            stop: async () => undefined,
          } as unknown as TChannelSession;
        },
      },
    });
    const seen: TConnectionState[] = [];
    registry.setEvents({ onState: async (s) => void seen.push(s) });
    const ref = { id, companyId, provider: 'sandbox' as const };
    await registry.start(ref);
    await registry.restart(id);
    expect(created).toHaveLength(2);
    await created[1].events.onState({ connectionId: id, status: 'CONNECTED' });
    // the first session's Graph check or retry timer finishing late
    await created[0].events.onState({ connectionId: id, status: 'OPENING', retries: 3 });
    expect(seen.map((s) => s.status)).toEqual(['CONNECTED']);
    expect(registry.state(id)?.status).toBe('CONNECTED');
    await registry.close();
  });
});
