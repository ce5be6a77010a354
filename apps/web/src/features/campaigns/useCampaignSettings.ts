import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CAMPAIGN_SETTINGS_DEFAULTS,
  campaignSettingsFromRows,
  events,
  type TCampaignSettingRow,
  type TCampaignSettings,
  type TCampaignSettingsEvent,
} from '@zelo/shared';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';

export const CAMPAIGN_SETTINGS_KEY = ['campaign-settings'] as const;

/** The stored settings, or the spec's defaults (20 s, after 20, 60 s, no variables) until there are any. */
export const settingsOrDefaults = (
  data: Partial<Record<keyof TCampaignSettings, unknown>> | undefined | null,
): TCampaignSettings => {
  const count = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

  return {
    messageInterval: count(data?.messageInterval, CAMPAIGN_SETTINGS_DEFAULTS.messageInterval),
    longerIntervalAfter: count(data?.longerIntervalAfter, CAMPAIGN_SETTINGS_DEFAULTS.longerIntervalAfter),
    greaterInterval: count(data?.greaterInterval, CAMPAIGN_SETTINGS_DEFAULTS.greaterInterval),
    variables: Array.isArray(data?.variables) ? (data.variables as TCampaignSettings['variables']) : [],
  };
};

/** GET /campaign-settings, kept in step with the company's settings event (another admin's save). */
export const useCampaignSettings = () => {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: CAMPAIGN_SETTINGS_KEY,
    queryFn: async () =>
      settingsOrDefaults(campaignSettingsFromRows(await api.get<TCampaignSettingRow[]>('/campaign-settings'))),
  });
  useSocketEvent(user ? events.campaignSettings(user.companyId) : '', (data: TCampaignSettingsEvent) => {
    if (data?.action === 'update' && data.record) {
      queryClient.setQueryData(CAMPAIGN_SETTINGS_KEY, settingsOrDefaults(data.record));
    }
  });

  return query;
};

/** POST /campaign-settings with the ancestor's `{settings}` wrapper; answers the stored settings' rows. */
export const saveCampaignSettings = async (settings: TCampaignSettings) =>
  settingsOrDefaults(
    campaignSettingsFromRows(await api.post<TCampaignSettingRow[]>('/campaign-settings', { settings })),
  );
