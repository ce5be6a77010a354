import { KANBAN_LANE_PAGE, KANBAN_OPEN_LANE, type TKanbanQuery } from '@zelo/shared';
import { SqlParams } from '../../db/statements';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { loadViewer, type TViewer } from '../tickets/ticket-access';
import { allOf, listConditions } from '../tickets/ticket-list.repo';
import { boardScope, visibilityCondition } from '../tickets/ticket-visibility';
import { kanbanAllStatement, kanbanLanesStatement, readKanbanAll, readKanbanLanes } from './kanban.repo';

/**
 * Which tickets a board shows (spec 2 §6): the ticket list's visibility rule over open and pending tickets,
 * with `showAll` honoured for admins only (a user with "all tickets" enabled still sees only their own and
 * the pending ones of their queues), and `queueIds` cut to the caller's own queues for a non-admin. An
 * admin's `queueIds` keeps the board to those queues and tickets without a queue; without it, every queue.
 */
const boardRule = (viewer: TViewer, query: TKanbanQuery) => ({
  showAll: viewer.isAdmin && query.showAll === true,
  queueIds: query.queueIds,
});

const boardWhere = (viewer: TViewer, query: TKanbanQuery) => {
  const params = new SqlParams();
  const c = listConditions(params, undefined);
  const rule = visibilityCondition(viewer, boardRule(viewer, query), c);

  return { text: allOf(c.company(viewer.companyId), rule), params };
};

const laneJson = (row: [number, string | null, string | null, number, string], pageEnd: number) => {
  const [id, name, color, total, cards] = row;
  const lane = id === 0 ? JSON.stringify(KANBAN_OPEN_LANE) : String(id);
  const tag = id === 0 ? 'null' : JSON.stringify({ id, name, color });

  return `{"lane":${lane},"tag":${tag},"count":${total},"hasMore":${total > pageEnd},"tickets":${cards}}`;
};

/**
 * The board as the JSON bytes answered, kept (list-answers.ts) under the statement it runs, like the ticket
 * list, until an announced change of an open or pending ticket its viewer's rule admits (`boardScope`) or an
 * unsaid one of the company (a tag's, among others).
 */
export const kanbanBoard = async (ctx: TAppContext, auth: TAuth, query: TKanbanQuery): Promise<Buffer> => {
  const viewer = await ctx.sessions.viewer(auth.companyId, auth.userId, () => loadViewer(ctx.db, auth));
  const where = boardWhere(viewer, query);
  const scope = boardScope(viewer, boardRule(viewer, query));
  const companyId = viewer.companyId;
  if (query.lane !== undefined) {
    const limit = query.limit ?? KANBAN_LANE_PAGE;
    const offset = (query.pageNumber - 1) * limit;
    const lane = query.lane === KANBAN_OPEN_LANE ? 0 : query.lane;
    const statement = kanbanLanesStatement(where, companyId, { limit, offset, lane });

    return ctx.listAnswers.answer(
      companyId,
      `kanban ${statement.text} ${JSON.stringify(statement.values)}`,
      async () => {
        const [row] = await readKanbanLanes(ctx.db, statement);
        if (!row) throw new AppError('ERR_NO_TAG_FOUND');

        return Buffer.from(laneJson(row, offset + limit));
      },
      scope,
    );
  }
  if (query.perLane !== undefined) {
    const statement = kanbanLanesStatement(where, companyId, { limit: query.perLane, offset: 0 });

    return ctx.listAnswers.answer(
      companyId,
      `kanban ${statement.text} ${JSON.stringify(statement.values)}`,
      async () => {
        const rows = await readKanbanLanes(ctx.db, statement);

        return Buffer.from(`{"lanes":[${rows.map((r) => laneJson(r, query.perLane ?? 0)).join(',')}]}`);
      },
      scope,
    );
  }
  const statement = kanbanAllStatement(where);

  return ctx.listAnswers.answer(
    companyId,
    `kanban ${statement.text} ${JSON.stringify(statement.values)}`,
    async () => {
      const [count, cards] = await readKanbanAll(ctx.db, statement);

      return Buffer.from(`{"tickets":${cards},"count":${count},"hasMore":false}`);
    },
    scope,
  );
};
