import { sql } from 'drizzle-orm';
import type { TDb, TDbOrTx } from '../../db/client';
import { queryRows, type SqlParams } from '../../db/statements';

/**
 * The kanban board (`GET /api/ticket/kanban`), written as SQL text and run as named prepared statements
 * (db/statements.ts) like the ticket list: the viewer's rule and the mode are the text, every value a
 * parameter (the company inside an init plan), page sizes literals.
 *
 * A board is the caller's open and pending tickets split into lanes: "open" (no kanban tag, lane 0 here) and
 * one lane per kanban tag (a ticket with two lane tags sits in both). One statement answers every lane at
 * once: the visible tickets are read from `tickets`' index (id and updated_at) and, in the same scan, given
 * their lanes by one lookup each in `ticket_tags`' primary key restricted to the company's lane tags (`placed`;
 * a hash of the company's ticket tags would read closed tickets' tags too), counted per lane, ranked per lane by
 * (updated_at desc, id desc) in one sort, and only the cards of the page (N per lane) are read with their
 * contact, queue, user and tags and built into JSON by PostgreSQL. Each lane's cards come as JSON text, which
 * the service splices into the answer without parsing.
 */

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** a card's own fields, of a row `t` of the page */
const CARD_FIELDS = `'id', t.id, 'uuid', t.uuid, 'status', t.status, 'queueId', t.queue_id,
  'userId', t.user_id, 'lastMessage', coalesce(t.last_message, ''), 'updatedAt', ${iso('t.updated_at')},
  'unreadMessages', t.unread_messages,
  'contact', (select json_build_object('id', c.id, 'name', c.name, 'number', c.number, 'profilePicUrl', c.profile_pic_url)
    from contacts c where c.id = t.contact_id)`;

const TAG_JSON = `json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color, 'kanban', g.kanban)
      order by g.name, g.id)`;

/**
 * A card (packages/shared/src/kanban.ts ZKanbanTicket) of a row `t` of the board's page, left-joined to its queue
 * `q`, user `u` and tags `tg` (the `tagged` CTE). The contact is a subquery, one index lookup per card: as a join,
 * PostgreSQL misjudges how few rows the page holds and hashes the whole contacts table for 300 cards.
 */
const BOARD_CARD = `json_build_object(${CARD_FIELDS},
  'queue', case when q.id is null then null else json_build_object('id', q.id, 'name', q.name, 'color', q.color) end,
  'user', case when u.id is null then null else json_build_object('id', u.id, 'name', u.name) end,
  'tags', coalesce(tg.tags, '[]'::json))`;

const PAGE_COLUMNS =
  't.id, t.uuid, t.status, t.queue_id, t.user_id, t.contact_id, t.last_message, t.updated_at, t.unread_messages';

export type TLaneRow = [laneId: number, name: string | null, color: string | null, total: number, cards: string];

/**
 * Lanes with a window of their cards: rows `offset < rank ≤ offset + limit`. `lane` keeps one lane (0 is
 * "open"); a lane that is not a kanban tag of the company answers no row.
 */
export const kanbanLanesStatement = (
  where: { text: string; params: SqlParams },
  companyId: number,
  window: { limit: number; offset: number; lane?: number },
) => {
  const p = where.params;
  const company = p.fixed(companyId, 'int');
  const lane = window.lane === undefined ? undefined : p.fixed(window.lane, 'int');
  const from = window.offset | 0;
  const to = from + (window.limit | 0);
  const text = `with lanes as materialized (
      select g.id, g.name, g.color from tags g where g.company_id = ${company} and g.kanban = 1
    ),
    placed as materialized (
      select coalesce(x.tag_id, 0) as lane, t.id, t.updated_at
      from tickets t left join lateral (
        select tt.tag_id from ticket_tags tt where tt.ticket_id = t.id and tt.tag_id = any(array(select id from lanes))
        offset 0
      ) x on true
      where ${where.text} and t.status in ('open', 'pending')
    ),
    counts as (select lane, count(*)::int as total from placed group by lane),
    ranked as materialized (
      select * from (
        select r.lane, r.id, row_number() over (partition by r.lane order by r.updated_at desc, r.id desc) as rn
        from placed r${lane ? ` where r.lane = ${lane}` : ''}
      ) r where r.rn <= ${to}
    ),
    page as materialized (
      select ${PAGE_COLUMNS}, r.lane, r.rn
      from ranked r cross join lateral (select * from tickets t where t.id = r.id offset 0) t
      where r.rn > ${from}
    ),
    tagged as (
      select tt.ticket_id, ${TAG_JSON} as tags
      from (select distinct id from page) p join ticket_tags tt on tt.ticket_id = p.id join tags g on g.id = tt.tag_id
      group by tt.ticket_id
    ),
    cards as (
      select t.lane, json_agg(${BOARD_CARD} order by t.rn)::text as cards
      from page t left join queues q on q.id = t.queue_id left join users u on u.id = t.user_id
        left join tagged tg on tg.ticket_id = t.id
      group by t.lane
    )
    select l.id, l.name, l.color, coalesce(n.total, 0), coalesce(k.cards, '[]')
    from (select 0 as id, null::varchar as name, null::varchar as color union all select id, name, color from lanes) l
    left join counts n on n.lane = l.id left join cards k on k.lane = l.id
    ${lane ? `where l.id = ${lane}` : ''}
    order by l.id <> 0, lower(l.name), l.id`;

  return p.render(text);
};

