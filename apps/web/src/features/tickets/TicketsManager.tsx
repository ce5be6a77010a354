import AddIcon from '@mui/icons-material/Add';
import { Badge, Box, Button, FormControlLabel, Paper, Stack, Switch, Tab, Tabs } from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { markInboxListShown } from '../../app/firstScreen';
import { lazyNamed, OnceOpened } from '../../components/lazyPart';
import { useDebounce } from '../../hooks/useDebounce';
import { QueueSelect } from './QueueSelect';
import { TicketsList } from './TicketsList';
import { ticketsCount } from './ticketListReducer';
import type { TTagOption, TTicketListFilter, TUserOption } from './ticketTypes';
import { useQueueOptions, useTagOptions, useUserOptions } from './useCatalogue';
import { useQueueSelection } from './useQueueSelection';
import { useTicketActions } from './useTicketActions';
import { useTicketEvents } from './useTicketEvents';
import { useTicketList } from './useTicketList';
import { useViewer } from './useViewer';

type TTab = 'open' | 'closed' | 'search';
type TSubTab = 'assigned' | 'pending';

type TicketsManagerProps = { selectedUuid?: string; narrow: boolean };

/** The left side of /tickets: new ticket, show all, queues, and the open / closed / search tabs. */
// dialogs load when first opened (the list shows first)
const NewTicketDialog = lazyNamed(() => import('./NewTicketDialog'), 'NewTicketDialog');
const TicketPeekDialog = lazyNamed(() => import('./TicketPeekDialog'), 'TicketPeekDialog');
// the search tab's filters (text field, tag and user pickers) load when the tab is first chosen
const SearchFilters = lazyNamed(() => import('./SearchFilters'), 'SearchFilters');

