import {
  CAMPAIGN_EDIT_LEAD_MS,
  CAMPAIGN_MESSAGE_FIELDS,
  type TCampaign,
  type TCampaignCounts,
  type TCampaignRecipient,
  type TCampaignSettings,
  type TCampaignStatus,
} from '@zelo/shared';

/** The chip colour of each status. */
export const STATUS_COLOR: Record<TCampaignStatus, 'default' | 'info' | 'warning' | 'error' | 'success'> = {
  INATIVA: 'default',
  PROGRAMADA: 'info',
  EM_ANDAMENTO: 'warning',
  CANCELADA: 'error',
  FINALIZADA: 'success',
};

/** spec 2 §4: cancel only while EM_ANDAMENTO, restart only when CANCELADA. */
export const canCancel = (c: Pick<TCampaign, 'status'>) => c.status === 'EM_ANDAMENTO';
export const canRestart = (c: Pick<TCampaign, 'status'>) => c.status === 'CANCELADA';

/**
 * What the dialog may do with a campaign (spec 2 §4): edit every field while INATIVA, or PROGRAMADA with the
 * start more than one hour ahead; a CANCELADA one still saves (its name and messages) and restarts; anything
 * else is read-only. `reason` is the i18n key (under `campaigns.dialog.locked`) of why fields are locked.
 */
export type TEditability = {
  /** every field may change */
  editable: boolean;
  /** the save button is shown */
  canSave: boolean;
  reason: 'EM_ANDAMENTO' | 'FINALIZADA' | 'CANCELADA' | 'soon' | null;
};

export const campaignEditability = (
  c: Pick<TCampaign, 'status' | 'scheduledAt'> | null,
  now: number = Date.now(),
): TEditability => {
  if (!c || c.status === 'INATIVA') {
    return { editable: true, canSave: true, reason: null };
  }
  if (c.status === 'PROGRAMADA') {
    const ahead = c.scheduledAt ? new Date(c.scheduledAt).getTime() - now : 0;

    return ahead > CAMPAIGN_EDIT_LEAD_MS
      ? { editable: true, canSave: true, reason: null }
      : { editable: false, canSave: false, reason: 'soon' };
  }
  if (c.status === 'CANCELADA') {
    return { editable: false, canSave: true, reason: 'CANCELADA' };
  }

  return { editable: false, canSave: false, reason: c.status };
};

/**
 * The fields a locked-but-saveable (CANCELADA) campaign still lets the user change: its name, messages and
 * attachment (`media`), as the server takes them.
 */
export const OPEN_WHEN_CANCELLED: readonly string[] = ['name', ...CAMPAIGN_MESSAGE_FIELDS, 'media'];

export const fieldLocked = (field: string, editability: TEditability) => {
  if (editability.editable) {
    return false;
  }
  if (!editability.canSave) {
    return true;
  }

  return !OPEN_WHEN_CANCELLED.includes(field);
};

/** What a save sends: everything, or for a cancelled campaign only what it may still change. */
export const bodyToSave = <T extends Record<string, unknown>>(body: T, editability: TEditability): Partial<T> =>
  editability.editable
    ? body
    : (Object.fromEntries(Object.entries(body).filter(([key]) => OPEN_WHEN_CANCELLED.includes(key))) as Partial<T>);

/**
 * The dialog's start time as the instant the user saw: the datetime-local value is the browser's wall clock, sent
 * with its zone (the server reads a zone-less time in the company's zone, as the ancestor's client sends it).
 */
export const withInstant = <T extends { scheduledAt?: string | null }>(body: T): T =>
  body.scheduledAt ? { ...body, scheduledAt: fromLocalInput(body.scheduledAt) } : body;

/** `2026-11-26T14:30` in the browser's time zone, for a datetime-local input; '' for none. */
export const toLocalInput = (iso: string | null | undefined) => {
  if (!iso) {
    return '';
  }
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) {
    return '';
  }
  const pad = (n: number) => String(n).padStart(2, '0');

  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** A datetime-local value (browser time) as an ISO instant, so the server reads the moment the user meant. */
export const fromLocalInput = (value: string) => {
  if (!value) {
    return null;
  }
  const d = new Date(value);

  return Number.isNaN(d.getTime()) ? null : d.toISOString();
};

/** dd/MM/yyyy HH:mm in the browser's time zone; '' for none. */
export const formatDateTime = (iso: string | null | undefined) => {
  const local = toLocalInput(iso);
  if (!local) {
    return '';
  }
  const [day, time] = local.split('T');
  const [y, m, d] = (day ?? '').split('-');

  return `${d}/${m}/${y} ${time}`;
};

/** The variables a message may use: the built-in ones, then the company's own (spec 2 §5, issue 12 item 4). */
export const BUILT_IN_VARIABLES = ['nome', 'email', 'numero'] as const;
export const messageVariables = (settings: Pick<TCampaignSettings, 'variables'> | undefined) => [
  ...BUILT_IN_VARIABLES.map((key) => ({ key, value: null as string | null })),
  ...(settings?.variables ?? [])
    .filter((v) => !(BUILT_IN_VARIABLES as readonly string[]).includes(v.key))
    .map((v) => ({ key: v.key, value: v.value as string | null })),
];

/** Puts `{key}` into `text` at the selection (replacing it), answering the new text and where the caret goes. */
export const insertVariable = (text: string, key: string, start = text.length, end = start) => {
  const token = `{${key}}`;
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));

  return { text: text.slice(0, from) + token + text.slice(to), caret: from + token.length };
};

/* ---------- settings ---------- */

export type TVariable = { key: string; value: string };

/** Why a variable cannot be added (an i18n key under `campaigns.config`), or null when it can. */
export const variableProblem = (variables: TVariable[], candidate: TVariable) => {
  const key = candidate.key.trim();
  if (!key || /[{}\s]/.test(key)) {
    return 'invalidKey' as const;
  }
  if (variables.some((v) => v.key === key)) {
    return 'duplicateKey' as const;
  }

  return null;
};

/** spec 2 §5: a variable is added only if its key is not already present. */
export const addVariable = (variables: TVariable[], candidate: TVariable) =>
  variableProblem(variables, candidate) === null
    ? [...variables, { key: candidate.key.trim(), value: candidate.value }]
    : variables;

export const removeVariable = (variables: TVariable[], key: string) => variables.filter((v) => v.key !== key);

/* ---------- report ---------- */

/** A percentage of the valid recipients (0 when there are none), for a progress bar. */
export const percentOf = (part: number, total: number) =>
  total > 0 ? Math.min(100, Math.max(0, (part / total) * 100)) : 0;

/** The counts the report shows as bars, in order. */
export const REPORT_BARS = [
  'sent',
  'delivered',
  'read',
  'failed',
] as const satisfies readonly (keyof TCampaignCounts)[];

/** A recipient's shown state: a sent message reads as delivered (ack ≥ 3) or read (ack 4) once the phone says so. */
export const recipientState = (r: Pick<TCampaignRecipient, 'state' | 'ack'>) => {
  if (r.state !== 'sent') {
    return r.state;
  }
  if ((r.ack ?? 0) >= 4) {
    return 'read' as const;
  }
  if ((r.ack ?? 0) >= 3) {
    return 'delivered' as const;
  }

  return 'sent' as const;
};

export const RECIPIENT_STATE_COLOR = {
  queued: 'default',
  sent: 'info',
  delivered: 'primary',
  read: 'success',
  failed: 'error',
} as const;
