import { isCompanyActive } from '../companies/company-active';
import { createHash } from 'node:crypto';
import { CAMPAIGN_MESSAGE_FIELDS, events, rooms, type TCampaignStatus } from '@zelo/shared';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { createDueRunner, memo, runPool } from '../../lib/due-runner';
import { readMediaFile } from '../messages/media';
import { contactByNumber, insertContactOnce } from '../messages/messages.repo';
import { sendOnce } from '../messages/send-message';
import { sendManyOnce, type TManyInput } from '../messages/send-many';
import { renderCampaignMessage } from '../messages/variables';
import { companyBasics, findActiveTicket, findLatestClosedTicket } from '../tickets/tickets.repo';
import { readCampaignSettings } from './campaign-settings';
import {
  audienceOf,
  campaignStatus,
  claimDueShippings,
  claimShipping,
  connectionOf,
  dueScheduledCampaigns,
  fileListMessage,
  fileListOptions,
  finalizeIfDone,
  findCampaignPlain,
  finishShipping,
  finishShippingsSent,
  insertClosedTicket,
  insertShippings,
  lockCampaign,
  nextShippingDueAt,
  overdueShippings,
  recipientTicketsMany,
  releaseShipping,
  releaseShippings,
  replanShippings,
  runningCampaigns,
  shippingCounts,
  type TCampaignRow,
  type TShippingRow,
  unsentShippings,
  updateCampaignRow,
} from './campaigns.repo';
import { planSendTimes } from './interval-plan';

/**
 * Campaign dispatch (issue 12 item 5). Starting a campaign plans every recipient up front (`scheduledFor`, from the
 * interval settings) in one transaction (multi-row inserts) and wakes this node's campaign sender. Each node's
 * sender (createCampaignSender) keeps a timer for the next planned send and claims due recipients in batches
 * (still queued, campaign still EM_ANDAMENTO, due, not held by another run: SKIP LOCKED, a hold that a crash
 * outlives by CLAIM_MS), sends each through `sendOnce` with message ids derived from (campaign, recipient), and
 * records the outcome; what a batch shares is read once. A periodic tick starts due scheduled campaigns, runs
 * recipients overdue by more than its grace (a node down) and finishes campaigns with nothing left.
 */

export const SEND_JOB = 'campaign-send';
/** how long a recipient of a paused company (inactive or past due) waits before it is tried again */
const RETRY_PAUSED_MS = 60_000;
/** a run holds its recipient this long; a crashed run's recipient is free again after it */
export const CLAIM_MS = 30_000;
/** a job may run this much before the planned time (pg-boss's clock is the database's) */
const EARLY_MS = 1_000;
/** the sender claims a recipient this much before its planned time (its timer fires on the millisecond) */
const SENDER_EARLY_MS = 20;
/** a recipient whose connection is not connected is tried again after this */
const RETRY_OFFLINE_MS = 10_000;

export type TSendJob = { companyId: number; campaignId: number; shippingId: number };

export type TDispatchOptions = {
  now?: () => Date;
  random?: () => number;
};

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

/** the transport id of part `part` of a recipient's send: the same on every retry */
export const messageIdOf = (campaignId: number, shippingId: number, part: number) =>
  `3EB0${hash(`zelo-campaign:${campaignId}:${shippingId}`).slice(0, 16).toUpperCase()}${part.toString(16).padStart(2, '0').toUpperCase()}`;

/** the variant a recipient gets: one of the non-empty messages, the same one on every retry */
export const variantFor = (
  campaign: Pick<TCampaignRow, (typeof CAMPAIGN_MESSAGE_FIELDS)[number]>,
  shippingId: number,
) => {
  const variants = CAMPAIGN_MESSAGE_FIELDS.map((f) => campaign[f]).filter((m) => m.trim());
  if (variants.length === 0) return '';

  return variants[Number.parseInt(hash(`variant:${shippingId}`).slice(0, 8), 16) % variants.length]!;
};

// ---- realtime

const announce = (ctx: TAppContext, companyId: number, payload: unknown) =>
  ctx.realtime.to(rooms.admins(companyId), events.campaign(companyId), payload);

/**
 * per campaign: how long its last count took. A count is not repeated sooner than 4 times that (at least 500 ms), so
 * the live report of a big campaign takes at most about a fifth of the database while its sends need the rest.
 */
