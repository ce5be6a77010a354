import { and, asc, count, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import {
  campaignSettings,
  campaignShippings,
  campaigns,
  contactListItems,
  contactLists,
} from '../../db/schema/campaigns';
import { whatsapps } from '../../db/schema/connections';
import { contacts } from '../../db/schema/contacts';
import { files, filesOptions } from '../../db/schema/files';
import { messages } from '../../db/schema/messages';
import { tags } from '../../db/schema/tags';
import { tickets, ticketTags } from '../../db/schema/tickets';
import { likePattern } from '../../lib/paging';
import { insertTicketWords, insertTicketWordsMany } from '../tickets/ticket-search.repo';
import { intArray, textArray } from '../../db/pg-arrays';
import { queryRows } from '../../db/statements';

export type TCampaignRow = typeof campaigns.$inferSelect;
export type TCampaignInsert = typeof campaigns.$inferInsert;
export type TShippingRow = typeof campaignShippings.$inferSelect;
export type TShippingInsert = typeof campaignShippings.$inferInsert;

const ofCompany = (companyId: number, id: number) => and(eq(campaigns.companyId, companyId), eq(campaigns.id, id));

/** the campaign with the names of what it links (every link of the same company) */
const selectCampaigns = (db: TDbOrTx) =>
  db
    .select({
      campaign: campaigns,
      whatsappName: whatsapps.name,
      contactListName: contactLists.name,
      tagName: tags.name,
      fileListName: files.name,
    })
    .from(campaigns)
    .leftJoin(whatsapps, and(eq(whatsapps.id, campaigns.whatsappId), eq(whatsapps.companyId, campaigns.companyId)))
    .leftJoin(
      contactLists,
      and(eq(contactLists.id, campaigns.contactListId), eq(contactLists.companyId, campaigns.companyId)),
    )
    .leftJoin(tags, and(eq(tags.id, campaigns.tagId), eq(tags.companyId, campaigns.companyId)))
    .leftJoin(files, and(eq(files.id, campaigns.fileListId), eq(files.companyId, campaigns.companyId)));

export type TCampaignWithRefs = Awaited<ReturnType<typeof findCampaign>> & {};

export const findCampaign = async (db: TDbOrTx, companyId: number, id: number) =>
  (await selectCampaigns(db).where(ofCompany(companyId, id)))[0] ?? null;

export const pageCampaigns = async (db: TDbOrTx, companyId: number, search: string, limit: number, offset: number) => {
  const where = search
    ? and(eq(campaigns.companyId, companyId), sql`${campaigns.name} ILIKE ${likePattern(search)}`)
    : eq(campaigns.companyId, companyId);
  const [rows, [{ total }]] = await Promise.all([
    selectCampaigns(db)
      .where(where)
      .orderBy(asc(sql`lower(${campaigns.name})`), asc(campaigns.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(campaigns).where(where),
  ]);

  return { rows, total };
};

export const findCampaignPlain = async (db: TDbOrTx, companyId: number, id: number) =>
  (await db.select().from(campaigns).where(ofCompany(companyId, id)))[0] ?? null;

/** the campaign's row locked until the transaction ends */
export const lockCampaign = async (db: TDbOrTx, companyId: number, id: number) =>
  (await db.select().from(campaigns).where(ofCompany(companyId, id)).for('update'))[0] ?? null;

export const campaignNameTaken = async (db: TDbOrTx, companyId: number, name: string, exceptId?: number) =>
  (
    await db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(
        and(
          eq(campaigns.companyId, companyId),
          sql`lower(${campaigns.name}) = lower(${name})`,
          exceptId ? sql`${campaigns.id} <> ${exceptId}` : undefined,
        ),
      )
      .limit(1)
  ).length > 0;

export const insertCampaign = async (db: TDbOrTx, values: TCampaignInsert) =>
  (await db.insert(campaigns).values(values).returning())[0]!;

export const updateCampaignRow = async (db: TDbOrTx, companyId: number, id: number, patch: Partial<TCampaignInsert>) =>
  (
    await db
      .update(campaigns)
      .set({ ...patch, updatedAt: new Date() })
      .where(ofCompany(companyId, id))
      .returning()
  )[0] ?? null;

/** compare-and-set on the status: applies only while the campaign is in one of `from` */
export const updateCampaignIf = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  from: readonly string[],
  patch: Partial<TCampaignInsert>,
) =>
  (
    await db
      .update(campaigns)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(ofCompany(companyId, id), inArray(campaigns.status, [...from])))
      .returning()
  )[0] ?? null;

export const deleteCampaignRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (await db.delete(campaigns).where(ofCompany(companyId, id)).returning())[0] ?? null;

/** which of the links exist in the company (a link of another company is as good as missing) */
export const linksOfCompany = async (
  db: TDbOrTx,
  companyId: number,
  ids: { whatsappId?: number | null; contactListId?: number | null; tagId?: number | null; fileListId?: number | null },
) => {
  const one = async (found: Promise<unknown[]>) => (await found).length > 0;
  const [whatsapp, contactList, tag, fileList] = await Promise.all([
    ids.whatsappId
      ? one(
          db
            .select({ id: whatsapps.id })
            .from(whatsapps)
            .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, ids.whatsappId))),
        )
      : true,
    ids.contactListId
      ? one(
          db
            .select({ id: contactLists.id })
            .from(contactLists)
            .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, ids.contactListId))),
        )
      : true,
    ids.tagId
      ? one(
          db
            .select({ id: tags.id })
            .from(tags)
            .where(and(eq(tags.companyId, companyId), eq(tags.id, ids.tagId))),
        )
      : true,
    ids.fileListId
      ? one(
          db
            .select({ id: files.id })
            .from(files)
            .where(and(eq(files.companyId, companyId), eq(files.id, ids.fileListId))),
        )
      : true,
  ]);

  return { whatsappId: whatsapp, contactListId: contactList, tagId: tag, fileListId: fileList };
};

