import type { InfiniteData } from '@tanstack/react-query';
import type { TContact } from '@zelo/shared';

export type TContactsPage = { contacts: TContact[]; hasMore: boolean; count: number };
export type TContactsData = InfiniteData<TContactsPage>;

export const CONTACTS_QUERY_KEY = ['contacts', 'page'] as const;

/** The search text of a contacts-list query key (`[...CONTACTS_QUERY_KEY, searchParam]`). */
export const searchOfContactsKey = (queryKey: readonly unknown[]) =>
  typeof queryKey[CONTACTS_QUERY_KEY.length] === 'string' ? (queryKey[CONTACTS_QUERY_KEY.length] as string) : '';

/** Whether a contact belongs in a list searched with this text (name, number or e-mail). */
export const matchesContactSearch = (contact: TContact, searchParam: string) => {
  const search = searchParam.trim().toLowerCase();
  if (!search) {
    return true;
  }
  const digits = search.replace(/\D/g, '');

  return (
    contact.name.toLowerCase().includes(search) ||
    (contact.email ?? '').toLowerCase().includes(search) ||
    (digits.length > 0 && contact.number.includes(digits))
  );
};

/** Replaces the contact where listed; a new one matching the search goes to the top of the first page. */
export const upsertContact = (
  data: TContactsData | undefined,
  contact: TContact,
  searchParam = '',
): TContactsData | undefined => {
  if (!data) {
    return data;
  }
  const isListed = data.pages.some((page) => page.contacts.some((c) => c.id === contact.id));
  if (isListed) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        contacts: page.contacts.map((c) => (c.id === contact.id ? { ...c, ...contact } : c)),
      })),
    };
  }
  if (!matchesContactSearch(contact, searchParam)) {
    return data;
  }

  return {
    ...data,
    pages: data.pages.map((page, index) =>
      index === 0 ? { ...page, contacts: [contact, ...page.contacts], count: page.count + 1 } : page,
    ),
  };
};

export const removeContact = (data: TContactsData | undefined, contactId: number): TContactsData | undefined => {
  if (!data) {
    return data;
  }

  return {
    ...data,
    pages: data.pages.map((page) => {
      const contacts = page.contacts.filter((c) => c.id !== contactId);

      return contacts.length === page.contacts.length
        ? page
        : { ...page, contacts, count: Math.max(0, page.count - 1) };
    }),
  };
};

export const flattenContacts = (data: TContactsData | undefined): TContact[] =>
  data?.pages.flatMap((page) => page.contacts) ?? [];

/** A CSV cell: quoted when needed; a leading formula character is neutralised for spreadsheets. */
const csvCell = (value: string | null | undefined) => {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) {
    text = `'${text}`;
  }

  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** spec 2 §7: semicolon separated, columns name;number;email, with a BOM so Excel reads UTF-8. */
export const contactsCsv = (contacts: Pick<TContact, 'name' | 'number' | 'email'>[]) =>
  `\uFEFF${['name;number;email', ...contacts.map((c) => [c.name, c.number, c.email].map(csvCell).join(';'))].join('\r\n')}\r\n`;
