import type { TTicket } from './tickets.js';

/** Realtime event and room names (spec 1 §7, ARCHITECTURE §5). Every room starts with the company. */
export const events = {
  auth: (companyId: number) => `company-${companyId}-auth`,
  user: (companyId: number) => `company-${companyId}-user`,
  settings: (companyId: number) => `company-${companyId}-settings`,
  company: (companyId: number) => `company-${companyId}-company`,
  whatsapp: (companyId: number) => `company-${companyId}-whatsapp`,
  whatsappSession: (companyId: number) => `company-${companyId}-whatsappSession`,
  ticket: (companyId: number) => `company-${companyId}-ticket`,
  appMessage: (companyId: number) => `company-${companyId}-appMessage`,
  contact: (companyId: number) => `company-${companyId}-contact`,
  /** contact lists and their items (the ancestor's names; sent to the company's admins, who alone manage them) */
  contactList: (companyId: number) => `company-${companyId}-ContactList`,
  contactListItem: (companyId: number) => `company-${companyId}-ContactListItem`,
  /** one list's own item event (the ancestor's upload answer: `reload` with the list's `records`) */
  contactListItemsOf: (companyId: number, contactListId: number) =>
    `company-${companyId}-ContactListItem-${contactListId}`,
  queue: (companyId: number) => `company-${companyId}-queue`,
  payment: (companyId: number) => `company-${companyId}-payment`,
  /**
   * the ancestor's name, without a company: announcements are written by the super user for every company, and
   * the event is sent to each company's main room (never broadcast to every socket)
   */
  announcement: () => 'company-announcement',
  help: (companyId: number) => `company-${companyId}-help`,
  plan: (companyId: number) => `company-${companyId}-plan`,
  tag: (companyId: number) => `company-${companyId}-tag`,
  quickMessage: (companyId: number) => `company-${companyId}-quickemessage`,
  schedule: (companyId: number) => `company-${companyId}-schedule`,
  /** file lists (the ancestor's `company-{id}-file`; admins) */
  file: (companyId: number) => `company-${companyId}-file`,
  /** internal chat (the ancestor's names): every one is sent to the chat's members' user rooms only */
  chat: (companyId: number) => `company-${companyId}-chat`,
  chatUser: (companyId: number, userId: number) => `company-${companyId}-chat-user-${userId}`,
  chatRoom: (companyId: number, chatId: number) => `company-${companyId}-chat-${chatId}`,
  /** the customer simulator's view of a sandbox connection (admins) */
  sandbox: (companyId: number) => `company-${companyId}-sandbox`,
  /** a delivery moved to (or left) the dead-letter list (admins) */
  failedDelivery: (companyId: number) => `company-${companyId}-failedDelivery`,
  /** campaigns: create/update `{record}`, delete `{id}`, progress `{campaignId, status, counts}` (admins) */
  campaign: (companyId: number) => `company-${companyId}-campaign`,
  /** queue integrations (the ancestor's): create/update `{action, queueIntegration}`, delete `{action, integrationId}` */
  queueIntegration: (companyId: number) => `company-${companyId}-queueIntegration`,
  /** the company's campaign settings were saved (admins) */
  campaignSettings: (companyId: number) => `company-${companyId}-campaignSettings`,
  /** flows: create/update `{action, flow}` (summary), delete `{action: 'delete', flowId}` (admins) */
  flowBuilder: (companyId: number) => `company-${companyId}-flowbuilder`,
  /** phrase campaigns: create/update `{action, record}`, delete `{action: 'delete', id}` (admins) */
  flowCampaign: (companyId: number) => `company-${companyId}-flowcampaign`,
  /** a flow run's executed node (TFlowRunStepEvent, admins): the editor's test run lights it up */
  flowRun: (companyId: number) => `company-${companyId}-flowrun`,
  /** AI prompts: `{action: 'create'|'update', prompt}` (keys masked), `{action: 'delete', promptId}` (admins) */
  prompt: (companyId: number) => `company-${companyId}-prompt`,
  /** a ticket missed a service-level target (TSlaBreachEvent): to its agent and the company's admins, once */
  sla: (companyId: number) => `company-${companyId}-sla`,
} as const;

/** `company-{id}-sla`: the target `kind` of ticket `ticketId` was missed at `dueAt` */
export type TSlaBreachEvent = {
  action: 'breach';
  kind: 'firstResponse' | 'resolution';
  ticketId: number;
  userId: number | null;
  queueId: number | null;
  contactName: string;
  dueAt: string;
};

export const rooms = {
  main: (companyId: number) => `company-${companyId}-mainchannel`,
  user: (companyId: number, userId: number) => `company-${companyId}-user-${userId}`,
  admins: (companyId: number) => `company-${companyId}-admins`,
  status: (companyId: number, status: string) => `company-${companyId}-${status}`,
  queueStatus: (companyId: number, queueId: number | null, status: string) =>
    `company-${companyId}-queue-${queueId ?? 'null'}-${status}`,
  notification: (companyId: number) => `company-${companyId}-notification`,
  queueNotification: (companyId: number, queueId: number | null) =>
    `company-${companyId}-queue-${queueId ?? 'null'}-notification`,
  ticket: (companyId: number, ticketId: number) => `company-${companyId}-ticket-${ticketId}`,
  /** super users, across companies */
  supers: () => 'super-users',
} as const;

/**
 * `company-{id}-ticket` payloads. A `delete` with `moved: true` is a ticket that left these rooms for others
 * (accepted, transferred, returned, reopened): the update to its new rooms follows, so a client drops it from
 * the list it was in without a "deleted" notice and keeps an open conversation on it.
 */
export type TTicketEvent<TTicketShape = TTicket> =
  | { action: 'update'; ticket: TTicketShape }
  | { action: 'delete'; ticketId: number; moved?: boolean }
  | { action: 'updateUnread'; ticketId: number };
