import type { TErrorCode } from '@zelo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TDb } from '../db/client';
import { ownedIds, type TOwnedTable } from '../db/owned-ids.repo';
import {
  contactLists,
  contacts,
  files,
  flowBuilders,
  invoices,
  prompts,
  queueIntegrations,
  queues,
  tags,
  tickets,
  users,
  whatsapps,
} from '../db/schema/index';
import type { TAuthKind } from './declare';
import { AppError } from './errors';

/**
 * Every id a company's request names in its body is checked against the caller's company, in one place, before
 * any route runs: a body field below holds ids of its table, as a number, a list of numbers or a list of
 * `{id}`. An id that is not a row of the caller's company — another company's or none at all — answers the
 * table's not-found code with the field as its detail, the same answer either way (no existence oracle), so no
 * service can store a reference to another tenant's row. null, 0 and negative values ("none") pass. A body
 * field named like one of these that means something else must be renamed or listed here with its meaning;
 * test/tenancy-refs.test.ts fails on an id-like field this map does not classify.
 */
type TRef = { table: TOwnedTable; code: TErrorCode };

const queue: TRef = { table: queues, code: 'ERR_NO_QUEUE_FOUND' };
const user: TRef = { table: users, code: 'ERR_NO_USER_FOUND' };
const connection: TRef = { table: whatsapps, code: 'ERR_NO_WAPP_FOUND' };
const tag: TRef = { table: tags, code: 'ERR_NO_TAG_FOUND' };
const flow: TRef = { table: flowBuilders, code: 'ERR_NO_FLOW_FOUND' };

export const BODY_REFS: Record<string, TRef> = {
  queueId: queue,
  queueIds: queue,
  transferQueueId: queue,
  userId: user,
  users: user,
  whatsappId: connection,
  contactId: { table: contacts, code: 'ERR_NO_CONTACT_FOUND' },
  ticketId: { table: tickets, code: 'ERR_NO_TICKET_FOUND' },
  tagId: tag,
  tagListId: tag,
  tags: tag,
  promptId: { table: prompts, code: 'ERR_NO_PROMPT_FOUND' },
  integrationId: { table: queueIntegrations, code: 'ERR_NO_INTEGRATION_FOUND' },
  flowId: flow,
  flowIdWelcome: flow,
  flowIdNotPhrase: flow,
  contactListId: { table: contactLists, code: 'ERR_NO_CONTACT_LIST_FOUND' },
  fileListId: { table: files, code: 'ERR_NO_FILE_LIST_FOUND' },
  invoiceId: { table: invoices, code: 'ERR_NO_INVOICE_FOUND' },
};

/** the callers whose requests act inside their own company (a super route acts across companies) */
const COMPANY_CALLERS = new Set<TAuthKind>(['user', 'admin', 'token']);

const asId = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v;

  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** the ids a field's value names: a number, a list of numbers, a list of `{id}` */
const idsOf = (value: unknown): number[] => {
  const items = Array.isArray(value) ? value : [value];

  return items.flatMap((item) => {
    const id = asId(
      item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as { id?: unknown }).id : item,
    );
    return id === undefined ? [] : [id];
  });
};

/** throws the table's not-found answer for the first field of `body` naming an id outside `companyId` */
export const assertBodyRefs = async (db: TDb, companyId: number, body: unknown) => {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return;
  for (const [field, ref] of Object.entries(BODY_REFS)) {
    if (!Object.hasOwn(body, field)) continue;
    const ids = [...new Set(idsOf((body as Record<string, unknown>)[field]))];
    if (ids.length === 0) continue;
    const owned = await ownedIds(db, ref.table, companyId, ids);
    if (owned.size !== ids.length) {
      throw new AppError(ref.code, `No such ${field}`, [{ path: field, message: 'invalid' }]);
    }
  }
};

const checkRequest = (db: TDb) => async (request: FastifyRequest) => {
  const decl = request.routeOptions.config.decl;
  if (!decl || !COMPANY_CALLERS.has(decl.auth) || !request.auth) return;
  await assertBodyRefs(db, request.auth.companyId, request.body);
};

/** After validation, before every route of a company's caller: the body's references are the caller's own. */
export const installTenantRefs = (app: FastifyInstance, db: TDb) => {
  app.addHook('preHandler', checkRequest(db));
};
