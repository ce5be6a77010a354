import { z } from 'zod';
import { V, zBool, zName, zNumeric } from './common.js';

const zLimit = zNumeric(z.number().int(V.invalid).min(0, V.invalid).max(100000, V.tooLong));

export const ZPlanBody = z.object({
  name: zName(2, 50),
  users: zLimit,
  connections: zLimit,
  queues: zLimit,
  value: zNumeric(z.number().min(0, V.invalid).max(1_000_000, V.tooLong)),
  useCampaigns: zBool.default(true),
  useSchedules: zBool.default(true),
  useInternalChat: zBool.default(true),
  useExternalApi: zBool.default(true),
  useKanban: zBool.default(true),
  useOpenAi: zBool.default(true),
  useIntegrations: zBool.default(true),
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