export const readKanbanLanes = async (db: TDbOrTx, statement: { text: string; values: unknown[] }) =>
  queryRows<TLaneRow>(db, statement.text, statement.values, { shape: true, arrays: true });

/** a JSON string of a text column (escaped as json_build_object escapes it) */
const str = (column: string) => `to_json(${column})::text`;

/**
 * The same card as BOARD_CARD, written as compact JSON text by concatenation, for the whole answer's thousands of cards:
 * json_build_object looks up each argument's type on every call and writes `"key" : value, ` (a tenth of the
 * answer's bytes were spaces). Contact, queue, user and tags are joined (hashed once for the whole board), a queue's,
 * user's and tag's JSON written once per row joined. Every column concatenated is not null (the schema's); the
 * nullable joins are coalesced to `null`.
 */
const WHOLE_CARD = `'{"id":' || t.id || ',"uuid":"' || t.uuid || '","status":' || ${str('t.status')}
  || ',"queueId":' || coalesce(t.queue_id::text, 'null') || ',"userId":' || coalesce(t.user_id::text, 'null')
  || ',"lastMessage":' || ${str("coalesce(t.last_message, '')")} || ',"updatedAt":"' || ${iso('t.updated_at')}
  || '","unreadMessages":' || t.unread_messages
  || ',"contact":' || coalesce('{"id":' || c.id || ',"name":' || ${str('c.name')} || ',"number":' || ${str('c.number')}
    || ',"profilePicUrl":' || ${str('c.profile_pic_url')} || '}', 'null')
  || ',"queue":' || coalesce('{"id":' || q.id || ',"name":' || ${str('q.name')} || ',"color":' || ${str('q.color')} || '}', 'null')
  || ',"user":' || coalesce('{"id":' || u.id || ',"name":' || ${str('u.name')} || '}', 'null')
  || ',"tags":' || coalesce(tg.tags, '[]') || '}'`;

/**
 * Every visible open and pending ticket as cards, newest first (the ancestor's whole answer): the same cards as the
 * lanes', as one JSON text. The visible tickets are read once (`page`), their tags grouped per ticket, and the
 * cards joined and concatenated in one pass (WHOLE_CARD): for 19,000 cards a tenth of the time that four lookups
 * and a json_build_object per card took. A ticket's tags are written once per distinct set of tags (`tag_sets`,
 * a few dozen on a board), not once per ticket: an aggregate with its own order sorts each group apart, and
 * 17,000 tickets' little sorts were a third of the statement.
 */
export const kanbanAllStatement = (where: { text: string; params: SqlParams }) =>
  where.params.render(`with page as materialized (
      select ${PAGE_COLUMNS} from tickets t where ${where.text} and t.status in ('open', 'pending')
    ),
    tag_sets as materialized (
      select tt.ticket_id, array_agg(tt.tag_id) as ids
      from page p join ticket_tags tt on tt.ticket_id = p.id
      group by tt.ticket_id
    ),
    tagged as (
      select s.ticket_id, j.tags from tag_sets s join (
        select d.ids,
          '[' || string_agg('{"id":' || g.id || ',"name":' || ${str('g.name')} || ',"color":' || ${str('g.color')}
            || ',"kanban":' || g.kanban || '}', ',' order by g.name, g.id) || ']' as tags
        from (select distinct ids from tag_sets) d cross join unnest(d.ids) u(id) join tags g on g.id = u.id
        group by d.ids
      ) j on j.ids = s.ids
    )
    select count(*)::int, '[' || coalesce(string_agg(${WHOLE_CARD}, ',' order by t.updated_at desc, t.id desc), '') || ']'
    from page t left join contacts c on c.id = t.contact_id left join queues q on q.id = t.queue_id
      left join users u on u.id = t.user_id left join tagged tg on tg.ticket_id = t.id`);

/**
 * Runs the whole answer's statement without JIT: its estimated cost (19,000 cards of a long concatenation) is over
 * PostgreSQL's JIT thresholds, and compiling, inlining and optimizing its expressions took 0.74 s of a 1.1 s run
 * (0.36 s without). `set local` keeps it to this transaction (PGlite has no JIT; the setting exists and is moot).
 */
export const readKanbanAll = async (db: TDb, statement: { text: string; values: unknown[] }) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);

    return (await queryRows<[number, string]>(tx, statement.text, statement.values, { shape: true, arrays: true }))[0];
  });
