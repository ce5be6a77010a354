import type { TUser } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import { flattenUsers, removeUser, type TUsersData, upsertUser } from './usersCache';

const user = (id: number, name: string): TUser => ({
  id,
  companyId: 1,
  name,
  email: `${name.toLowerCase()}@zelo.test`,
  profile: 'user',
  super: false,
  online: false,
  allTicket: 'desabled',
  canSeeTicketsWithoutQueue: false,
  whatsappId: null,
  whatsapp: null,
  language: null,
  queues: [],
  queueIds: [],
  company: { id: 1, name: 'Zelo', dueDate: null },
  createdAt: '',
  updatedAt: '',
});

const data = (): TUsersData => ({
  pages: [
    { users: [user(1, 'Ana'), user(2, 'Bruno')], hasMore: true, count: 3 },
    { users: [user(3, 'Carla')], hasMore: false, count: 3 },
  ],
  pageParams: [1, 2],
});

describe('upsertUser', () => {
  it('should replace a listed user in place', () => {
    const next = upsertUser(data(), { ...user(3, 'Carla'), name: 'Carla Souza' });
    expect(flattenUsers(next).map((u) => u.name)).toEqual(['Ana', 'Bruno', 'Carla Souza']);
  });

  it('should put a new user at the top when it matches the search', () => {
    expect(flattenUsers(upsertUser(data(), user(4, 'Diego'))).map((u) => u.id)).toEqual([4, 1, 2, 3]);
    expect(flattenUsers(upsertUser(data(), user(4, 'Diego'), 'dieg')).map((u) => u.id)).toEqual([4, 1, 2, 3]);
  });

  it('should leave a searched list alone when the new user does not match', () => {
    const before = data();
    expect(upsertUser(before, user(4, 'Diego'), 'ana')).toBe(before);
  });
});

describe('removeUser', () => {
  it('should drop the user from whichever page holds it', () => {
    expect(flattenUsers(removeUser(data(), 2)).map((u) => u.id)).toEqual([1, 3]);
    expect(removeUser(undefined, 2)).toBeUndefined();
  });
});
