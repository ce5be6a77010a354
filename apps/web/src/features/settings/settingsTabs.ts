export const SETTINGS_TABS = ['options', 'schedules', 'failedDeliveries', 'companies', 'plans', 'helps'] as const;
export type TSettingsTab = (typeof SETTINGS_TABS)[number];

/**
 * Schedules only when scheduleType is 'company'; companies, plans and helps only for a super user (spec 1 §2, §6);
 * failed deliveries for every admin (the page is admins').
 */
export const visibleSettingsTabs = ({
  scheduleType,
  isSuper,
}: {
  scheduleType: string | undefined;
  isSuper: boolean;
}): TSettingsTab[] =>
  SETTINGS_TABS.filter((tab) => {
    if (tab === 'schedules') {
      return scheduleType === 'company';
    }
    if (tab === 'companies' || tab === 'plans' || tab === 'helps') {
      return isSuper;
    }

    return true;
  });
