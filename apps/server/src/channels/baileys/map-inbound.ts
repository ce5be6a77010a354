import type { TInboundMessage, TInboundType, TMedia, TMessageUpdate } from '../types';
import type { TWAMessage } from './baileys.types';
import { isBroadcastJid, isGroupJid, isLidJid, isPersonJid, numberOf, serverPart, userPart } from './jid';

/**
 * A Baileys message (WAMessage) in the driver's shape (channels/types.ts). Wrappers (ephemeral, view
 * once, document with caption, edited) are opened; an edit or a revoke becomes an update of the message it
 * names; technical messages (key distribution, history sync, protocol messages of other kinds) map to null.
 */

type TProto = Record<string, unknown>;

/** a person's privacy id (@lid) as WhatsApp sent it, with the phone number it gave beside it, if any */
export type TLidSeen = { lid: string; number?: string };

export type TMapped =
  | {
      kind: 'message';
      message: TInboundMessage;
      /** the sender of a one-to-one chat came as a @lid */
      lid?: TLidSeen;
      /** the member who wrote in a group came as a @lid */
      participantLid?: TLidSeen;
    }
  | { kind: 'update'; update: TMessageUpdate }
  | null;

export type TMapContext = {
  connectionId: number;
  /** the media of a message, fetched when the pipeline asks (it retries) */
  download: (message: TWAMessage, mimetype: string, fileName?: string) => () => Promise<TMedia>;
};

const WRAPPERS = [
  'deviceSentMessage',
  'ephemeralMessage',
  'viewOnceMessage',
  'viewOnceMessageV2',
  'viewOnceMessageV2Extension',
  'documentWithCaptionMessage',
  'editedMessage',
];
/** keys of proto.IMessage that carry no content of their own */
const TECHNICAL = new Set(['messageContextInfo', 'senderKeyDistributionMessage']);
/**
 * contents that are no message of the conversation: a call (Baileys upserts one beside its `call` event,
 * which the driver reports as a call), encrypted poll votes, keep-in-chat and pin markers
 */
const IGNORED = new Set(['call', 'pollUpdateMessage', 'keepInChatMessage', 'pinInChatMessage', 'encReactionMessage']);
const PROTOCOL_REVOKE = 0;
const PROTOCOL_EDIT = 14;
const EDITABLE_CAPTIONS = ['imageMessage', 'videoMessage', 'documentMessage'];

const obj = (v: unknown): TProto | undefined => (v && typeof v === 'object' ? (v as TProto) : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** the content inside ephemeral / view-once / document-with-caption / edited wrappers */
export const unwrap = (message: TProto | null | undefined): TProto | undefined => {
  let content = obj(message);
  for (let depth = 0; content && depth < 5; depth++) {
    const wrapper = WRAPPERS.find((w) => obj(content?.[w])?.message);
    if (!wrapper) break;
    content = obj(obj(content[wrapper])?.message);
  }

  return content;
};

const contentType = (content: TProto) =>
  Object.keys(content).find((k) => !TECHNICAL.has(k) && content[k] !== null && content[k] !== undefined);

const seconds = (v: TWAMessage['messageTimestamp']) => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return Number(v);
  if (v && typeof v === 'object' && 'toNumber' in v) return v.toNumber();
  return Number.NaN;
};

const when = (m: TWAMessage) => {
  const s = seconds(m.messageTimestamp);

  return Number.isFinite(s) && s > 0 ? new Date(s * 1000) : new Date();
};

/**
 * A person as WhatsApp named them: the jid in the key and the alternative it may send beside it (newer
 * servers: `senderPn` / `participantPn` next to a @lid, `senderLid` / `participantLid` next to a number;
 * Baileys 7: `remoteJidAlt` / `participantAlt`). Reported by the phone number whenever one is known; a
 * @lid seen is handed over with its number, to be remembered (or looked up when the number is missing).
 * Nobody's number ever comes from the digits of a @lid when a number is known.
 */
const identify = (m: TWAMessage, primary: string, forParticipant: boolean): { number: string; lid?: TLidSeen } => {
  const key = m.key as Record<string, unknown>;
  // the sender's alternatives name us, not the chat, in what we wrote from the phone
  const names = forParticipant
    ? ['participantPn', 'participantLid', 'participantAlt']
    : m.key.fromMe
      ? ['remoteJidAlt']
      : ['senderPn', 'senderLid', 'remoteJidAlt', 'senderPhoneNumber'];
  const jids = [primary, ...names.map((name) => str(key[name]) || str(m[name]))].filter(Boolean);
  const lid = jids.find((j) => isLidJid(j));
  const phone = jids.find((j) => !isLidJid(j) && (isPersonJid(j) || !j.includes('@')));
  const number = numberOf(phone ?? primary);

  return lid ? { number, lid: { lid: userPart(lid), number: phone && numberOf(phone) } } : { number };
};

