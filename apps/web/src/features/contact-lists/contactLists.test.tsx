import { QueryClient } from '@tanstack/react-query';
import type { TContactList, TContactListItem } from '@zelo/shared';
import { Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';

/** Server-side renders (no DOM) of the contact-list screens from a filled query cache. */
beforeAll(() => stubLocalStorage());

const list: TContactList = {
  id: 4,
  name: 'Clientes VIP',
  companyId: 1,
  contactsCount: 3,
  validCount: 1,
  createdAt: '',
  updatedAt: '',
};

const item = (id: number, number: string, isWhatsappValid: boolean | null): TContactListItem => ({
  id,
  name: `Cliente ${id}`,
  number,
  email: `c${id}@example.com`,
  isWhatsappValid,
  companyId: 1,
  contactListId: 4,
  createdAt: '',
  updatedAt: '',
});

const itemsPage = async (path: string) => {
  const { default: ContactListItemsPage } = await import('./ContactListItemsPage');
  const client = new QueryClient();
  client.setQueryData(['contact-lists', 'one', 4], list);
  client.setQueryData(['contact-list-items', 4, '', { contactListId: 4 }], {
    pages: [
      {
        contacts: [item(1, '5511900000001', true), item(2, '5511900000002', false), item(3, '5511900000003', null)],
        hasMore: false,
        count: 3,
      },
    ],
    pageParams: [1],
  });

  return renderScreen(
    <Routes>
      <Route path="/contact-lists/:contactListId/contacts" element={<ContactListItemsPage />} />
    </Routes>,
    { path, client },
  );
};

describe('contact list screens', { timeout: 90_000 }, () => {
  it('lists the contact lists with their counts and actions (items, import, edit, delete)', async () => {
    const { default: ContactListsPage } = await import('./ContactListsPage');
    const client = new QueryClient();
    client.setQueryData(['contact-lists', 'page', '', {}], {
      pages: [{ records: [list], hasMore: false, count: 1 }],
      pageParams: [1],
    });
    const html = await renderScreen(<ContactListsPage />, { path: '/contact-lists', client });
    for (const testId of [
      'contact-lists-add',
      'contact-lists-search',
      'contact-list-row-Clientes VIP',
      'contact-list-items-Clientes VIP',
      'contact-list-import-Clientes VIP',
      'contact-list-edit-Clientes VIP',
      'contact-list-delete-Clientes VIP',
    ]) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html).toMatch(/data-testid="contact-list-count-Clientes VIP"[^>]*>3</);
  });

  it("shows one list's contacts with their WhatsApp validity (valid, invalid, not checked) and the actions", async () => {
    const html = await itemsPage('/contact-lists/4/contacts');
    expect(html).toContain('Clientes VIP');
    for (const testId of [
      'contact-list-items-add',
      'contact-list-items-search',
      'contact-list-items-import',
      'contact-list-items-check',
      'contact-list-item-row-5511900000001',
      'contact-list-item-check-5511900000001',
      'contact-list-item-edit-5511900000002',
      'contact-list-item-delete-5511900000003',
    ]) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    const chip = (number: string) =>
      html.match(new RegExp(`data-testid="validity-${number}"[^>]*data-state="(\\w+)"`))?.[1];
    expect([chip('5511900000001'), chip('5511900000002'), chip('5511900000003')]).toEqual(['true', 'false', 'null']);
    const { i18n } = await import('../../i18n');
    const texts = i18n.getFixedT(i18n.language);
    for (const key of ['valid', 'invalid', 'unchecked']) {
      expect(html).toContain(texts(`contactLists.items.${key}`));
    }
  });

  it('the import (the kit ImportDialog) turns away a legacy .xls and anything not a sheet before sending', async () => {
    const { sheetRefusal } = await import('./ContactListImportDialog');
    expect(sheetRefusal('Clientes.XLS')).toBe('legacyXls');
    expect(sheetRefusal('clientes.pdf')).toBe('onlySheets');
    expect(sheetRefusal('clientes.xlsx')).toBeNull();
    expect(sheetRefusal('Clientes.CSV')).toBeNull();
  });

  it('every text exists in pt, en and es', async () => {
    const { i18n } = await import('../../i18n');
    await import('./i18n');
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
    const pt = keys(i18n.getResourceBundle('pt', 'translation').contactLists as object);
    expect(pt.length).toBeGreaterThan(40);
    for (const lang of ['en', 'es']) {
      expect(keys(i18n.getResourceBundle(lang, 'translation').contactLists as object)).toEqual(pt);
    }
    for (const code of ['ERR_LEGACY_XLS', 'ERR_DUPLICATED_CONTACT_LIST', 'ERR_NO_CONTACT_LIST_FOUND']) {
      for (const lang of ['pt', 'en', 'es']) expect(i18n.exists(`errors.${code}`, { lng: lang })).toBe(true);
    }
  });
});
