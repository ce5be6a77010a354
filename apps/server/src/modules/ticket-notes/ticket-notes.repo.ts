import { and, asc, eq } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { users } from '../../db/schema/core';
import { ticketNotes } from '../../db/schema/tickets';

const noteColumns = {
  id: ticketNotes.id,
  note: ticketNotes.note,
  ticketId: ticketNotes.ticketId,
  contactId: ticketNotes.contactId,
  userId: ticketNotes.userId,
  userName: users.name,
  createdAt: ticketNotes.createdAt,
};

const selectNotes = (db: TDbOrTx) =>
  db
    .select(noteColumns)
    .from(ticketNotes)
    .leftJoin(users, and(eq(users.id, ticketNotes.userId), eq(users.companyId, ticketNotes.companyId)));

export type TNoteRow = Awaited<ReturnType<ReturnType<typeof selectNotes>['execute']>>[number];

export const listNotes = (db: TDbOrTx, companyId: number, ticketId: number, contactId: number) =>
  selectNotes(db)
    .where(
      and(
        eq(ticketNotes.companyId, companyId),
        eq(ticketNotes.ticketId, ticketId),
        eq(ticketNotes.contactId, contactId),
      ),
    )
    .orderBy(asc(ticketNotes.createdAt), asc(ticketNotes.id));

export const findNote = async (db: TDbOrTx, companyId: number, id: number) =>
  (await selectNotes(db).where(and(eq(ticketNotes.companyId, companyId), eq(ticketNotes.id, id))))[0];

export const insertNote = async (db: TDbOrTx, values: typeof ticketNotes.$inferInsert) =>
  (await db.insert(ticketNotes).values(values).returning({ id: ticketNotes.id }))[0];

export const deleteNoteRow = (db: TDbOrTx, companyId: number, id: number) =>
  db.delete(ticketNotes).where(and(eq(ticketNotes.companyId, companyId), eq(ticketNotes.id, id)));
