import {
  CONTACT_LIST_RELOAD_RECORDS,
  events,
  rooms,
  type TContactListItem,
  type TContactListItemEvent,
} from '@zelo/shared';
import type { TAppContext } from '../../lib/context';
import { pageItems, type TContactListItemRow } from './contact-lists.repo';

/**
 * Realtime for list items, to the company's admins (only they manage lists, and items carry customers'
 * numbers). A bulk change (an import, a validity batch, "check again") is a `reload` that carries the list's
 * first items as `records`, on the company's item event and on the list's own one, as the ancestor's
 * ContactListItems page reads them (`LOAD_CONTACTS` merges `records` by id; a reload without them blanked
 * the page).
 */

export const toItem = (row: TContactListItemRow): TContactListItem => ({
  id: row.id,
  name: row.name,
  number: row.number,
  email: row.email,
  isWhatsappValid: row.isWhatsappValid,
  companyId: row.companyId,
  contactListId: row.contactListId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const announceItem = (ctx: TAppContext, companyId: number, payload: TContactListItemEvent) =>
  ctx.realtime.to(rooms.admins(companyId), events.contactListItem(companyId), payload);

export const announceItemsReload = async (ctx: TAppContext, companyId: number, contactListId: number) => {
  const { rows } = await pageItems(ctx.db, companyId, contactListId, '', CONTACT_LIST_RELOAD_RECORDS, 0);
  const payload: TContactListItemEvent = { action: 'reload', contactListId, records: rows.map(toItem) };
  announceItem(ctx, companyId, payload);
  ctx.realtime.to(rooms.admins(companyId), events.contactListItemsOf(companyId, contactListId), payload);
};
