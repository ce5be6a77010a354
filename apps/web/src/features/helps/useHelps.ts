import { useQuery } from '@tanstack/react-query';
import type { THelp } from '@zelo/shared';
import { api } from '../../api/http';

/** GET /helps/list (any user); the settings helps tab invalidates the ['helps'] root after its saves. */
export const useHelps = () =>
  useQuery({
    queryKey: ['helps', 'list'],
    queryFn: () => api.get<THelp[]>('/helps/list'),
  });
