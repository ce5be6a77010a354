import type { TInboundMessage, TInboundType, TMedia, TMessageUpdate } from '../types';
import { cloudText, type TLang } from './texts';
import { contactToVcard, type TCloudContact } from './vcard';

/**
 * A Cloud API webhook (`object: whatsapp_business_account`, `entry[].changes[].value`) read into the
 * driver's shapes. Only `field: "messages"` changes of this connection's phone number are read; others
 * (another number, template or quality updates) are reported as skipped. Nothing here throws on a
 * malformed payload: what cannot be read is skipped with a reason.
 *
 * Types as Meta documents them: text, image, video, audio (`voice: true` for a voice note), document
 * (`filename`), sticker, location, contacts, reaction (`emoji` empty = reaction removed), interactive
 * (`button_reply` / `list_reply`), button (a template's quick reply), order, system, unsupported/unknown.
 * Newer Graph versions also report a customer's edit (`type: "edit"`, `edit.original_message_id` and the
 * new `edit.message`) and delete for everyone (`type: "revoke"`, `revoke.original_message_id`); those
 * shapes come from integrators' code, not Meta's reference, so they are read tolerantly.
 */

export type TMapContext = {
  connectionId: number;
  phoneNumberId: string;
  lang: TLang;
  /** the media-id → URL → bytes exchange */
  download: (mediaId: string, hint: { mimetype?: string; fileName?: string; sha256?: string }) => Promise<TMedia>;
};

export type TMappedWebhook = {
  messages: TInboundMessage[];
  updates: TMessageUpdate[];
  skipped: { reason: string; detail?: string }[];
};

type TObj = Record<string, unknown>;

const obj = (value: unknown): TObj | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as TObj) : undefined;
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
const digits = (value: unknown) => str(value).replace(/\D/g, '');

/** ack levels of the statuses (TMessageUpdate.ack) */
const STATUS_ACK: Record<string, number> = { sent: 2, delivered: 3, read: 4, played: 5 };

const timestampOf = (value: unknown) => {
  const seconds = Number(str(value));

  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
};

const MEDIA_TYPES: Record<string, TInboundType> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  document: 'document',
  sticker: 'sticker',
};

/** the typed part of one message: type, body and what goes with it */
const readBody = (
  m: TObj,
  ctx: TMapContext,
): Pick<TInboundMessage, 'type' | 'body' | 'media' | 'location' | 'vcards' | 'quotedExternalId'> | null => {
  const type = str(m.type);
  const part = obj(m[type]) ?? {};
  if (type === 'text') return { type: 'text', body: str(part.body) };
  if (MEDIA_TYPES[type]) {
    const mediaId = str(part.id);
    const mimetype = str(part.mime_type) || undefined;
    const fileName = str(part.filename) || undefined;
    const sha256 = str(part.sha256) || undefined;
    const inboundType: TInboundType = type === 'audio' && part.voice === true ? 'voice' : MEDIA_TYPES[type];

    return {
      type: inboundType,
      body: str(part.caption),
      ...(mediaId ? { media: () => ctx.download(mediaId, { mimetype, fileName, sha256 }) } : {}),
    };
  }
  if (type === 'location') {
    const latitude = Number(part.latitude);
    const longitude = Number(part.longitude);
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
    const description = [str(part.name), str(part.address)].filter(Boolean).join(' - ') || undefined;

    return { type: 'location', body: description ?? '', location: { latitude, longitude, description } };
  }
  if (type === 'contacts') {
    const vcards = arr(m.contacts).map((c) => contactToVcard((obj(c) ?? {}) as TCloudContact));
    if (vcards.length === 0) return null;

    return { type: vcards.length > 1 ? 'contacts' : 'vcard', body: '', vcards };
  }
  if (type === 'reaction') {
    return { type: 'reaction', body: str(part.emoji), quotedExternalId: str(part.message_id) || undefined };
  }
  if (type === 'interactive') {
    const kind = str(part.type);
    const reply = obj(part[kind]) ?? {};
    if (kind === 'button_reply' || kind === 'list_reply') {
      return { type: kind, body: str(reply.title) || str(reply.id) };
    }
    return { type: 'text', body: cloudText(ctx.lang, 'unsupported') };
  }
  if (type === 'button') return { type: 'button_reply', body: str(part.text) || str(part.payload) };
  if (type === 'order') return { type: 'text', body: cloudText(ctx.lang, 'order') };
  if (type === 'system') {
    return { type: 'text', body: `${cloudText(ctx.lang, 'system')} ${str(part.body)}`.trim() };
  }

  return { type: 'text', body: cloudText(ctx.lang, 'unsupported') };
};

