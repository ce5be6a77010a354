import type { TTestServer } from '../../../test/harness';

/**
 * Attendance cycles, their messages and ratings written straight into a company's tables, at São Paulo wall-clock
 * times (`'2025-03-03T10:00'`, UTC−3): the known weeks the reports' and the exports' tests read (test-only).
 */

/** a São Paulo wall-clock minute as an instant */
export const sp = (local: string) => `${local}:00-03:00`;

export type TCycleSeed = {
  ticketId: number;
  created: string;
  /** the first agent reply: when, and by whom */
  firstReply?: [string, number];
  resolved?: string;
  userId?: number | null;
  queueId?: number | null;
  /** the company's default connection when left out */
  whatsappId?: number;
  reopened?: string;
  /** messages sent in the cycle: when, by an agent or a bot, and which user */
  messages?: [string, 'agent' | 'bot', number | null][];
};

export const reportSeeds = (server: () => TTestServer, companyId: () => number, connectionId: () => number) => {
  const q = (text: string, values: unknown[] = []) => server().database.executeSql(text, values);

  /** one cycle and its messages; answers the cycle's id */
  const addCycle = async (c: TCycleSeed) => {
    const { rows } = await q(
      `insert into ticket_trackings (company_id, ticket_id, whatsapp_id, user_id, queue_id, created_at, queued_at,
                                     first_reply_at, first_reply_user_id, human_at, finished_at, reopened_at)
       values ($1, $2, $3, $4, $5, $6, $6, $7, $8, $7, $9, $10) returning id`,
      [
        companyId(),
        c.ticketId,
        c.whatsappId ?? connectionId(),
        c.userId ?? null,
        c.queueId ?? null,
        sp(c.created),
        c.firstReply ? sp(c.firstReply[0]) : null,
        c.firstReply?.[1] ?? null,
        c.resolved ? sp(c.resolved) : null,
        c.reopened ? sp(c.reopened) : null,
      ],
    );
    for (const [at, source, userId] of c.messages ?? []) {
      await q(
        `insert into messages (company_id, ticket_id, from_me, source, body, user_id, created_at)
         values ($1, $2, true, $3, 'x', $4, $5)`,
        [companyId(), c.ticketId, source, userId, sp(at)],
      );
    }

    return (rows[0] as { id: number }).id;
  };

  /** a rating of the cycle, with the customer's comment when given */
  const rate = (
    trackingId: number,
    ticketId: number,
    userId: number | null,
    value: number,
    at: string,
    comment?: string,
  ) =>
    q(
      `insert into user_ratings (company_id, ticket_id, ticket_tracking_id, user_id, rate, created_at, comment)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [companyId(), ticketId, trackingId, userId, value, sp(at), comment ?? null],
    );

  return { q, addCycle, rate };
};
