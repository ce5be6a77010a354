import {
  campaignsOpen,
  CAMPAIGN_MESSAGE_FIELDS,
  CAMPAIGN_PAGE_SIZE,
  events,
  isCampaignEditable,
  rooms,
  type TCampaign,
  type TCampaignBody,
  type TCampaignListQuery,
  type TCampaignReport,
  type TCampaignReportQuery,
  type TCampaignStatus,
  type TCampaignUpdateBody,
} from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { momentToDate } from '../../lib/dates';
import { companyZone } from '../tickets/tickets.repo';
import { iso, pageAnswer, pageWindow } from '../../lib/paging';
import { cleanFileName, MEDIA_LIMITS, removeMediaFile, replaceMediaFile, resolveType } from '../messages/media';
import { mediaUrlOf } from '../messages/message-dto';
import { readSetting } from '../settings/settings.service';
import {
  audienceOf,
  campaignNameTaken,
  deleteCampaignRow,
  findCampaign,
  findCampaignPlain,
  insertCampaign,
  linksOfCompany,
  lockCampaign,
  pageCampaigns,
  pageRecipients,
  shippingCounts,
  type TCampaignInsert,
  type TCampaignRow,
  type TCampaignWithRefs,
  updateCampaignIf,
  updateCampaignRow,
  reportEntriesOf,
} from './campaigns.repo';
import { announceProgress, restartCampaign, setCampaignAnnouncer } from './dispatch';
import { isUniqueViolation } from '../../db/pg-errors';

/** the clock of the editability rule (tests move it) */
export type TClock = { now?: () => Date };

const nowOf = (clock?: TClock) => clock?.now?.() ?? new Date();

