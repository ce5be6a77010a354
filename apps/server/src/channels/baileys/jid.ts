/**
 * WhatsApp ids (jids) and the digits-only numbers Zelo keeps: `5511999998888@s.whatsapp.net` (a person),
 * `120363…@g.us` (a group), `…@lid` (a person's privacy id, which newer servers send instead of the number),
 * `status@broadcast`. A device suffix (`:12`) is dropped.
 */

export const userPart = (jid: string | null | undefined) => (jid ?? '').split('@')[0].split(':')[0];
export const serverPart = (jid: string | null | undefined) => (jid ?? '').split('@')[1] ?? '';

export const isGroupJid = (jid: string | null | undefined) => serverPart(jid) === 'g.us';
export const isLidJid = (jid: string | null | undefined) => serverPart(jid) === 'lid';
export const isPersonJid = (jid: string | null | undefined) =>
  serverPart(jid) === 's.whatsapp.net' || serverPart(jid) === 'c.us';
export const isBroadcastJid = (jid: string | null | undefined) => serverPart(jid) === 'broadcast';

/** the jid a send goes to: a group id stays a group, anything else is a person's number */
export const toJid = (to: string, isGroup = false) => {
  if (to.includes('@')) return to;
  const digits = to.replace(/\D/g, '');

  return isGroup || /-/.test(to) ? `${to}@g.us` : `${digits}@s.whatsapp.net`;
};

export const numberOf = (jid: string | null | undefined) => userPart(jid).replace(/\D/g, '');