const countMs = new Map<number, number>();
const pace = (campaignId: number) => Math.max(500, 4 * (countMs.get(campaignId) ?? 0));

/** per campaign: the armed timer, whether its counts are being read, whether a change came meanwhile */
const progress = new Map<number, { timer?: NodeJS.Timeout; running: boolean; again: boolean; urgent: boolean }>();
/**
 * the report's live counts: at most one event per campaign every 500 ms, or 4 times its last count's time when that
 * is longer (the last change always told; a status change at once), and never two counts of one campaign read at
 * once (a burst's acks would otherwise pile them up while the database is busy)
 */
export const announceProgress = (ctx: TAppContext, companyId: number, campaignId: number, status?: TCampaignStatus) => {
  let p = progress.get(campaignId);
  if (!p) {
    p = { running: false, again: false, urgent: false };
    progress.set(campaignId, p);
  }
  const state = p;
  if (state.running) {
    state.again = true;
    state.urgent ||= Boolean(status);
    return;
  }
  if (state.timer && !status) return;
  const emit = async () => {
    const campaign = await findCampaignPlain(ctx.db, companyId, campaignId);
    if (!campaign) return;
    const started = performance.now();
    const counts = await shippingCounts(ctx.db, companyId, campaignId);
    if (countMs.size > 10_000) countMs.clear();
    countMs.set(campaignId, performance.now() - started);
    announce(ctx, companyId, { action: 'progress', campaignId, status: campaign.status, counts });
  };
  const arm = (ms: number) => {
    clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      state.running = true;
      void emit()
        .catch(() => undefined)
        .finally(() => {
          state.running = false;
          if (state.again) {
            state.again = false;
            const urgent = state.urgent;
            state.urgent = false;
            arm(urgent ? 0 : pace(campaignId));
          } else if (progress.get(campaignId) === state) progress.delete(campaignId);
        });
    }, ms);
    state.timer.unref();
  };
  arm(status ? 0 : pace(campaignId));
};

/** the campaign's update event (set by the service, which owns the DTO) */
let announceCampaign: (ctx: TAppContext, companyId: number, campaignId: number) => Promise<void> = async () =>
  undefined;
export const setCampaignAnnouncer = (fn: typeof announceCampaign) => {
  announceCampaign = fn;
};

// ---- planning

/** the sender's hook: a campaign started or restarted on this node wakes its sender (set by createCampaignSender) */
const wakeups = new WeakMap<object, () => void>();
const wakeSender = (ctx: TAppContext) => wakeups.get(ctx)?.();

/**
 * Starts a campaign (from one of `from`): its audience deduplicated by number, planned from `now` with the
 * company's intervals, stored with the status EM_ANDAMENTO in one transaction; then the jobs. Null when the campaign
 * was not in one of `from` (another node started it, it was cancelled).
 */
export const startCampaign = async (
  ctx: TAppContext,
  companyId: number,
  campaignId: number,
  from: readonly TCampaignStatus[],
  opts: TDispatchOptions = {},
) => {
  const now = opts.now?.() ?? new Date();
  const started = await ctx.db.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, companyId, campaignId);
    if (!campaign || !from.includes(campaign.status as TCampaignStatus)) return null;
    const settings = await readCampaignSettings(tx, companyId);
    const audience = await audienceOf(tx, companyId, campaign.contactListId, campaign.tagId);
    const times = planSendTimes({ count: audience.length, start: now, settings, random: opts.random });
    await insertShippings(
      tx,
      companyId,
      campaignId,
      audience.map((m, i) => ({
        number: m.number,
        name: m.name,
        email: m.email,
        contactListItemId: m.contactListItemId,
        contactId: m.contactId,
        scheduledFor: times[i]!,
      })),
    );

    return updateCampaignRow(tx, companyId, campaignId, { status: 'EM_ANDAMENTO', completedAt: null });
  });
  if (!started) return null;
  // an empty audience has nothing to wait for
  await finishIfDone(ctx, companyId, campaignId, now);
  await announceCampaign(ctx, companyId, campaignId);
  wakeSender(ctx);

  return started;
};