export const connectionOf = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: whatsapps.id, provider: whatsapps.provider, status: whatsapps.status })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)))
  )[0] ?? null;

export type TAudienceMember = {
  number: string;
  name: string;
  email: string;
  contactListItemId: number | null;
  contactId: number | null;
};

/**
 * The audience: the list's items checked valid on WhatsApp, then the contacts of the tickets carrying the tag
 * (not groups); one member per number, the list's entry first, in a stable order.
 */
export const audienceOf = async (
  db: TDbOrTx,
  companyId: number,
  contactListId: number | null,
  tagId: number | null,
): Promise<TAudienceMember[]> => {
  const members: TAudienceMember[] = [];
  if (contactListId) {
    const items = await db
      .select({
        id: contactListItems.id,
        number: contactListItems.number,
        name: contactListItems.name,
        email: contactListItems.email,
      })
      .from(contactListItems)
      .where(
        and(
          eq(contactListItems.companyId, companyId),
          eq(contactListItems.contactListId, contactListId),
          eq(contactListItems.isWhatsappValid, true),
        ),
      )
      .orderBy(asc(contactListItems.id));
    for (const i of items) {
      members.push({ number: i.number, name: i.name, email: i.email, contactListItemId: i.id, contactId: null });
    }
  }
  if (tagId) {
    const tagged = await db
      .selectDistinctOn([contacts.id], {
        id: contacts.id,
        number: contacts.number,
        name: contacts.name,
        email: contacts.email,
      })
      .from(ticketTags)
      .innerJoin(tickets, and(eq(tickets.id, ticketTags.ticketId), eq(tickets.companyId, companyId)))
      .innerJoin(contacts, and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, companyId)))
      .where(and(eq(ticketTags.companyId, companyId), eq(ticketTags.tagId, tagId), eq(contacts.isGroup, false)))
      .orderBy(asc(contacts.id));
    for (const c of tagged) {
      members.push({ number: c.number, name: c.name, email: c.email, contactListItemId: null, contactId: c.id });
    }
  }
  const seen = new Set<string>();

  return members.filter((m) => {
    const number = m.number.replace(/\D/g, '');
    if (!number || seen.has(number)) return false;
    seen.add(number);
    m.number = number;

    return true;
  });
};

const CHUNK = 1000;

export type TPlannedShipping = {
  number: string;
  name: string;
  email: string;
  contactListItemId: number | null;
  contactId: number | null;
  scheduledFor: Date;
};

