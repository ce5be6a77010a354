import type { TSessionUser } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, sessionUser, stubLocalStorage } from '../../testing/renderScreen';
import { isPayOnly, reachableWhenPayOnly, trialDaysLeft } from './standing';

/** The app shell's notices (server renders) and the rules they follow. */
// in Portuguese, the default language of the company screens
beforeAll(() => stubLocalStorage([['i18nextLng', 'pt']]));

const NOW = new Date('2030-03-10T12:00:00Z');
const withCompany = (company: Partial<TSessionUser['company']>, fields: Partial<TSessionUser> = {}) =>
  sessionUser({ ...fields, company: { ...sessionUser().company, ...company } });

const renderNotices = async (user: TSessionUser) => {
  const { ExpiryNotice, TrialBanner } = await import('./SubscriptionNotices');

  return renderScreen(
    <>
      <ExpiryNotice />
      <TrialBanner now={NOW} />
    </>,
    { path: '/tickets', user },
  );
};

describe('trial banner and expiry notice', { timeout: 90_000 }, () => {
  it("shows the trial banner with the days left while the company is on trial, and the admin's subscribe link", async () => {
    const onTrial = withCompany({ trialExpiration: '2030-03-12T09:00:00Z', dueDate: '2030-03-12' });
    const html = await renderNotices(onTrial);
    expect(html).toContain('data-testid="trial-banner"');
    expect(html).toContain('data-days="2"');
    expect(html).toContain('Seu período de teste termina em 2 dias!');
    expect(html).toContain('href="/subscription"');
    expect(html).not.toContain('data-testid="expiry-notice"');
    // an attendant reads it without the link
    const agent = await renderNotices(withCompany(onTrial.company, { profile: 'user' }));
    expect(agent).toContain('data-testid="trial-banner"');
    expect(agent).not.toContain('data-testid="trial-subscribe"');
  });

  it('shows no banner after the trial, after paying past it, or for the super user', async () => {
    for (const user of [
      withCompany({ trialExpiration: '2030-03-09T09:00:00Z', dueDate: '2030-03-09' }),
      withCompany({ trialExpiration: '2030-03-12T09:00:00Z', dueDate: '2030-04-12' }),
      withCompany({ trialExpiration: null, dueDate: '2030-04-12' }),
      withCompany({ trialExpiration: '2030-03-12T09:00:00Z', dueDate: '2030-03-12' }, { super: true }),
    ]) {
      expect(await renderNotices(user)).not.toContain('data-testid="trial-banner"');
    }
  });

  it('a pay-only session shows the expiry notice with its date and the pay button, never the trial banner', async () => {
    const html = await renderNotices(
      withCompany({ payOnly: true, dueDate: '2030-03-01', trialExpiration: '2030-03-12T09:00:00Z' }),
    );
    expect(html).toContain('data-testid="expiry-notice"');
    expect(html).toContain('01/03/2030');
    expect(html).toContain('href="/financeiro"');
    expect(html).not.toContain('data-testid="trial-banner"');
  });

  it('the rules: pay-only for a company user only, and the two screens it reaches', () => {
    expect(isPayOnly(withCompany({ payOnly: true }))).toBe(true);
    expect(isPayOnly(withCompany({ payOnly: true }, { super: true }))).toBe(false);
    expect(isPayOnly(withCompany({}))).toBe(false);
    expect(isPayOnly(null)).toBe(false);
    expect(['/subscription', '/financeiro', '/financeiro/x'].every(reachableWhenPayOnly)).toBe(true);
    expect(['/', '/tickets', '/financeiroX', '/settings'].some(reachableWhenPayOnly)).toBe(false);
    expect(trialDaysLeft({ trialExpiration: '2030-03-10T13:00:00Z', dueDate: '2030-03-10' }, NOW)).toBe(1);
    expect(trialDaysLeft({ trialExpiration: '2030-03-13T12:00:00Z', dueDate: '2030-03-13' }, NOW)).toBe(3);
    expect(trialDaysLeft({ trialExpiration: 'nonsense', dueDate: null }, NOW)).toBeNull();
  });
});
