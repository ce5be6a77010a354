import type { TAttachmentChange } from '../../components/MediaAttachment';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TCampaign, type TCampaignBody, type TCampaignEvent } from '@zelo/shared';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { matchesSearch, type TListChange, type TListData, useLiveList } from '../../components/kit';
import { toastError } from '../../components/toast';

export const CAMPAIGNS_KEY = ['campaigns', 'page'] as const;

const CAMPAIGNS_LIST = {
  queryKey: CAMPAIGNS_KEY,
  itemsKey: 'records',
  matches: (c: TCampaign, search: string) => matchesSearch(search, c.name),
};

/** What a `company-{id}-campaign` event means for the list (progress events only move a listed row's status). */
export const campaignEventChange = (data: TCampaignEvent): TListChange<TCampaign> => {
  if (data.action === 'delete') {
    return { remove: Number(data.id) };
  }
  if (data.action === 'create' || data.action === 'update') {
    return { upsert: data.record };
  }

  return null;
};

/** A progress event's status applied to the row of its campaign where it is listed (never adds a row). */
export const applyProgress = (
  data: TListData<TCampaign> | undefined,
  campaignId: number,
  status: TCampaign['status'],
): TListData<TCampaign> | undefined => {
  if (!data) {
    return data;
  }
  let changed = false;
  const pages = data.pages.map((page) => {
    const records = (page.records as TCampaign[] | undefined) ?? [];
    if (!records.some((c) => c.id === campaignId && c.status !== status)) {
      return page;
    }
    changed = true;

    return { ...page, records: records.map((c) => (c.id === campaignId ? { ...c, status } : c)) };
  });

  return changed ? { ...data, pages } : data;
};

export const attachmentForm = (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);

  return form;
};

/**
 * Saves a campaign and then its attachment (an upload replaces an earlier file; a removal deletes it).
 * `knownId` is the record a previous, half-finished save already created, so a retry edits it.
 */
export const saveCampaign = async (
  knownId: number | null,
  body: Partial<TCampaignBody>,
  attachment: TAttachmentChange,
  hadMedia: boolean,
  onCreated?: (record: TCampaign) => void,
): Promise<TCampaign> => {
  let saved =
    knownId === null
      ? await api.post<TCampaign>('/campaigns', body)
      : await api.put<TCampaign>(`/campaigns/${knownId}`, body);
  if (knownId === null) {
    onCreated?.(saved);
  }
  if (attachment.kind === 'attach') {
    saved = await api.upload<TCampaign>(`/campaigns/${saved.id}/media-upload`, attachmentForm(attachment.file));
  } else if (attachment.kind === 'remove' && hadMedia) {
    saved = await api.delete<TCampaign>(`/campaigns/${saved.id}/media-upload`);
  }

  return saved;
};

const isCampaign = (value: unknown): value is TCampaign =>
  typeof value === 'object' && value !== null && 'id' in value && 'status' in value;

/** POST /campaigns/:id/cancel | restart; the answer (the campaign) when the server sends it back. */
export const campaignAction = async (id: number, action: 'cancel' | 'restart') => {
  const answer = await api.post<unknown>(`/campaigns/${id}/${action}`);

  return isCampaign(answer) ? answer : null;
};

/** GET /campaigns page by page, kept in step with saves, deletes and the company's campaign events. */
export const useCampaignsList = (searchParam: string) => {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const list = useLiveList<TCampaign, TCampaignEvent>({
    ...CAMPAIGNS_LIST,
    path: '/campaigns',
    searchParam,
    event: events.campaign,
    toChange: campaignEventChange,
  });
  // the same event also carries the report's live counts
  useSocketEvent(user ? events.campaign(user.companyId) : '', (data: TCampaignEvent) => {
    if (data?.action === 'progress') {
      queryClient.setQueriesData<TListData<TCampaign>>({ queryKey: CAMPAIGNS_KEY }, (old) =>
        applyProgress(old, data.campaignId, data.status),
      );
    }
  });

  return list;
};

export type TOption = { id: number; name: string };

const isNotFound = (err: unknown) => (err as { status?: number } | null)?.status === 404;

/** The `{id, name}` records of an answer: an array, or the array under `key` (`{files}`). */
export const optionsOf = (answer: unknown, key?: string): TOption[] => {
  const list = Array.isArray(answer)
    ? answer
    : key && answer && typeof answer === 'object'
      ? (answer as Record<string, unknown>)[key]
      : null;

  return Array.isArray(list)
    ? list
        .filter((o): o is TOption => typeof o?.id === 'number')
        .map((o) => ({ id: o.id, name: String(o.name ?? o.id) }))
    : [];
};

/** One select's options; a 404 (a module not there yet) reads as none without a toast. */
const useOptions = (path: string, key?: string, params?: Record<string, unknown>) =>
  useQuery({
    queryKey: ['campaign-dialog-options', path, params ?? {}],
    staleTime: 30_000,
    retry: false,
    queryFn: async (): Promise<TOption[]> => {
      try {
        return optionsOf(await api.get<unknown>(path, { params }), key);
      } catch (err) {
        if (!isNotFound(err)) {
          toastError(err);
        }

        return [];
      }
    },
  });

/** The dialog's selects: connections, contact lists, tags and file lists of the company. */
export const useCampaignOptions = () => ({
  whatsapps: useOptions('/whatsapp', undefined, { session: 0 }).data ?? [],
  contactLists: useOptions('/contact-lists/list').data ?? [],
  tags: useOptions('/tags/list').data ?? [],
  fileLists: useOptions('/files', 'files').data ?? [],
});
