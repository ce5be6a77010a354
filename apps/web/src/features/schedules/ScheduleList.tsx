import { Chip, Typography } from '@mui/material';
import { events, type TSchedule, type TScheduleEvent } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { useAuth } from '../../app/auth/AuthContext';
import {
  ClampedText,
  DataTable,
  matchesSearch,
  RowActions,
  type TColumn,
  type TListChange,
  useDeleteConfirm,
  useInfiniteList,
  useListCache,
} from '../../components/kit';
import { formatDateTime } from '../../utils/date';
import './i18n';
import { STATUS_COLOR, schedulesApi } from './scheduleLogic';

/** a send time as every other screen writes a moment (dd/MM/yyyy HH:mm), whatever the language */
export const sendTimeText = (iso: string) => formatDateTime(iso);

export const SCHEDULES_LIST_KEY = ['schedules', 'list'] as const;

const SCHEDULES_LIST = {
  queryKey: SCHEDULES_LIST_KEY,
  itemsKey: 'schedules',
  // the server searches the body and the contact's name the same way
  matches: (s: TSchedule, search: string) => matchesSearch(search, s.body, s.contact.name),
};

/** a schedule event as a change of the loaded list pages */
export const scheduleListChange = (event: TScheduleEvent): TListChange<TSchedule> =>
  event.action === 'delete' ? { remove: Number(event.scheduleId) } : { upsert: event.schedule };

/** GET /schedules page by page (no date range: every schedule, searched by contact or body), kept live. */
export const useSchedulesList = (searchParam: string, enabled: boolean) => {
  const { user } = useAuth();
  const list = useInfiniteList<TSchedule>({ ...SCHEDULES_LIST, path: '/schedules', searchParam, enabled });
  const cache = useListCache<TSchedule, TScheduleEvent>(SCHEDULES_LIST, {
    event: user ? events.schedule(user.companyId) : '',
    toChange: scheduleListChange,
  });

  return { ...list, upsert: cache.upsert, remove: cache.remove };
};

type TScheduleListProps = {
  list: ReturnType<typeof useSchedulesList>;
  onEdit: (schedule: TSchedule) => void;
};

/** The schedules as a list (beside the calendar): contact, message, send time, status, edit and delete. */
export const ScheduleList = ({ list, onEdit }: TScheduleListProps) => {
  const { t } = useTranslation();
  const remove = useDeleteConfirm<TSchedule>({
    onDelete: async (s) => {
      await schedulesApi.remove(s.id);
      list.remove(s.id);
    },
    title: () => t('schedules.deleteTitle'),
    message: () => t('schedules.deleteMessage'),
    successMessage: t('schedules.deleted'),
  });

  const columns: TColumn<TSchedule>[] = [
    {
      key: 'contact',
      header: t('schedules.columns.contact'),
      primary: true,
      width: '24%',
      render: (s) => (
        <Typography variant="body2" fontWeight={600} sx={{ wordBreak: 'break-word' }}>
          {s.contact.name}
        </Typography>
      ),
    },
    {
      key: 'body',
      header: t('schedules.columns.body'),
      width: '40%',
      render: (s) => <ClampedText>{s.body}</ClampedText>,
    },
    {
      key: 'sendAt',
      header: t('schedules.columns.sendAt'),
      render: (s) => (
        <Typography variant="body2" noWrap>
          {sendTimeText(s.sendAt)}
        </Typography>
      ),
    },
    {
      key: 'status',
      header: t('schedules.columns.status'),
      align: 'center',
      render: (s) => (
        <Chip
          size="small"
          color={STATUS_COLOR[s.status]}
          label={t(`schedules.status.${s.status}`)}
          data-testid={`schedule-status-${s.id}`}
        />
      ),
    },
  ];

  return (
    <>
      <DataTable
        rows={list.items}
        columns={columns}
        getRowId={(s) => s.id}
        rowTestId={(s) => `schedule-row-${s.id}`}
        onRowClick={onEdit}
        actions={(s) => (
          <RowActions
            onEdit={() => onEdit(s)}
            onDelete={() => remove.ask(s)}
            editTestId={`schedule-edit-${s.id}`}
            deleteTestId={`schedule-delete-${s.id}`}
          />
        )}
        isLoading={list.isLoading}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        emptyText={t('schedules.empty')}
      />
      {remove.dialog}
    </>
  );
};
