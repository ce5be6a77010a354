import type { TTicketNote, TTicketNoteBody } from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { assertCanSee, loadViewer } from '../tickets/ticket-access';
import { findTicketPlain } from '../tickets/tickets.repo';
import { deleteNoteRow, findNote, insertNote, listNotes, type TNoteRow } from './ticket-notes.repo';

const toNote = (row: TNoteRow): TTicketNote => ({
  id: row.id,
  note: row.note,
  ticketId: row.ticketId,
  contactId: row.contactId,
  // the author may have been deleted since
  user: { id: row.userId ?? 0, name: row.userName ?? '' },
  createdAt: row.createdAt.toISOString(),
});

/** a ticket of the caller's company that the caller may see, and its contact must be the one given */
const assertTicketAndContact = async (ctx: TAppContext, auth: TAuth, ticketId: number, contactId: number) => {
  const ticket = await findTicketPlain(ctx.db, auth.companyId, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  assertCanSee(await loadViewer(ctx.db, auth), ticket);
  if (ticket.contactId !== contactId) {
    throw new AppError('ERR_VALIDATION', 'The contact is not the ticket contact', [
      { path: 'contactId', message: 'invalid' },
    ]);
  }
};

export const listTicketNotes = async (ctx: TAppContext, auth: TAuth, ticketId: number, contactId: number) => {
  await assertTicketAndContact(ctx, auth, ticketId, contactId);

  return (await listNotes(ctx.db, auth.companyId, ticketId, contactId)).map(toNote);
};

export const createTicketNote = async (ctx: TAppContext, auth: TAuth, body: TTicketNoteBody) => {
  await assertTicketAndContact(ctx, auth, body.ticketId, body.contactId);
  const { id } = await insertNote(ctx.db, {
    companyId: auth.companyId,
    ticketId: body.ticketId,
    contactId: body.contactId,
    userId: auth.userId,
    note: body.note,
  });
  const row = await findNote(ctx.db, auth.companyId, id);
  if (!row) throw new AppError('ERR_NO_TICKET_NOTE_FOUND');

  return toNote(row);
};

/** the author or an admin deletes a note */
export const deleteTicketNote = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const row = await findNote(ctx.db, auth.companyId, id);
  if (!row) throw new AppError('ERR_NO_TICKET_NOTE_FOUND');
  if (!auth.isAdmin && row.userId !== auth.userId) throw new AppError('ERR_NO_PERMISSION');
  await deleteNoteRow(ctx.db, auth.companyId, id);
};
