import { useQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TSetting } from '@zelo/shared';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { SETTINGS_QUERY_KEY, upsertSetting } from './settingsCache';

type TSettingsEvent = { action: 'update'; setting: TSetting };

/** GET /settings (every key with its default), kept live by `company-{id}-settings` events. */
export const useSettings = () => {
  const { user } = useAuth();
  const queryClient = useQueryClient();

  useSocketEvent(user ? events.settings(user.companyId) : '', (data: TSettingsEvent) => {
    if (data?.action === 'update' && data.setting) {
      queryClient.setQueryData<TSetting[]>(SETTINGS_QUERY_KEY, (old) => upsertSetting(old, data.setting));
    }
  });

  return useQuery({
    queryKey: SETTINGS_QUERY_KEY,
    queryFn: () => api.get<TSetting[]>('/settings'),
  });
};