const toCampaign = (_ctx: TAppContext, r: NonNullable<TCampaignWithRefs>, now: Date): TCampaign => {
  const c = r.campaign;

  return {
    id: c.id,
    name: c.name,
    message1: c.message1,
    message2: c.message2,
    message3: c.message3,
    message4: c.message4,
    message5: c.message5,
    status: c.status as TCampaignStatus,
    scheduledAt: iso(c.scheduledAt),
    completedAt: iso(c.completedAt),
    whatsappId: c.whatsappId,
    contactListId: c.contactListId,
    tagId: c.tagId,
    tagListId: c.tagId,
    fileListId: c.fileListId,
    mediaPath: mediaUrlOf(c.mediaPath),
    mediaName: c.mediaPath ? c.mediaName : null,
    companyId: c.companyId,
    whatsapp: c.whatsappId && r.whatsappName !== null ? { id: c.whatsappId, name: r.whatsappName } : null,
    contactList:
      c.contactListId && r.contactListName !== null ? { id: c.contactListId, name: r.contactListName } : null,
    tag: c.tagId && r.tagName !== null ? { id: c.tagId, name: r.tagName } : null,
    fileList: c.fileListId && r.fileListName !== null ? { id: c.fileListId, name: r.fileListName } : null,
    editable: isCampaignEditable(c, now.getTime()),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
};

const notFound = () => new AppError('ERR_NO_CAMPAIGN_FOUND');

const loadDto = async (ctx: TAppContext, companyId: number, id: number, now = new Date()) => {
  const row = await findCampaign(ctx.db, companyId, id);
  if (!row) throw notFound();

  return toCampaign(ctx, row, now);
};

const announce = (ctx: TAppContext, companyId: number, payload: unknown) =>
  ctx.realtime.to(rooms.admins(companyId), events.campaign(companyId), payload);

setCampaignAnnouncer(async (ctx, companyId, campaignId) => {
  const row = await findCampaign(ctx.db, companyId, campaignId);
  if (row) announce(ctx, companyId, { action: 'update', record: toCampaign(ctx, row, new Date()) });
});

/** the company's `campaignsEnabled` setting (the plan flag is checked by the route declaration) */
export const assertCampaignsEnabled = async (ctx: TAppContext, auth: TAuth) => {
  // the plan's useCampaigns is the route declaration's; together they are `campaignsOpen` (shared)
  if (!campaignsOpen(true, await readSetting(ctx.db, auth.companyId, 'campaignsEnabled'))) {
    throw new AppError('ERR_PLAN_FEATURE_DISABLED', 'Campaigns are disabled for this company');
  }
};

export const listCampaigns = async (ctx: TAppContext, auth: TAuth, query: TCampaignListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber, CAMPAIGN_PAGE_SIZE);
  const { rows, total } = await pageCampaigns(ctx.db, auth.companyId, query.searchParam, limit, offset);
  const now = new Date();
  const page = pageAnswer(
    rows.map((row) => toCampaign(ctx, row, now)),
    total,
    query.pageNumber,
    CAMPAIGN_PAGE_SIZE,
  );

  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

/**
 * GET /campaigns/:id: the campaign with what the ancestor's report page counts — `shipping` (each recipient's
 * `deliveredAt`) and `contactList.contacts` (each item's `isWhatsappValid`), as entries of those fields only
 * (`reportEntriesOf`). Zelo's own report pages its recipients at /campaigns/:id/report instead.
 */
export const getCampaign = async (ctx: TAppContext, auth: TAuth, id: number, clock?: TClock) => {
  const campaign = await loadDto(ctx, auth.companyId, id, nowOf(clock));
  const { shipping, contacts } = await reportEntriesOf(ctx.db, auth.companyId, id, campaign.contactListId);

  return {
    ...campaign,
    shipping: shipping.map((s) => ({ id: s.id, deliveredAt: iso(s.deliveredAt) })),
    contactList: campaign.contactList ? { ...campaign.contactList, contacts } : null,
  };
};

type TFields = Omit<TCampaignBody, 'tagListId' | 'tagId'> & { tagId: number | null };

/** `tagListId` (the ancestor form's field) wins over `tagId`; undefined = not sent */
const tagOf = (body: { tagListId?: number | null; tagId?: number | null }) =>
  body.tagListId !== undefined ? body.tagListId : body.tagId;

const assertLinks = async (ctx: TAppContext, companyId: number, fields: Partial<TFields>) => {
  const found = await linksOfCompany(ctx.db, companyId, fields);
  const missing = (Object.keys(found) as (keyof typeof found)[]).filter((key) => !found[key]);
  if (missing.length > 0) {
    throw new AppError(
      'ERR_VALIDATION',
      'Unknown link',
      missing.map((key) => ({ path: key === 'tagId' ? 'tagListId' : key, message: 'invalid' })),
    );
  }
};

/** a campaign that will start needs a connection, an audience and something to say */
const assertComplete = (
  c: Pick<TCampaignRow, 'whatsappId' | 'contactListId' | 'tagId' | 'mediaPath'> & Record<string, unknown>,
) => {
  const details: { path: string; message: string }[] = [];
  if (!c.whatsappId) details.push({ path: 'whatsappId', message: 'required' });
  if (!c.contactListId && !c.tagId) details.push({ path: 'contactListId', message: 'required' });
  if (!c.mediaPath && !CAMPAIGN_MESSAGE_FIELDS.some((f) => String(c[f] ?? '').trim())) {
    details.push({ path: 'message1', message: 'required' });
  }
  if (details.length > 0) throw new AppError('ERR_CAMPAIGN_INCOMPLETE', 'The campaign cannot start', details);
};

/** a start time as typed: a zone-less one is the company's wall clock (the ancestor's dialog sends its local time) */
const startOf = async (ctx: TAppContext, companyId: number, moment: string) =>
  momentToDate(moment, await companyZone(ctx.db, companyId));

const duplicated = () => new AppError('ERR_DUPLICATED_CAMPAIGN', 'A campaign with this name exists');

/**
 * POST /campaigns: INATIVA, or PROGRAMADA when `scheduledAt` is set (a time already passed starts at the next
 * tick, a few seconds later, so the dialog's media upload that follows its save still makes it).
 */
export const createCampaign = async (ctx: TAppContext, auth: TAuth, body: TCampaignBody, clock?: TClock) => {
  const companyId = auth.companyId;
  const { tagListId: _t, tagId: _g, ...rest } = body;
  const fields: TFields = { ...rest, tagId: tagOf(body) ?? null };
  await assertLinks(ctx, companyId, fields);
  const status: TCampaignStatus = fields.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
  if (status === 'PROGRAMADA') assertComplete({ ...fields, mediaPath: null });
  if (await campaignNameTaken(ctx.db, companyId, fields.name)) throw duplicated();
  let row: TCampaignRow;
  const scheduledAt = fields.scheduledAt ? await startOf(ctx, companyId, fields.scheduledAt) : null;
  try {
    row = await insertCampaign(ctx.db, {
      ...fields,
      scheduledAt,
      companyId,
      status,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicated();
    throw err;
  }
  const record = await loadDto(ctx, companyId, row.id, nowOf(clock));
  announce(ctx, companyId, { action: 'create', record });

  return record;
};

/**
 * PUT /campaigns/:id under spec 2 §4: INATIVA, or PROGRAMADA more than an hour ahead, change freely (the status
 * follows `scheduledAt`); a CANCELADA one keeps its audience, connection and time and takes its name, messages and
 * files (what its dialog still saves); anything else answers ERR_CAMPAIGN_NOT_EDITABLE.
 */
export const updateCampaign = async (
  ctx: TAppContext,
  auth: TAuth,
  id: number,
  body: TCampaignUpdateBody,
  clock?: TClock,
) => {
  const companyId = auth.companyId;
  const now = nowOf(clock);
  const current = await findCampaignPlain(ctx.db, companyId, id);
  if (!current) throw notFound();
  const text: Partial<TCampaignInsert> = {};
  if (body.name !== undefined) text.name = body.name;
  for (const f of CAMPAIGN_MESSAGE_FIELDS) if (body[f] !== undefined) text[f] = body[f];
  let patch: Partial<TCampaignInsert>;
  if (current.status === 'CANCELADA') {
    patch = text;
  } else {
    if (!isCampaignEditable(current, now.getTime())) {
      throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE', 'The campaign can no longer be changed');
    }
    const tagId = tagOf(body);
    const links = {
      ...(body.whatsappId !== undefined ? { whatsappId: body.whatsappId } : {}),
      ...(body.contactListId !== undefined ? { contactListId: body.contactListId } : {}),
      ...(tagId !== undefined ? { tagId } : {}),
      ...(body.fileListId !== undefined ? { fileListId: body.fileListId } : {}),
    };
    await assertLinks(ctx, companyId, links);
    const scheduledAt =
      body.scheduledAt !== undefined
        ? body.scheduledAt
          ? await startOf(ctx, companyId, body.scheduledAt)
          : null
        : current.scheduledAt;
    patch = { ...text, ...links, scheduledAt, status: scheduledAt ? 'PROGRAMADA' : 'INATIVA' };
    if (patch.status === 'PROGRAMADA') assertComplete({ ...current, ...patch });
  }
  if (text.name && (await campaignNameTaken(ctx.db, companyId, text.name, id))) throw duplicated();
  let row: TCampaignRow | null;
  try {
    // the status it was checked in: a tick that started it meanwhile wins
    row = await updateCampaignIf(ctx.db, companyId, id, [current.status], patch);
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicated();
    throw err;
  }
  if (!row) {
    if (!(await findCampaignPlain(ctx.db, companyId, id))) throw notFound();
    throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE', 'The campaign changed meanwhile');
  }
  const record = await loadDto(ctx, companyId, id, now);
  announce(ctx, companyId, { action: 'update', record });

  return record;
};

export const deleteCampaign = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const deleted = await deleteCampaignRow(ctx.db, auth.companyId, id);
  if (!deleted) throw notFound();
  await removeMediaFile(ctx.config, deleted.mediaPath);
  announce(ctx, auth.companyId, { action: 'delete', id });
};

/**
 * Media can change until the campaign starts sending: INATIVA, PROGRAMADA (also within its last hour — the
 * ancestor's dialog creates the campaign, then uploads its file) and CANCELADA (like its messages). The row is
 * locked when the file is stored, so a start that wins the race keeps the file it started with.
 */
const assertMediaEditable = (row: TCampaignRow, _now: Date) => {
  if (row.status !== 'INATIVA' && row.status !== 'PROGRAMADA' && row.status !== 'CANCELADA') {
    throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE', 'The campaign can no longer be changed');
  }
};

export type TCampaignUpload = { data: Buffer; fileName: string };

/** POST /campaigns/:id/media-upload: typed by content, held to its kind's limit; replaces an earlier file */
export const attachCampaignMedia = async (
  ctx: TAppContext,
  auth: TAuth,
  id: number,
  read: () => Promise<TCampaignUpload | undefined>,
  clock?: TClock,
) => {
  const companyId = auth.companyId;
  const now = nowOf(clock);
  const current = await findCampaignPlain(ctx.db, companyId, id);
  if (!current) throw notFound();
  assertMediaEditable(current, now);
  const upload = await read();
  if (!upload) throw new AppError('ERR_VALIDATION', 'No file', [{ path: 'file', message: 'required' }]);
  if (upload.data.length === 0) {
    throw new AppError('ERR_VALIDATION', 'Empty file', [{ path: 'file', message: 'invalid' }]);
  }
  const type = resolveType(upload.data, upload.fileName);
  if (upload.data.length > MEDIA_LIMITS[type.kind]) {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', `The file is too large for ${type.kind}`, [
      { path: 'file', message: 'tooLarge' },
    ]);
  }
  await replaceMediaFile(ctx.config, upload.data, type.ext, (stored) =>
    ctx.db.transaction(async (tx) => {
      const locked = await lockCampaign(tx, companyId, id);
      if (!locked) throw notFound();
      assertMediaEditable(locked, now);
      const value = await updateCampaignRow(tx, companyId, id, {
        mediaPath: stored,
        mediaName: cleanFileName(upload.fileName, `file.${type.ext}`),
      });

      return { value, previous: locked.mediaPath };
    }),
  );
  const record = await loadDto(ctx, companyId, id, now);
  announce(ctx, companyId, { action: 'update', record });

  return record;
};

