/**
 * Users (e-mail, bcrypt hash kept as is, profile, super, allTicket), queues (colour, greeting, out-of-hours
 * message, order, working hours) with their option tree, users' queues, connections with their queues, and
 * users' default connection. Rules: a row of no imported company is skipped; an e-mail used twice (any case)
 * keeps its first user; a profile other than admin is `user`; a colour that is not hex becomes the default;
 * a connection with `companyId` NULL is skipped (it belongs to nobody); every connection starts DISCONNECTED.
 */
import { sql } from 'drizzle-orm';
import { whatsappQueues, whatsapps } from '../../../db/schema/connections';
import { users } from '../../../db/schema/core';
import { queueOptions, queues, userQueues } from '../../../db/schema/queues';
import { lookupHash, sealSecret } from '../../../lib/secrets';
import { bool, colour, cut, date, idOrNull, int, nameOr } from '../clean';
import { insertRows } from '../insert';
import { idsOf, ownersOf, type TModel, takenOf } from '../model';
import type { TSourceRow } from '../source';
import { restoreIds, restoreNames, restoreOwned, rowsOf } from './_restore';
import { ownId } from './automation';
import { uniqueName, workingHours } from './core';
import { sessionRows } from './session';

const stamps = (r: TSourceRow) => ({
  createdAt: date(r.createdAt, new Date()) ?? undefined,
  updatedAt: date(r.updatedAt, new Date()) ?? undefined,
});

const companyOf = (r: TSourceRow, known: Set<number>) => {
  const id = idOrNull(r.companyId);

  return id !== null && known.has(id) ? id : null;
};

