import { z } from 'zod';
import { ALL_TICKET_VALUES, LANGUAGES, PROFILES } from './constants.js';
import { V, zEmail, zStrongPassword } from './common.js';
import { ZSetting } from './settings.js';
import { ZUserQueue } from './users.js';

export const ZLoginRequest = z.object({
  email: zEmail(),
  password: z.string({ error: V.required }).min(1, V.required).max(200, V.tooLong),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZSessionUser = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(PROFILES),
  super: z.boolean(),
  companyId: z.number(),
  allTicket: z.enum(ALL_TICKET_VALUES),
  whatsappId: z.number().nullable(),
  language: z.enum(LANGUAGES).nullable(),
  canSeeTicketsWithoutQueue: z.boolean(),
  /** paused: automatic assignment gives it no ticket (the top bar's away switch) */
  away: z.boolean(),
  queues: z.array(ZUserQueue),
  company: z.object({
    id: z.number(),
    name: z.string(),
    dueDate: z.string().nullable(),
    status: z.boolean(),
    /** the end of the sign-up trial (ISO), null when none */
    trialExpiration: z.string().nullable().optional(),
    /** past the due date: the session reaches only invoices and subscription (issue 13) */
    payOnly: z.boolean().optional(),
    settings: z.array(ZSetting),
    plan: z
      .object({
        id: z.number(),
        name: z.string(),
        useCampaigns: z.boolean(),
        useSchedules: z.boolean(),
        useInternalChat: z.boolean(),
        useExternalApi: z.boolean(),
        useKanban: z.boolean(),
        useOpenAi: z.boolean(),
        useIntegrations: z.boolean(),
      })
      .nullable(),
  }),
});
export type TSessionUser = z.infer<typeof ZSessionUser>;

export const ZAuthResponse = z.object({ token: z.string(), user: ZSessionUser });
export type TAuthResponse = z.infer<typeof ZAuthResponse>;

export const ZForgotPasswordRequest = z.object({ email: zEmail() });
export type TForgotPasswordRequest = z.infer<typeof ZForgotPasswordRequest>;

const resetFields = {
  email: zEmail(),
  code: z
    .string({ error: V.required })
    .trim()
    .regex(/^\d{6}$/, V.invalid),
  password: zStrongPassword(),
};

/**
 * The ancestor's form of the reset, `POST /resetpasswords/:email/:token/:password` (its ForgetPassWord page):
 * the code and the new password in the path, the same rules as the JSON form.
 */
export const ZResetPasswordParams = z.object({
  email: resetFields.email,
  token: resetFields.code,
  password: resetFields.password,
});

export const ZResetPasswordRequest = z
  .object({
    ...resetFields,
    passwordConfirmation: z.string({ error: V.required }).min(1, V.required),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: V.passwordMismatch,
    path: ['passwordConfirmation'],
  });
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;
