import { events, type TIntegrationDelivery, type TQueueIntegration } from '@zelo/shared';
import { ApiError, api } from '../../api/http';
import { matchesSearch, useLiveList } from '../../components/kit';
import { fetchOptions } from '../connections/useOptions';

export const QUEUE_INTEGRATIONS_QUERY_KEY = ['queue-integrations', 'page'] as const;

const LIST = {
  queryKey: QUEUE_INTEGRATIONS_QUERY_KEY,
  itemsKey: 'queueIntegrations',
  matches: (i: TQueueIntegration, search: string) => matchesSearch(search, i.name, i.type),
};

/** `company-{id}-queueIntegration` (the ancestor's payloads) */
export type TQueueIntegrationEvent =
  | { action: 'create' | 'update'; queueIntegration: TQueueIntegration }
  | { action: 'delete'; integrationId: number | string };

export const integrationEventChange = (data: TQueueIntegrationEvent) =>
  data.action === 'delete' ? { remove: Number(data.integrationId) } : { upsert: data.queueIntegration };

/** GET /queueIntegration page by page, kept in step with saves, deletes and the company's events */
export const useQueueIntegrationsList = (searchParam: string) =>
  useLiveList<TQueueIntegration, TQueueIntegrationEvent>({
    ...LIST,
    path: '/queueIntegration',
    searchParam,
    event: events.queueIntegration,
    toChange: integrationEventChange,
  });

export type TFlowOption = { id: number; name: string };

/** the company's flows for the flowbuilder type (every page of GET /flowbuilder); a server without flows (404) lists none */
export const fetchFlows = async (): Promise<TFlowOption[]> => {
  try {
    return (await fetchOptions('/flowbuilder')).map((f) => ({ id: f.id, name: f.name }));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
};

export const fetchDeliveries = (id: number, pageNumber: number) =>
  api.get<{ deliveries: TIntegrationDelivery[]; count: number; hasMore: boolean }>(
    `/queueIntegration/${id}/deliveries`,
    { params: { pageNumber } },
  );
