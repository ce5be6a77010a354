import { z } from 'zod';
import { V, zBool } from './common.js';

/** spec 2 §5: name required ('Obrigatório'), at least 3 characters ('Mensagem muito curta') */
const zTagName = z.string({ error: V.required }).trim().min(1, V.required).min(3, V.messageTooShort).max(50, V.tooLong);
export const DEFAULT_TAG_COLOR = '#A4CCCC';

/** an empty colour (the ancestor's dialog allows it) is the default one: spec 2 §5 validates only the name */
const zTagColor = z
  .union([z.string(), z.null()])
  .transform((v) => v?.trim() || DEFAULT_TAG_COLOR)
  .pipe(z.string().min(3, V.tooShort).max(9, V.tooLong));
/** 1 or 0 (true/false and "1"/"0" accepted) */
const zKanban = zBool.transform((v) => (v ? 1 : 0));

export const ZTagBody = z.object({
  name: zTagName,
  color: zTagColor.default(DEFAULT_TAG_COLOR),
  /** 1 = the tag is a kanban lane (admins only) */
  kanban: zKanban.default(0),
});
export type TTagBody = z.infer<typeof ZTagBody>;

export const ZTagUpdateBody = z.object({
  name: zTagName.optional(),
  color: zTagColor.optional(),
  kanban: zKanban.optional(),
});
export type TTagUpdateBody = z.infer<typeof ZTagUpdateBody>;

export const ZTag = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  kanban: z.number(),
  userId: z.number().nullable(),
  ticketsCount: z.number(),
});
export type TTag = z.infer<typeof ZTag>;
