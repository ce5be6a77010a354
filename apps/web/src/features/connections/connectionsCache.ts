import type { TConnection, TConnectionStatus } from '@zelo/shared';

export const CONNECTIONS_QUERY_KEY = ['connections', 'list'] as const;

/** Statuses that raise the side menu's '!' (spec 1 §4). */
export const ATTENTION_STATUSES: readonly TConnectionStatus[] = [
  'qrcode',
  'PAIRING',
  'DISCONNECTED',
  'TIMEOUT',
  'OPENING',
];

export const needsAttention = (connections: readonly Pick<TConnection, 'status'>[] | undefined) =>
  Boolean(connections?.some((c) => ATTENTION_STATUSES.includes(c.status)));

/** A session update (`company-{id}-whatsappSession`): status, qrcode, retries, updatedAt and the phone number. */
export type TSessionUpdate = Partial<TConnection> & { id: number };

export const upsertConnection = (
  list: TConnection[] | undefined,
  connection: TConnection,
): TConnection[] | undefined => {
  if (!list) {
    return list;
  }
  const index = list.findIndex((c) => c.id === connection.id);
  if (index < 0) {
    return [...list, connection];
  }
  const next = [...list];
  const current = list[index];
  // an answer read before a session update the list already holds keeps that newer session state
  const newerHere = Date.parse(current.updatedAt) > Date.parse(connection.updatedAt);
  next[index] = newerHere
    ? {
        ...current,
        ...connection,
        status: current.status,
        qrcode: current.qrcode,
        retries: current.retries,
        lastError: current.lastError,
        phoneNumber: current.phoneNumber,
        updatedAt: current.updatedAt,
      }
    : { ...current, ...connection };

  return next;
};

export const applySessionUpdate = (
  list: TConnection[] | undefined,
  session: TSessionUpdate,
): TConnection[] | undefined => {
  if (!list || !list.some((c) => c.id === session.id)) {
    return list;
  }

  return list.map((c) =>
    c.id === session.id
      ? {
          ...c,
          status: session.status ?? c.status,
          qrcode: session.qrcode ?? '',
          retries: session.retries ?? c.retries,
          lastError: session.lastError !== undefined ? session.lastError : c.lastError,
          updatedAt: session.updatedAt ?? c.updatedAt,
          phoneNumber: session.phoneNumber ?? c.phoneNumber,
        }
      : c,
  );
};

export const removeConnection = (list: TConnection[] | undefined, id: number) => list?.filter((c) => c.id !== id);

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yyyy HH:mm in local time; '' when empty or invalid. */
export const formatDateTime = (value: string | null | undefined) => {
  const date = value ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) {
    return '';
  }

  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
};
