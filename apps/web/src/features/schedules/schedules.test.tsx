import { QueryClient } from '@tanstack/react-query';
import type { TSchedule } from '@zelo/shared';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';

const calls: { method: string; url: string; body?: unknown }[] = [];
vi.mock('../../api/http', async (original) => {
  const actual = await original<typeof import('../../api/http')>();
  const record = (method: string) => async (url: string, body?: unknown) => {
    calls.push({ method, url, body });
    return { id: Number(/\/schedules\/(\d+)/.exec(url)?.[1] ?? 9), step: method };
  };

  return {
    ...actual,
    api: {
      get: record('GET'),
      post: record('POST'),
      put: record('PUT'),
      delete: record('DELETE'),
      upload: record('UPLOAD'),
    },
  };
});

beforeAll(() => stubLocalStorage([['i18nextLng', 'pt']]));
beforeEach(() => {
  calls.length = 0;
});

const schedule = (fields: Partial<TSchedule> = {}): TSchedule => ({
  id: 5,
  body: 'Lembrete da consulta',
  sendAt: '2031-05-04T12:30:00.000Z',
  sentAt: null,
  status: 'PENDENTE',
  contactId: 3,
  ticketId: null,
  userId: 1,
  whatsappId: null,
  mediaPath: null,
  mediaName: null,
  errorMessage: null,
  contact: { id: 3, name: 'Carla', number: '5511999990000' },
  user: { id: 1, name: 'Ana' },
  whatsapp: null,
  createdAt: '2031-05-01T00:00:00.000Z',
  updatedAt: '2031-05-01T00:00:00.000Z',
  ...fields,
});

describe('schedules: rules the screen follows', () => {
  it('the dialog mode: add, edit, the error title for ERRO, sent once sentAt is set', async () => {
    const { dialogMode } = await import('./scheduleLogic');
    expect(dialogMode(null)).toBe('add');
    expect(dialogMode(schedule())).toBe('edit');
    expect(dialogMode(schedule({ status: 'ERRO', errorMessage: 'late' }))).toBe('error');
    expect(dialogMode(schedule({ status: 'ENVIADA', sentAt: '2031-05-04T12:30:01.000Z' }))).toBe('sent');
  });

  it("an ERRO's reason: the sender's reasons and error codes are i18n keys, other text is shown as is", async () => {
    const { reasonKey } = await import('./scheduleLogic');
    expect(reasonKey('late')).toBe('schedules.reasons.late');
    expect(reasonKey('planDisabled')).toBe('schedules.reasons.planDisabled');
    expect(reasonKey('ERR_WAPP_NOT_INITIALIZED')).toBe('errors.ERR_WAPP_NOT_INITIALIZED');
    expect(reasonKey('socket hang up')).toBeNull();
    expect(reasonKey(null)).toBeNull();
  });

  it('the default send time is now + 1 h, in the local datetime-local format; it goes out as an instant', async () => {
    const { defaultSendAt, localInputToIso } = await import('./scheduleLogic');
    const now = new Date(2031, 4, 4, 9, 15);
    expect(defaultSendAt(now)).toBe('2031-05-04T10:15');
    expect(localInputToIso('2031-05-04T10:15')).toBe(new Date(2031, 4, 4, 10, 15).toISOString());
  });

  it('live events: create and update merge by id in time order, delete removes', async () => {
    const { applyScheduleEvent } = await import('./scheduleLogic');
    const a = schedule({ id: 1, sendAt: '2031-05-04T10:00:00.000Z' });
    const b = schedule({ id: 2, sendAt: '2031-05-04T09:00:00.000Z' });
    let list = applyScheduleEvent([a], { action: 'create', schedule: b });
    expect(list.map((s) => s.id)).toEqual([2, 1]);
    list = applyScheduleEvent(list, { action: 'update', schedule: { ...a, status: 'ENVIADA' } });
    expect(list.find((s) => s.id === 1)?.status).toBe('ENVIADA');
    expect(list).toHaveLength(2);
    expect(applyScheduleEvent(list, { action: 'delete', scheduleId: 2 }).map((s) => s.id)).toEqual([1]);
  });

  it("the calendar's range covers whole weeks of the month, and 30 days for the agenda", async () => {
    const { rangeOf } = await import('./scheduleLogic');
    const month = rangeOf('month', new Date(2031, 4, 15));
    expect(month.start.getTime()).toBeLessThanOrEqual(new Date(2031, 4, 1).getTime());
    expect(month.end.getTime()).toBeGreaterThan(new Date(2031, 4, 31, 23).getTime());
    const agenda = rangeOf('agenda', new Date(2031, 4, 15, 13));
    expect(agenda.start).toEqual(new Date(2031, 4, 15));
    expect(agenda.end.getTime() - agenda.start.getTime()).toBeGreaterThanOrEqual(30 * 86_400_000);
  });

  it('saves the schedule, then its image; a removal deletes the stored one', async () => {
    const { schedulesApi } = await import('./scheduleLogic');
    const body = { body: 'Hello there', contactId: 3, sendAt: '2031-05-04T12:30:00.000Z', whatsappId: null };
    const file = new File(['x'], 'map.png', { type: 'image/png' });
    const created: number[] = [];
    await schedulesApi.save(null, body, { kind: 'attach', file }, false, (s) => created.push(s.id));
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /schedules', 'UPLOAD /schedules/9/media-upload']);
    expect(created).toEqual([9]);
    calls.length = 0;
    await schedulesApi.save(5, body, { kind: 'remove' }, true);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['PUT /schedules/5', 'DELETE /schedules/5/media-upload']);
  });
});

