import { type SQL, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { intArray, textArray } from '../../db/pg-arrays';
import { queryRows } from '../../db/statements';
import { contacts } from '../../db/schema/contacts';
import { messages } from '../../db/schema/messages';
import { ticketSearch, tickets } from '../../db/schema/tickets';
import { foldRaw, foldSql, foldText } from './search-fold';

/**
 * The list search (`searchParam`) reads `ticket_search`: per ticket, stripped tsvectors of its contact's
 * name and number and of its messages' text, in chunks (see the table).
 *
 * - A new ticket gets its contact's words; a stored message adds its words to the last chunk; an edit or
 *   a delete rebuilds the ticket's words; a contact renamed or renumbered rebuilds all its tickets'.
 * - Numbers are indexed whole and by their last 8–11 digits, so `98765`, `(11) 98765-1234` and the full
 *   international number all find the contact.
 * - A search is a prefix query on words (`ana silv` → `ana:* & silv:*`), or the digits of the term as one
 *   number prefix. PostgreSQL cannot estimate prefix matches (it assumes 2 % of rows), so the plan is
 *   chosen here from its statistics of the most common lexemes (see prefixShares): a common word walks the list index and checks each ticket until the page is full; a rare one asks
 *   the GIN index for its few tickets first.
 */

const CONFIG = sql.raw(`'simple'::regconfig`);
/** longest text of one message that is indexed */
const TEXT_MAX = 20_000;
/** lexemes of a chunk before the next message starts a new one */
const CHUNK_WORDS = 1_000;

const contactText = (name: SQL, number: SQL) =>
  sql`coalesce(${name}, '') || ' ' || ${number} || ' ' || right(${number}, 8) || ' ' || right(${number}, 9) || ' ' || right(${number}, 10) || ' ' || right(${number}, 11)`;

/** a new ticket's first chunk: its contact's words */
export const insertTicketWords = async (db: TDbOrTx, companyId: number, ticketId: number) => {
  await db.execute(sql`
    insert into ${ticketSearch} (ticket_id, company_id, words)
    select t.id, t.company_id, strip(to_tsvector(${CONFIG}, ${foldSql(contactText(sql`c.name`, sql`c.number`))}))
    from ${tickets} t join ${contacts} c on c.id = t.contact_id
    where t.id = ${ticketId} and t.company_id = ${companyId}`);
};

/** the text of a message that is indexed: its first TEXT_MAX characters, nothing when it has no word */
export const indexedText = (text: string | null | undefined) => {
  const body = (text ?? '').slice(0, TEXT_MAX);

  return body.trim() ? body : null;
};

/**
 * a stored message's words added to its ticket's last chunk, or to a new chunk when that one is full: data-modifying
 * CTEs (`words_last`, `words_grown`, `words_added`) of the statement that touches the ticket after a message
 * (messages.repo `touchTicketAfterMessage`); `$company`, `$ticket` and `$text` (an `indexedText`, or null to add
 * nothing) are the numbers of its parameters
 */
export const appendWordsCtes = (company: number, ticket: number, text: number) => {
  const words = `to_tsvector('simple'::regconfig, ${foldRaw(`$${text}::text`)})`;

  return `words_last as (
      select id from ticket_search where ticket_id = $${ticket} and company_id = $${company} and $${text}::text is not null
      order by id desc limit 1
    ), words_grown as (
      update ticket_search s set words = strip(s.words || ${words})
      from words_last where s.id = words_last.id and length(s.words) < ${CHUNK_WORDS}
      returning s.id
    ), words_added as (
      insert into ticket_search (ticket_id, company_id, words)
      select $${ticket}, $${company}, strip(${words})
      where $${text}::text is not null and not exists (select 1 from words_grown)
      returning id
    )`;
};

/** a message's words added (appendWordsCtes) for many messages at once (a batch of sends): one statement, each ticket's texts joined */
export const appendTicketWordsMany = async (
  db: TDbOrTx,
  companyId: number,
  items: { ticketId: number; text: string }[],
) => {
  const joined = new Map<number, string>();
  for (const { ticketId, text } of items) {
    if (!text.trim()) continue;
    const before = joined.get(ticketId);
    joined.set(ticketId, (before === undefined ? text : `${before} ${text}`).slice(0, TEXT_MAX));
  }
  if (joined.size === 0) return;
  const ids = intArray([...joined.keys()]);
  const bodies = textArray([...joined.values()]);
  await db.execute(sql`
    with input as (
      select v.ticket_id, to_tsvector(${CONFIG}, ${foldSql(sql`v.body`)}) as words
      from unnest(${ids}::int[], ${bodies}::text[]) as v(ticket_id, body)
    ), last as (
      select distinct on (s.ticket_id) s.id, s.ticket_id from ${ticketSearch} s join input i on i.ticket_id = s.ticket_id
      where s.company_id = ${companyId} order by s.ticket_id, s.id desc
    ), grown as (
      update ${ticketSearch} s set words = strip(s.words || i.words)
      from last join input i on i.ticket_id = last.ticket_id
      where s.id = last.id and length(s.words) < ${CHUNK_WORDS}
      returning last.ticket_id
    )
    insert into ${ticketSearch} (ticket_id, company_id, words)
    select i.ticket_id, ${companyId}, strip(i.words) from input i
    where not exists (select 1 from grown g where g.ticket_id = i.ticket_id)`);
};

/** a new ticket's first chunk for many tickets at once */
export const insertTicketWordsMany = async (db: TDbOrTx, companyId: number, ticketIds: number[]) => {
  if (ticketIds.length === 0) return;
  await db.execute(sql`
    insert into ${ticketSearch} (ticket_id, company_id, words)
    select t.id, t.company_id, strip(to_tsvector(${CONFIG}, ${foldSql(contactText(sql`c.name`, sql`c.number`))}))
    from ${tickets} t join ${contacts} c on c.id = t.contact_id
    where t.company_id = ${companyId} and t.id = any(${intArray(ticketIds)}::int[])`);
};

/** the words of these tickets recomputed in one chunk each from their contact and messages */
const rebuildWhere = async (db: TDbOrTx, companyId: number, which: SQL) => {
  await db.execute(sql`
    with target as (select t.id from ${tickets} t where t.company_id = ${companyId} and ${which}),
    cleared as (delete from ${ticketSearch} s using target where s.ticket_id = target.id)
    insert into ${ticketSearch} (ticket_id, company_id, words)
    select t.id, t.company_id, strip(to_tsvector(${CONFIG}, ${foldSql(sql`${contactText(sql`c.name`, sql`c.number`)} || ' ' ||
      coalesce((select left(string_agg(coalesce(m.body, ''), ' '), 1000000) from ${messages} m
                where m.company_id = t.company_id and m.ticket_id = t.id and not m.is_deleted), '')`)}))
    from target join ${tickets} t on t.id = target.id join ${contacts} c on c.id = t.contact_id`);
};

export const rebuildTicketWords = (db: TDbOrTx, companyId: number, ticketId: number) =>
  rebuildWhere(db, companyId, sql`t.id = ${ticketId}`);

/** the words of many tickets of a company rebuilt at once (the Atendechat importer, after its messages) */
export const rebuildTicketsWords = (db: TDbOrTx, companyId: number, ticketIds: number[]) =>
  rebuildWhere(db, companyId, sql`t.id = any(${intArray(ticketIds)}::int[])`);

export const rebuildContactTicketsWords = (db: TDbOrTx, companyId: number, contactId: number) =>
  rebuildWhere(db, companyId, sql`t.contact_id = ${contactId}`);

const termWords = (term: string) =>
  (
    foldText(term)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .slice(0, 8)
    .map((w) => w.slice(0, 64));

/**
 * What a search term looks for: its words, each as a prefix (`ana silv` → `ana:* & silv:*`), or, for a
 * formatted number (`(11) 98765-1234`), its digits as one number prefix; null when nothing to find.
 */
export const searchPlan = (term: string) => {
  const words = termWords(term);
  if (words.length === 0) return null;
  const digits = term.replace(/\D/g, '');
  const number = digits.length >= 5 && words.length > 1 ? digits : null;
  const all = words.map((w) => `${w}:*`).join(' & ');

  return { words, number, tsquery: number ? `(${all}) | ${number}:*` : all };
};

/**
 * The share of chunks that hold a word starting with each prefix, from the statistics PostgreSQL keeps on
 * `ticket_search.words` (its most common lexemes and their frequencies); 0 for prefixes of rare words.
 */
const PREFIX_SHARES = `
  select p.prefix, coalesce(sum(e.freq), 0)::float8 as share
  from unnest($1::text[]) as p(prefix)
  left join (
    select e.lexeme, e.freq
    from pg_stats st, unnest(st.most_common_elems::text::text[], st.most_common_elem_freqs) as e(lexeme, freq)
    where st.schemaname = current_schema() and st.tablename = 'ticket_search' and st.attname = 'words'
  ) e on starts_with(e.lexeme, p.prefix)
  group by p.prefix`;

/**
 * The statistics change only when the table is analysed: a prefix's share is kept for a while per
 * database handle (reading pg_stats costs more than the rest of a search). It only picks a plan's
 * shape, never which tickets match.
 */
const SHARE_TTL_MS = 5 * 60_000;
const SHARES_KEPT = 10_000;
const shareCache = new WeakMap<object, Map<string, { share: number; until: number }>>();

const prefixShares = async (db: TDbOrTx, prefixes: string[]) => {
  let cache = shareCache.get(db);
  if (!cache) {
    cache = new Map();
    shareCache.set(db, cache);
  }
  const now = Date.now();
  const shares = new Map<string, number>();
  const missing: string[] = [];
  for (const prefix of prefixes) {
    const kept = cache.get(prefix);
    if (kept && kept.until > now) shares.set(prefix, kept.share);
    else missing.push(prefix);
  }
  if (missing.length === 0) return shares;
  const rows = await queryRows<{ prefix: string; share: number }>(db, PREFIX_SHARES, [missing]);
  if (cache.size + rows.length > SHARES_KEPT) cache.clear();
  for (const r of rows) {
    shares.set(r.prefix, Number(r.share));
    cache.set(r.prefix, { share: Number(r.share), until: now + SHARE_TTL_MS });
  }

  return shares;
};

/** from this share of matching chunks, a search walks the list instead of asking the GIN index */
const WALK_FROM_SHARE = 0.02;

/**
 * What the list's condition for a search term is (rendered by ticket-list.repo.ts): its tsquery, and the
 * plan's shape picked from how common its words are. `walk` (a common word): a per-ticket check made
 * while the list index is walked until the page is full; otherwise the GIN index answers the few
 * matching tickets once. Null when the term has nothing to find.
 */
export type TSearchCondition = { tsquery: string; walk: boolean } | null;

export const searchCondition = async (db: TDbOrTx, term: string): Promise<TSearchCondition> => {
  const plan = searchPlan(term);
  if (!plan) return null;
  const shares = await prefixShares(db, plan.number ? [...plan.words, plan.number] : plan.words);
  // all words must match: the rarest bounds the share; a number is the alternative
  const wordsShare = Math.min(...plan.words.map((w) => shares.get(w) ?? 0));
  const share = plan.number ? Math.max(wordsShare, shares.get(plan.number) ?? 0) : wordsShare;

  return { tsquery: plan.tsquery, walk: share >= WALK_FROM_SHARE };
};
