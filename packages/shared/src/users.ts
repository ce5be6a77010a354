import { z } from 'zod';
import { ALL_TICKET_VALUES, LANGUAGES, PROFILES } from './constants.js';
import { zBool, zEmail, zId, zIdOrNone, zLanguage, zName, zPassword } from './common.js';

/**
 * A queue of a user as the ancestor's ShowUserService answers it: with the join row `UserQueue`, which its
 * kanban page reads (`queue.UserQueue.queueId`).
 */
export const ZUserQueue = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  UserQueue: z.object({ userId: z.number(), queueId: z.number() }),
});
export type TUserQueue = z.infer<typeof ZUserQueue>;

const userFields = {
  name: zName(2, 50),
  email: zEmail(),
  password: zPassword(5, 50),
  profile: z.enum(PROFILES),
  allTicket: z.enum(ALL_TICKET_VALUES),
  canSeeTicketsWithoutQueue: zBool,
  whatsappId: zIdOrNone.optional(),
  queueIds: z.array(zId).max(500),
  language: zLanguage.nullable().optional(),
};

export const ZUserBody = z.object({
  ...userFields,
  profile: userFields.profile.default('user'),
  allTicket: userFields.allTicket.default('desabled'),
  canSeeTicketsWithoutQueue: userFields.canSeeTicketsWithoutQueue.default(false),
  queueIds: userFields.queueIds.default([]),
});
export type TUserBody = z.infer<typeof ZUserBody>;
/**
 * On update every field is optional and an absent one is left as it is (no defaults: a default would
 * overwrite the stored value); an empty password keeps the current one.
 */
export const ZUserUpdateBody = z
  .object(userFields)
  .partial()
  .extend({
    password: zPassword(5, 50)
      .optional()
      .or(z.literal('').transform(() => undefined)),
  });
export type TUserUpdateBody = z.infer<typeof ZUserUpdateBody>;

export const ZUser = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(PROFILES),
  super: z.boolean(),
  online: z.boolean(),
  /** paused by the user: automatic assignment gives it no ticket */
  away: z.boolean(),
  allTicket: z.enum(ALL_TICKET_VALUES),
  canSeeTicketsWithoutQueue: z.boolean(),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  language: z.enum(LANGUAGES).nullable(),
  queues: z.array(ZUserQueue),
  queueIds: z.array(z.number()),
  company: z.object({ id: z.number(), name: z.string(), dueDate: z.string().nullable() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZSetLanguageParams = z.object({ lang: zLanguage });

/** PUT /users/me/away: the signed-in user pauses (or resumes) automatic assignment for itself */
export const ZAwayBody = z.object({ away: zBool });
export type TAwayBody = z.infer<typeof ZAwayBody>;
export const ZAwayAnswer = z.object({ id: z.number(), away: z.boolean(), online: z.boolean() });
export type TAwayAnswer = z.infer<typeof ZAwayAnswer>;
