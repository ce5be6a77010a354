import { z } from 'zod';
import { CHANNEL_PROVIDERS } from './connections.js';
import { V } from './common.js';

/**
 * Provider settings of a connection (`channelConfig`) and what the transports expose to the web app.
 *
 * - Cloud API (`provider: "cloud-api"`): Meta's WhatsApp Business Cloud API. The secrets are never shown
 *   back: reads answer them masked (`CHANNEL_SECRET_MASK` plus the last 4 characters), and a masked value
 *   sent back by the editor means "unchanged".
 * - Baileys (`provider: "baileys"`): WhatsApp Web paired by QR code or by phone-number code. While the
 *   connection is in status `PAIRING`, its `qrcode` field holds the 8-character pairing code to type on the
 *   phone (WhatsApp › Linked devices › Link with phone number).
 */

export const CLOUD_API_DEFAULT_GRAPH_URL = 'https://graph.facebook.com';
export const CLOUD_API_DEFAULT_GRAPH_VERSION = 'v21.0';
/** fields of the Cloud API config that are secrets (masked on every read) */
export const CLOUD_API_SECRET_FIELDS = ['accessToken', 'appSecret', 'verifyToken'] as const;
export const CHANNEL_SECRET_MASK = '********';
/** the customer-service window of the Cloud API: free-form messages only this long after the customer's last message */
export const CUSTOMER_SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

const zDigitsId = z
  .string()
  .trim()
  .regex(/^\d{5,32}$/, V.invalid);
const zSecret = z.string().trim().min(1, V.required).max(1000, V.tooLong);

export const ZCloudApiConfig = z.object({
  phoneNumberId: zDigitsId,
  businessAccountId: zDigitsId,
  accessToken: zSecret,
  /** the Meta app's secret: the key of the X-Hub-Signature-256 HMAC of every webhook */
  appSecret: zSecret,
  /** what Meta sends back in the webhook verification handshake (hub.verify_token) */
  verifyToken: zSecret,
  graphUrl: z.url({ error: V.invalid }).max(300, V.tooLong).default(CLOUD_API_DEFAULT_GRAPH_URL),
  graphVersion: z
    .string()
    .trim()
    .regex(/^v\d+\.\d+$/, V.invalid)
    .default(CLOUD_API_DEFAULT_GRAPH_VERSION),
});
export type TCloudApiConfig = z.infer<typeof ZCloudApiConfig>;

/** POST /whatsappsession/:whatsappId/pairing — Baileys: pair by phone-number code instead of QR */
export const ZPairingBody = z.object({
  phoneNumber: z
    .string()
    .trim()
    .transform((value) => value.replace(/\D/g, ''))
    .pipe(z.string().min(8, V.invalid).max(15, V.invalid)),
});
export type TPairingBody = z.infer<typeof ZPairingBody>;

/**
 * GET /tickets/:ticketId/window — may a free-form message go out on this ticket now?
 * `applies` is false for transports without a window (sandbox, Baileys): then `open` is always true.
 */
export const ZChannelWindow = z.object({
  provider: z.enum(CHANNEL_PROVIDERS),
  applies: z.boolean(),
  open: z.boolean(),
  /** when the window closes (ISO), null when it does not apply or the customer never wrote */
  expiresAt: z.string().nullable(),
});
export type TChannelWindow = z.infer<typeof ZChannelWindow>;
