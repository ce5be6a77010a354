import { events, type TFlowCampaign, type TFlowCampaignBody } from '@zelo/shared';
import { api } from '../../api/http';
import { matchesSearch, useLiveList } from '../../components/kit';

export const PHRASE_LISTS_QUERY_KEY = ['phrase-lists', 'page'] as const;

const PHRASE_LISTS = {
  queryKey: PHRASE_LISTS_QUERY_KEY,
  // GET /flowcampaign answers `{flow: [...]}` (the ancestor's key), one page
  itemsKey: 'flow',
  matches: (c: TFlowCampaign, search: string) => matchesSearch(search, c.name, c.phrase),
};

/** `company-{id}-flowcampaign` */
export type TFlowCampaignEvent =
  | { action: 'create' | 'update'; record: TFlowCampaign }
  | { action: 'delete'; id: number | string };

export const flowCampaignEventChange = (data: TFlowCampaignEvent) =>
  data.action === 'delete' ? { remove: Number(data.id) } : data.record ? { upsert: data.record } : null;

/** POST /flowcampaign, or PUT /flowcampaign with the record's id. */
export const savePhrase = (id: number | null, body: TFlowCampaignBody) =>
  id === null
    ? api.post<TFlowCampaign>('/flowcampaign', body)
    : api.put<TFlowCampaign>('/flowcampaign', { id, ...body });

/** The company's phrase campaigns, searched here (by name and phrase), kept live by the company's events. */
export const usePhraseLists = (search: string) => {
  const list = useLiveList<TFlowCampaign, TFlowCampaignEvent>({
    ...PHRASE_LISTS,
    path: '/flowcampaign',
    event: events.flowCampaign,
    toChange: flowCampaignEventChange,
  });

  return { ...list, items: list.items.filter((c) => PHRASE_LISTS.matches(c, search)) };
};
