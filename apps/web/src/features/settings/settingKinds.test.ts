import { SETTING_DEFINITIONS, SETTING_KEYS } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import { isValidSettingValue, readSecretToken, settingKind, writeSecretToken } from './settingKinds';

describe('settingKind', () => {
  it('should give every enumerated setting its options', () => {
    expect(settingKind('scheduleType')).toEqual({ type: 'enum', options: ['disabled', 'queue', 'company'] });
    expect(settingKind('userRating')).toEqual({ type: 'enum', options: ['enabled', 'disabled'] });
    expect(settingKind('campaignsEnabled')).toEqual({ type: 'enum', options: ['true', 'false'] });
  });

  it('should make asaas a secret, the reopen window a number and the time zone a zone list', () => {
    expect(settingKind('asaas').type).toBe('secret');
    expect(settingKind('reopenWindowMinutes').type).toBe('number');
    expect(settingKind('timezone').type).toBe('timezone');
  });

  it('should accept every default value, and offer it when the setting is a choice', () => {
    for (const key of SETTING_KEYS) {
      const kind = settingKind(key);
      const fallback = SETTING_DEFINITIONS[key].default;
      expect(isValidSettingValue(key, fallback), key).toBe(true);
      if (kind.type === 'enum') {
        expect(kind.options, key).toContain(fallback);
      }
    }
    expect(isValidSettingValue('reopenWindowMinutes', '15')).toBe(true);
    expect(isValidSettingValue('reopenWindowMinutes', '-1')).toBe(false);
    expect(isValidSettingValue('timezone', '')).toBe(false);
  });
});

describe('asaas token', () => {
  it('should read the token from its JSON shape and write it back', () => {
    expect(readSecretToken('{"token":"abc"}')).toBe('abc');
    expect(readSecretToken('plain')).toBe('plain');
    expect(readSecretToken('')).toBe('');
    expect(writeSecretToken(' abc ')).toBe('{"token":"abc"}');
    expect(writeSecretToken('  ')).toBe('');
  });
});