export const detachCampaignMedia = async (ctx: TAppContext, auth: TAuth, id: number, clock?: TClock) => {
  const companyId = auth.companyId;
  const now = nowOf(clock);
  const earlier = await ctx.db.transaction(async (tx) => {
    const locked = await lockCampaign(tx, companyId, id);
    if (!locked) throw notFound();
    assertMediaEditable(locked, now);
    if (locked.mediaPath || locked.mediaName) {
      await updateCampaignRow(tx, companyId, id, { mediaPath: null, mediaName: null });
    }

    return locked.mediaPath;
  });
  await removeMediaFile(ctx.config, earlier);
  const record = await loadDto(ctx, companyId, id, now);
  announce(ctx, companyId, { action: 'update', record });

  return record;
};

const invalidStatus = async (ctx: TAppContext, companyId: number, id: number, needed: string) => {
  if (!(await findCampaignPlain(ctx.db, companyId, id))) return notFound();

  return new AppError('ERR_CAMPAIGN_INVALID_STATUS', `The campaign must be ${needed}`);
};

/** EM_ANDAMENTO → CANCELADA: every later send finds the status changed and does nothing */
export const cancelCampaign = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const companyId = auth.companyId;
  const row = await updateCampaignIf(ctx.db, companyId, id, ['EM_ANDAMENTO'], { status: 'CANCELADA' });
  if (!row) throw await invalidStatus(ctx, companyId, id, 'EM_ANDAMENTO');
  const record = await loadDto(ctx, companyId, id);
  announce(ctx, companyId, { action: 'update', record });
  announceProgress(ctx, companyId, id, 'CANCELADA');

  return record;
};

