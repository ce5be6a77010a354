import { createHash } from 'node:crypto';
import { IDEMPOTENCY_WINDOW_MS, type TApiSendAnswer, type TErrorBody } from '@zelo/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TMedia } from '../../channels/types';
import { bearerToken } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { isPastDue } from '../../lib/dates';
import { lookupHash } from '../../lib/secrets';
import { channelSession } from '../messages/channel-access';
import { cleanFileName, MEDIA_LIMITS, resolveType } from '../messages/media';
import { sendTicketMedia, sendTicketText } from '../messages/send-message';
import { findOrCreateContact } from '../messages/store-inbound';
import { readSetting } from '../settings/settings.service';
import { announceTicket } from '../tickets/ticket-announcer';
import { findOrCreateTicketForInbound } from '../tickets/ticket-lifecycle';
import { claimKey, connectionOfToken, dropExpiredKey, findKey, releaseKey, storeKeyAnswer } from './messages-api.repo';
import type { TTokenGuesses } from './token-guesses';

/** who called the external API: the connection its token names, and that connection's company */
export type TApiCaller = { companyId: number; connectionId: number };

const callers = new WeakMap<FastifyRequest, TApiCaller>();

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export const apiCallerOf = (request: FastifyRequest) => {
  const caller = callers.get(request);
  if (!caller) throw new AppError('ERR_WAPP_NOT_FOUND_FOR_TOKEN');

  return caller;
};

const unknownToken = () => new AppError('ERR_WAPP_NOT_FOUND_FOR_TOKEN', 'Unknown or missing API token');

/**
 * The `token` routes' authentication (http/authenticate.ts calls it before the body is read): the bearer
 * must be a connection's token (401 `ERR_WAPP_NOT_FOUND_FOR_TOKEN` otherwise), its company active and paid
 * up, and its plan must have the external API (403 `ERR_PLAN_FEATURE_DISABLED`: the ancestor never checked).
 * The connection is found by the token's keyed hash (the database holds no clear token); an address that
 * sent too many unknown tokens is answered 429 before any lookup (token-guesses.ts). The token is never
 * logged nor echoed.
 */
export const authenticateApiToken = async (
  ctx: TAppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  guesses?: TTokenGuesses,
) => {
  const wait = guesses?.retryAfter(request.ip);
  if (wait !== undefined) {
    reply.header('retry-after', wait);
    throw new AppError('ERR_TOO_MANY_REQUESTS', 'Too many unknown tokens, try again later', undefined, 429);
  }
  const token = bearerToken(request);
  const row = token && token.length <= 200 ? await connectionOfToken(ctx.db, lookupHash(token)) : undefined;
  if (!row) {
    if (token) guesses?.failed(request.ip);
    throw unknownToken();
  }
  if (!row.companyStatus) throw new AppError('ERR_COMPANY_INACTIVE', 'This company is inactive');
  if (isPastDue(row.dueDate, row.timezone)) {
    throw new AppError('ERR_SUBSCRIPTION_EXPIRED', `Subscription expired on ${row.dueDate}`);
  }
  if (!row.useExternalApi) {
    throw new AppError('ERR_PLAN_FEATURE_DISABLED', 'The plan does not include useExternalApi');
  }
  callers.set(request, { companyId: row.companyId, connectionId: row.id });
};

export type TApiSendInput = { number: string; body: string; files: TMedia[] };
export type TApiResult = { status: number; body: TApiSendAnswer | TErrorBody; replayed: boolean };

/** the files' checks of the composer (type by content, size by kind), made before anything is stored */
const checkFiles = (files: TMedia[]) => {
  for (const [i, file] of files.entries()) {
    if (file.data.length === 0) {
      throw new AppError('ERR_VALIDATION', 'Empty file', [{ path: `medias.${i}`, message: 'invalid' }]);
    }
    const type = resolveType(file.data, file.fileName);
    if (file.data.length > MEDIA_LIMITS[type.kind]) {
      throw new AppError('ERR_PAYLOAD_TOO_LARGE', `${cleanFileName(file.fileName, 'file')} is too large`, [
        { path: `medias.${i}`, message: 'tooLarge' },
      ]);
    }
  }
};

/**
 * One send: the connection must be connected (`ERR_WAPP_NOT_INITIALIZED`, nothing stored), the number a
 * WhatsApp account on it (`ERR_WAPP_INVALID_CONTACT`); then the contact and its ticket by the inbox's rules
 * (the contact found or made, the ticket open or pending on this connection, else a closed one reopened within
 * the reopen window, else a new pending one), and the text or files sent on that ticket like an agent's
 * message (stored first, then sent, then reconciled; source `api`). The body is the first file's caption.
 */
