import { markOpenTicketsDirty } from '../sla';
import { events, type TQueue, type TQueueBody, type TQueueUpdateBody } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { lockCompany } from '../companies/companies.repo';
import { assertPlanLimit } from '../plans/plan-limits';
import {
  deleteQueueRow,
  findQueue,
  insertQueue,
  integrationOfCompany,
  listQueueRows,
  promptOfCompany,
  queueColorTaken,
  queueNameTaken,
  type TQueueRow,
  updateQueueRow,
} from './queues.repo';
import { isUniqueViolation } from '../../db/pg-errors';

export const toQueue = (row: TQueueRow): TQueue => ({
  id: row.id,
  name: row.name,
  color: row.color,
  greetingMessage: row.greetingMessage,
  outOfHoursMessage: row.outOfHoursMessage,
  orderQueue: row.orderQueue,
  integrationId: row.integrationId,
  promptId: row.promptId,
  schedules: row.schedules,
  autoAssign: row.autoAssign,
  autoAssignMax: row.autoAssignMax,
  slaFirstResponseMinutes: row.slaFirstResponseMinutes,
  slaResolutionHours: row.slaResolutionHours,
});

export const loadQueue = async (db: TDbOrTx, companyId: number, id: number) => {
  const row = await findQueue(db, companyId, id);
  if (!row) throw new AppError('ERR_NO_QUEUE_FOUND');

  return row;
};

export const listQueues = async (ctx: TAppContext, auth: TAuth) =>
  (await listQueueRows(ctx.db, auth.companyId)).map(toQueue);

export const getQueue = async (ctx: TAppContext, auth: TAuth, id: number) =>
  toQueue(await loadQueue(ctx.db, auth.companyId, id));

/** name and colour free in the company; prompt and integration the company's own */
const assertQueueFields = async (
  tx: TDbOrTx,
  companyId: number,
  body: { name?: string; color?: string; promptId?: number | null; integrationId?: number | null },
  exceptId?: number,
) => {
  if (body.name !== undefined && (await queueNameTaken(tx, companyId, body.name, exceptId))) {
    throw new AppError('ERR_DUPLICATED_QUEUE', 'A queue with this name exists');
  }
  if (body.color !== undefined && (await queueColorTaken(tx, companyId, body.color, exceptId))) {
    throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  }
  if (body.promptId && !(await promptOfCompany(tx, companyId, body.promptId))) {
    throw new AppError('ERR_VALIDATION', 'Unknown prompt', [{ path: 'promptId', message: 'invalid' }]);
  }
  if (body.integrationId && !(await integrationOfCompany(tx, companyId, body.integrationId))) {
    throw new AppError('ERR_VALIDATION', 'Unknown integration', [{ path: 'integrationId', message: 'invalid' }]);
  }
};

const announce = (ctx: TAppContext, companyId: number, queue: TQueue) =>
  ctx.realtime.toCompany(companyId, events.queue(companyId), { action: 'update', queue });

export const createQueue = async (ctx: TAppContext, auth: TAuth, body: TQueueBody) => {
  const companyId = auth.companyId;
  let row: TQueueRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      // locks the company row: concurrent creations are counted and checked one at a time
      await assertPlanLimit(tx, companyId, 'queues');
      await assertQueueFields(tx, companyId, body);

      return insertQueue(tx, { companyId, ...body });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('ERR_DUPLICATED_QUEUE', 'A queue with this name exists');
    throw err;
  }
  const queue = toQueue(row);
  announce(ctx, companyId, queue);
  // its switch or its cap may let waiting tickets go now (modules/assignment)
  ctx.assignment?.queueSaved(companyId, queue.autoAssign);

  return queue;
};

export const updateQueue = async (ctx: TAppContext, auth: TAuth, id: number, body: TQueueUpdateBody) => {
  const companyId = auth.companyId;
  await loadQueue(ctx.db, companyId, id);
  let row: TQueueRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      await lockCompany(tx, companyId);
      await assertQueueFields(tx, companyId, body, id);
      const updated = await updateQueueRow(tx, companyId, id, body);
      if (!updated) throw new AppError('ERR_NO_QUEUE_FOUND');
      // a changed target (or the hours it is counted in) applies to the queue's open tickets from now on
      if (
        body.slaFirstResponseMinutes !== undefined ||
        body.slaResolutionHours !== undefined ||
        body.schedules !== undefined
      ) {
        await markOpenTicketsDirty(tx, companyId, id);
      }

      return updated;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('ERR_DUPLICATED_QUEUE', 'A queue with this name exists');
    throw err;
  }
  const queue = toQueue(row);
  announce(ctx, companyId, queue);
  // its switch or its cap may let waiting tickets go now (modules/assignment)
  ctx.assignment?.queueSaved(companyId, queue.autoAssign);

  return queue;
};

export const deleteQueue = async (ctx: TAppContext, auth: TAuth, id: number) => {
  if (!(await deleteQueueRow(ctx.db, auth.companyId, id))) throw new AppError('ERR_NO_QUEUE_FOUND');
  // its members' queue lists (the viewers) lost it
  await ctx.sessions.forget({ companyId: auth.companyId });
  ctx.realtime.toCompany(auth.companyId, events.queue(auth.companyId), { action: 'delete', queueId: id });
};
