import { QueryClient } from '@tanstack/react-query';
import type { TDashboard } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';
import { dashboardParams, isoDay } from './format';

/** Server-side render (no DOM) of the dashboard from cached answers. */
beforeAll(() => stubLocalStorage());

const answer: TDashboard = {
  counters: {
    supportHappening: 4,
    supportPending: 2,
    supportFinished: 17,
    leads: 5,
    avgSupportTime: 50_400,
    avgWaitTime: 12.4,
  },
  attendants: [
    { id: 7, name: 'Bruno', rating: 2.6, tickets: 9, avgSupportTime: 125, online: true },
    { id: 8, name: 'Carla', rating: 0, tickets: 0, avgSupportTime: 0, online: false },
  ],
};

describe('DashboardPage', { timeout: 90_000 }, () => {
  it('shows the counters (durations as HHh MMm), the attendants with stars and online dots, and the charts', async () => {
    const { default: DashboardPage } = await import('./DashboardPage');
    const client = new QueryClient();
    const now = new Date();
    const params = dashboardParams({
      kind: 'date',
      from: isoDay(new Date(now.getFullYear(), now.getMonth(), 1)),
      to: isoDay(now),
    });
    client.setQueryData(['dashboard', 'main', params], answer);
    const html = await renderScreen(<DashboardPage />, { path: '/', client });

    const counter = (key: string) =>
      html.match(new RegExp(`data-testid="dashboard-counter-${key}"[^>]*>([^<]*)<`))?.[1];
    expect(counter('supportHappening')).toBe('4');
    expect(counter('supportPending')).toBe('2');
    expect(counter('supportFinished')).toBe('17');
    expect(counter('leads')).toBe('5');
    expect(counter('avgSupportTime')).toBe('840h 00m');
    expect(counter('avgWaitTime')).toBe('00h 12m');
    expect(counter('online')).toBe('1/2');
    expect(html).toContain('data-testid="dashboard-attendant-7"');
    expect(html).toContain('data-rating="3"'); // 2.6 of 3 → three stars
    expect(html).toContain('data-rating="0"');
    expect(html).toContain('02h 05m');
    expect(html).toContain('data-online="true"');
    expect(html).toContain('data-online="false"');
    expect(html).toContain('data-testid="chart-users"');
    expect(html).toContain('data-testid="chart-day"');
    expect(html).toContain('data-testid="dashboard-filter"');
  });
});