/** CANCELADA → EM_ANDAMENTO: the recipients not sent yet (queued or failed) planned again from now */
export const restartCampaign = async (
  ctx: TAppContext,
  companyId: number,
  campaignId: number,
  opts: TDispatchOptions = {},
) => {
  const now = opts.now?.() ?? new Date();
  const restarted = await ctx.db.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, companyId, campaignId);
    if (!campaign || campaign.status !== 'CANCELADA') return null;
    const settings = await readCampaignSettings(tx, companyId);
    const ids = (await unsentShippings(tx, companyId, campaignId)).map((row) => row.id);
    const times = planSendTimes({ count: ids.length, start: now, settings, random: opts.random });
    await replanShippings(tx, companyId, ids, times);

    return updateCampaignRow(tx, companyId, campaignId, { status: 'EM_ANDAMENTO', completedAt: null });
  });
  if (!restarted) return null;
  await finishIfDone(ctx, companyId, campaignId, now);
  wakeSender(ctx);

  return restarted;
};

const finishIfDone = async (ctx: TAppContext, companyId: number, campaignId: number, now: Date) => {
  const finished = await finalizeIfDone(ctx.db, companyId, campaignId, now);
  if (!finished) return false;
  announceProgress(ctx, companyId, campaignId, 'FINALIZADA');
  await announceCampaign(ctx, companyId, campaignId);

  return true;
};

// ---- one recipient

const failureText = (err: unknown) => {
  if (err instanceof AppError) return `${err.code}: ${err.message}`.slice(0, 1000);

  return (err instanceof Error ? err.message : String(err)).slice(0, 1000);
};

/**
 * The recipient's contact (created when new) and the ticket to record the send in: open, else closed, else new;
 * what it creates in one commit.
 */
const recipientTicket = (
  ctx: TAppContext,
  companyId: number,
  whatsappId: number,
  r: { number: string; name: string; email: string },
  now: Date,
) =>
  ctx.db.transaction(async (tx) => {
    const contact =
      (await contactByNumber(tx, companyId, r.number)) ??
      (await insertContactOnce(tx, {
        companyId,
        name: r.name || r.number,
        number: r.number,
        email: r.email,
        whatsappId,
      })) ??
      (await contactByNumber(tx, companyId, r.number));
    if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
    const ticket =
      (await findActiveTicket(tx, companyId, whatsappId, contact.id))?.ticket ??
      (await findLatestClosedTicket(tx, companyId, whatsappId, contact.id)) ??
      (await insertClosedTicket(tx, { companyId, contactId: contact.id, whatsappId, at: now }));

    return { contact, ticket };
  });

export type TSendOutcome = 'sent' | 'failed' | 'skipped';

/**
 * What a batch of sends shares, read once per campaign and company (a claimed batch is sent within seconds; a
 * campaign's messages, connection and files only change while it is CANCELADA): the campaign, its connection, the
 * company's settings and basics, its standing, and the media read once. The campaign's status is read again when
 * the last read is older than `STATUS_MS`, so a cancel stops the sends within that.
 */
/** a file a campaign sends: its bytes, its name, and the stored file each message links to rather than copies */
export type TCampaignFile = { data: Buffer; fileName: string; stored: string };

export type TSendCache = {
  campaigns: Map<number, Promise<TCampaignSend>>;
  active: Map<number, Promise<boolean>>;
  status: Map<number, { at: number; running: Promise<boolean> }>;
};

type TCampaignSend = {
  campaign: TCampaignRow;
  connection: NonNullable<Awaited<ReturnType<typeof connectionOf>>>;
  settings: Awaited<ReturnType<typeof readCampaignSettings>>;
  company: Awaited<ReturnType<typeof companyBasics>>;
  /** the file list's own message, sent before its files */
  filesMessage: string;
  files: TCampaignFile[];
  media: TCampaignFile | null;
};

/**
 * The name a list's file is sent under: its option's name ("Catálogo"), with the stored file's extension when
 * the name lacks it, so a PDF arrives as `Catálogo.pdf` and the customer's phone opens it.
 */
export const withStoredExtension = (name: string, stored: string) => {
  const ext = stored.match(/\.([a-z0-9]{1,8})$/i)?.[1];
  const base = name.trim() || stored;
  if (!ext || base.toLowerCase().endsWith(`.${ext.toLowerCase()}`)) return base;

  return `${base}.${ext}`;
};

/** a cancel reaches a batch under way within this */
const STATUS_MS = 250;

export const newSendCache = (): TSendCache => ({ campaigns: new Map(), active: new Map(), status: new Map() });

