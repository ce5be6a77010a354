import { QueryClient } from '@tanstack/react-query';
import type { TContact } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, sessionUser, stubLocalStorage } from '../../testing/renderScreen';

/** Server-side render (no DOM) of the contacts page from a cached first page. */
beforeAll(() => stubLocalStorage());

const contact = {
  id: 7,
  name: 'Renata',
  number: '5521988887777',
  email: 'renata@x.com',
  profilePicUrl: '',
  isGroup: false,
  disableBot: false,
  extraInfo: [],
} as unknown as TContact;

const render = async (profile: 'admin' | 'user') => {
  const { default: ContactsPage } = await import('./ContactsPage');
  const client = new QueryClient();
  client.setQueryData(['contacts', 'page', '', {}], {
    pages: [{ contacts: [contact], hasMore: false, count: 1 }],
    pageParams: [1],
  });

  return renderScreen(<ContactsPage />, { path: '/contacts', user: sessionUser({ profile }), client });
};

describe('ContactsPage', { timeout: 90_000 }, () => {
  it('should list the contacts with the count, open-ticket, edit and delete, import, export and add', async () => {
    const html = await render('admin');
    for (const testId of [
      'contacts-search',
      'contacts-add',
      'contacts-import',
      'contacts-export',
      'contact-row-5521988887777',
      'contact-ticket-5521988887777',
      'contact-edit-5521988887777',
      'contact-delete-5521988887777',
    ]) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html).toMatch(/data-testid="contacts-count"[^>]*>\(<!-- -->1<!-- -->\)/);
    expect(html).toContain('renata@x.com');
  });

  it('should not offer delete to an agent', async () => {
    const html = await render('user');
    expect(html).toContain('data-testid="contact-edit-5521988887777"');
    expect(html).not.toContain('data-testid="contact-delete-5521988887777"');
  });
});
