import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TOpenedPage,
  screenshot,
  TIME_ZONE,
  VIEWPORT,
  waitForPath,
  waitForSocketReady,
  waitForToast,
} from '../support/browser';
import {
  companyWithApiAdmin,
  createSandboxConnection,
  customerWrites,
  pairSandbox,
  ticketMessages,
  until,
  waitForOutboxMessage,
} from '../support/inbox';

/**
 * Scheduled messages (issue 12 item 1), in Chromium: a message scheduled from the /schedules calendar a few
 * seconds ahead leaves on time through the sandbox connection (the customer's phone receives it), is stored in
 * the contact's ticket history, and its calendar event turns "sent" live; the dialog of a sent one has no save.
 */

type TSchedule = { id: number; status: string; sentAt: string | null; sendAt: string; ticketId: number | null };

/**
 * `YYYY-MM-DDTHH:mm:ss` of an instant in the browser's zone (a datetime-local field's value); whole minutes as
 * `YYYY-MM-DDTHH:mm`, the form Chromium keeps (fill checks the value read back, and a `:00` it dropped is "malformed")
 */
const localInput = (at: Date) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );

  const minute = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;

  return parts.second === '00' ? minute : `${minute}:${parts.second}`;
};

describe('a message scheduled from the calendar', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let connectionId = 0;
  const id = unique();
  const customer = { number: `5521${String(Date.now()).slice(-8)}3`, name: `Agenda ${id}` };
  const body = `Lembrete: sua consulta é amanhã (${id})`;
  let scheduleId = 0;
  const page = (): Page => opened.page;

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Agenda'));
    connectionId = await createSandboxConnection(token, `Agenda ${id}`);
    await pairSandbox(token, connectionId);
    await customerWrites(token, connectionId, customer.number, customer.name, 'Oi, quero marcar uma consulta');
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'pt', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens the calendar from the side menu', async () => {
    await page().getByTestId('menu-schedules').click();
    await waitForPath(page(), '/schedules');
    await page().getByRole('heading', { name: 'Agendamentos', level: 1 }).waitFor();
    await page().getByTestId('schedules-calendar').getByText('Mês').waitFor();
    await waitForSocketReady(opened);
  });

  it('validates the dialog, then schedules a message a few seconds ahead', async () => {
    await page().getByTestId('schedules-add').click();
    const dialog = page().getByTestId('schedule-dialog');
    await dialog.getByText('Agendar mensagem').first().waitFor();
    await page().getByTestId('schedule-body').fill('Oi');
    await page().getByTestId('schedule-save').click();
    await dialog.getByText('Mensagem muito curta').waitFor();
    await dialog.getByText('Obrigatório').first().waitFor();

    await page().getByTestId('schedule-contact').fill(customer.name.slice(0, 8));
    await page().locator('[data-testid^="schedule-contact-"]').filter({ hasText: customer.name }).first().click();
    await page().getByTestId('schedule-body').fill(body);
    const sendAt = new Date(Date.now() + 8000);
    await page().getByTestId('schedule-send-at').fill(localInput(sendAt));
    await screenshot(page(), 'schedules-dialog-pt-light');
    await page().getByTestId('schedule-save').click();
    await waitForToast(page(), 'success', 'Agendamento salvo!');
    await dialog.waitFor({ state: 'detached' });

    const listed = await apiCall<{ schedules: (TSchedule & { body: string })[] }>(
      'GET',
      `/schedules?searchParam=${encodeURIComponent(id)}`,
      { token },
    );
    expect(listed.schedules).toHaveLength(1);
    const created = listed.schedules[0];
    expect(created.status).toBe('PENDENTE');
    // the instant the user picked in São Paulo time, to the second
    expect(new Date(created.sendAt).getTime()).toBe(Math.floor(sendAt.getTime() / 1000) * 1000);
    scheduleId = created.id;
    await page().getByTestId(`schedule-event-${scheduleId}`).waitFor();
  });

  it('leaves at its time: the customer receives it, it is in the ticket history, the event turns sent live', async () => {
    const received = await waitForOutboxMessage(token, connectionId, customer.number, (m) => m.body === body);
    expect(received.type).toBe('text');
    let sent: TSchedule | undefined;
    await until('the schedule sent', async () => {
      sent = await apiCall<TSchedule>('GET', `/schedules/${scheduleId}`, { token });
      return sent.status === 'ENVIADA';
    });
    const late = new Date(sent?.sentAt ?? 0).getTime() - new Date(sent?.sendAt ?? 0).getTime();
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(2000);
    const history = await ticketMessages(token, sent?.ticketId ?? 0);
    expect(history.filter((m) => m.body === body)).toEqual([expect.objectContaining({ fromMe: true })]);

    await page()
      .locator(`[data-testid="schedule-event-${scheduleId}"][data-status="ENVIADA"]`)
      .waitFor({ timeout: 10_000 });
    await page().getByTestId(`schedule-event-${scheduleId}`).click();
    const dialog = page().getByTestId('schedule-dialog');
    await dialog.getByText('Mensagem enviada').waitFor();
    await page().getByTestId('schedule-sent-at').waitFor();
    expect(await page().getByTestId('schedule-save').count()).toBe(0);
    await screenshot(page(), 'schedules-sent-pt-light');
    await page().getByTestId('schedule-cancel').click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('the list view beside the calendar finds it by its text, with its status chip', async () => {
    await page().getByTestId('schedules-mode-list').click();
    await page().getByTestId('schedules-search').fill(id);
    await page().getByTestId(`schedule-row-${scheduleId}`).waitFor();
    expect(await page().getByTestId(`schedule-status-${scheduleId}`).textContent()).toBe('Enviada');
    await screenshot(page(), 'schedules-list-pt-light');
    await page().getByTestId('schedules-mode-calendar').click();
    await page().getByTestId(`schedule-event-${scheduleId}`).waitFor();
  });

  it('at 390 px the agenda lists it; the dark theme is readable', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    await page().evaluate(() => localStorage.setItem('preferredTheme', 'dark'));
    await page().goto('/schedules?view=agenda');
    await page().getByTestId(`schedule-event-${scheduleId}`).waitFor();
    const width = await page().evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(page(), 'schedules-agenda-pt-dark-390');
    await page().setViewportSize(VIEWPORT);
    expectNoPageErrors(opened);
  });
});
