import type { TContact } from '@zelo/shared';

export const CONTACTS_QUERY_KEY = ['contacts', 'page'] as const;

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