const loadCampaignSend = async (ctx: TAppContext, companyId: number, campaignId: number): Promise<TCampaignSend> => {
  const campaign = await findCampaignPlain(ctx.db, companyId, campaignId);
  if (!campaign?.whatsappId) throw new AppError('ERR_NO_WAPP_FOUND', 'The campaign has no connection');
  const connection = await connectionOf(ctx.db, companyId, campaign.whatsappId);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND', 'The campaign has no connection');
  const [settings, company] = await Promise.all([
    readCampaignSettings(ctx.db, companyId),
    companyBasics(ctx.db, companyId),
  ]);
  const files: TCampaignSend['files'] = [];
  let filesMessage = '';
  if (campaign.fileListId) {
    filesMessage = await fileListMessage(ctx.db, companyId, campaign.fileListId);
    for (const option of await fileListOptions(ctx.db, companyId, campaign.fileListId)) {
      if (!option.path) continue;
      files.push({
        data: await readMediaFile(ctx.config, option.path),
        fileName: withStoredExtension(option.name, option.path),
        stored: option.path,
      });
    }
  }
  const media = campaign.mediaPath
    ? {
        data: await readMediaFile(ctx.config, campaign.mediaPath),
        fileName: campaign.mediaName || campaign.mediaPath,
        stored: campaign.mediaPath,
      }
    : null;

  return { campaign, connection, settings, company, filesMessage, files, media };
};

/** whether the campaign still runs, read at most every STATUS_MS per batch */
const stillRunning = (ctx: TAppContext, cache: TSendCache, companyId: number, campaignId: number) => {
  const known = cache.status.get(campaignId);
  if (known && Date.now() - known.at < STATUS_MS) return known.running;
  const running = campaignStatus(ctx.db, companyId, campaignId).then((status) => status === 'EM_ANDAMENTO');
  cache.status.set(campaignId, { at: Date.now(), running });

  return running;
};

/**
 * Sends one claimed recipient and records the outcome (without the campaign's finish, which the caller checks once
 * per batch). A recipient of a paused company, of a cancelled campaign or on a connection not connected is given
 * back queued; the send itself is safe to repeat (the message is stored once under its clientId and carries the
 * same transport id).
 */
export const sendClaimedShipping = async (
  ctx: TAppContext,
  shipping: TShippingRow,
  cache: TSendCache,
  opts: TDispatchOptions = {},
): Promise<TSendOutcome> => {
  const now = opts.now?.() ?? new Date();
  const { companyId, campaignId } = shipping;
  if (!(await memo(cache.active, companyId, () => isCompanyActive(ctx, companyId)))) {
    // the company's automatic sends pause until it pays (issue 13): the recipient waits, the tick tries again
    await releaseShipping(ctx.db, companyId, shipping.id, new Date(now.getTime() + RETRY_PAUSED_MS));
    return 'skipped';
  }
  if (!(await stillRunning(ctx, cache, companyId, campaignId))) {
    // cancelled after the claim: left queued for a restart
    await releaseShipping(ctx.db, companyId, shipping.id, now);
    return 'skipped';
  }
  try {
    const { campaign, connection, settings, company, filesMessage, files, media } = await memo(
      cache.campaigns,
      campaignId,
      () => loadCampaignSend(ctx, companyId, campaignId),
    );
    const { contact, ticket } = await recipientTicket(ctx, companyId, connection.id, shipping, now);
    const render = (template: string) =>
      renderCampaignMessage(
        template,
        {
          name: shipping.name || contact.name,
          email: shipping.email || contact.email,
          number: shipping.number,
          variables: settings.variables,
        },
        { timeZone: company?.timezone ?? 'America/Sao_Paulo', language: company?.language ?? 'pt', at: now },
      );
    const text = render(variantFor(campaign, shipping.id));
    // the file list: its own message, then its files
    const listText = files.length > 0 && filesMessage.trim() ? render(filesMessage) : '';
    const parts: { body: string; media?: TCampaignFile }[] = [
      ...(listText.trim() ? [{ body: listText }] : []),
      ...files.map((file) => ({ body: '', media: file })),
    ];
    if (media) parts.push({ body: text, media });
    else if (text.trim()) parts.push({ body: text });
    if (parts.length === 0) throw new AppError('ERR_VALIDATION', 'Nothing to send');
    let atLeastOnce = false;
    let messageRowId = 0;
    for (const [i, part] of parts.entries()) {
      const id = messageIdOf(campaignId, shipping.id, i);
      const result = await sendOnce(ctx, {
        companyId,
        ticket: { id: ticket.id, contactId: contact.id, whatsappId: connection.id, isGroup: false },
        to: shipping.number,
        source: 'campaign',
        clientId: id,
        messageId: id,
        body: part.body,
        media: part.media,
      });
      // the Cloud API cannot take our id: a send found unfinished may have left before the crash
      if (result.retried && connection.provider === 'cloud-api') atLeastOnce = true;
      messageRowId = result.messageRowId;
    }
    await finishShipping(ctx.db, companyId, shipping.id, {
      state: 'sent',
      deliveredAt: opts.now?.() ?? new Date(),
      contactId: contact.id,
      message: text,
      messageId: messageIdOf(campaignId, shipping.id, 0),
      messageRowId,
      error: null,
      ...(atLeastOnce ? { atLeastOnce: true } : {}),
    });

    return 'sent';
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') {
      // the connection is not connected (yet: a restart): the recipient waits, the tick tries it again
      await releaseShipping(ctx.db, companyId, shipping.id, new Date(now.getTime() + RETRY_OFFLINE_MS));
      return 'skipped';
    }
    ctx.log.warn({ err, campaignId, shippingId: shipping.id }, 'campaign send failed');
    await finishShipping(ctx.db, companyId, shipping.id, {
      state: 'failed',
      error: failureText(err),
      failedAt: opts.now?.() ?? new Date(),
    });

    return 'failed';
  }
};

