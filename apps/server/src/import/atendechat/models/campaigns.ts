/**
 * Contact lists and their items, campaign settings, campaigns and their shipping log. A campaign that was
 * programmed or running is imported paused (CANCELADA, the ancestor's and Zelo's pause) so the import never
 * fires one; its unsent recipients stay queued for when it is restarted, the sent ones are history. Rules: a
 * row of no imported company or list is skipped; a number repeated in a list, or twice in one campaign's log,
 * keeps its first row.
 */
import {
  campaignSettings,
  campaignShippings,
  campaigns,
  contactListItems,
  contactLists,
} from '../../../db/schema/campaigns';
import { bool, cut, date, idOrNull, json, nameOr } from '../clean';
import { insertRows } from '../insert';
import { idsOf, ownersOf, type TImportState, type TModel, takenOf } from '../model';
import { restoreAll, restoreKeys, restoreOwned } from './_restore';
import { ownId } from './automation';
import { stamps } from './contacts';
import { uniqueName } from './core';

const companyIn = (state: TImportState, value: unknown) => {
  const id = idOrNull(value);

  return id !== null && idsOf(state, 'companies').has(id) ? id : null;
};

type TList = typeof contactLists.$inferInsert;
export const contactListsModel: TModel<TList> = {
  name: 'contact lists',
  table: 'ContactLists',
  key: ['id'],
  required: ['id', 'name', 'companyId'],
  optional: ['createdAt', 'updatedAt'],
  restore: restoreAll(
    restoreOwned('contact lists', 'contact_lists'),
    restoreKeys('contact lists', "select company_id || ':' || lower(name) as k from contact_lists"),
  ),
  map: (r, { state }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'list of no imported company' };
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(
      takenOf(state, 'contact lists'),
      r.name,
      id,
      100,
      `List ${id}`,
      `${companyId}:`,
    );
    idsOf(state, 'contact lists').add(id);
    ownersOf(state, 'contact lists').set(id, companyId);

    return { adjusted, row: { id, companyId, name, ...stamps(r) } };
  },
  write: async (tx, rows) => {
    await insertRows(tx, contactLists, rows);
    return undefined;
  },
};

