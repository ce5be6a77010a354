import { z } from 'zod';
import { V, zName } from './common.js';

const zLimit = z.coerce.number({ error: V.invalid }).int(V.invalid).min(0, V.invalid).max(100000, V.tooLong);

export const ZPlanBody = z.object({
  name: zName(2, 50),
  users: zLimit,
  connections: zLimit,
  queues: zLimit,
  value: z.coerce.number({ error: V.invalid }).min(0, V.invalid).max(1_000_000, V.tooLong),
  useCampaigns: z.boolean().default(true),
  useSchedules: z.boolean().default(true),
  useInternalChat: z.boolean().default(true),
  useExternalApi: z.boolean().default(true),
  useKanban: z.boolean().default(true),
  useOpenAi: z.boolean().default(true),
  useIntegrations: z.boolean().default(true),
});
export type TPlanBody = z.infer<typeof ZPlanBody>;

export const ZPlan = z.object({
  id: z.number(),
  name: z.string(),
  users: z.number(),
  connections: z.number(),
  queues: z.number(),
  value: z.number(),
  useCampaigns: z.boolean(),
  useSchedules: z.boolean(),
  useInternalChat: z.boolean(),
  useExternalApi: z.boolean(),
  useKanban: z.boolean(),
  useOpenAi: z.boolean(),
  useIntegrations: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TPlan = z.infer<typeof ZPlan>;