const readMessage = (m: TObj, names: Map<string, string>, ctx: TMapContext, out: TMappedWebhook) => {
  const externalId = str(m.id);
  const from = digits(m.from);
  if (!externalId || !from) {
    out.skipped.push({ reason: 'message without id or sender' });
    return;
  }
  const type = str(m.type);
  if (type === 'edit' || type === 'revoke') {
    const part = obj(m[type]) ?? {};
    const target = str(part.original_message_id) || str(obj(m.context)?.id);
    if (!target) {
      out.skipped.push({ reason: `${type} without the original message id` });
      return;
    }
    if (type === 'revoke') out.updates.push({ connectionId: ctx.connectionId, externalId: target, deleted: true });
    else {
      const edited = obj(part.message) ?? {};
      const body = str(obj(edited.text)?.body) || str(obj(m.text)?.body) || str(obj(edited[str(edited.type)])?.caption);
      out.updates.push({ connectionId: ctx.connectionId, externalId: target, edit: { body } });
    }
    return;
  }
  if (type === 'request_welcome') {
    out.skipped.push({ reason: 'request_welcome (no message)' });
    return;
  }
  const body = readBody(m, ctx);
  if (!body) {
    out.skipped.push({ reason: `unreadable ${type || 'message'}`, detail: externalId });
    return;
  }
  const quoted = body.quotedExternalId ?? (str(obj(m.context)?.id) || undefined);
  out.messages.push({
    connectionId: ctx.connectionId,
    externalId,
    from,
    fromMe: false,
    pushName: names.get(from),
    isGroup: false,
    ...body,
    ...(quoted ? { quotedExternalId: quoted } : {}),
    timestamp: timestampOf(m.timestamp),
    raw: m,
  });
};

const readStatus = (s: TObj, ctx: TMapContext, out: TMappedWebhook) => {
  const externalId = str(s.id);
  const status = str(s.status);
  if (!externalId) {
    out.skipped.push({ reason: 'status without id' });
    return;
  }
  if (status === 'failed') {
    const error = obj(arr(s.errors)[0]) ?? {};
    const code = str(error.code) || 'failed';
    const title = str(error.title) || str(error.message) || 'Message failed';
    const details = str(obj(error.error_data)?.details);
    out.updates.push({
      connectionId: ctx.connectionId,
      externalId,
      error: { code, message: details && details !== title ? `${title}: ${details}` : title },
    });
    return;
  }
  const ack = STATUS_ACK[status];
  if (!ack) {
    out.skipped.push({ reason: `status ${status || '?'}`, detail: externalId });
    return;
  }
  out.updates.push({ connectionId: ctx.connectionId, externalId, ack });
};

export const mapWebhook = (payload: unknown, ctx: TMapContext): TMappedWebhook => {
  const out: TMappedWebhook = { messages: [], updates: [], skipped: [] };
  const root = obj(payload);
  if (!root || str(root.object) !== 'whatsapp_business_account') {
    out.skipped.push({ reason: 'not a whatsapp_business_account payload' });
    return out;
  }
  for (const entry of arr(root.entry)) {
    for (const change of arr(obj(entry)?.changes)) {
      const field = str(obj(change)?.field);
      const value = obj(obj(change)?.value);
      if (field !== 'messages' || !value) {
        out.skipped.push({ reason: `field ${field || '?'}` });
        continue;
      }
      const phoneNumberId = str(obj(value.metadata)?.phone_number_id);
      if (phoneNumberId !== ctx.phoneNumberId) {
        out.skipped.push({ reason: 'another phone number id', detail: phoneNumberId });
        continue;
      }
      const names = new Map<string, string>();
      for (const c of arr(value.contacts)) {
        const name = str(obj(obj(c)?.profile)?.name);
        if (name) names.set(digits(obj(c)?.wa_id), name);
      }
      for (const m of arr(value.messages)) {
        const message = obj(m);
        if (message) readMessage(message, names, ctx, out);
        else out.skipped.push({ reason: 'message is not an object' });
      }
      for (const s of arr(value.statuses)) {
        const status = obj(s);
        if (status) readStatus(status, ctx, out);
        else out.skipped.push({ reason: 'status is not an object' });
      }
      for (const e of arr(value.errors)) {
        out.skipped.push({ reason: 'error reported by Meta', detail: `${str(obj(e)?.code)} ${str(obj(e)?.title)}` });
      }
    }
  }

  return out;
};