export const TicketsManager = ({ selectedUuid, narrow }: TicketsManagerProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const viewer = useViewer();
  useTicketEvents();
  const actions = useTicketActions();

  const [tab, setTab] = useState<TTab>('open');
  const [subTab, setSubTab] = useState<TSubTab>('assigned');
  // initially on for admins and allTicket users (spec 1 §6)
  const [showAll, setShowAll] = useState(viewer.canShowAll);
  const [newTicketOpen, setNewTicketOpen] = useState(false);
  const [peeking, setPeeking] = useState<TTicket | null>(null);
  const [searchText, setSearchText] = useState('');
  const searchParam = useDebounce(searchText.trim(), 500);
  const [tags, setTags] = useState<TTagOption[]>([]);
  const [users, setUsers] = useState<TUserOption[]>([]);

  const queueOptions = useQueueOptions();
  const { selected: queueIds, setSelected: setQueueIds } = useQueueSelection(viewer.id, queueOptions.data);
  const tagOptions = useTagOptions();
  const userOptions = useUserOptions(viewer.isAdmin);
  const ready = !queueOptions.isLoading;

  const effectiveShowAll = viewer.canShowAll && showAll;
  const filters = useMemo(() => {
    const base = { queueIds, showAll: effectiveShowAll };
    const open: TTicketListFilter = { ...base, status: 'open' };
    const pending: TTicketListFilter = { ...base, status: 'pending' };
    const closed: TTicketListFilter = { ...base, status: 'closed' };
    const search: TTicketListFilter = {
      ...base,
      searchParam,
      tags: tags.map((tag) => tag.id),
      users: users.map((u) => u.id),
    };

    return { open, pending, closed, search };
  }, [queueIds, effectiveShowAll, searchParam, tags, users]);

  const openList = useTicketList(filters.open, ready);
  const openCount = ticketsCount(openList.data);
  const pendingCount = ticketsCount(useTicketList(filters.pending, ready).data);
  // the first list has shown (or failed): what waited for it (the realtime connection, the virtualized rows) loads now
  useEffect(() => {
    if (openList.isFetched) markInboxListShown();
  }, [openList.isFetched]);

  const rowProps = {
    selectedUuid,
    narrow,
    isAdmin: viewer.isAdmin,
    busyId: actions.busyId,
    onOpen: (ticket: TTicket) => navigate(`/tickets/${ticket.uuid}`),
    onAccept: (ticket: TTicket) => {
      setSubTab('assigned');
      void actions.accept(ticket);
    },
    onClose: actions.close,
    onReopen: actions.reopen,
    onPeek: setPeeking,
  };

  return (
    <Paper square variant="outlined" sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ p: 1, flexWrap: 'wrap', rowGap: 1 }}>
        <Button
          variant="contained"
          size="small"
          startIcon={<AddIcon />}
          onClick={() => setNewTicketOpen(true)}
          data-testid="tickets-new"
        >
          {t('tickets.newTicket')}
        </Button>
        {viewer.canShowAll ? (
          <FormControlLabel
            sx={{ mr: 0 }}
            control={
              <Switch
                size="small"
                checked={showAll}
                onChange={(e) => setShowAll(e.target.checked)}
                slotProps={{ input: { 'data-testid': 'tickets-show-all' } as object }}
              />
            }
            label={t('tickets.showAll')}
          />
        ) : null}
        <Box sx={{ flex: 1 }} />
        <QueueSelect options={queueOptions.data} value={queueIds} onChange={setQueueIds} />
      </Stack>
      <Tabs
        value={tab}
        onChange={(_e, v: TTab) => setTab(v)}
        variant="fullWidth"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="open" label={t('tickets.tabs.open')} data-testid="tickets-tab-open" />
        <Tab value="closed" label={t('tickets.tabs.closed')} data-testid="tickets-tab-closed" />
        <Tab value="search" label={t('tickets.tabs.search')} data-testid="tickets-tab-search" />
      </Tabs>
      {tab === 'open' ? (
        <>
          <Tabs
            value={subTab}
            onChange={(_e, v: TSubTab) => setSubTab(v)}
            variant="fullWidth"
            sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 40 }}
          >
            <Tab
              value="assigned"
              sx={{ minHeight: 40 }}
              data-testid="tickets-subtab-assigned"
              label={
                <Badge
                  badgeContent={openCount}
                  color="primary"
                  max={999}
                  sx={{ pr: 2 }}
                  data-testid="tickets-count-assigned"
                  data-count={openCount}
                >
                  {t('tickets.tabs.assigned')}
                </Badge>
              }
            />
            <Tab
              value="pending"
              sx={{ minHeight: 40 }}
              data-testid="tickets-subtab-pending"
              label={
                <Badge
                  badgeContent={pendingCount}
                  color="secondary"
                  max={999}
                  sx={{ pr: 2 }}
                  data-testid="tickets-count-pending"
                  data-count={pendingCount}
                >
                  {t('tickets.tabs.pending')}
                </Badge>
              }
            />
          </Tabs>
          {subTab === 'assigned' ? (
            <TicketsList filter={filters.open} enabled={ready} testId="tickets-list-open" {...rowProps} />
          ) : (
            <TicketsList filter={filters.pending} enabled={ready} testId="tickets-list-pending" {...rowProps} />
          )}
        </>
      ) : null}
      {tab === 'closed' ? (
        <TicketsList filter={filters.closed} enabled={ready} testId="tickets-list-closed" {...rowProps} />
      ) : null}
      {tab === 'search' ? (
        <>
          <Suspense fallback={null}>
            <SearchFilters
              text={searchText}
              onText={setSearchText}
              tags={tagOptions.data ?? []}
              selectedTags={tags}
              onTags={setTags}
              users={viewer.isAdmin ? (userOptions.data ?? []) : null}
              selectedUsers={users}
              onUsers={setUsers}
            />
          </Suspense>
          <TicketsList filter={filters.search} enabled={ready} testId="tickets-list-search" {...rowProps} />
        </>
      ) : null}
      <OnceOpened open={newTicketOpen}>
        <NewTicketDialog open={newTicketOpen} onClose={() => setNewTicketOpen(false)} />
      </OnceOpened>
      <OnceOpened open={peeking !== null}>
        <TicketPeekDialog ticket={peeking} onClose={() => setPeeking(null)} />
      </OnceOpened>
    </Paper>
  );
};
