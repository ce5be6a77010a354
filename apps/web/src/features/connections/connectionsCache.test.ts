import type { TConnection } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import { applySessionUpdate, upsertConnection } from './connectionsCache';

const base = {
  id: 7,
  name: 'Loja',
  status: 'OPENING',
  qrcode: '',
  retries: 0,
  phoneNumber: '',
  updatedAt: '2026-11-22T10:00:00.000Z',
} as unknown as TConnection;

describe('the connections list cache', () => {
  it('an answer read before a session update does not put the older state back', () => {
    const live = applySessionUpdate([base], {
      id: 7,
      status: 'CONNECTED',
      phoneNumber: '5511999990000',
      updatedAt: '2026-11-22T10:00:02.000Z',
    });
    const answered = { ...base, name: 'Loja Centro', updatedAt: '2026-11-22T10:00:01.000Z' };
    expect(upsertConnection(live, answered)?.[0]).toMatchObject({
      name: 'Loja Centro',
      status: 'CONNECTED',
      phoneNumber: '5511999990000',
    });
  });

  it('a newer answer replaces the session state', () => {
    const answered = { ...base, status: 'DISCONNECTED', updatedAt: '2026-11-22T10:00:05.000Z' } as TConnection;
    expect(upsertConnection([base], answered)?.[0].status).toBe('DISCONNECTED');
    expect(upsertConnection([], answered)).toEqual([answered]);
  });
});
