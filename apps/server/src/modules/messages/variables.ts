import { clockFormat } from '../../lib/dates';

/** Message variables of spec 1 §9: {{firstName}}, {{name}}, {{ms}}, {{protocol}}, {{hora}} (and {{gretting}}). */

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

  return body.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => values[key.toLowerCase()] ?? whole);
};
