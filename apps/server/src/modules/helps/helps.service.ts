import type { THelp, THelpBody } from '@zelo/shared';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { deleteHelpRow, findHelp, insertHelp, listHelps, type THelpRow, updateHelpRow } from './helps.repo';

const toHelp = (row: THelpRow): THelp => ({
  id: row.id,
  title: row.title,
  description: row.description,
  video: row.video,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const getHelps = async (ctx: TAppContext) => (await listHelps(ctx.db)).map(toHelp);

export const getHelp = async (ctx: TAppContext, id: number) => {
  const row = await findHelp(ctx.db, id);
  if (!row) throw new AppError('ERR_NO_HELP_FOUND');

  return toHelp(row);
};

export const createHelp = async (ctx: TAppContext, body: THelpBody) => toHelp(await insertHelp(ctx.db, body));

export const updateHelp = async (ctx: TAppContext, id: number, body: THelpBody) => {
  await getHelp(ctx, id);

  return toHelp(await updateHelpRow(ctx.db, id, body));
};

export const deleteHelp = async (ctx: TAppContext, id: number) => {
  await getHelp(ctx, id);
  await deleteHelpRow(ctx.db, id);
};
