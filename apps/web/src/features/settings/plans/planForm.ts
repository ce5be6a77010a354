import { PLAN_FLAGS, type TPlan, type TPlanFlag } from '@zelo/shared';

export type TPlanFormValues = {
  name: string;
  users: string;
  connections: string;
  queues: string;
  value: string;
} & Record<TPlanFlag, boolean>;

const allFlags = (on: boolean) =>
  Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, on])) as Record<TPlanFlag, boolean>;

export const toPlanFormValues = (plan: TPlan | null): TPlanFormValues =>
  plan
    ? {
        name: plan.name,
        users: String(plan.users),
        connections: String(plan.connections),
        queues: String(plan.queues),
        value: String(plan.value),
        ...(Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, plan[flag]])) as Record<TPlanFlag, boolean>),
      }
    : { name: '', users: '0', connections: '0', queues: '0', value: '0', ...allFlags(true) };