/**
 * The text-only recipients of one campaign sent together (`sendManyOnce`): their contacts and tickets found or
 * created in one commit, the messages stored, sent and reconciled for the whole group, the sent outcomes written in
 * one statement. The guarantees are `sendClaimedShipping`'s; a failure before the sends (the contacts and tickets)
 * sends the group one by one instead.
 */
const sendTextGroup = async (
  ctx: TAppContext,
  send: TCampaignSend,
  rows: TShippingRow[],
  opts: TDispatchOptions,
): Promise<TSendOutcome[]> => {
  const now = opts.now?.() ?? new Date();
  const { campaign, connection, settings, company } = send;
  const companyId = campaign.companyId;
  const found = await ctx.db.transaction((tx) => recipientTicketsMany(tx, companyId, connection.id, rows, now));
  const outcomes: TSendOutcome[] = new Array(rows.length);
  const inputs: TManyInput[] = [];
  const sendsOf: { k: number; contactId: number; text: string }[] = [];
  for (const [k, shipping] of rows.entries()) {
    const target = found.get(shipping.number);
    const text = target
      ? renderCampaignMessage(
          variantFor(campaign, shipping.id),
          {
            name: shipping.name || target.contact.name,
            email: shipping.email || target.contact.email,
            number: shipping.number,
            variables: settings.variables,
          },
          { timeZone: company?.timezone ?? 'America/Sao_Paulo', language: company?.language ?? 'pt', at: now },
        )
      : '';
    if (!target || !text.trim()) {
      const err = target ? new AppError('ERR_VALIDATION', 'Nothing to send') : new AppError('ERR_NO_CONTACT_FOUND');
      await finishShipping(ctx.db, companyId, shipping.id, {
        state: 'failed',
        error: failureText(err),
        failedAt: opts.now?.() ?? new Date(),
      });
      outcomes[k] = 'failed';
      continue;
    }
    const id = messageIdOf(campaign.id, shipping.id, 0);
    sendsOf.push({ k, contactId: target.contact.id, text });
    inputs.push({
      companyId,
      ticket: { id: target.ticket.id, contactId: target.contact.id, whatsappId: connection.id, isGroup: false },
      to: shipping.number,
      source: 'campaign',
      clientId: id,
      messageId: id,
      body: text,
    });
  }
  const results = await sendManyOnce(ctx, companyId, inputs);
  const sent: Parameters<typeof finishShippingsSent>[2] = [];
  for (const [j, result] of results.entries()) {
    const { k, contactId, text } = sendsOf[j]!;
    const shipping = rows[k]!;
    if (result.ok) {
      sent.push({
        id: shipping.id,
        contactId,
        message: text,
        messageId: messageIdOf(campaign.id, shipping.id, 0),
        messageRowId: result.result.messageRowId,
        // the Cloud API cannot take our id: a send found unfinished may have left before the crash
        atLeastOnce: result.result.retried && connection.provider === 'cloud-api',
      });
      outcomes[k] = 'sent';
    } else if (result.error instanceof AppError && result.error.code === 'ERR_WAPP_NOT_INITIALIZED') {
      // the connection is not connected (yet: a restart): the recipient waits, the tick tries it again
      await releaseShipping(ctx.db, companyId, shipping.id, new Date(now.getTime() + RETRY_OFFLINE_MS));
      outcomes[k] = 'skipped';
    } else {
      ctx.log.warn({ err: result.error, campaignId: campaign.id, shippingId: shipping.id }, 'campaign send failed');
      await finishShipping(ctx.db, companyId, shipping.id, {
        state: 'failed',
        error: failureText(result.error),
        failedAt: opts.now?.() ?? new Date(),
      });
      outcomes[k] = 'failed';
    }
  }
  await finishShippingsSent(ctx.db, companyId, sent, opts.now?.() ?? new Date());

  return outcomes;
};

