/**
 * Contacts as the Cloud API carries them (`contacts[]` of a message: name, phones with wa_id, emails,
 * org, urls) and as the inbox stores them (vCard 3.0, with `waid=` on WhatsApp numbers like WhatsApp's own).
 */

export type TCloudContact = {
  name?: { formatted_name?: string; first_name?: string; last_name?: string };
  phones?: { phone?: string; wa_id?: string; type?: string }[];
  emails?: { email?: string; type?: string }[];
  org?: { company?: string; department?: string; title?: string };
  urls?: { url?: string; type?: string }[];
};

const esc = (value: string) =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/[,;]/g, (c) => `\\${c}`);
const unesc = (value: string) => value.replace(/\\n/gi, '\n').replace(/\\([\\,;])/g, '$1');

const str = (value: unknown) => (typeof value === 'string' ? value : '');

export const contactToVcard = (contact: TCloudContact): string => {
  const name =
    str(contact.name?.formatted_name) ||
    [str(contact.name?.first_name), str(contact.name?.last_name)].filter(Boolean).join(' ') ||
    str(contact.phones?.[0]?.phone) ||
    '?';
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `FN:${esc(name)}`];
  if (contact.name?.first_name || contact.name?.last_name) {
    lines.push(`N:${esc(str(contact.name?.last_name))};${esc(str(contact.name?.first_name))};;;`);
  }
  if (contact.org?.company) lines.push(`ORG:${esc(str(contact.org.company))}`);
  if (contact.org?.title) lines.push(`TITLE:${esc(str(contact.org.title))}`);
  for (const phone of contact.phones ?? []) {
    const type =
      str(phone.type)
        .toUpperCase()
        .replace(/[^A-Z]/g, '') || 'CELL';
    const waid = str(phone.wa_id).replace(/\D/g, '');
    const number = str(phone.phone) || (waid ? `+${waid}` : '');
    if (number) lines.push(`TEL;type=${type}${waid ? `;waid=${waid}` : ''}:${esc(number)}`);
  }
  for (const email of contact.emails ?? []) if (email.email) lines.push(`EMAIL:${esc(str(email.email))}`);
  for (const url of contact.urls ?? []) if (url.url) lines.push(`URL:${esc(str(url.url))}`);
  lines.push('END:VCARD');

  return lines.join('\n');
};

/** reads the fields the Cloud API's `contacts` message needs from a vCard (2.1 to 4.0, folded lines) */
export const vcardToContact = (vcard: string): TCloudContact => {
  const lines = vcard
    .replace(/\r\n/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n');
  const contact: TCloudContact = { phones: [], emails: [], urls: [] };
  let fn = '';
  let first = '';
  let last = '';
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const [key, ...params] = line.slice(0, colon).split(';');
    const value = unesc(line.slice(colon + 1).trim());
    const name = key.toUpperCase().replace(/^ITEM\d+\./, '');
    if (name === 'FN') fn = value;
    else if (name === 'N') [last = '', first = ''] = value.split(';');
    else if (name === 'ORG') contact.org = { company: value.split(';')[0] };
    else if (name === 'TEL') {
      const waid = params.find((p) => /^waid=/i.test(p))?.slice(5);
      const type = params
        .find((p) => /^type=/i.test(p))
        ?.slice(5)
        .toUpperCase();
      contact.phones!.push({ phone: value, ...(waid ? { wa_id: waid } : {}), ...(type ? { type } : {}) });
    } else if (name === 'EMAIL') contact.emails!.push({ email: value });
    else if (name === 'URL') contact.urls!.push({ url: value });
  }
  const formatted = fn || [first, last].filter(Boolean).join(' ') || contact.phones?.[0]?.phone || 'Contact';
  contact.name = {
    formatted_name: formatted,
    ...(first ? { first_name: first } : { first_name: formatted }),
    ...(last ? { last_name: last } : {}),
  };
  if (!contact.emails?.length) delete contact.emails;
  if (!contact.urls?.length) delete contact.urls;

  return contact;
};