/** a campaign's planned recipients, queued: one statement per 5,000 (each column one array parameter) */
export const insertShippings = async (db: TDbOrTx, companyId: number, campaignId: number, rows: TPlannedShipping[]) => {
  for (let i = 0; i < rows.length; i += 5 * CHUNK) {
    const part = rows.slice(i, i + 5 * CHUNK);
    await db.execute(sql`
      insert into ${campaignShippings}
        (company_id, campaign_id, number, name, email, contact_list_item_id, contact_id, state, scheduled_for)
      select ${companyId}, ${campaignId}, r.number, r.name, r.email, r.item, r.contact, 'queued', r.at
      from unnest(${textArray(part.map((r) => r.number))}::text[], ${textArray(part.map((r) => r.name))}::text[],
                  ${textArray(part.map((r) => r.email))}::text[],
                  ${textArray(part.map((r) => r.contactListItemId))}::int[],
                  ${textArray(part.map((r) => r.contactId))}::int[],
                  ${textArray(part.map((r) => r.scheduledFor.toISOString()))}::timestamptz[])
        as r(number, name, email, item, contact, at)
      on conflict do nothing`);
  }
};

const ofShippings = (companyId: number, campaignId: number) =>
  and(eq(campaignShippings.companyId, companyId), eq(campaignShippings.campaignId, campaignId));

/** the recipients not sent yet (queued and failed), in plan order */
export const unsentShippings = (db: TDbOrTx, companyId: number, campaignId: number) =>
  db
    .select({ id: campaignShippings.id })
    .from(campaignShippings)
    .where(and(ofShippings(companyId, campaignId), inArray(campaignShippings.state, ['queued', 'failed'])))
    .orderBy(asc(campaignShippings.scheduledFor), asc(campaignShippings.id));

export const queuedShippings = (db: TDbOrTx, companyId: number, campaignId: number) =>
  db
    .select({ id: campaignShippings.id, scheduledFor: campaignShippings.scheduledFor })
    .from(campaignShippings)
    .where(and(ofShippings(companyId, campaignId), eq(campaignShippings.state, 'queued')))
    .orderBy(asc(campaignShippings.id));

/** plans the given recipients again (restart): queued, at the new times, without an error or a claim */
export const replanShippings = async (db: TDbOrTx, companyId: number, ids: number[], times: Date[]) => {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const idPart = ids.slice(i, i + CHUNK);
    const timePart = times.slice(i, i + CHUNK).map((t) => t.toISOString());
    await db.execute(sql`
      update ${campaignShippings} s
      set state = 'queued', error = null, failed_at = null, claimed_until = null, scheduled_for = p.at,
          updated_at = now()
      from (select unnest(${sql.raw(`'{${idPart.join(',')}}'::int[]`)}) as id,
                   unnest(${`{${timePart.map((t) => `"${t}"`).join(',')}}`}::timestamptz[]) as at) p
      where s.id = p.id and s.company_id = ${companyId} and s.state <> 'sent'`);
  }
};

/**
 * Claims a recipient for one send: still queued, due (not before its planned time, with `earlyMs` of slack), its
 * campaign running, and not held by another run (or that run's hold has passed: a crashed run). The row answered
 * carries the attempt number; null = nothing to do.
 */
export const claimShipping = async (
  db: TDbOrTx,
  companyId: number,
  shippingId: number,
  now: Date,
  leaseMs: number,
  earlyMs: number,
) =>
  (
    await db
      .update(campaignShippings)
      .set({
        attempts: sql`${campaignShippings.attempts} + 1`,
        claimedUntil: new Date(now.getTime() + leaseMs),
      })
      .where(
        and(
          eq(campaignShippings.companyId, companyId),
          eq(campaignShippings.id, shippingId),
          eq(campaignShippings.state, 'queued'),
          or(isNull(campaignShippings.claimedUntil), lt(campaignShippings.claimedUntil, now)),
          lte(campaignShippings.scheduledFor, new Date(now.getTime() + earlyMs)),
          sql`exists (select 1 from ${campaigns} c where c.id = ${campaignShippings.campaignId}
                      and c.company_id = ${companyId} and c.status = 'EM_ANDAMENTO')`,
        ),
      )
      .returning()
  )[0] ?? null;