const send = async (ctx: TAppContext, caller: TApiCaller, input: TApiSendInput, clientId: string | null) => {
  const { companyId, connectionId } = caller;
  const session = channelSession(ctx, connectionId);
  checkFiles(input.files);
  let canonical: string | null;
  try {
    canonical = await session.checkNumber(input.number);
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') throw err;
    ctx.log.warn({ err, companyId }, 'external API: number check failed');
    throw new AppError('ERR_WAPP_CHECK_CONTACT', 'Could not verify the number on WhatsApp');
  }
  if (!canonical) {
    throw new AppError('ERR_WAPP_INVALID_CONTACT', 'Not a WhatsApp number', [{ path: 'number', message: 'invalid' }]);
  }
  const number = canonical.replace(/\D/g, '') || input.number;
  const { contact } = await findOrCreateContact(ctx, { companyId, connectionId, number, isGroup: false });
  const found = await findOrCreateTicketForInbound(ctx, {
    companyId,
    connectionId,
    contactId: contact.id,
    isGroup: false,
    reopenWindowMinutes: Number(await readSetting(ctx.db, companyId, 'reopenWindowMinutes')) || 0,
  });
  if (found.created || found.reopened) await announceTicket(ctx, companyId, found.ticket.id, found.previous);
  const ticketId = found.ticket.id;
  const sent =
    input.files.length > 0
      ? await sendTicketMedia(ctx, {
          companyId,
          ticketId,
          source: 'api',
          files: input.files,
          bodies: input.files.map((_, i) => (i === 0 ? input.body : '')),
          clientId,
        })
      : [await sendTicketText(ctx, { companyId, ticketId, body: input.body, source: 'api', clientId })];
  const messageIds = sent.map((m) => m.id);
  const failed = sent.find((m) => m.errorCode);
  if (failed) {
    return {
      status: 502,
      body: {
        error: 'ERR_SENDING_WAPP_MSG',
        message: 'The message is stored in the ticket, but the channel refused it',
        details: [{ path: 'messageIds', message: messageIds.join(',') }],
      } satisfies TErrorBody,
    };
  }

  return {
    status: 200,
    body: {
      mensagem: 'Mensagem enviada',
      messageId: messageIds[0],
      messageIds,
      ticketId,
      contactId: contact.id,
    } satisfies TApiSendAnswer,
  };
};

/** a claim without an answer this old belongs to a request that will never answer (its process died) */
const ABANDONED_CLAIM_MS = 2 * 60 * 1000;

/** an `Idempotency-Key`: 1 to 255 visible ASCII characters */
export const checkIdempotencyKey = (key: string | string[] | undefined) => {
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new AppError('ERR_VALIDATION', 'Invalid Idempotency-Key', [{ path: 'Idempotency-Key', message: 'invalid' }]);
  }

  return key;
};

/**
 * POST /api/messages/send. With an `Idempotency-Key`, the first request claims the key (per company) and its
 * answer is kept: the same key within 24 h answers that answer again and sends nothing (409 `ERR_CONFLICT`
 * while the first one still runs); a request that ends in an error before anything was stored frees the key.
 * The key also derives the messages' `clientId`, so even a claim lost in a crash never stores a message twice.
 */
export const sendThroughApi = async (
  ctx: TAppContext,
  caller: TApiCaller,
  input: TApiSendInput,
  idempotencyKey?: string,
  now: Date = new Date(),
): Promise<TApiResult> => {
  if (!idempotencyKey) return { ...(await send(ctx, caller, input, null)), replayed: false };
  const keyHash = sha256(idempotencyKey).toString('hex');
  const { companyId } = caller;
  await dropExpiredKey(ctx.db, companyId, keyHash, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS));
  let claim = await claimKey(ctx.db, { companyId, keyHash, whatsappId: caller.connectionId, createdAt: now });
  if (!claim) {
    const held = await findKey(ctx.db, companyId, keyHash);
    if (held && held.status !== null) {
      return { status: held.status, body: held.response as TApiResult['body'], replayed: true };
    }
    // a claim left by a process that died mid-request is taken over: the same clientId finds what it stored
    if (!held || held.createdAt.getTime() > now.getTime() - ABANDONED_CLAIM_MS) {
      throw new AppError('ERR_CONFLICT', 'A request with this Idempotency-Key is still running');
    }
    claim = held;
  }
  let result: Omit<TApiResult, 'replayed'>;
  try {
    // one clientId per claim: a key used again after its window sends again
    result = await send(ctx, caller, input, `api-${claim.id}-${keyHash.slice(0, 32)}`);
  } catch (err) {
    await releaseKey(ctx.db, claim.id);
    throw err;
  }
  await storeKeyAnswer(ctx.db, claim.id, result.status, result.body);

  return { ...result, replayed: false };
};