type TUser = typeof users.$inferInsert;
export const usersModel: TModel<TUser> = {
  name: 'users',
  table: 'Users',
  key: ['id'],
  required: ['id', 'name', 'email', 'passwordHash', 'profile', 'companyId'],
  optional: ['createdAt', 'updatedAt', 'tokenVersion', 'super', 'online', 'allTicket', 'whatsappId', 'resetPassword'],
  restore: async (db, state) => {
    await restoreOwned('users', 'users')(db, state);
    await restoreNames('email', 'users', 'email')(db, state);
  },
  map: (r, { state }) => {
    const companyId = companyOf(r, idsOf(state, 'companies'));
    if (companyId === null) return { skip: 'user of no imported company' };
    const email = cut(r.email, 254).trim().toLowerCase();
    if (!email) return { skip: 'user without an e-mail' };
    const taken = takenOf(state, 'email');
    if (taken.has(email)) return { skip: 'e-mail already used by another user (first kept)' };
    taken.add(email);
    const adjusted: string[] = [];
    const profile = String(r.profile ?? '').toLowerCase() === 'admin' ? 'admin' : 'user';
    if (String(r.profile ?? '').toLowerCase() !== profile) adjusted.push('profile other than admin/user read as user');
    const hash = String(r.passwordHash ?? '');
    if (!/^\$2[aby]\$\d{2}\$/.test(hash)) adjusted.push('password hash not bcrypt: the user must reset the password');
    const id = idOrNull(r.id)!;
    idsOf(state, 'users').add(id);
    ownersOf(state, 'users').set(id, companyId);

    return {
      adjusted,
      row: {
        id,
        companyId,
        name: nameOr(r.name, 50, email.split('@')[0]),
        email,
        passwordHash: hash || '!',
        profile,
        super: bool(r.super, false),
        online: false,
        allTicket: String(r.allTicket ?? '') === 'enabled' ? 'enabled' : 'desabled',
        // the ancestor shows tickets without a queue to every user
        canSeeTicketsWithoutQueue: true,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, users, rows);
    return undefined;
  },
};

type TQueue = typeof queues.$inferInsert;
export const queuesModel: TModel<TQueue> = {
  name: 'queues',
  table: 'Queues',
  key: ['id'],
  required: ['id', 'name', 'color', 'companyId'],
  optional: [
    'greetingMessage',
    'createdAt',
    'updatedAt',
    'schedules',
    'outOfHoursMessage',
    'orderQueue',
    'integrationId',
    'promptId',
  ],
  restore: async (db, state) => {
    await restoreOwned('queues', 'queues')(db, state);
    for (const r of await rowsOf<{ c: number; k: string }>(
      db,
      'select company_id as c, lower(name) as k from queues',
    )) {
      takenOf(state, 'queue').add(`${r.c}:${r.k}`);
    }
  },
  map: (r, { state }) => {
    const companyId = companyOf(r, idsOf(state, 'companies'));
    if (companyId === null) return { skip: 'queue of no imported company' };
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(takenOf(state, 'queue'), r.name, id, 50, `Queue ${id}`, `${companyId}:`);
    const color = colour(r.color, '#7c7c7c');
    if (color.fixed) adjusted.push('colour not hex: default used');
    const hours = workingHours(r.schedules);
    if (hours.bad) adjusted.push('working hours not understood: dropped');
    const integrationId = ownId(state, 'queue integrations', r.integrationId, companyId);
    const promptId = ownId(state, 'prompts', r.promptId, companyId);
    if ((idOrNull(r.integrationId) && !integrationId) || (idOrNull(r.promptId) && !promptId)) {
      adjusted.push('integration or prompt not imported: link dropped');
    }
    idsOf(state, 'queues').add(id);
    ownersOf(state, 'queues').set(id, companyId);

    return {
      adjusted,
      row: {
        id,
        companyId,
        name,
        color: color.value,
        greetingMessage: cut(r.greetingMessage, 100_000),
        outOfHoursMessage: cut(r.outOfHoursMessage, 100_000),
        schedules: hours.rows,
        orderQueue: r.orderQueue === null || r.orderQueue === undefined ? null : int(r.orderQueue, 0, -1_000_000),
        integrationId,
        promptId,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, queues, rows);
    return undefined;
  },
};

type TOption = typeof queueOptions.$inferInsert;
export const queueOptionsModel: TModel<TOption> = {
  name: 'queue options',
  table: 'QueueOptions',
  // parents before children: the ancestor creates a parent first, so ids grow down the tree
  key: ['id'],
  required: ['id', 'title', 'queueId', 'parentId'],
  optional: ['message', 'option', 'createdAt', 'updatedAt'],
  restore: restoreIds('queue options', 'queue_options'),
  map: async (r, { state }) => {
    const queueId = idOrNull(r.queueId);
    const companyId = queueId === null ? undefined : ownersOf(state, 'queues').get(queueId);
    if (queueId === null || companyId === undefined) return { skip: 'option of no imported queue' };
    const parentId = idOrNull(r.parentId);
    if (parentId !== null && !idsOf(state, 'queue options').has(parentId))
      return { skip: 'option whose parent is gone' };
    const id = idOrNull(r.id)!;
    idsOf(state, 'queue options').add(id);

    return {
      row: {
        id,
        companyId,
        queueId,
        parentId,
        title: nameOr(r.title, 100, `Option ${id}`),
        message: cut(r.message, 100_000),
        option: nameOr(r.option, 10, '?'),
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, queueOptions, rows);
    return undefined;
  },
};

type TUserQueue = typeof userQueues.$inferInsert;
export const userQueuesModel: TModel<TUserQueue> = {
  name: 'user queues',
  table: 'UserQueues',
  key: ['userId', 'queueId'],
  required: ['userId', 'queueId'],
  optional: ['createdAt', 'updatedAt'],
  map: (r, { state }) => {
    const userId = idOrNull(r.userId);
    const queueId = idOrNull(r.queueId);
    const companyId = queueId === null ? undefined : ownersOf(state, 'queues').get(queueId);
    if (userId === null || !idsOf(state, 'users').has(userId) || companyId === undefined) {
      return { skip: 'user or queue not imported' };
    }

    return { row: { companyId, userId, queueId: queueId!, ...stamps(r) } };
  },
  write: async (tx, rows) => {
    // a user and a queue of two companies cannot be linked: the queue's company must be the user's
    await insertRows(tx, userQueues, rows);
    return undefined;
  },
};

type TConnection = typeof whatsapps.$inferInsert;

export const connectionsModel: TModel<TConnection> = {
  name: 'connections',
  table: 'Whatsapps',
  key: ['id'],
  required: ['id', 'name', 'companyId'],
  optional: [
    'session',
    'qrcode',
    'status',
    'battery',
    'plugged',
    'createdAt',
    'updatedAt',
    'isDefault',
    'retries',
    'greetingMessage',
    'complationMessage',
    'outOfHoursMessage',
    'ratingMessage',
    'token',
    'farewellMessage',
    'provider',
    'sendIdQueue',
    'promptId',
    'integrationId',
    'maxUseBotQueues',
    'expiresTicket',
    'expiresInactiveMessage',
    'timeUseBotQueues',
    'timeToTransfer',
    'transferQueueId',
    'flowIdNotPhrase',
    'flowIdWelcome',
  ],
  batch: 50,
  restore: async (db, state) => {
    await restoreOwned('connections', 'whatsapps')(db, state);
    for (const r of await rowsOf<{ id: number; company_id: number; d: boolean; hash: string | null; name: string }>(
      db,
      'select id, company_id, is_default as d, token_hash as hash, name from whatsapps',
    )) {
      if (r.d) takenOf(state, 'default connection').add(String(r.company_id));
      if (r.hash) takenOf(state, 'token').add(r.hash);
      takenOf(state, 'connection').add(`${r.company_id}:${r.name.toLowerCase()}`);
    }
  },
  map: (r, { state }) => {
    const companyId = companyOf(r, idsOf(state, 'companies'));
    if (companyId === null) return { skip: 'connection with companyId NULL or of no imported company' };
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(
      takenOf(state, 'connection'),
      r.name,
      id,
      50,
      `WhatsApp ${id}`,
      `${companyId}:`,
    );
    let isDefault = bool(r.isDefault, false);
    const defaults = takenOf(state, 'default connection');
    if (isDefault && defaults.has(String(companyId))) {
      isDefault = false;
      adjusted.push('second default connection of a company: no longer default');
    }
    if (isDefault) defaults.add(String(companyId));
    // the messages-API token as Zelo keeps it (issue 20): sealed, found by its keyed hash; an old weak token keeps
    // working as it did (the per-IP guessing limit guards it) until an admin replaces it
    let token: string | null = cut(r.token, 200).trim() || null;
    const tokenHash = token ? lookupHash(token) : null;
    if (tokenHash && takenOf(state, 'token').has(tokenHash)) {
      token = null;
      adjusted.push('token already used by another connection: cleared');
    }
    if (token && tokenHash) takenOf(state, 'token').add(tokenHash);
    const session = sessionRows(r.session);
    if (session === 'bad') adjusted.push('WhatsApp session not readable: a new QR code is needed');
    else if (session === null) adjusted.push('no WhatsApp session: a new QR code is needed');
    let transferQueueId = idOrNull(r.transferQueueId);
    if (transferQueueId !== null && ownersOf(state, 'queues').get(transferQueueId) !== companyId)
      transferQueueId = null;
    const links = {
      promptId: ownId(state, 'prompts', r.promptId, companyId),
      integrationId: ownId(state, 'queue integrations', r.integrationId, companyId),
      flowIdWelcome: ownId(state, 'flows', r.flowIdWelcome, companyId),
      flowIdNotPhrase: ownId(state, 'flows', r.flowIdNotPhrase, companyId),
    };
    const asked = [r.promptId, r.integrationId, r.flowIdWelcome, r.flowIdNotPhrase].filter((v) => idOrNull(v)).length;
    if (Object.values(links).filter((v) => v !== null).length < asked) {
      adjusted.push('prompt, integration or flow not imported: link dropped');
    }
    idsOf(state, 'connections').add(id);
    ownersOf(state, 'connections').set(id, companyId);
    const minutes = (v: unknown) => int(v, 0);

    return {
      adjusted,
      row: {
        id,
        companyId,
        name,
        provider: 'baileys',
        status: 'DISCONNECTED',
        qrcode: '',
        retries: 0,
        isDefault,
        token: token ? sealSecret(token) : null,
        tokenHash: token ? tokenHash : null,
        greetingMessage: cut(r.greetingMessage, 100_000),
        complationMessage: cut(r.complationMessage ?? r.farewellMessage, 100_000),
        outOfHoursMessage: cut(r.outOfHoursMessage, 100_000),
        ratingMessage: cut(r.ratingMessage, 100_000),
        expiresInactiveMessage: cut(r.expiresInactiveMessage, 100_000),
        expiresTicket: minutes(r.expiresTicket),
        timeUseBotQueues: minutes(r.timeUseBotQueues),
        maxUseBotQueues: int(r.maxUseBotQueues, 3),
        timeToTransfer: minutes(r.timeToTransfer),
        transferQueueId,
        ...links,
        ...stamps(r),
        // not a column: the session rows, written by `write`
        ...(session && session !== 'bad' ? { session } : {}),
      } as TConnection,
    };
  },
  write: async (tx, rows) => {
    const sessions = rows.flatMap((row) => {
      const s = (row as TConnection & { session?: { key: string; value: string }[] }).session;
      delete (row as { session?: unknown }).session;

      return (s ?? []).map((e) => ({ connectionId: row.id!, key: e.key, value: e.value }));
    });
    await insertRows(tx, whatsapps, rows);
    if (sessions.length) {
      const { channelAuthState } = await import('../../../db/schema/connections');
      for (let i = 0; i < sessions.length; i += 500)
        await tx.insert(channelAuthState).values(sessions.slice(i, i + 500));
    }
    return undefined;
  },
};

type TConnectionQueue = typeof whatsappQueues.$inferInsert;
export const connectionQueuesModel: TModel<TConnectionQueue> = {
  name: 'connection queues',
  table: 'WhatsappQueues',
  key: ['whatsappId', 'queueId'],
  required: ['whatsappId', 'queueId'],
  optional: ['createdAt', 'updatedAt'],
  map: (r, { state }) => {
    const whatsappId = idOrNull(r.whatsappId);
    const queueId = idOrNull(r.queueId);
    const companyId = whatsappId === null ? undefined : ownersOf(state, 'connections').get(whatsappId);
    if (companyId === undefined || queueId === null || ownersOf(state, 'queues').get(queueId) !== companyId) {
      return { skip: 'connection or queue not imported, or of two companies' };
    }

    return { row: { companyId, whatsappId: whatsappId!, queueId, ...stamps(r) } };
  },
  write: async (tx, rows) => {
    await insertRows(tx, whatsappQueues, rows);
    return undefined;
  },
};

/** second pass over Users: the default connection, once connections exist */
export const userConnectionsModel: TModel<{ id: number; whatsappId: number }> = {
  name: 'users default connection',
  table: 'Users',
  key: ['id'],
  required: ['id', 'whatsappId'],
  where: '"whatsappId" is not null',
  map: (r, { state }) => {
    const id = idOrNull(r.id)!;
    const whatsappId = idOrNull(r.whatsappId);
    if (!idsOf(state, 'users').has(id)) return { skip: 'user not imported' };
    if (whatsappId === null || !ownersOf(state, 'connections').has(whatsappId))
      return { skip: 'default connection not imported' };

    return { row: { id, whatsappId } };
  },
  write: async (tx, rows) => {
    await tx.execute(sql`
      update users u set whatsapp_id = v.w from json_to_recordset(${JSON.stringify(rows.map((r) => ({ i: r.id, w: r.whatsappId })))}::json) as v(i int, w int)
      where u.id = v.i and exists (select 1 from whatsapps c where c.id = v.w and c.company_id = u.company_id)`);
    return undefined;
  },
};