/**
 * Sends a claimed batch: the recipients of text-only campaigns in groups per campaign (`sendTextGroup`), the others
 * (files, media; a paused company, a cancelled campaign, a campaign that cannot be read) one by one through
 * `sendClaimedShipping`, `concurrency` at a time. Answers each recipient's outcome, in order.
 */
export const sendClaimedBatch = async (
  ctx: TAppContext,
  rows: TShippingRow[],
  cache: TSendCache,
  opts: TDispatchOptions & { concurrency?: number } = {},
): Promise<TSendOutcome[]> => {
  const outcomes: TSendOutcome[] = new Array(rows.length);
  const groups = new Map<number, { send: TCampaignSend; at: number[] }>();
  const single: number[] = [];
  for (const [i, row] of rows.entries()) {
    const { companyId, campaignId } = row;
    const send = (await memo(cache.active, companyId, () => isCompanyActive(ctx, companyId)))
      ? await memo(cache.campaigns, campaignId, () => loadCampaignSend(ctx, companyId, campaignId)).catch(() => null)
      : null;
    if (!send || send.files.length > 0 || send.media) {
      single.push(i);
      continue;
    }
    const group = groups.get(campaignId) ?? { send, at: [] };
    group.at.push(i);
    groups.set(campaignId, group);
  }
  for (const [campaignId, group] of groups) {
    const { companyId } = group.send.campaign;
    if (!(await stillRunning(ctx, cache, companyId, campaignId))) {
      // cancelled after the claim: the group is left queued for a restart, in one statement
      await releaseShippings(
        ctx.db,
        companyId,
        group.at.map((i) => rows[i]!.id),
        opts.now?.() ?? new Date(),
      );
      for (const i of group.at) outcomes[i] = 'skipped';
      continue;
    }
    try {
      const done = await sendTextGroup(
        ctx,
        group.send,
        group.at.map((i) => rows[i]!),
        opts,
      );
      for (const [k, i] of group.at.entries()) outcomes[i] = done[k]!;
    } catch (err) {
      // what was stored is found again by its clientId: the one-by-one path finishes the group
      ctx.log.warn({ err, campaignId }, 'campaign batch failed; sending one by one');
      single.push(...group.at);
    }
  }
  await runPool(single, opts.concurrency ?? 16, async (i) => {
    outcomes[i] = await sendClaimedShipping(ctx, rows[i]!, cache, opts).catch((err) => {
      ctx.log.error({ err, shippingId: rows[i]!.id }, 'campaign send not recorded');
      return 'skipped' as const;
    });
  });

  return outcomes;
};

/** runs one recipient's send (a `campaign-send` job, the tick); safe to run twice, or concurrently */
export const dispatchShipping = async (
  ctx: TAppContext,
  job: TSendJob,
  opts: TDispatchOptions = {},
): Promise<TSendOutcome> => {
  const now = opts.now?.() ?? new Date();
  const shipping = await claimShipping(ctx.db, job.companyId, job.shippingId, now, CLAIM_MS, EARLY_MS);
  if (!shipping) return 'skipped';
  const outcome = await sendClaimedShipping(ctx, shipping, newSendCache(), opts);
  if (outcome !== 'skipped') {
    announceProgress(ctx, shipping.companyId, shipping.campaignId);
    await finishIfDone(ctx, shipping.companyId, shipping.campaignId, opts.now?.() ?? new Date());
  }

  return outcome;
};

// ---- the sender