/**
 * Claims up to `limit` recipients of running campaigns, across companies, in plan order: queued, due by `dueBy`,
 * not held by another run (or that run's hold has passed: a crashed run). Rows another runner is claiming are
 * skipped (FOR UPDATE SKIP LOCKED), so no recipient is claimed by two runs. Each claim counts an attempt.
 */
export const claimDueShippings = async (
  db: TDbOrTx,
  opts: { now: Date; dueBy: Date; holdUntil: Date; limit: number },
): Promise<TShippingRow[]> => {
  const due = db
    .select({ id: campaignShippings.id })
    .from(campaignShippings)
    .where(
      and(
        eq(campaignShippings.state, 'queued'),
        lte(campaignShippings.scheduledFor, opts.dueBy),
        or(isNull(campaignShippings.claimedUntil), lt(campaignShippings.claimedUntil, opts.now)),
        sql`exists (select 1 from ${campaigns} c where c.id = ${campaignShippings.campaignId}
                    and c.company_id = ${campaignShippings.companyId} and c.status = 'EM_ANDAMENTO')`,
      ),
    )
    .orderBy(asc(campaignShippings.scheduledFor), asc(campaignShippings.id))
    .limit(opts.limit)
    .for('update', { skipLocked: true });

  const rows = await db
    .update(campaignShippings)
    .set({ attempts: sql`${campaignShippings.attempts} + 1`, claimedUntil: opts.holdUntil })
    .where(sql`${campaignShippings.id} in ${due}`)
    .returning();

  return rows.sort((a, b) => (a.scheduledFor?.getTime() ?? 0) - (b.scheduledFor?.getTime() ?? 0) || a.id - b.id);
};

/** when the next recipient of a running campaign falls due (not counting held ones), null for none */
export const nextShippingDueAt = async (db: TDbOrTx, now: Date) =>
  (
    await db
      .select({ at: campaignShippings.scheduledFor })
      .from(campaignShippings)
      .where(
        and(
          eq(campaignShippings.state, 'queued'),
          or(isNull(campaignShippings.claimedUntil), lt(campaignShippings.claimedUntil, now)),
          sql`exists (select 1 from ${campaigns} c where c.id = ${campaignShippings.campaignId}
                      and c.company_id = ${campaignShippings.companyId} and c.status = 'EM_ANDAMENTO')`,
        ),
      )
      .orderBy(asc(campaignShippings.scheduledFor))
      .limit(1)
  )[0]?.at ?? null;

/** the campaign's status (a running send checks it was not cancelled meanwhile) */
export const campaignStatus = async (db: TDbOrTx, companyId: number, id: number) =>
  (await db.select({ status: campaigns.status }).from(campaigns).where(ofCompany(companyId, id)))[0]?.status ?? null;

export const finishShipping = async (
  db: TDbOrTx,
  companyId: number,
  shippingId: number,
  patch: Partial<TShippingInsert>,
) =>
  (
    await db
      .update(campaignShippings)
      .set({ ...patch, claimedUntil: null, updatedAt: new Date() })
      .where(
        and(
          eq(campaignShippings.companyId, companyId),
          eq(campaignShippings.id, shippingId),
          eq(campaignShippings.state, 'queued'),
        ),
      )
      .returning({ id: campaignShippings.id })
  ).length > 0;

/** gives the recipient back, queued, not to be tried again before `until` */
export const releaseShipping = (db: TDbOrTx, companyId: number, shippingId: number, until: Date) =>
  db
    .update(campaignShippings)
    .set({ claimedUntil: until })
    .where(and(eq(campaignShippings.companyId, companyId), eq(campaignShippings.id, shippingId)));

/** releaseShipping for many recipients of one company at once (a batch claimed before its campaign was cancelled) */
export const releaseShippings = (db: TDbOrTx, companyId: number, shippingIds: number[], until: Date) =>
  db
    .update(campaignShippings)
    .set({ claimedUntil: until })
    .where(and(eq(campaignShippings.companyId, companyId), inArray(campaignShippings.id, shippingIds)));

