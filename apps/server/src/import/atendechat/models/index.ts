/** The models in import order: each reads only what the ones before it imported. */
import type { TModel } from '../model';
import {
  flowDefaultsModel,
  flowsModel,
  integrationsModel,
  phrasesModel,
  promptQueuesModel,
  promptsModel,
} from './automation';
import {
  campaignSettingsModel,
  campaignsModel,
  contactListItemsModel,
  contactListsModel,
  shippingsModel,
} from './campaigns';
import { chatMessagesModel, chatsModel, chatUsersModel } from './chats';
import { contactsModel, customFieldsModel, tagsModel } from './contacts';
import { companiesModel, plansModel, settingsModel } from './core';
import {
  announcementsModel,
  fileListsModel,
  fileOptionsModel,
  helpsModel,
  invoicesModel,
  quickMessagesModel,
  schedulesModel,
} from './extras';
import { messagesModel, quotesModel, ticketWordsModel } from './messages';
import {
  connectionQueuesModel,
  connectionsModel,
  queueOptionsModel,
  queuesModel,
  userConnectionsModel,
  userQueuesModel,
  usersModel,
} from './people';
import { ratingsModel, ticketNotesModel, ticketsModel, ticketTagsModel, trackingsModel } from './tickets';

// biome-ignore lint/suspicious/noExplicitAny: each model has its own row type; the run treats them alike
export const MODELS: TModel<any>[] = [
  plansModel,
  companiesModel,
  settingsModel,
  helpsModel,
  invoicesModel,
  usersModel,
  flowsModel,
  integrationsModel,
  promptsModel,
  queuesModel,
  queueOptionsModel,
  userQueuesModel,
  promptQueuesModel,
  connectionsModel,
  connectionQueuesModel,
  userConnectionsModel,
  phrasesModel,
  flowDefaultsModel,
  contactsModel,
  customFieldsModel,
  tagsModel,
  ticketsModel,
  ticketTagsModel,
  ticketNotesModel,
  trackingsModel,
  ratingsModel,
  messagesModel,
  quotesModel,
  ticketWordsModel,
  quickMessagesModel,
  schedulesModel,
  announcementsModel,
  fileListsModel,
  fileOptionsModel,
  contactListsModel,
  contactListItemsModel,
  campaignSettingsModel,
  campaignsModel,
  shippingsModel,
  chatsModel,
  chatUsersModel,
  chatMessagesModel,
];
