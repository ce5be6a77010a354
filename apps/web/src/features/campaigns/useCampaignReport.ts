import { type InfiniteData, useInfiniteQuery } from '@tanstack/react-query';
import {
  events,
  type TCampaign,
  type TCampaignCounts,
  type TCampaignEvent,
  type TCampaignRecipient,
  type TCampaignReport,
} from '@zelo/shared';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';

/** spec 2 §4: the report refreshes this long after an event says the campaign is FINALIZADA. */
export const FINISHED_REFRESH_MS = 5000;
/** recipient rows are asked again at most this often while progress events arrive */
export const ROWS_REFRESH_MS = 1500;

export const reportKey = (campaignId: number) => ['campaign-report', campaignId] as const;

/** What the report shows: the campaign and its counts (the freshest of the pages and events), and every row loaded. */
export type TReportView = { campaign: TCampaign | null; counts: TCampaignCounts | null; rows: TCampaignRecipient[] };

/** The live view: an event's campaign or counts win over the pages' until the pages are asked again. */
export type TLive = { campaign?: TCampaign; status?: TCampaign['status']; counts?: TCampaignCounts };

export const reportView = (data: InfiniteData<TCampaignReport> | undefined, live: TLive): TReportView => {
  const last = data?.pages.at(-1);
  const baseCampaign = live.campaign ?? last?.campaign ?? null;
  const campaign = baseCampaign && live.status ? { ...baseCampaign, status: live.status } : baseCampaign;

  return {
    campaign,
    counts: live.counts ?? last?.counts ?? null,
    rows: data?.pages.flatMap((page) => page.recipients.records) ?? [],
  };
};

/** Applies a campaign event about `campaignId` to the live view; null when the event is about another campaign. */
export const liveFromEvent = (live: TLive, data: TCampaignEvent, campaignId: number): TLive | null => {
  if (data.action === 'progress') {
    return data.campaignId === campaignId ? { ...live, status: data.status, counts: data.counts } : null;
  }
  if (data.action === 'create' || data.action === 'update') {
    return data.record.id === campaignId ? { ...live, campaign: data.record, status: data.record.status } : null;
  }

  return null;
};

/**
 * When to ask the server again as events about the campaign arrive: the rows at most once per ROWS_REFRESH_MS,
 * and everything once FINISHED_REFRESH_MS after an event says FINALIZADA.
 */
export const liveRefresher = (refetchRows: () => void, refetchAll: () => void) => {
  let rowsTimer: ReturnType<typeof setTimeout> | null = null;
  let finishedTimer: ReturnType<typeof setTimeout> | null = null;

  return {
    onEvent: (status: TCampaign['status'] | undefined) => {
      rowsTimer ??= setTimeout(() => {
        rowsTimer = null;
        refetchRows();
      }, ROWS_REFRESH_MS);
      if (status === 'FINALIZADA' && !finishedTimer) {
        finishedTimer = setTimeout(() => {
          finishedTimer = null;
          refetchAll();
        }, FINISHED_REFRESH_MS);
      }
    },
    dispose: () => {
      for (const timer of [rowsTimer, finishedTimer]) {
        if (timer) {
          clearTimeout(timer);
        }
      }
      rowsTimer = null;
      finishedTimer = null;
    },
  };
};

/**
 * GET /campaigns/:id/report page by page (the campaign, its counts and the recipients), kept live by the company's
 * campaign events: counts and status at once, the loaded rows asked again at most every ROWS_REFRESH_MS, and
 * everything once more FINISHED_REFRESH_MS after the campaign is FINALIZADA.
 */
export const useCampaignReport = (campaignId: number) => {
  const { user } = useAuth();
  const [live, setLive] = useState<TLive>({});
  const query = useInfiniteQuery({
    queryKey: reportKey(campaignId),
    queryFn: ({ pageParam }) =>
      api.get<TCampaignReport>(`/campaigns/${campaignId}/report`, { params: { pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages) => (lastPage.recipients.hasMore ? pages.length + 1 : undefined),
    enabled: Number.isInteger(campaignId) && campaignId > 0,
  });
  const refetchRef = useRef(query.refetch);
  refetchRef.current = query.refetch;
  const refresher = useRef<ReturnType<typeof liveRefresher> | null>(null);
  refresher.current ??= liveRefresher(
    () => void refetchRef.current(),
    // the pages then hold the freshest campaign and counts
    () => void refetchRef.current().then(() => setLive({})),
  );
  useEffect(() => () => refresher.current?.dispose(), []);

  useSocketEvent(user ? events.campaign(user.companyId) : '', (data: TCampaignEvent) => {
    const next = data ? liveFromEvent(live, data, campaignId) : null;
    if (next) {
      setLive(next);
      refresher.current?.onEvent(next.status);
    }
  });

  return {
    query,
    ...reportView(query.data, live),
    hasMore: Boolean(query.hasNextPage),
    isLoading: query.isLoading || query.isFetchingNextPage,
    loadMore: () => {
      if (query.hasNextPage && !query.isFetchingNextPage) {
        void query.fetchNextPage();
      }
    },
  };
};
