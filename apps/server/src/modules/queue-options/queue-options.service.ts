import type { TQueueOption, TQueueOptionBody, TQueueOptionUpdateBody } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { lockQueue } from '../queues/queues.repo';
import { loadQueue } from '../queues/queues.service';
import {
  deleteOptionRow,
  findOption,
  insertOption,
  listSiblings,
  optionKeyTaken,
  type TQueueOptionRow,
  updateOptionRow,
} from './queue-options.repo';

const toOption = (row: TQueueOptionRow): TQueueOption => ({
  id: row.id,
  queueId: row.queueId,
  parentId: row.parentId,
  title: row.title,
  message: row.message,
  option: row.option,
});

const loadOption = async (db: TDbOrTx, companyId: number, id: number) => {
  const row = await findOption(db, companyId, id);
  if (!row) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');

  return row;
};

export const listQueueOptions = async (
  ctx: TAppContext,
  auth: TAuth,
  query: { queueId: number; parentId: number | null },
) => {
  await loadQueue(ctx.db, auth.companyId, query.queueId);

  return (await listSiblings(ctx.db, auth.companyId, query.queueId, query.parentId)).map(toOption);
};

export const getQueueOption = async (ctx: TAppContext, auth: TAuth, id: number) =>
  toOption(await loadOption(ctx.db, auth.companyId, id));

const duplicated = () => new AppError('ERR_DUPLICATED_QUEUE_OPTION', 'Another option at this level uses this key');

export const createQueueOption = async (ctx: TAppContext, auth: TAuth, body: TQueueOptionBody) => {
  const companyId = auth.companyId;
  const row = await ctx.db.transaction(async (tx) => {
    // the queue row lock serialises the numbering of its options
    if (!(await lockQueue(tx, companyId, body.queueId))) throw new AppError('ERR_NO_QUEUE_FOUND');
    if (body.parentId !== null) {
      const parent = await findOption(tx, companyId, body.parentId);
      if (!parent || parent.queueId !== body.queueId) {
        throw new AppError('ERR_VALIDATION', 'The parent option belongs to another queue', [
          { path: 'parentId', message: 'invalid' },
        ]);
      }
    }
    let option = body.option;
    if (!option) {
      const siblings = await listSiblings(tx, companyId, body.queueId, body.parentId);
      const numbers = siblings.map((s) => Number(s.option)).filter((n) => Number.isInteger(n));
      option = String(Math.max(0, ...numbers) + 1);
    } else if (await optionKeyTaken(tx, companyId, body.queueId, body.parentId, option)) {
      throw duplicated();
    }

    return insertOption(tx, {
      companyId,
      queueId: body.queueId,
      parentId: body.parentId,
      title: body.title,
      message: body.message,
      option,
    });
  });

  return toOption(row);
};

export const updateQueueOption = async (ctx: TAppContext, auth: TAuth, id: number, body: TQueueOptionUpdateBody) => {
  const companyId = auth.companyId;
  const current = await loadOption(ctx.db, companyId, id);
  const row = await ctx.db.transaction(async (tx) => {
    await lockQueue(tx, companyId, current.queueId);
    if (body.option && (await optionKeyTaken(tx, companyId, current.queueId, current.parentId, body.option, id))) {
      throw duplicated();
    }

    return updateOptionRow(tx, companyId, id, body);
  });
  if (!row) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');

  return toOption(row);
};

/** deletes the option and its sub-options, then numbers the remaining siblings 1..n in their order */
export const deleteQueueOption = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const companyId = auth.companyId;
  const current = await loadOption(ctx.db, companyId, id);
  await ctx.db.transaction(async (tx) => {
    await lockQueue(tx, companyId, current.queueId);
    await deleteOptionRow(tx, companyId, id);
    const siblings = await listSiblings(tx, companyId, current.queueId, current.parentId);
    for (const [i, sibling] of siblings.entries()) {
      const option = String(i + 1);
      if (sibling.option !== option) await updateOptionRow(tx, companyId, sibling.id, { option });
    }
  });
};