type TItem = typeof contactListItems.$inferInsert;
export const contactListItemsModel: TModel<TItem> = {
  name: 'contact list items',
  table: 'ContactListItems',
  key: ['id'],
  required: ['id', 'name', 'number', 'contactListId'],
  optional: ['email', 'isWhatsappValid', 'companyId', 'createdAt', 'updatedAt'],
  batch: 2000,
  restore: restoreAll(
    restoreOwned('contact list items', 'contact_list_items'),
    restoreKeys('list number', "select contact_list_id || ':' || number as k from contact_list_items"),
  ),
  map: (r, { state }) => {
    const listId = idOrNull(r.contactListId);
    const companyId = listId === null ? undefined : ownersOf(state, 'contact lists').get(listId);
    if (companyId === undefined) return { skip: 'item of no imported list' };
    const number = cut(r.number, 64).trim();
    if (!number) return { skip: 'item without a number' };
    const taken = takenOf(state, 'list number');
    if (taken.has(`${listId}:${number}`)) return { skip: 'number twice in a list (first kept)' };
    taken.add(`${listId}:${number}`);
    const id = idOrNull(r.id)!;
    idsOf(state, 'contact list items').add(id);
    ownersOf(state, 'contact list items').set(id, companyId);

    return {
      row: {
        id,
        companyId,
        contactListId: listId!,
        name: nameOr(r.name, 100, number),
        number,
        email: cut(r.email, 254).trim(),
        isWhatsappValid: r.isWhatsappValid === null || r.isWhatsappValid === undefined ? null : bool(r.isWhatsappValid),
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, contactListItems, rows);
    return undefined;
  },
};

type TCampaignSetting = typeof campaignSettings.$inferInsert;
export const campaignSettingsModel: TModel<TCampaignSetting> = {
  name: 'campaign settings',
  table: 'CampaignSettings',
  key: ['id'],
  required: ['id', 'key', 'value', 'companyId'],
  optional: ['createdAt', 'updatedAt'],
  restore: restoreKeys('campaign setting', "select company_id || ':' || key as k from campaign_settings"),
  map: (r, { state }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'setting of no imported company' };
    const key = cut(r.key, 64).trim();
    const taken = takenOf(state, 'campaign setting');
    if (!key || taken.has(`${companyId}:${key}`))
      return { skip: 'campaign setting without a key or repeated (first kept)' };
    taken.add(`${companyId}:${key}`);
    // the ancestor keeps JSON text (`"20"`, `[{"key":…}]`)
    const parsed = json(r.value);

    return {
      row: {
        id: idOrNull(r.id)!,
        companyId,
        key,
        value: parsed === undefined ? cut(r.value, 100_000) : parsed,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, campaignSettings, rows);
    return undefined;
  },
};

const STATUSES = new Set(['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA']);

type TCampaign = typeof campaigns.$inferInsert;
export const campaignsModel: TModel<TCampaign> = {
  name: 'campaigns',
  table: 'Campaigns',
  key: ['id'],
  required: ['id', 'name', 'companyId', 'status'],
  optional: [
    'message1',
    'message2',
    'message3',
    'message4',
    'message5',
    'mediaPath',
    'mediaName',
    'contactListId',
    'whatsappId',
    'scheduledAt',
    'completedAt',
    'createdAt',
    'updatedAt',
    'fileListId',
    'tagId',
  ],
  batch: 100,
  restore: restoreAll(
    restoreOwned('campaigns', 'campaigns'),
    restoreKeys('campaigns', "select company_id || ':' || lower(name) as k from campaigns"),
  ),
  map: async (r, { state, media }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'campaign of no imported company' };
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(
      takenOf(state, 'campaigns'),
      r.name,
      id,
      50,
      `Campaign ${id}`,
      `${companyId}:`,
    );
    let status = String(r.status ?? '').toUpperCase();
    if (!STATUSES.has(status)) status = 'INATIVA';
    if (status === 'PROGRAMADA' || status === 'EM_ANDAMENTO') {
      status = 'CANCELADA';
      adjusted.push('campaign was programmed or running: imported paused (CANCELADA), restart it in Zelo');
    }
    let mediaPath: string | null = null;
    let mediaName: string | null = null;
    const copied = await media(r.mediaPath, ['campaign', 'campaigns']);
    if (copied && 'stored' in copied) {
      mediaPath = copied.stored;
      mediaName = cut(r.mediaName, 255) || copied.name;
    } else if (copied) adjusted.push(copied.problem);
    idsOf(state, 'campaigns').add(id);
    ownersOf(state, 'campaigns').set(id, companyId);

    return {
      adjusted,
      row: {
        id,
        companyId,
        name,
        message1: cut(r.message1, 100_000),
        message2: cut(r.message2, 100_000),
        message3: cut(r.message3, 100_000),
        message4: cut(r.message4, 100_000),
        message5: cut(r.message5, 100_000),
        status,
        scheduledAt: date(r.scheduledAt, null),
        completedAt: date(r.completedAt, null),
        tagId: ownId(state, 'tags', r.tagId, companyId),
        contactListId: ownId(state, 'contact lists', r.contactListId, companyId),
        whatsappId: ownId(state, 'connections', r.whatsappId, companyId),
        fileListId: ownId(state, 'file lists', r.fileListId, companyId),
        mediaPath,
        mediaName,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, campaigns, rows);
    return undefined;
  },
};

type TShipping = typeof campaignShippings.$inferInsert;
export const shippingsModel: TModel<TShipping> = {
  name: 'campaign shipping log',
  table: 'CampaignShipping',
  key: ['id'],
  required: ['id', 'number', 'message', 'campaignId'],
  optional: ['jobId', 'contactId', 'deliveredAt', 'createdAt', 'updatedAt'],
  batch: 2000,
  restore: restoreAll(
    restoreKeys('shipping', "select campaign_id || ':n:' || number as k from campaign_shippings"),
    restoreKeys(
      'shipping',
      "select campaign_id || ':i:' || contact_list_item_id as k from campaign_shippings where contact_list_item_id is not null",
    ),
  ),
  map: (r, { state }) => {
    const campaignId = idOrNull(r.campaignId);
    const companyId = campaignId === null ? undefined : ownersOf(state, 'campaigns').get(campaignId);
    if (companyId === undefined) return { skip: 'shipping of no imported campaign' };
    const number = cut(r.number, 64).trim();
    // the ancestor's contactId here is the contact-list item
    const itemId = ownId(state, 'contact list items', r.contactId, companyId);
    const taken = takenOf(state, 'shipping');
    if (
      !number ||
      taken.has(`${campaignId}:n:${number}`) ||
      (itemId !== null && taken.has(`${campaignId}:i:${itemId}`))
    ) {
      return { skip: 'recipient twice in a campaign (first kept)' };
    }
    taken.add(`${campaignId}:n:${number}`);
    if (itemId !== null) taken.add(`${campaignId}:i:${itemId}`);
    const deliveredAt = date(r.deliveredAt, null);

    return {
      row: {
        id: idOrNull(r.id)!,
        companyId,
        campaignId: campaignId!,
        contactListItemId: itemId,
        number,
        // the final text the ancestor sent, less its ZWNJ marker
        message: cut(r.message, 100_000).replace(/^\u200c/, ''),
        state: deliveredAt ? 'sent' : 'queued',
        deliveredAt,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, campaignShippings, rows);
    return undefined;
  },
};
