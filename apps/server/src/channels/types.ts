import type { TChannelProvider, TConnectionError, TConnectionStatus } from '@zelo/shared';

/**
 * The channel layer (ARCHITECTURE §7). Drivers speak one transport (sandbox, Baileys, Cloud API) and
 * report what happens through `TChannelEvents`; nothing here imports the inbound pipeline or modules.
 * Numbers are digits only (`5511999998888`); group ids are the channel's group id without a suffix.
 */

export type TInboundType =
  | 'text'
  | 'image'
  | 'audio'
  | 'voice'
  | 'video'
  | 'document'
  | 'sticker'
  | 'location'
  | 'vcard'
  | 'contacts'
  | 'reaction'
  | 'button_reply'
  | 'list_reply';

export type TMedia = {
  data: Buffer;
  mimetype: string;
  fileName?: string;
};

export type TInboundMessage = {
  connectionId: number;
  /** the channel's id of this message: with connectionId, the dedupe key */
  externalId: string;
  /** the customer's number, or the group id when isGroup */
  from: string;
  /** sent by us from another device (the phone): stored as fromMe, never answered by the bot */
  fromMe: boolean;
  pushName?: string;
  isGroup: boolean;
  groupName?: string;
  /** in groups: the member who wrote */
  participant?: string;
  participantName?: string;
  type: TInboundType;
  /** text or caption; for a reaction the emoji */
  body: string;
  /** media already downloaded, or a way to download it (retried by the pipeline) */
  media?: TMedia | (() => Promise<TMedia>);
  location?: { latitude: number; longitude: number; description?: string };
  vcards?: string[];
  /** the channel id of the message this one quotes or reacts to */
  quotedExternalId?: string;
  timestamp: Date;
  raw?: unknown;
};

export type TMessageUpdate = {
  connectionId: number;
  externalId: string;
  /** 0 error, 1 pending, 2 server, 3 delivered, 4 read, 5 played; never lowered by the pipeline */
  ack?: number;
  edit?: { body: string };
  deleted?: boolean;
  error?: { code: string; message: string };
};

export type TCallEvent = { connectionId: number; from: string; isVideo: boolean; timestamp: Date; externalId: string };

export type TConnectionState = {
  connectionId: number;
  status: TConnectionStatus;
  qrcode?: string;
  retries?: number;
  phoneNumber?: string;
  /** why the session is failing (shown beside its status); absent: it is not */
  error?: TConnectionError;
};

export type TChannelEvents = {
  onState: (state: TConnectionState) => Promise<void>;
  onMessage: (message: TInboundMessage) => Promise<void>;
  onMessageUpdate: (update: TMessageUpdate) => Promise<void>;
  onCall: (call: TCallEvent) => Promise<void>;
  onContactUpdate?: (contact: {
    connectionId: number;
    number: string;
    name?: string;
    profilePicUrl?: string;
  }) => Promise<void>;
};

export type TSendOptions = {
  quotedExternalId?: string;
  isGroup?: boolean;
  /**
   * The message's id on the transport, chosen by the sender (campaigns derive it from campaign and recipient): a
   * retried send with the same id is kept once by transports that honour it (sandbox, Baileys). The Cloud API
   * cannot; it ignores it.
   */
  messageId?: string;
};
export type TSendResult = { externalId: string; ack: number };

export type TOutboundMedia = TMedia & { caption?: string; asVoiceNote?: boolean };

/** One connection's live session. Every send throws AppError ERR_WAPP_NOT_INITIALIZED when not connected. */
export type TChannelSession = {
  readonly connectionId: number;
  /** 'remote': a proxy to the session another node holds (channels/remote-session.ts) */
  readonly provider: TChannelProvider | 'remote';
  start: () => Promise<void>;
  stop: () => Promise<void>;
  /** unpair: clear stored auth state */
  logout: () => Promise<void>;
  sendText: (to: string, body: string, opts?: TSendOptions) => Promise<TSendResult>;
  sendMedia: (to: string, media: TOutboundMedia, opts?: TSendOptions) => Promise<TSendResult>;
  sendLocation: (
    to: string,
    location: { latitude: number; longitude: number; description?: string },
    opts?: TSendOptions,
  ) => Promise<TSendResult>;
  sendContact: (to: string, vcard: string, opts?: TSendOptions) => Promise<TSendResult>;
  deleteMessage: (to: string, externalId: string, opts?: { fromMe: boolean; isGroup?: boolean }) => Promise<void>;
  editMessage: (to: string, externalId: string, body: string, opts?: { isGroup?: boolean }) => Promise<void>;
  /** read receipts: only when an attendant actually reads */
  markRead: (from: string, externalIds: string[], opts?: { isGroup?: boolean }) => Promise<void>;
  /** the canonical number when it is a WhatsApp account, else null */
  checkNumber: (number: string) => Promise<string | null>;
  profilePicture: (number: string) => Promise<string | null>;
  /**
   * The media download of a stored inbound message whose media was not fetched yet, from the transport's
   * raw message kept with it (inbound/deliveries): undefined when the transport cannot
   */
  restoreMedia?: (raw: unknown) => TInboundMessage['media'];
};

export type TConnectionRef = { id: number; companyId: number; provider: TChannelProvider };

/**
 * The session's lease (channels/registry.ts): a driver that opens connections of its own accord (Baileys'
 * reconnections) asks first, so a node that lost the connection to another never opens it again.
 */
export type TSessionLease = { holds: () => Promise<boolean> };

export type TDriverFactory = (
  connection: TConnectionRef,
  events: TChannelEvents,
  lease?: TSessionLease,
) => TChannelSession;
