import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TSetting } from '@zelo/shared';
import { api } from '../../api/http';
import { SETTINGS_QUERY_KEY, upsertSetting } from './settingsCache';

/** PUT /settings/:key `{value}`; the answer replaces the cached setting. */
export const useUpdateSetting = () => {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: ({ key, value }: TSetting) => api.put<TSetting>(`/settings/${encodeURIComponent(key)}`, { value }),
    onSuccess: (saved, sent) => {
      const setting = saved && typeof saved === 'object' && 'key' in saved ? saved : sent;
      queryClient.setQueryData<TSetting[]>(SETTINGS_QUERY_KEY, (old) => upsertSetting(old, setting));
    },
  });
};
