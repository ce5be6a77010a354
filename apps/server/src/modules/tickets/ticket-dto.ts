import type { TTicket } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import { findTicketRow, type TTicketJoinedRow } from './tickets.repo';

/** the API's ticket (spec 1 §3) from a joined row and its tags */
export const toTicket = (row: TTicketJoinedRow, tagList: { id: number; name: string; color: string }[]) => {
  const t = row.ticket;
  const ticket: TTicket & { companyId: number; lastMessageAt: string | null; isTest?: true } = {
    id: t.id,
    uuid: t.uuid,
    companyId: t.companyId,
    status: t.status as TTicket['status'],
    userId: t.userId,
    user: t.userId && row.userName ? { id: t.userId, name: row.userName } : null,
    queueId: t.queueId,
    queue: t.queueId && row.queueName ? { id: t.queueId, name: row.queueName, color: row.queueColor ?? '' } : null,
    whatsappId: t.whatsappId,
    whatsapp:
      t.whatsappId && row.whatsappName
        ? { id: t.whatsappId, name: row.whatsappName, status: row.whatsappStatus ?? '' }
        : null,
    contactId: t.contactId,
    contact: row.contact,
    tags: tagList,
    isGroup: t.isGroup,
    ...(t.isTest ? { isTest: true } : {}),
    chatbot: t.chatbot,
    lastMessage: t.lastMessage ?? '',
    lastMessageAt: t.lastMessageAt ? t.lastMessageAt.toISOString() : null,
    unreadMessages: t.unreadMessages,
    useIntegration: t.useIntegration,
    promptId: t.promptId,
    integrationId: t.integrationId,
    code: t.code ?? '',
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    sla: {
      startedAt: t.slaStartedAt?.toISOString() ?? null,
      firstResponseDueAt: t.slaFirstResponseDueAt?.toISOString() ?? null,
      firstResponseAt: t.slaFirstResponseAt?.toISOString() ?? null,
      resolutionDueAt: t.slaResolutionDueAt?.toISOString() ?? null,
    },
  };

  return ticket;
};

export type TTicketDto = ReturnType<typeof toTicket>;

/** the API's tickets from joined rows (which carry their tags) */
export const toTickets = (rows: TTicketJoinedRow[]) =>
  rows.map((r) => toTicket(r, typeof r.tags === 'string' ? JSON.parse(r.tags) : (r.tags ?? [])));

export const loadTicketDto = async (db: TDbOrTx, companyId: number, id: number) => {
  const row = await findTicketRow(db, companyId, id);

  return row ? toTickets([row])[0] : null;
};
