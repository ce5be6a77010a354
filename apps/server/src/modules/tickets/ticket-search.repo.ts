import { type SQL, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { contacts } from '../../db/schema/contacts';
import { messages } from '../../db/schema/messages';
import { ticketSearch, tickets } from '../../db/schema/tickets';

/**
 * The list search (`searchParam`) reads one row per ticket, `ticket_search.words`: the lexemes (no
 * positions) of its contact's name and number and of its messages' text.
 *
 * - A message adds its words when it is stored; an edit or a delete rebuilds the ticket's row; a contact
 *   renamed or renumbered rebuilds the rows of all its tickets.
 * - Numbers are indexed whole and by their last 8–11 digits, so `99999`, `11999998888` and the full
 *   international number all find the contact by prefix.
 * - A search is a prefix query on words (`ana silv` → `ana:* & silv:*`), plus the digits of the term as
 *   one number prefix. The GIN index answers a rare word at once; a common word is checked ticket by
 *   ticket while the list index is walked, which stops at the page.
 */

const CONFIG = sql.raw(`'simple'::regconfig`);
/** longest text of one message that is indexed, and the most lexemes a ticket keeps */
const TEXT_MAX = 20_000;
const WORDS_MAX = 20_000;

const contactWords = (name: SQL, number: SQL) =>
  sql`to_tsvector(${CONFIG}, coalesce(${name}, '') || ' ' || ${number} || ' ' || right(${number}, 8) || ' ' || right(${number}, 9) || ' ' || right(${number}, 10) || ' ' || right(${number}, 11))`;

/** a new ticket's row: its contact's words */
export const insertTicketWords = async (db: TDbOrTx, companyId: number, ticketId: number) => {
  await db.execute(sql`
    insert into ${ticketSearch} (ticket_id, company_id, words)
    select t.id, t.company_id, strip(${contactWords(sql`c.name`, sql`c.number`)})
    from ${tickets} t join ${contacts} c on c.id = t.contact_id
    where t.id = ${ticketId} and t.company_id = ${companyId}
    on conflict (ticket_id) do nothing`);
};

/** adds a stored message's text to its ticket's words; the first message also brings the contact's */
export const appendTicketWords = async (db: TDbOrTx, companyId: number, ticketId: number, text: string) => {
  const body = text.slice(0, TEXT_MAX);
  if (!body.trim()) return;
  const updated = await db
    .update(ticketSearch)
    .set({
      words: sql`case when length(${ticketSearch.words}) < ${WORDS_MAX}
        then strip(${ticketSearch.words} || to_tsvector(${CONFIG}, ${body})) else ${ticketSearch.words} end`,
    })
    .where(sql`${ticketSearch.ticketId} = ${ticketId} and ${ticketSearch.companyId} = ${companyId}`)
    .returning({ ticketId: ticketSearch.ticketId });
  if (updated.length > 0) return;
  await db.execute(sql`
    insert into ${ticketSearch} (ticket_id, company_id, words)
    select t.id, t.company_id, strip(${contactWords(sql`c.name`, sql`c.number`)} || to_tsvector(${CONFIG}, ${body}))
    from ${tickets} t join ${contacts} c on c.id = t.contact_id
    where t.id = ${ticketId} and t.company_id = ${companyId}
    on conflict (ticket_id) do update set words = strip(${ticketSearch.words} || excluded.words)`);
};

/** the words of these tickets recomputed from their contact and messages (edits, deletes, renames) */
const rebuildWhere = async (db: TDbOrTx, companyId: number, which: SQL) => {
  await db.execute(sql`
    insert into ${ticketSearch} (ticket_id, company_id, words)
    select t.id, t.company_id, strip(${contactWords(sql`c.name`, sql`c.number`)} || to_tsvector(${CONFIG},
      coalesce((select left(string_agg(coalesce(m.body, ''), ' '), 1000000) from ${messages} m
                where m.company_id = t.company_id and m.ticket_id = t.id and not m.is_deleted), '')))
    from ${tickets} t join ${contacts} c on c.id = t.contact_id
    where t.company_id = ${companyId} and ${which}
    on conflict (ticket_id) do update set words = excluded.words`);
};

export const rebuildTicketWords = (db: TDbOrTx, companyId: number, ticketId: number) =>
  rebuildWhere(db, companyId, sql`t.id = ${ticketId}`);

export const rebuildContactTicketsWords = (db: TDbOrTx, companyId: number, contactId: number) =>
  rebuildWhere(db, companyId, sql`t.contact_id = ${contactId}`);

/** `ana silv` → `ana:* & silv:*`; null when the term has no word */
export const prefixQuery = (term: string) => {
  const words = (term.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);

  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
};

/** the tickets whose contact or messages match the search term */
export const ticketMatchesSearch = (companyId: number, term: string): SQL => {
  const words = prefixQuery(term);
  const digits = term.replace(/\D/g, '');
  const parts = [words, digits.length >= 5 && digits !== term.trim() ? `${digits}:*` : null].filter(Boolean);
  if (parts.length === 0) return sql`false`;
  const query = sql`to_tsquery(${CONFIG}, ${parts.map((p) => `(${p})`).join(' | ')})`;

  return sql`exists (select 1 from ${ticketSearch} s where s.ticket_id = ${tickets.id} and s.company_id = ${companyId} and s.words @@ ${query})`;
};
