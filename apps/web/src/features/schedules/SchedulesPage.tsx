import { CalendarMonth, ViewList } from '@mui/icons-material';
import { Alert, alpha, Box, ToggleButton, ToggleButtonGroup, useMediaQuery, useTheme } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TSchedule, type TScheduleEvent } from '@zelo/shared';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import 'dayjs/locale/pt-br';
import { useCallback, useMemo, useState } from 'react';
import { Calendar, dayjsLocalizer, type View } from 'react-big-calendar';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import { useTranslation } from '../../i18n/useTranslation';
import { useSearchParams } from 'react-router';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { ListPage, useSearch } from '../../components/kit';
import { ticketsApi } from '../tickets/ticketsApi';
import './i18n';
import { ScheduleDialog } from './ScheduleDialog';
import { ScheduleList, useSchedulesList } from './ScheduleList';
import {
  applyScheduleEvent,
  rangeOf,
  STATUS_COLOR,
  schedulesApi,
  type TCalendarEvent,
  toCalendarEvent,
} from './scheduleLogic';

const localizer = dayjsLocalizer(dayjs);
const CULTURES: Record<string, string> = { pt: 'pt-br', en: 'en', es: 'es' };
const RANGE_KEY = ['schedules', 'range'] as const;
const VIEWS: View[] = ['month', 'week', 'day', 'agenda'];

type TRangeData = { schedules: TSchedule[]; count: number; hasMore: boolean };
type TOpenDialog = {
  key: number;
  schedule: TSchedule | null;
  contact?: { id: number; name: string; number: string } | null;
  sendAt?: Date | null;
};

/** An event in the calendar: the contact and the message, with a test id. */
const EventLabel = ({ event }: { event: TCalendarEvent }) => (
  <span data-testid={`schedule-event-${event.id}`} data-status={event.schedule.status}>
    {event.title}
  </span>
);

/**
 * The schedules calendar (spec 2, issue 12 item 1): month, week, day and agenda (the agenda first on a phone),
 * the company's schedules coloured by status and kept live by `company-{id}-schedule`. An event opens its
 * dialog, an empty slot a new one at that time; `?contactId=` opens a new one for that contact.
 */
