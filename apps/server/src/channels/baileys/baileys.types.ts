/**
 * The part of Baileys (`@whiskeysockets/baileys`) the driver uses, typed structurally so the library is
 * loaded only when a Baileys session starts (baileys.loader.ts) and tests can drive the driver with a
 * socket of their own that emits the same events with the same shapes.
 */

export type TWAKey = {
  remoteJid?: string | null;
  fromMe?: boolean | null;
  id?: string | null;
  participant?: string | null;
  /** Baileys 6.7.19+: the phone-number jid beside a @lid remoteJid / participant, and the reverse */
  senderPn?: string | null;
  senderLid?: string | null;
  participantPn?: string | null;
  participantLid?: string | null;
  /** Baileys 7: the other id (number or @lid) of the chat / of the group member */
  remoteJidAlt?: string | null;
  participantAlt?: string | null;
};

/** WAMessage (proto.IWebMessageInfo): what the driver reads of it; `message` is proto.IMessage */
export type TWAMessage = {
  key: TWAKey;
  message?: Record<string, unknown> | null;
  messageTimestamp?: number | { toNumber: () => number } | string | null;
  pushName?: string | null;
  status?: number | null;
  /** newer WhatsApp servers: the phone-number id of a sender addressed by @lid */
  [alt: string]: unknown;
};

export type TConnectionUpdate = {
  connection?: 'connecting' | 'open' | 'close';
  qr?: string;
  isNewLogin?: boolean;
  lastDisconnect?: { error?: { output?: { statusCode?: number }; message?: string } | Error; date?: Date };
};

export type TMessageStatusUpdate = {
  key: TWAKey;
  update: { status?: number | null; message?: Record<string, unknown> | null };
};
export type TReceiptUpdate = {
  key: TWAKey;
  receipt: { userJid?: string; readTimestamp?: unknown; receiptTimestamp?: unknown; playedTimestamp?: unknown };
};
export type TCallOffer = {
  id: string;
  from: string;
  chatId?: string;
  isVideo?: boolean;
  isGroup?: boolean;
  status: string;
  date: Date;
};
export type TContactUpsert = {
  id: string;
  lid?: string;
  jid?: string;
  notify?: string;
  name?: string;
  imgUrl?: string | null;
};

export type TBaileysEvents = {
  'connection.update': TConnectionUpdate;
  'creds.update': Record<string, unknown>;
  'messages.upsert': { messages: TWAMessage[]; type: 'notify' | 'append' };
  'messages.update': TMessageStatusUpdate[];
  'message-receipt.update': TReceiptUpdate[];
  call: TCallOffer[];
  'contacts.upsert': TContactUpsert[];
  'contacts.update': Partial<TContactUpsert>[];
  /** a customer addressed by @lid shared their number (`jid` is the phone-number jid) */
  'chats.phoneNumberShare': { lid: string; jid: string };
};

export type TBaileysEventEmitter = {
  on: <E extends keyof TBaileysEvents>(event: E, listener: (arg: TBaileysEvents[E]) => void) => void;
  removeAllListeners: (event: keyof TBaileysEvents) => void;
};

/** the socket (makeWASocket's answer) as the driver uses it */
export type TBaileysSocket = {
  ev: TBaileysEventEmitter;
  user?: { id: string; lid?: string; name?: string } | undefined;
  sendMessage: (
    jid: string,
    content: Record<string, unknown>,
    options?: Record<string, unknown>,
  ) => Promise<TWAMessage | undefined>;
  onWhatsApp: (...jids: string[]) => Promise<{ exists: boolean; jid: string; lid?: string }[] | undefined>;
  profilePictureUrl: (jid: string, type?: 'image' | 'preview', timeoutMs?: number) => Promise<string | undefined>;
  readMessages: (keys: TWAKey[]) => Promise<void>;
  requestPairingCode: (phoneNumber: string) => Promise<string>;
  /** a group's metadata; its `subject` names the group contact */
  groupMetadata?: (jid: string) => Promise<{ id: string; subject?: string | null }>;
  logout: (msg?: string) => Promise<void>;
  end: (error: Error | undefined) => void;
};

/** the signal key store Baileys reads and writes (SignalKeyStore) */
export type TSignalKeyStore = {
  get: (type: string, ids: string[]) => Promise<Record<string, unknown>>;
  set: (data: Record<string, Record<string, unknown | null>>) => Promise<void>;
};

export type TAuthState = {
  /**
   * AuthenticationCreds: `me` is set by a pairing-code request already, `account` only once WhatsApp
   * accepted the pairing (QR or code); `registered` becomes true only at the end of a pairing by code
   */
  creds: Record<string, unknown> & { registered?: boolean; me?: { id: string }; account?: unknown };
  keys: TSignalKeyStore;
};

/** what the driver needs of the library: the socket, media download, creds and JSON with Buffers */
export type TBaileysKit = {
  makeSocket: (opts: {
    auth: TAuthState;
    logger: unknown;
    connectTimeoutMs: number;
    qrTimeoutMs: number;
    /** the content of a message we sent, for Baileys to send again when a device asks (message retry) */
    getMessage: (key: TWAKey) => Promise<Record<string, unknown> | undefined>;
  }) => TBaileysSocket;
  /** the media of a message; an expired link is asked again of the phone (socket.updateMediaMessage) */
  downloadMedia: (message: TWAMessage, socket: TBaileysSocket, logger?: unknown) => Promise<Buffer>;
  initAuthCreds: () => Record<string, unknown>;
  BufferJSON: { replacer: (k: string, v: unknown) => unknown; reviver: (k: string, v: unknown) => unknown };
  /** proto.Message.AppStateSyncKeyData.fromObject: app-state keys must be revived as protobuf objects */
  appStateSyncKey: (value: unknown) => unknown;
};

/** WhatsApp's close reasons the driver acts on (Baileys' DisconnectReason) */
export const CLOSE_REASON = {
  loggedOut: 401,
  forbidden: 403,
  badSession: 500,
  restartRequired: 515,
  connectionReplaced: 440,
  multideviceMismatch: 411,
} as const;