/** finishes a running campaign none of whose recipients is still queued */
export const finalizeIfDone = async (db: TDbOrTx, companyId: number, campaignId: number, now: Date) =>
  (
    await db
      .update(campaigns)
      .set({ status: 'FINALIZADA', completedAt: now, updatedAt: now })
      .where(
        and(
          ofCompany(companyId, campaignId),
          eq(campaigns.status, 'EM_ANDAMENTO'),
          sql`not exists (select 1 from ${campaignShippings} s where s.campaign_id = ${campaigns.id}
                          and s.state = 'queued')`,
        ),
      )
      .returning()
  )[0] ?? null;

/** scheduled campaigns whose time has come, across companies */
export const dueScheduledCampaigns = (db: TDbOrTx, now: Date, limit = 50) =>
  db
    .select({ id: campaigns.id, companyId: campaigns.companyId })
    .from(campaigns)
    .where(and(eq(campaigns.status, 'PROGRAMADA'), lte(campaigns.scheduledAt, now)))
    .limit(limit);

/** running campaigns' recipients due before `before` and not held, across companies (jobs that did not run) */
export const overdueShippings = (db: TDbOrTx, before: Date, now: Date, limit: number) =>
  db
    .select({
      id: campaignShippings.id,
      companyId: campaignShippings.companyId,
      campaignId: campaignShippings.campaignId,
    })
    .from(campaignShippings)
    .innerJoin(campaigns, and(eq(campaigns.id, campaignShippings.campaignId), eq(campaigns.status, 'EM_ANDAMENTO')))
    .where(
      and(
        eq(campaignShippings.state, 'queued'),
        lte(campaignShippings.scheduledFor, before),
        or(isNull(campaignShippings.claimedUntil), lt(campaignShippings.claimedUntil, now)),
      ),
    )
    .orderBy(asc(campaignShippings.scheduledFor), asc(campaignShippings.id))
    .limit(limit);

/** running campaigns with nothing left queued (a finish missed by a crash) */
export const runningCampaigns = (db: TDbOrTx, limit = 100) =>
  db
    .select({ id: campaigns.id, companyId: campaigns.companyId })
    .from(campaigns)
    .where(eq(campaigns.status, 'EM_ANDAMENTO'))
    .limit(limit);

export const shippingCounts = async (db: TDbOrTx, companyId: number, campaignId: number) => {
  // each sent recipient's message found by its primary key alone, in a subquery per row: a plan that stays linear
  // while the campaign's rows grow faster than the statistics follow (joined, or with the company in its condition,
  // the planner took the company's message index when the statistics said the company had few messages, and read
  // them all for every recipient). The id is the sender's own record of the company's message, never a caller's.
  const [row] = await queryRows<Record<string, number>>(
    db,
    `select count(*)::int as valid,
       count(*) filter (where s.state = 'queued')::int as queued,
       count(*) filter (where s.state = 'sent')::int as sent,
       count(*) filter (where s.state = 'failed')::int as failed,
       count(*) filter (where s.state = 'sent' and s.ack >= 3)::int as delivered,
       count(*) filter (where s.state = 'sent' and s.ack >= 4)::int as read,
       count(*) filter (where s.at_least_once)::int as "atLeastOnce"
     from (
       select state, at_least_once, (select m.ack from messages m where m.id = message_row_id) as ack
       from campaign_shippings where company_id = $1 and campaign_id = $2 offset 0
     ) s`,
    [companyId, campaignId],
  );

  return {
    valid: Number(row?.valid ?? 0),
    queued: Number(row?.queued ?? 0),
    sent: Number(row?.sent ?? 0),
    delivered: Number(row?.delivered ?? 0),
    read: Number(row?.read ?? 0),
    failed: Number(row?.failed ?? 0),
    atLeastOnce: Number(row?.atLeastOnce ?? 0),
  };
};

export const pageRecipients = async (
  db: TDbOrTx,
  companyId: number,
  campaignId: number,
  filter: { search: string; state?: string },
  limit: number,
  offset: number,
) => {
  const where = and(
    ofShippings(companyId, campaignId),
    filter.state ? eq(campaignShippings.state, filter.state) : undefined,
    filter.search
      ? sql`(${campaignShippings.number} ILIKE ${likePattern(filter.search)} or ${campaignShippings.name} ILIKE ${likePattern(filter.search)})`
      : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ shipping: campaignShippings, ack: messages.ack })
      .from(campaignShippings)
      .leftJoin(
        messages,
        and(eq(messages.id, campaignShippings.messageRowId), eq(messages.companyId, campaignShippings.companyId)),
      )
      .where(where)
      .orderBy(asc(campaignShippings.scheduledFor), asc(campaignShippings.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(campaignShippings).where(where),
  ]);

  return { rows, total };
};

