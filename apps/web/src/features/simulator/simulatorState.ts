/**
 * The customer simulator's state for one sandbox connection: the customers being played, what each one sent
 * (kept in this browser) and what each one received (the sandbox outbox, kept live by `company-{id}-sandbox`).
 */

/** one message a simulated customer received (the server's TSandboxOutboxMessage) */
export type TOutboxMessage = {
  externalId: string;
  to: string;
  type: 'text' | 'media' | 'location' | 'vcard';
  body: string;
  media?: { mimetype: string; fileName?: string; size: number; asVoiceNote?: boolean; dataUrl?: string };
  location?: { latitude: number; longitude: number; description?: string };
  vcard?: string;
  quotedExternalId?: string;
  /** 1 pending, 2 server, 3 delivered, 4 read */
  ack: number;
  edited: boolean;
  deleted: boolean;
  timestamp: string;
};

/** `company-{id}-sandbox` payloads */
export type TSandboxEvent =
  | { action: 'message' | 'update'; connectionId: number; message: TOutboxMessage }
  | { action: 'read'; connectionId: number; from: string; externalIds: string[] };

export type TInboundType = 'text' | 'image' | 'audio' | 'video' | 'document' | 'location' | 'vcard';

/** a message the customer sent, as the simulator remembers it */
export type TSentMessage = {
  localId: string;
  externalId: string | null;
  type: TInboundType;
  body: string;
  fileName?: string;
  mimetype?: string;
  size?: number;
  /** a small preview (images, audio, video under PREVIEW_MAX_BYTES) */
  dataUrl?: string;
  location?: { latitude: number; longitude: number; description?: string };
  vcard?: string;
  quotedExternalId?: string;
  timestamp: string;
  status: 'sending' | 'sent' | 'failed';
  error?: string;
};

/**
 * A simulated customer, or a group: then `number` is the group's id (the conversation the business answers),
 * `name` the group's name and `member` who writes in it.
 */
export type TCustomer = { number: string; name: string; member?: { number: string; name: string } };

export type TSimulatorState = {
  customers: TCustomer[];
  sent: Record<string, TSentMessage[]>;
  received: Record<string, TOutboxMessage[]>;
  /** the customer's messages the business marked read */
  readByBusiness: Record<string, string[]>;
  /** received messages seen on screen (for the unread badges of the list) */
  seen: Record<string, number>;
};

export const PREVIEW_MAX_BYTES = 2 * 1024 * 1024;
const MAX_SENT_PER_CUSTOMER = 200;

export const emptyState = (): TSimulatorState => ({
  customers: [],
  sent: {},
  received: {},
  readByBusiness: {},
  seen: {},
});

export type TSimulatorAction =
  | { type: 'addCustomer'; customer: TCustomer }
  | { type: 'removeCustomer'; number: string }
  | { type: 'sending'; number: string; message: TSentMessage }
  | { type: 'sent'; number: string; localId: string; externalId: string }
  | { type: 'failed'; number: string; localId: string; error: string }
  | { type: 'outbox'; number: string; messages: TOutboxMessage[] }
  | { type: 'received'; message: TOutboxMessage }
  | { type: 'businessRead'; number: string; externalIds: string[] }
  | { type: 'seen'; number: string };

const withCustomer = (customers: TCustomer[], number: string, name = '') =>
  customers.some((c) => c.number === number) ? customers : [...customers, { number, name: name || number }];

const upsertReceived = (list: TOutboxMessage[], message: TOutboxMessage) => {
  const index = list.findIndex((m) => m.externalId === message.externalId);
  if (index < 0) {
    return [...list, message];
  }
  const next = [...list];
  // acks never go backwards
  next[index] = { ...list[index], ...message, ack: Math.max(list[index].ack, message.ack) };

  return next;
};

export const simulatorReducer = (state: TSimulatorState, action: TSimulatorAction): TSimulatorState => {
  switch (action.type) {
    case 'addCustomer': {
      const exists = state.customers.some((c) => c.number === action.customer.number);

      return {
        ...state,
        customers: exists
          ? state.customers.map((c) => (c.number === action.customer.number ? action.customer : c))
          : [...state.customers, action.customer],
      };
    }
    case 'removeCustomer': {
      const { [action.number]: _sent, ...sent } = state.sent;

      return { ...state, customers: state.customers.filter((c) => c.number !== action.number), sent };
    }
    case 'sending':
      return {
        ...state,
        sent: {
          ...state.sent,
          [action.number]: [...(state.sent[action.number] ?? []), action.message].slice(-MAX_SENT_PER_CUSTOMER),
        },
      };
    case 'sent':
    case 'failed':
      return {
        ...state,
        sent: {
          ...state.sent,
          [action.number]: (state.sent[action.number] ?? []).map((m) =>
            m.localId !== action.localId
              ? m
              : action.type === 'sent'
                ? { ...m, status: 'sent', externalId: action.externalId }
                : { ...m, status: 'failed', error: action.error },
          ),
        },
      };
    case 'outbox': {
      let list = state.received[action.number] ?? [];
      for (const message of action.messages) {
        list = upsertReceived(list, message);
      }

      return { ...state, received: { ...state.received, [action.number]: list } };
    }
    case 'received': {
      const number = action.message.to;

      return {
        ...state,
        customers: withCustomer(state.customers, number),
        received: { ...state.received, [number]: upsertReceived(state.received[number] ?? [], action.message) },
      };
    }
    case 'businessRead': {
      const current = new Set(state.readByBusiness[action.number] ?? []);
      for (const id of action.externalIds) {
        current.add(id);
      }

      return { ...state, readByBusiness: { ...state.readByBusiness, [action.number]: [...current].slice(-500) } };
    }
    case 'seen':
      return { ...state, seen: { ...state.seen, [action.number]: (state.received[action.number] ?? []).length } };
    default:
      return state;
  }
};

