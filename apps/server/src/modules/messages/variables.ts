import { clockFormat } from '../../lib/dates';

/**
 * The one substitution module for every message Zelo writes for a company:
 * - spec 1 §9's `{{firstName}}`, `{{name}}`, `{{ms}}`, `{{protocol}}`, `{{hora}}` (and `{{gretting}}`), plus any
 *   named values a caller adds (`named`: a flow's `{{name}}` values), in `applyVariables`;
 * - a campaign's single-brace `{nome}`, `{email}`, `{numero}` and the company's campaign variables `{key}`
 *   (spec 2 §3), in `applyCampaignVariables`; `renderCampaignMessage` applies both.
 * A variable nobody knows stays as written.
 */

const partsIn = (timeZone: string, at: Date) => {
  const parts = (clockFormat(timeZone) ?? clockFormat('America/Sao_Paulo')!).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';

  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
};

const safeZone = (timeZone: string) => (clockFormat(timeZone) ? timeZone : 'America/Sao_Paulo');

const GREETINGS = {
  pt: ['Boa madrugada', 'Bom dia', 'Boa tarde', 'Boa noite'],
  en: ['Good night', 'Good morning', 'Good afternoon', 'Good evening'],
  es: ['Buena madrugada', 'Buenos días', 'Buenas tardes', 'Buenas noches'],
} as const;

/** the greeting by the hour of the company's time zone */
export const greetingFor = (hour: number, language: string) => {
  const words = GREETINGS[(language in GREETINGS ? language : 'pt') as keyof typeof GREETINGS];
  if (hour < 6) return words[0];
  if (hour < 12) return words[1];
  if (hour < 18) return words[2];

  return words[3];
};

/** yyyyMMddHHmmss in the company's time zone */
export const protocolStamp = (timeZone: string, at = new Date()) => {
  const p = partsIn(safeZone(timeZone), at);

  return `${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}`;
};

export type TVariableContext = {
  contactName: string;
  timeZone: string;
  language?: string;
  /** the ticket's protocol code, or a time stamp */
  protocol?: string;
  at?: Date;
  /** more `{{name}}` values (a flow's named values); spec 1 §9's own names win over these */
  named?: Record<string, string>;
};

export const applyVariables = (body: string, v: TVariableContext) => {
  if (!body.includes('{{')) return body;
  const at = v.at ?? new Date();
  const zone = safeZone(v.timeZone);
  const p = partsIn(zone, at);
  const name = v.contactName.trim();
  const greeting = greetingFor(Number(p.hour), v.language ?? 'pt');
  const values: Record<string, string> = {
    firstname: name.split(/\s+/)[0] ?? '',
    name,
    ms: greeting,
    gretting: greeting,
    greeting,
    protocol: v.protocol || protocolStamp(zone, at),
    hora: `${p.hour}:${p.minute}:${p.second}`,
  };

  const named = new Map(Object.entries(v.named ?? {}).map(([key, value]) => [key.toLowerCase(), value]));

  return body.replace(
    /\{\{\s*(\w+)\s*\}\}/g,
    (whole, key: string) => values[key.toLowerCase()] ?? named.get(key.toLowerCase()) ?? whole,
  );
};

/** spec 1 §9's own names (lower case), which win over named values */
const OWN_NAMES = new Set(['firstname', 'name', 'ms', 'gretting', 'greeting', 'protocol', 'hora']);

/**
 * only the named values (a flow's `{{answer}}`); spec 1 §9's own names stay as written, for the sender's
 * `applyVariables` (sendTicketText) to fill: the same text as `applyVariables` with `named`, without
 * reading the contact, company and ticket twice
 */
export const applyNamedVariables = (body: string, named: Record<string, string>) => {
  if (!body.includes('{{')) return body;
  const values = new Map(Object.entries(named).map(([key, value]) => [key.toLowerCase(), value]));

  return body.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => {
    const k = key.toLowerCase();
    return OWN_NAMES.has(k) ? whole : (values.get(k) ?? whole);
  });
};

export type TCampaignRecipientValues = {
  name: string;
  email: string;
  number: string;
  /** the company's campaign variables (campaign settings), `{key}` in messages */
  variables: readonly { key: string; value: string }[];
};

/** a single-brace `{word}` that is not part of a `{{word}}` */
const SINGLE_BRACE = /(?<!\{)\{([^{}\s]+)\}(?!\})/g;

/**
 * A campaign's `{nome}`, `{email}`, `{numero}` (these win over a company variable of the same key) and the company's
 * campaign variables `{key}` (exact key), in one pass: a value holding `{…}` is never substituted again.
 */
export const applyCampaignVariables = (body: string, r: TCampaignRecipientValues) => {
  if (!body.includes('{')) return body;
  const values = new Map<string, string>(r.variables.map((v) => [v.key, v.value]));
  values.set('nome', r.name);
  values.set('email', r.email);
  values.set('numero', r.number);

  return body.replace(SINGLE_BRACE, (whole, key: string) => values.get(key) ?? whole);
};

/** a campaign message for one recipient: its single-brace variables, then spec 1 §9's `{{…}}` */
export const renderCampaignMessage = (
  body: string,
  r: TCampaignRecipientValues,
  v: Omit<TVariableContext, 'contactName'>,
) => applyVariables(applyCampaignVariables(body, r), { ...v, contactName: r.name });
