import { describe, expect, it } from 'vitest';
import { visibleSettingsTabs } from './settingsTabs';

describe('visibleSettingsTabs', () => {
  it('should show only options to an admin when schedules are not per company', () => {
    expect(visibleSettingsTabs({ scheduleType: 'queue', isSuper: false })).toEqual(['options', 'failedDeliveries']);
  });

  it('should add schedules when scheduleType is company and the super tabs for a super user', () => {
    expect(visibleSettingsTabs({ scheduleType: 'company', isSuper: false })).toEqual([
      'options',
      'schedules',
      'failedDeliveries',
    ]);
    expect(visibleSettingsTabs({ scheduleType: 'disabled', isSuper: true })).toEqual([
      'options',
      'failedDeliveries',
      'companies',
      'plans',
      'helps',
    ]);
  });
});