const SchedulesPage = () => {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const small = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [params, setParams] = useSearchParams();
  // `?view=` opens a view (the agenda first on a phone, else the month)
  const linked = params.get('view') as View | null;
  const [view, setView] = useState<View>(linked && VIEWS.includes(linked) ? linked : small ? 'agenda' : 'month');
  // `?mode=list`: the list beside the calendar (searchable by contact or message)
  const mode = params.get('mode') === 'list' ? 'list' : 'calendar';
  const setMode = (next: 'calendar' | 'list') => {
    if (next === 'list') {
      params.set('mode', 'list');
    } else {
      params.delete('mode');
    }
    setParams(params, { replace: true });
  };
  const { search, setSearch, searchParam } = useSearch();
  const rows = useSchedulesList(searchParam, mode === 'list');
  const [date, setDate] = useState(() => new Date());
  const range = useMemo(() => rangeOf(view, date), [view, date]);
  const list = useQuery({
    queryKey: [...RANGE_KEY, range.start.toISOString(), range.end.toISOString()],
    queryFn: () => schedulesApi.range(range.start, range.end),
  });
  const presetContactId = Number(params.get('contactId')) || null;
  const [dialog, setDialog] = useState<TOpenDialog | null>(null);
  const presetContact = useQuery({
    queryKey: ['schedules', 'contact', presetContactId],
    queryFn: () => ticketsApi.contact(presetContactId!),
    enabled: presetContactId !== null,
  });
  // the link's dialog opens once its contact is known
  const linkDialog: TOpenDialog | null =
    presetContactId !== null && presetContact.data && !dialog
      ? { key: -presetContactId, schedule: null, contact: presetContact.data }
      : null;
  const shown = dialog ?? linkDialog;

  const apply = useCallback(
    (event: TScheduleEvent) => {
      queryClient.setQueriesData<TRangeData>({ queryKey: RANGE_KEY }, (old) =>
        old ? { ...old, schedules: applyScheduleEvent(old.schedules, event) } : old,
      );
    },
    [queryClient],
  );
  useSocketEvent(user ? events.schedule(user.companyId) : '', (payload) => apply(payload as TScheduleEvent));

  const calendarEvents = useMemo(() => (list.data?.schedules ?? []).map(toCalendarEvent), [list.data]);
  const messages = useMemo(
    () => ({
      date: t('schedules.calendar.date'),
      time: t('schedules.calendar.time'),
      event: t('schedules.calendar.event'),
      allDay: t('schedules.calendar.allDay'),
      week: t('schedules.calendar.week'),
      work_week: t('schedules.calendar.work_week'),
      day: t('schedules.calendar.day'),
      month: t('schedules.calendar.month'),
      previous: t('schedules.calendar.previous'),
      next: t('schedules.calendar.next'),
      yesterday: t('schedules.calendar.yesterday'),
      tomorrow: t('schedules.calendar.tomorrow'),
      today: t('schedules.calendar.today'),
      agenda: t('schedules.calendar.agenda'),
      noEventsInRange: t('schedules.calendar.noEventsInRange'),
      showMore: (count: number) => t('schedules.calendar.showMore', { count }),
    }),
    [t],
  );

  const close = () => {
    setDialog(null);
    if (presetContactId !== null) {
      params.delete('contactId');
      setParams(params, { replace: true });
    }
  };
  const openNew = (sendAt: Date | null = null) => setDialog({ key: Date.now(), schedule: null, sendAt });

  const border = theme.palette.divider;

  return (
    <ListPage
      title={t('schedules.title')}
      add={{ label: t('schedules.add'), onClick: () => openNew(), testId: 'schedules-add' }}
      search={
        mode === 'list'
          ? { value: search, onChange: setSearch, placeholder: t('schedules.search'), testId: 'schedules-search' }
          : undefined
      }
      actions={
        <ToggleButtonGroup
          size="small"
          exclusive
          value={mode}
          onChange={(_e, next: 'calendar' | 'list' | null) => next && setMode(next)}
          aria-label={t('schedules.title')}
        >
          <ToggleButton
            value="calendar"
            data-testid="schedules-mode-calendar"
            aria-label={t('schedules.views.calendar')}
          >
            <CalendarMonth fontSize="small" sx={{ mr: 0.5 }} />
            {t('schedules.views.calendar')}
          </ToggleButton>
          <ToggleButton value="list" data-testid="schedules-mode-list" aria-label={t('schedules.views.list')}>
            <ViewList fontSize="small" sx={{ mr: 0.5 }} />
            {t('schedules.views.list')}
          </ToggleButton>
        </ToggleButtonGroup>
      }
    >
      {list.isError && mode === 'calendar' ? <Alert severity="error">{t('schedules.loadError')}</Alert> : null}
      {mode === 'list' ? (
        <ScheduleList list={rows} onEdit={(schedule) => setDialog({ key: Date.now(), schedule })} />
      ) : null}
      {mode === 'calendar' ? (
        <Box
          data-testid="schedules-calendar"
          sx={{
            flex: 1,
            minHeight: { xs: 480, sm: 560 },
            color: 'text.primary',
            '& .rbc-calendar': { minHeight: { xs: 480, sm: 560 } },
            '& .rbc-month-view, & .rbc-time-view, & .rbc-agenda-view table.rbc-agenda-table, & .rbc-header, & .rbc-day-bg + .rbc-day-bg, & .rbc-month-row + .rbc-month-row, & .rbc-time-content, & .rbc-time-header-content, & .rbc-timeslot-group, & .rbc-day-slot .rbc-time-slot, & .rbc-time-content > * + * > *, & .rbc-agenda-view table.rbc-agenda-table tbody > tr > td + td, & .rbc-agenda-view table.rbc-agenda-table tbody > tr + tr, & .rbc-agenda-view table.rbc-agenda-table thead > tr > th':
              { borderColor: border },
            '& .rbc-off-range-bg': { bgcolor: 'action.hover' },
            '& .rbc-off-range': { color: 'text.disabled' },
            '& .rbc-today': { bgcolor: alpha(theme.palette.primary.main, 0.12) },
            '& .rbc-toolbar': { flexWrap: 'wrap', gap: 1 },
            '& .rbc-toolbar button': {
              color: 'text.primary',
              borderColor: border,
              '&:hover, &:focus': { bgcolor: 'action.hover', borderColor: border },
            },
            '& .rbc-toolbar button.rbc-active, & .rbc-toolbar button:active': {
              bgcolor: 'action.selected',
              color: 'text.primary',
              boxShadow: 'none',
            },
            '& .rbc-toolbar .rbc-toolbar-label': { fontWeight: 500 },
            '& .rbc-show-more': { bgcolor: 'transparent', color: 'primary.main' },
            '& .rbc-current-time-indicator': { bgcolor: 'error.main' },
            '& .rbc-agenda-view table.rbc-agenda-table': { color: 'text.primary' },
            '& .rbc-event.rbc-selected': { outline: `2px solid ${theme.palette.text.primary}` },
          }}
        >
          <Calendar<TCalendarEvent>
            localizer={localizer}
            culture={CULTURES[i18n.language] ?? 'pt-br'}
            events={calendarEvents}
            view={view}
            onView={setView}
            views={VIEWS}
            date={date}
            onNavigate={setDate}
            messages={messages}
            selectable
            popup
            onSelectEvent={(event) => setDialog({ key: Date.now(), schedule: event.schedule })}
            onSelectSlot={(slot) => {
              // a day in the month view: that day at the next hour of now; a time slot: its time
              const start = dayjs(slot.start);
              const at = view === 'month' ? start.hour(dayjs().hour()).minute(0).add(1, 'hour') : start;
              openNew(at.toDate());
            }}
            eventPropGetter={(event) => {
              const color = theme.palette[STATUS_COLOR[event.schedule.status]];

              return { style: { backgroundColor: color.main, color: color.contrastText, border: 'none' } };
            }}
            components={{ event: EventLabel }}
            style={{ height: '100%' }}
          />
        </Box>
      ) : null}
      {shown ? (
        <ScheduleDialog
          key={shown.key}
          open
          schedule={shown.schedule}
          initialContact={shown.contact ?? null}
          initialSendAt={shown.sendAt ?? null}
          onSaved={(saved) => {
            apply({ action: shown.schedule ? 'update' : 'create', schedule: saved });
            rows.upsert(saved);
          }}
          onDeleted={(id) => {
            apply({ action: 'delete', scheduleId: id });
            rows.remove(id);
          }}
          onClose={close}
        />
      ) : null}
    </ListPage>
  );
};

export default SchedulesPage;