export type TCampaignSenderOptions = TDispatchOptions & {
  pollMs?: number;
  /** recipients claimed per statement (200: the text recipients of a batch share its few statements) */
  batch?: number;
  /** sends in flight at once */
  concurrency?: number;
  /** batches claimed and sent at once */
  lanes?: number;
};

/**
 * The campaign sender of a node: a timer for the next planned send (lib/due-runner), and a pass that claims the
 * due recipients of every running campaign in batches (claimDueShippings: SKIP LOCKED, a hold of CLAIM_MS that a
 * crashed node's claims outlive by no more), sends them `concurrency` at a time with what a batch shares read
 * once, then announces progress and finishes the campaigns with nothing left, once per batch.
 */
export const createCampaignSender = (ctx: TAppContext, opts: TCampaignSenderOptions = {}) => {
  const now = opts.now ?? (() => new Date());
  const batch = opts.batch ?? 200;
  const concurrency = opts.concurrency ?? 16;
  const lanes = opts.lanes ?? 2;
  /** one lane: claim a batch, send it, record it, until nothing is due */
  const lane = async () => {
    let sent = 0;
    for (;;) {
      const at = now();
      const claimed = await claimDueShippings(ctx.db, {
        now: at,
        dueBy: new Date(at.getTime() + SENDER_EARLY_MS),
        holdUntil: new Date(at.getTime() + CLAIM_MS),
        limit: batch,
      });
      if (claimed.length === 0) return sent;
      const cache = newSendCache();
      const touched = new Map<number, number>();
      const outcomes = await sendClaimedBatch(ctx, claimed, cache, { ...opts, concurrency });
      for (const [i, row] of claimed.entries()) {
        if (outcomes[i] === 'skipped') continue;
        sent += 1;
        touched.set(row.campaignId, row.companyId);
      }
      for (const [campaignId, companyId] of touched) {
        announceProgress(ctx, companyId, campaignId);
        await finishIfDone(ctx, companyId, campaignId, now());
      }
    }
  };
  // lanes overlap one batch's round trips to the database with another's (claims keep them apart)
  const pass = async () => (await Promise.all(Array.from({ length: lanes }, lane))).reduce((a, b) => a + b, 0);
  const runner = createDueRunner({
    pass,
    nextDueAt: () => nextShippingDueAt(ctx.db, now()),
    now,
    pollMs: opts.pollMs ?? 1000,
    log: ctx.log,
    name: 'campaign sender',
  });

  return {
    pass,
    wake: runner.wake,
    start: () => {
      wakeups.set(ctx, runner.wake);
      runner.start();
    },
    stop: async () => {
      wakeups.delete(ctx);
      await runner.stop();
    },
  };
};

// ---- the periodic tick

export type TTickOptions = TDispatchOptions & {
  /** recipients due longer ago than this whose job did not run are sent by the tick (0 in tests without jobs) */
  graceMs?: number;
  limit?: number;
};

/** starts due scheduled campaigns, sends overdue recipients, finishes campaigns with nothing left */
export const campaignTick = async (ctx: TAppContext, opts: TTickOptions = {}) => {
  const now = opts.now?.() ?? new Date();
  for (const due of await dueScheduledCampaigns(ctx.db, now)) {
    await startCampaign(ctx, due.companyId, due.id, ['PROGRAMADA'], { ...opts, now: () => now });
  }
  const before = new Date(now.getTime() - (opts.graceMs ?? 0));
  let overdue = await overdueShippings(ctx.db, before, now, opts.limit ?? 500);
  if (overdue.length > 0 && wakeups.has(ctx)) {
    // this node's sender sends them in its batches (a backlog, not a lost job): one more runner would only compete
    wakeSender(ctx);
    overdue = [];
  }
  for (const row of overdue) {
    await dispatchShipping(ctx, { companyId: row.companyId, campaignId: row.campaignId, shippingId: row.id }, opts);
  }
  for (const running of await runningCampaigns(ctx.db)) {
    await finishIfDone(ctx, running.companyId, running.id, now);
  }

  return { sent: overdue.length };
};

/** the tick every `everyMs` on this node (claims keep nodes apart); stops with the returned function */
export const startCampaignTicker = (ctx: TAppContext, everyMs = 5_000, graceMs = 15_000) => {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void campaignTick(ctx, { graceMs })
      .catch((err) => ctx.log.error({ err }, 'campaign tick failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();

  return () => clearInterval(timer);
};