/** CANCELADA → EM_ANDAMENTO: only the recipients not sent yet, planned again from now */
export const restartCampaignRoute = async (ctx: TAppContext, auth: TAuth, id: number, clock?: TClock) => {
  const companyId = auth.companyId;
  const row = await restartCampaign(ctx, companyId, id, { now: clock?.now });
  if (!row) throw await invalidStatus(ctx, companyId, id, 'CANCELADA');
  const record = await loadDto(ctx, companyId, id);
  announce(ctx, companyId, { action: 'update', record });

  return record;
};

/** GET /campaigns/:id/report: the counts and a page of recipients */
export const campaignReport = async (
  ctx: TAppContext,
  auth: TAuth,
  id: number,
  query: TCampaignReportQuery,
): Promise<TCampaignReport> => {
  const companyId = auth.companyId;
  const campaign = await loadDto(ctx, companyId, id);
  const counts = await shippingCounts(ctx.db, companyId, id);
  if (counts.valid === 0 && (campaign.status === 'INATIVA' || campaign.status === 'PROGRAMADA')) {
    // not planned yet: the audience it would reach
    counts.valid = (await audienceOf(ctx.db, companyId, campaign.contactListId, campaign.tagId)).length;
  }
  const { limit, offset } = pageWindow(query.pageNumber, CAMPAIGN_PAGE_SIZE);
  const { rows, total } = await pageRecipients(
    ctx.db,
    companyId,
    id,
    { search: query.searchParam, state: query.state },
    limit,
    offset,
  );

  return {
    campaign,
    counts,
    recipients: {
      records: rows.map(({ shipping: s, ack }) => ({
        id: s.id,
        number: s.number,
        name: s.name,
        state: s.state as 'queued' | 'sent' | 'failed',
        scheduledFor: iso(s.scheduledFor),
        time: s.state === 'sent' ? iso(s.deliveredAt) : s.state === 'failed' ? iso(s.failedAt) : null,
        ack: s.state === 'sent' ? (ack ?? null) : null,
        error: s.error,
        atLeastOnce: s.atLeastOnce,
      })),
      count: total,
      hasMore: total > offset + rows.length,
    },
  };
};
