import { z } from 'zod';

/** Inbound deliveries that could not be processed after their retries (the dead-letter list). */
export const ZFailedDelivery = z.object({
  id: z.number(),
  whatsappId: z.number(),
  /** the connection's name (null when it is gone: the row goes with it, so only for a moment) */
  whatsappName: z.string().nullable(),
  transport: z.string(),
  kind: z.enum(['message', 'webhook']),
  attempts: z.number(),
  lastError: z.string().nullable(),
  /** a short text of what was delivered: the sender and the start of the message */
  preview: z.string(),
  receivedAt: z.string(),
  lastAttemptAt: z.string().nullable(),
});
export type TFailedDelivery = z.infer<typeof ZFailedDelivery>;

export const ZFailedDeliveryPage = z.object({
  failedDeliveries: z.array(ZFailedDelivery),
  count: z.number(),
  hasMore: z.boolean(),
});
export type TFailedDeliveryPage = z.infer<typeof ZFailedDeliveryPage>;

export const ZFailedDeliveryRetry = z.object({
  /** processed: the delivery is done and gone; otherwise it is back in the list with its new error */
  processed: z.boolean(),
  error: z.string().nullable(),
});
export type TFailedDeliveryRetry = z.infer<typeof ZFailedDeliveryRetry>;

export const ZFailedDeliveryCounts = z.object({
  companies: z.array(z.object({ companyId: z.number(), name: z.string(), count: z.number() })),
});
export type TFailedDeliveryCounts = z.infer<typeof ZFailedDeliveryCounts>;