describe('schedules: what the dialog shows', { timeout: 90_000 }, () => {
  const render = async (props: Record<string, unknown>) => {
    const { ScheduleDialog } = await import('./ScheduleDialog');
    const { createTheme, ThemeProvider } = await import('@mui/material');
    // a dialog renders in a portal, which a server render leaves out: here it renders in place
    const inPlace = createTheme({ components: { MuiDialog: { defaultProps: { disablePortal: true } } } });

    return renderScreen(
      <ThemeProvider theme={inPlace}>
        <ScheduleDialog open schedule={null} onClose={() => undefined} {...props} />
      </ThemeProvider>,
      {
        path: '/schedules',
        client: new QueryClient(),
      },
    );
  };

  it('a failed one is titled "Erro de Envio" and shows its reason', async () => {
    const html = await render({ schedule: schedule({ status: 'ERRO', errorMessage: 'late' }) });
    expect(html).toContain('Erro de Envio');
    expect(html).toContain('O horário passou há mais de 24 horas');
    expect(html).toContain('data-testid="schedule-save"');
  });

  it('a sent one has no save button and shows when it left', async () => {
    const html = await render({
      schedule: schedule({ status: 'ENVIADA', sentAt: '2031-05-04T12:30:01.000Z' }),
    });
    expect(html).toContain('Mensagem enviada');
    expect(html).toContain('data-testid="schedule-sent-at"');
    expect(html).not.toContain('data-testid="schedule-save"');
    expect(html).not.toContain('data-testid="schedule-delete"');
  });

  it('a new one for a preset contact: its name, the variables hint, the default connection choice', async () => {
    const html = await render({ initialContact: { id: 3, name: 'Carla', number: '5511999990000' } });
    expect(html).toContain('Agendar mensagem');
    expect(html).toContain('Carla - 5511999990000');
    expect(html).toContain('{{firstName}}');
    expect(html).toContain('Última conexão do contato');
    expect(html).toContain('data-testid="schedule-save"');
  });
});

describe('schedules: the calendar screen', { timeout: 90_000 }, () => {
  it('renders the calendar with its Portuguese toolbar and the events of the range (agenda view)', async () => {
    const { default: SchedulesPage } = await import('./SchedulesPage');
    const { rangeOf } = await import('./scheduleLogic');
    const client = new QueryClient();
    const range = rangeOf('agenda', new Date());
    const today = new Date();
    today.setHours(15, 0, 0, 0);
    client.setQueryData(['schedules', 'range', range.start.toISOString(), range.end.toISOString()], {
      schedules: [schedule({ id: 77, sendAt: today.toISOString(), status: 'ERRO', errorMessage: 'late' })],
      count: 1,
      hasMore: false,
    });
    const html = await renderScreen(<SchedulesPage />, { path: '/schedules?view=agenda', client });
    expect(html).toContain('Agendamentos');
    expect(html).toContain('data-testid="schedules-calendar"');
    expect(html).toContain('Hoje');
    expect(html).toContain('Mês');
    expect(html).toContain('Carla: Lembrete da consulta');
    expect(html).toContain('data-testid="schedule-event-77"');
    expect(html).toContain('data-status="ERRO"');
  });

  it('the list view beside the calendar: search, contact, message, send time, status chip, edit and delete', async () => {
    const { default: SchedulesPage } = await import('./SchedulesPage');
    const { SCHEDULES_LIST_KEY, sendTimeText, scheduleListChange } = await import('./ScheduleList');
    const client = new QueryClient();
    const sent = schedule({ id: 8, status: 'ENVIADA', sentAt: '2031-05-04T12:30:01.000Z' });
    client.setQueryData([...SCHEDULES_LIST_KEY, '', {}], {
      pages: [{ schedules: [schedule(), sent], count: 2, hasMore: false }],
      pageParams: [1],
    });
    const html = await renderScreen(<SchedulesPage />, { path: '/schedules?mode=list', client });
    for (const testId of [
      'schedules-mode-calendar',
      'schedules-mode-list',
      'schedules-search',
      'schedule-row-5',
      'schedule-row-8',
      'schedule-status-5',
      'schedule-status-8',
      'schedule-edit-5',
      'schedule-delete-8',
    ]) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html).toContain('Lembrete da consulta');
    expect(html).toContain('Carla');
    expect(html).toContain('Pendente');
    expect(html).toContain('Enviada');
    expect(html).toContain(sendTimeText('2031-05-04T12:30:00.000Z'));
    expect(html).not.toContain('data-testid="schedules-calendar"');
    // the calendar view has no search box and no list
    const calendar = await renderScreen(<SchedulesPage />, { path: '/schedules', client: new QueryClient() });
    expect(calendar).not.toContain('data-testid="schedules-search"');
    expect(calendar).toContain('data-testid="schedules-mode-list"');
    // live events change the loaded pages
    expect(scheduleListChange({ action: 'delete', scheduleId: 5 })).toEqual({ remove: 5 });
    expect(scheduleListChange({ action: 'update', schedule: sent })).toEqual({ upsert: sent });
    // dd/MM/yyyy HH:mm as every other screen, in English too (not 5/4/31, 12:30 PM)
    const local = new Date(2031, 4, 4, 9, 5).toISOString();
    expect(sendTimeText(local)).toBe('04/05/2031 09:05');
    // a past send time is warned about (and confirmed by a second save), a future one is not
    const { isPastSendAt } = await import('./scheduleLogic');
    const now = new Date(2031, 4, 4, 9, 5);
    expect(isPastSendAt('2031-05-04T09:00', now)).toBe(true);
    expect(isPastSendAt('2031-05-04T09:05', now)).toBe(false);
    expect(isPastSendAt('2031-05-04T10:00', now)).toBe(false);
    expect(isPastSendAt('', now)).toBe(false);
  });
});
