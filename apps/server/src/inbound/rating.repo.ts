import type { TDbOrTx } from '../db/client';
import { queryRows } from '../db/statements';

/**
 * The rating's optional comment step (setting `userRatingComment`, rating-comment.ts): a `user_ratings` row
 * whose `comment_due_at` is set waits for the customer's next message. Every change is a conditional update,
 * so a wait is ended once, by the comment, by a later message or by the expiry scan, whichever comes first.
 */

export type TCommentWait = { id: number; ticketId: number; contactId: number; dueAt: Date };

/** the comment wait of the contact with this number on the connection (its ticket still closed), if any */
export const commentWaitOf = async (
  db: TDbOrTx,
  input: { companyId: number; connectionId: number; number: string },
): Promise<TCommentWait | null> =>
  (
    await queryRows<TCommentWait>(
      db,
      `select r.id, r.ticket_id as "ticketId", t.contact_id as "contactId", r.comment_due_at as "dueAt"
       from user_ratings r
       join tickets t on t.id = r.ticket_id and t.company_id = r.company_id
       join contacts c on c.id = t.contact_id and c.company_id = r.company_id
       where r.company_id = $1 and r.comment_due_at is not null and t.whatsapp_id = $2 and c.number = $3
         and t.status = 'closed'
       order by r.id desc
       limit 1`,
      [input.companyId, input.connectionId, input.number],
    )
  )[0] ?? null;

/** stores the comment and ends the wait; false when the wait ended meanwhile */
export const takeComment = async (db: TDbOrTx, companyId: number, ratingId: number, comment: string, at: Date) =>
  (
    await queryRows<{ id: number }>(
      db,
      `update user_ratings set comment = $3, comment_due_at = null, updated_at = $4
       where company_id = $1 and id = $2 and comment_due_at is not null and comment_due_at > $4
       returning id`,
      [companyId, ratingId, comment, at],
    )
  ).length > 0;

/** ends a wait without a comment; false when it ended meanwhile */
export const endCommentWait = async (db: TDbOrTx, companyId: number, ratingId: number, at: Date) =>
  (
    await queryRows<{ id: number }>(
      db,
      `update user_ratings set comment_due_at = null, updated_at = $3
       where company_id = $1 and id = $2 and comment_due_at is not null
       returning id`,
      [companyId, ratingId, at],
    )
  ).length > 0;

/** ends the waits that are due (a batch, across companies; each company's rows are acted on per company) */
export const endDueCommentWaits = (db: TDbOrTx, now: Date, limit = 200) =>
  queryRows<{ id: number; companyId: number; ticketId: number }>(
    db,
    `update user_ratings set comment_due_at = null, updated_at = $1
     where id in (select id from user_ratings where comment_due_at <= $1 order by comment_due_at limit $2
                  for update skip locked)
       and comment_due_at is not null
     returning id, company_id as "companyId", ticket_id as "ticketId"`,
    [now, limit],
  );