/** one line of a conversation: what the customer sent or received, oldest first */
export type TTimelineItem =
  | { direction: 'out'; key: string; timestamp: string; message: TSentMessage; read: boolean }
  | { direction: 'in'; key: string; timestamp: string; message: TOutboxMessage };

export const timeline = (state: TSimulatorState, number: string): TTimelineItem[] => {
  const read = new Set(state.readByBusiness[number] ?? []);
  const items: TTimelineItem[] = [
    ...(state.sent[number] ?? []).map(
      (message): TTimelineItem => ({
        direction: 'out',
        key: message.externalId ?? message.localId,
        timestamp: message.timestamp,
        message,
        read: message.externalId !== null && read.has(message.externalId),
      }),
    ),
    ...(state.received[number] ?? []).map(
      (message): TTimelineItem => ({ direction: 'in', key: message.externalId, timestamp: message.timestamp, message }),
    ),
  ];

  return items.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
};

export const unreadCount = (state: TSimulatorState, number: string) =>
  Math.max(0, (state.received[number] ?? []).length - (state.seen[number] ?? 0));

/** what survives a reload: the customers, what they sent (without large previews) and the read marks */
export const persistable = (state: TSimulatorState) => ({
  customers: state.customers,
  sent: Object.fromEntries(
    Object.entries(state.sent).map(([number, list]) => [
      number,
      list.map((m) => ({
        ...m,
        dataUrl: m.dataUrl && m.dataUrl.length < 200_000 ? m.dataUrl : undefined,
        status: m.status === 'sending' ? 'failed' : m.status,
      })),
    ]),
  ),
  readByBusiness: state.readByBusiness,
});

export const restoreState = (raw: string | null): TSimulatorState => {
  if (!raw) {
    return emptyState();
  }
  try {
    const parsed = JSON.parse(raw) as Partial<TSimulatorState>;

    return {
      ...emptyState(),
      customers: Array.isArray(parsed.customers) ? parsed.customers : [],
      sent: parsed.sent && typeof parsed.sent === 'object' ? parsed.sent : {},
      readByBusiness: parsed.readByBusiness && typeof parsed.readByBusiness === 'object' ? parsed.readByBusiness : {},
    };
  } catch {
    return emptyState();
  }
};

/** digits only */
export const normalizeNumber = (value: string) => value.replace(/\D/g, '');
export const isValidNumber = (number: string) => /^\d{8,15}$/.test(number);

/** the inbound type of a chosen file */
export const fileInboundType = (mimetype: string): TInboundType => {
  if (mimetype.startsWith('image/')) {
    return 'image';
  }
  if (mimetype.startsWith('audio/')) {
    return 'audio';
  }
  if (mimetype.startsWith('video/')) {
    return 'video';
  }

  return 'document';
};

export const buildVcard = (name: string, number: string) =>
  ['BEGIN:VCARD', 'VERSION:3.0', `FN:${name}`, `TEL;type=CELL;waid=${number}:+${number}`, 'END:VCARD'].join('\n');

/** name and number of a vcard, for display */
export const readVcard = (vcard: string) => {
  const name = /^FN:(.*)$/m.exec(vcard)?.[1]?.trim() ?? '';
  const tel = /^TEL[^:]*:(.*)$/m.exec(vcard)?.[1]?.trim() ?? '';

  return { name, number: tel };
};

export const formatSize = (bytes: number | undefined) => {
  if (!bytes) {
    return '';
  }
  if (bytes < 1024) {
    return `${bytes} B`;
  }
  if (bytes < 1024 * 1024) {
    return `${(bytes / 1024).toFixed(1)} KB`;
  }

  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};

/** a file as base64 without the data URL prefix, plus the data URL for previews */
export const readFileBase64 = (file: File) =>
  new Promise<{ base64: string; dataUrl: string }>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const dataUrl = String(reader.result);
      resolve({ dataUrl, base64: dataUrl.slice(dataUrl.indexOf(',') + 1) });
    };
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