/** the file list's own message (sent before its files) */
export const fileListMessage = async (db: TDbOrTx, companyId: number, fileListId: number) =>
  (
    await db
      .select({ message: files.message })
      .from(files)
      .where(and(eq(files.companyId, companyId), eq(files.id, fileListId)))
  )[0]?.message ?? '';

export const fileListOptions = (db: TDbOrTx, companyId: number, fileListId: number) =>
  db
    .select({ name: filesOptions.name, path: filesOptions.path, mediaType: filesOptions.mediaType })
    .from(filesOptions)
    .where(and(eq(filesOptions.companyId, companyId), eq(filesOptions.fileId, fileListId)))
    .orderBy(asc(filesOptions.id));

// ---- settings

export const listCampaignSettings = (db: TDbOrTx, companyId: number) =>
  db
    .select({ key: campaignSettings.key, value: campaignSettings.value })
    .from(campaignSettings)
    .where(eq(campaignSettings.companyId, companyId));

export const upsertCampaignSetting = (db: TDbOrTx, companyId: number, key: string, value: unknown) =>
  db
    .insert(campaignSettings)
    .values({ companyId, key, value })
    .onConflictDoUpdate({
      target: [campaignSettings.companyId, campaignSettings.key],
      set: { value, updatedAt: new Date() },
    });

/** a closed ticket for a campaign message to a contact without any (an answer reopens it by the inbox's rules) */
export const insertClosedTicket = async (
  db: TDbOrTx,
  values: { companyId: number; contactId: number; whatsappId: number; at: Date },
) => {
  const [row] = await db
    .insert(tickets)
    .values({
      companyId: values.companyId,
      contactId: values.contactId,
      whatsappId: values.whatsappId,
      status: 'closed',
      closedAt: values.at,
      fromMe: true,
    })
    .returning();
  await insertTicketWords(db, values.companyId, row!.id);

  return row!;
};

export type TRecipientTicket = {
  contact: typeof contacts.$inferSelect;
  ticket: { id: number };
};

/**
 * The contacts (created when new, unique per company and number) and the tickets a batch of recipients' sends are
 * recorded in, with the inbox's rule of one send (`recipientTicket`): the active ticket on the connection, else the
 * latest closed one, else a new closed one. A few statements for the whole batch; call it in a transaction.
 */
export const recipientTicketsMany = async (
  db: TDbOrTx,
  companyId: number,
  whatsappId: number,
  recipients: { number: string; name: string; email: string }[],
  now: Date,
): Promise<Map<string, TRecipientTicket>> => {
  const numbers = [...new Set(recipients.map((r) => r.number))];
  const byNumber = new Map<string, typeof contacts.$inferSelect>();
  const read = async (list: string[]) => {
    if (list.length === 0) return;
    const rows = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), inArray(contacts.number, list)));
    for (const row of rows) byNumber.set(row.number, row);
  };
  await read(numbers);
  const missing = numbers.filter((n) => !byNumber.has(n));
  if (missing.length > 0) {
    const first = new Map<string, { number: string; name: string; email: string }>();
    for (const r of recipients) if (!first.has(r.number)) first.set(r.number, r);
    const added = await db
      .insert(contacts)
      .values(
        missing.map((n) => {
          const r = first.get(n)!;
          return { companyId, name: r.name || r.number, number: r.number, email: r.email, whatsappId };
        }),
      )
      .onConflictDoNothing()
      .returning();
    for (const row of added) byNumber.set(row.number, row);
    // created meanwhile by another writer
    await read(missing.filter((n) => !byNumber.has(n)));
  }
  const contactIds = [...byNumber.values()].map((c) => c.id);
  const ticketOf = new Map<number, number>();
  if (contactIds.length > 0) {
    const active = await db
      .select({ id: tickets.id, contactId: tickets.contactId })
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, companyId),
          eq(tickets.whatsappId, whatsappId),
          inArray(tickets.contactId, contactIds),
          inArray(tickets.status, ['open', 'pending']),
        ),
      );
    for (const t of active) ticketOf.set(t.contactId, t.id);
  }
  const noActive = contactIds.filter((id) => !ticketOf.has(id));
  if (noActive.length > 0) {
    const closed = await queryRows<{ id: number; contact_id: number }>(
      db,
      `select distinct on (contact_id) id, contact_id from tickets
       where company_id = $1 and whatsapp_id = $2 and contact_id = any($3::int[]) and status = 'closed'
       order by contact_id, updated_at desc, id desc`,
      [companyId, whatsappId, intArray(noActive)],
    );
    for (const t of closed) ticketOf.set(Number(t.contact_id), Number(t.id));
  }
  const noTicket = contactIds.filter((id) => !ticketOf.has(id));
  if (noTicket.length > 0) {
    const created = await db
      .insert(tickets)
      .values(
        noTicket.map((contactId) => ({
          companyId,
          contactId,
          whatsappId,
          status: 'closed',
          closedAt: now,
          fromMe: true,
        })),
      )
      .returning({ id: tickets.id, contactId: tickets.contactId });
    for (const t of created) ticketOf.set(t.contactId, t.id);
    await insertTicketWordsMany(
      db,
      companyId,
      created.map((t) => t.id),
    );
  }
  const result = new Map<string, TRecipientTicket>();
  for (const [number, contact] of byNumber) {
    const id = ticketOf.get(contact.id);
    if (id !== undefined) result.set(number, { contact, ticket: { id } });
  }

  return result;
};

