import { z } from 'zod';
import { ZPlan } from './plans.js';

/**
 * `GET /subscription/usage` (issue 13 item 5): the caller's company's plan with its limits and flags, what
 * it uses of them, and where its subscription stands.
 */
export const ZSubscriptionUsage = z.object({
  plan: ZPlan.nullable(),
  usage: z.object({ users: z.number(), connections: z.number(), queues: z.number() }),
  company: z.object({
    id: z.number(),
    name: z.string(),
    dueDate: z.string().nullable(),
    recurrence: z.string(),
    trialExpiration: z.string().nullable(),
    /** in the sign-up trial: it has not ended and the due date was not moved past it by a payment */
    onTrial: z.boolean(),
    /** whole days until the trial ends (1 on its last day), null when not on trial */
    trialDaysLeft: z.number().nullable(),
    /** past the due date: only invoices and subscription are reachable */
    payOnly: z.boolean(),
  }),
});
export type TSubscriptionUsage = z.infer<typeof ZSubscriptionUsage>;