/** the body, type and extras of one content type */
const describe = (
  type: string,
  body: TProto,
  m: TWAMessage,
  ctx: TMapContext,
): Pick<TInboundMessage, 'type' | 'body' | 'media' | 'location' | 'vcards'> | null => {
  const media = (kind: TInboundType, fallbackMime: string, fileName?: string) => ({
    type: kind,
    body: str(body.caption),
    media: ctx.download(m, str(body.mimetype) || fallbackMime, fileName),
  });
  switch (type) {
    case 'conversation':
      return { type: 'text', body: typeof body === 'string' ? body : str(m.message?.conversation) };
    case 'extendedTextMessage':
      return { type: 'text', body: str(body.text) };
    case 'imageMessage':
      return media('image', 'image/jpeg');
    case 'videoMessage':
      return media('video', 'video/mp4');
    case 'audioMessage':
      return { ...media(body.ptt ? 'voice' : 'audio', 'audio/ogg'), body: '' };
    case 'documentMessage':
      return { ...media('document', 'application/octet-stream', str(body.fileName) || undefined) };
    case 'stickerMessage':
      return { ...media('sticker', 'image/webp'), body: '' };
    case 'locationMessage':
    case 'liveLocationMessage':
      return {
        type: 'location',
        body: str(body.caption) || str(body.name),
        location: {
          latitude: Number(body.degreesLatitude),
          longitude: Number(body.degreesLongitude),
          description: [str(body.name), str(body.address)].filter(Boolean).join(', ') || undefined,
        },
      };
    case 'contactMessage':
      return { type: 'vcard', body: str(body.displayName), vcards: [str(body.vcard)] };
    case 'contactsArrayMessage': {
      const cards = (Array.isArray(body.contacts) ? body.contacts : []).map((c) => str(obj(c)?.vcard)).filter(Boolean);
      return { type: 'contacts', body: str(body.displayName), vcards: cards };
    }
    case 'reactionMessage':
      return { type: 'reaction', body: str(body.text) };
    case 'buttonsResponseMessage':
      return { type: 'button_reply', body: str(body.selectedDisplayText) || str(body.selectedButtonId) };
    case 'templateButtonReplyMessage':
      return { type: 'button_reply', body: str(body.selectedDisplayText) || str(body.selectedId) };
    case 'listResponseMessage':
      return {
        type: 'list_reply',
        body: str(body.title) || str(obj(body.singleSelectReply)?.selectedRowId),
      };
    case 'interactiveResponseMessage':
      return { type: 'button_reply', body: str(obj(body.body)?.text) };
    default:
      return null;
  }
};

export const mapInbound = (m: TWAMessage, ctx: TMapContext): TMapped => {
  const remoteJid = str(m.key?.remoteJid);
  const id = str(m.key?.id);
  // WhatsApp channels (newsletters) one follows are no conversation with a customer
  if (!remoteJid || !id || serverPart(remoteJid) === 'newsletter') return null;
  const content = unwrap(m.message);
  if (!content) return null;
  const type = contentType(content);
  if (!type || IGNORED.has(type)) return null;

  if (type === 'protocolMessage') {
    const p = obj(content.protocolMessage) ?? {};
    const target = str(obj(p.key)?.id);
    if (!target) return null;
    if (Number(p.type) === PROTOCOL_REVOKE) {
      return { kind: 'update', update: { connectionId: ctx.connectionId, externalId: target, deleted: true } };
    }
    if (Number(p.type) === PROTOCOL_EDIT) {
      const edited = unwrap(obj(p.editedMessage));
      // a text, or the caption of a photo, video or document
      const text = edited
        ? str(edited.conversation) ||
          str(obj(edited.extendedTextMessage)?.text) ||
          EDITABLE_CAPTIONS.map((k) => str(obj(edited[k])?.caption)).find(Boolean) ||
          ''
        : '';
      return { kind: 'update', update: { connectionId: ctx.connectionId, externalId: target, edit: { body: text } } };
    }
    return null;
  }

  const body = type === 'conversation' ? content.conversation : content[type];
  const described = describe(type, (typeof body === 'string' ? body : (obj(body) ?? {})) as TProto, m, ctx);
  const inner = obj(body);
  const contextInfo = obj(inner?.contextInfo);
  const reactedTo = type === 'reactionMessage' ? str(obj(inner?.key)?.id) : '';
  const isGroup = isGroupJid(remoteJid);
  const message: TInboundMessage = {
    connectionId: ctx.connectionId,
    externalId: id,
    from: isBroadcastJid(remoteJid) ? remoteJid : isGroup ? userPart(remoteJid) : numberOf(remoteJid),
    fromMe: Boolean(m.key.fromMe),
    pushName: str(m.pushName) || undefined,
    isGroup,
    participantName: isGroup ? str(m.pushName) || undefined : undefined,
    ...(described ?? { type: 'text', body: unsupportedText(type) }),
    quotedExternalId: reactedTo || str(contextInfo?.stanzaId) || undefined,
    timestamp: when(m),
    raw: m,
  };
  const mapped: TMapped & { kind: 'message' } = { kind: 'message', message };
  const member = str(m.key.participant);
  if (isGroup && member) {
    const who = identify(m, member, true);
    message.participant = who.number;
    if (who.lid) mapped.participantLid = who.lid;
  }
  if (!isGroup && !isBroadcastJid(remoteJid)) {
    const who = identify(m, remoteJid, false);
    message.from = who.number;
    if (who.lid) mapped.lid = who.lid;
  }

  return mapped;
};

/** what an attendant sees for a content type the pipeline has no place for (polls, events, …) */
const unsupportedText = (type: string) => `[${type.replace(/Message(V\d+)?$/, '')}]`;
