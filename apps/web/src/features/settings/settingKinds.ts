import { SECRET_SETTING_KEYS, SETTING_DEFINITIONS, type TSettingKey } from '@zelo/shared';

export type TSettingKind =
  | { type: 'enum'; options: readonly string[] }
  | { type: 'timezone' }
  | { type: 'number' }
  | { type: 'secret' }
  | { type: 'text' };

/** settings whose value is a whole number kept as text */
const NUMBER_KEYS: readonly TSettingKey[] = [
  'reopenWindowMinutes',
  'userRatingCommentMinutes',
  'slaFirstResponseMinutes',
  'slaResolutionHours',
];

const enumOptions = (key: TSettingKey): readonly string[] | null => {
  const schema: unknown = SETTING_DEFINITIONS[key].schema;
  if (schema && typeof schema === 'object' && 'options' in schema && Array.isArray(schema.options)) {
    return schema.options as string[];
  }

  return null;
};

export const settingKind = (key: TSettingKey): TSettingKind => {
  const options = enumOptions(key);
  if (options) {
    return { type: 'enum', options };
  }
  if (SECRET_SETTING_KEYS.includes(key)) {
    return { type: 'secret' };
  }
  if (NUMBER_KEYS.includes(key)) {
    return { type: 'number' };
  }
  if (key === 'timezone') {
    return { type: 'timezone' };
  }

  return { type: 'text' };
};

/** Whether a value is acceptable for the key, by the shared definition. */
export const isValidSettingValue = (key: TSettingKey, value: string) =>
  SETTING_DEFINITIONS[key].schema.safeParse(value).success;

/** The time zones the browser knows; the current value stays selectable even when it is not among them. */
export const timeZoneOptions = (current: string): string[] => {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

  return current && !zones.includes(current) ? [current, ...zones] : zones;
};

/** The Asaas token is stored as JSON text `{"token": "..."}` (spec 1 §9); the field edits the token itself. */
export const readSecretToken = (value: string): string => {
  if (!value) {
    return '';
  }
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === 'object' && 'token' in parsed && typeof parsed.token === 'string') {
      return parsed.token;
    }
  } catch {
    // a plain token saved before the JSON shape
  }

  return value;
};

export const writeSecretToken = (token: string): string =>
  token.trim() ? JSON.stringify({ token: token.trim() }) : '';
