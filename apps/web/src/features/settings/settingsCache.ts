import type { TSetting } from '@zelo/shared';

export const SETTINGS_QUERY_KEY = ['settings', 'company-settings'] as const;

export const upsertSetting = (list: TSetting[] | undefined, setting: TSetting): TSetting[] | undefined => {
  if (!list) {
    return list;
  }

  return list.some((s) => s.key === setting.key)
    ? list.map((s) => (s.key === setting.key ? setting : s))
    : [...list, setting];
};

export const settingValue = (list: TSetting[] | undefined, key: string): string | undefined =>
  list?.find((s) => s.key === key)?.value;