/** the sent outcome of many recipients in one statement (each only while still queued) */
export const finishShippingsSent = async (
  db: TDbOrTx,
  companyId: number,
  sent: {
    id: number;
    contactId: number;
    message: string;
    messageId: string;
    messageRowId: number;
    atLeastOnce: boolean;
  }[],
  deliveredAt: Date,
) => {
  if (sent.length === 0) return;
  await queryRows(
    db,
    `update campaign_shippings s set state = 'sent', delivered_at = $2, contact_id = v.contact_id,
       message = v.message, message_id = v.message_id, message_row_id = v.row_id, error = null,
       at_least_once = s.at_least_once or v.at_least_once, claimed_until = null, updated_at = now()
     from unnest($3::int[], $4::int[], $5::text[], $6::text[], $7::int[], $8::boolean[])
       as v(id, contact_id, message, message_id, row_id, at_least_once)
     where s.company_id = $1 and s.id = v.id and s.state = 'queued'`,
    [
      companyId,
      deliveredAt.toISOString(),
      intArray(sent.map((r) => r.id)),
      intArray(sent.map((r) => r.contactId)),
      textArray(sent.map((r) => r.message)),
      textArray(sent.map((r) => r.messageId)),
      intArray(sent.map((r) => r.messageRowId)),
      textArray(sent.map((r) => (r.atLeastOnce ? 't' : 'f'))),
    ],
  );
};

/**
 * What the ancestor's report page counts in `GET /campaigns/:id` (its ShowService includes every shipping and
 * every item of the list): one small entry per recipient and per list item, with only the fields it reads —
 * `shipping[].deliveredAt` (sent, or null) and `contactList.contacts[].isWhatsappValid`. About 45 bytes an entry:
 * a 100,000-recipient campaign answers ~4.5 MB an array, not the ancestor's full rows.
 */
export const reportEntriesOf = async (
  db: TDbOrTx,
  companyId: number,
  campaignId: number,
  contactListId: number | null,
) => {
  const [shipping, contacts] = await Promise.all([
    db
      .select({ id: campaignShippings.id, deliveredAt: campaignShippings.deliveredAt })
      .from(campaignShippings)
      .where(and(eq(campaignShippings.companyId, companyId), eq(campaignShippings.campaignId, campaignId)))
      .orderBy(asc(campaignShippings.id)),
    contactListId
      ? db
          .select({ id: contactListItems.id, isWhatsappValid: contactListItems.isWhatsappValid })
          .from(contactListItems)
          .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.contactListId, contactListId)))
          .orderBy(asc(contactListItems.id))
      : Promise.resolve([]),
  ]);

  return { shipping, contacts };
};
