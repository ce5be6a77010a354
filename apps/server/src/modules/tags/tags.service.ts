import { events, type TListQuery, type TTag, type TTagBody, type TTagUpdateBody } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { lockCompany } from '../companies/companies.repo';
import { assertCanSee, loadViewer } from '../tickets/ticket-access';
import { announceTicket } from '../tickets/ticket-announcer';
import { findTicketPlain } from '../tickets/tickets.repo';
import {
  addTicketTag,
  countCompanyTags,
  deleteTagRow,
  findTag,
  insertTag,
  listTagRows,
  lockTicket,
  pageTags,
  removeKanbanTags,
  replaceTicketTags,
  tagNameTaken,
  tagsOfTicket,
  updateTagRow,
} from './tags.repo';
import { isUniqueViolation } from '../../db/pg-errors';

const brief = (row: { id: number; name: string; color: string; kanban: number; userId: number | null }) => ({
  id: row.id,
  name: row.name,
  color: row.color,
  kanban: row.kanban,
  userId: row.userId,
});

const loadTag = async (db: TDbOrTx, companyId: number, id: number): Promise<TTag> => {
  const row = await findTag(db, companyId, id);
  if (!row) throw new AppError('ERR_NO_TAG_FOUND');

  return { ...brief(row), ticketsCount: Number(row.ticketsCount) };
};

export const listTags = async (ctx: TAppContext, auth: TAuth) => (await listTagRows(ctx.db, auth.companyId)).map(brief);

/** the kanban lanes (reference §9: `{lista}`) */
export const listKanbanTags = async (ctx: TAppContext, auth: TAuth) => ({
  lista: (await listTagRows(ctx.db, auth.companyId, true)).map(brief),
});

export const getTagPage = async (ctx: TAppContext, auth: TAuth, query: TListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pageTags(ctx.db, auth.companyId, query.searchParam, limit, offset);
  const page = pageAnswer(
    rows.map((r) => ({ ...brief(r), ticketsCount: Number(r.ticketsCount) })),
    total,
    query.pageNumber,
  );

  return { tags: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getTag = (ctx: TAppContext, auth: TAuth, id: number) => loadTag(ctx.db, auth.companyId, id);

const duplicated = () => new AppError('ERR_DUPLICATED_TAG', 'A tag with this name exists');

/** spec 2 §6: only admins make a tag a kanban lane */
const assertKanbanAllowed = (auth: TAuth, kanban: number | undefined, current = 0) => {
  if (kanban !== undefined && kanban !== current && !auth.isAdmin) {
    throw new AppError('ERR_NO_PERMISSION', 'Only admins change kanban lanes');
  }
};

const announce = (ctx: TAppContext, companyId: number, payload: unknown) =>
  ctx.realtime.toCompany(companyId, events.tag(companyId), payload);

export const createTag = async (ctx: TAppContext, auth: TAuth, body: TTagBody) => {
  const companyId = auth.companyId;
  assertKanbanAllowed(auth, body.kanban);
  let id: number;
  try {
    id = await ctx.db.transaction(async (tx) => {
      await lockCompany(tx, companyId);
      if (await tagNameTaken(tx, companyId, body.name)) throw duplicated();

      return (await insertTag(tx, { companyId, userId: auth.userId, ...body })).id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicated();
    throw err;
  }
  const tag = await loadTag(ctx.db, companyId, id);
  announce(ctx, companyId, { action: 'create', tag });

  return tag;
};

export const updateTag = async (ctx: TAppContext, auth: TAuth, id: number, body: TTagUpdateBody) => {
  const companyId = auth.companyId;
  const current = await loadTag(ctx.db, companyId, id);
  assertKanbanAllowed(auth, body.kanban, current.kanban);
  try {
    await ctx.db.transaction(async (tx) => {
      await lockCompany(tx, companyId);
      if (body.name && (await tagNameTaken(tx, companyId, body.name, id))) throw duplicated();
      await updateTagRow(tx, companyId, id, body);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicated();
    throw err;
  }
  const tag = await loadTag(ctx.db, companyId, id);
  announce(ctx, companyId, { action: 'update', tag });

  return tag;
};

export const deleteTag = async (ctx: TAppContext, auth: TAuth, id: number) => {
  if (!(await deleteTagRow(ctx.db, auth.companyId, id))) throw new AppError('ERR_NO_TAG_FOUND');
  announce(ctx, auth.companyId, { action: 'delete', tagId: id });
};

/** the ticket of the caller's company that the caller may see */
const visibleTicket = async (ctx: TAppContext, auth: TAuth, ticketId: number) => {
  const ticket = await findTicketPlain(ctx.db, auth.companyId, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  assertCanSee(await loadViewer(ctx.db, auth), ticket);

  return ticket;
};

const ticketTagsAnswer = async (ctx: TAppContext, companyId: number, ticketId: number) => ({
  ticketId,
  tags: await tagsOfTicket(ctx.db, companyId, ticketId),
});

/** POST /tags/sync: the ticket's tags become exactly these */
export const syncTicketTags = async (ctx: TAppContext, auth: TAuth, ticketId: number, tagIds: number[]) => {
  const companyId = auth.companyId;
  await visibleTicket(ctx, auth, ticketId);
  const unique = [...new Set(tagIds)];
  await ctx.db.transaction(async (tx) => {
    if (!(await lockTicket(tx, companyId, ticketId))) throw new AppError('ERR_NO_TICKET_FOUND');
    if ((await countCompanyTags(tx, companyId, unique)) !== unique.length) throw new AppError('ERR_NO_TAG_FOUND');
    await replaceTicketTags(tx, companyId, ticketId, unique);
  });
  await announceTicket(ctx, companyId, ticketId);

  return ticketTagsAnswer(ctx, companyId, ticketId);
};

/** PUT /ticket-tags/:ticketId/:tagId: adds one tag (a kanban move's second half) */
export const addTagToTicket = async (ctx: TAppContext, auth: TAuth, ticketId: number, tagId: number) => {
  const companyId = auth.companyId;
  await visibleTicket(ctx, auth, ticketId);
  await loadTag(ctx.db, companyId, tagId);
  await addTicketTag(ctx.db, companyId, ticketId, tagId);
  await announceTicket(ctx, companyId, ticketId);

  return ticketTagsAnswer(ctx, companyId, ticketId);
};

/** DELETE /ticket-tags/:ticketId: removes the ticket's kanban tags only */
export const removeTicketKanbanTags = async (ctx: TAppContext, auth: TAuth, ticketId: number) => {
  const companyId = auth.companyId;
  await visibleTicket(ctx, auth, ticketId);
  await removeKanbanTags(ctx.db, companyId, ticketId);
  await announceTicket(ctx, companyId, ticketId);

  return ticketTagsAnswer(ctx, companyId, ticketId);
};
