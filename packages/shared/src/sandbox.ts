import { z } from 'zod';
import { V, zId } from './common.js';

/**
 * The customer simulator of sandbox connections (HTTP API under /api/sandbox/:connectionId, admins).
 * Numbers are digits only, 8 to 15 of them; numbers starting with `000` are "not on WhatsApp".
 */

export const SANDBOX_INBOUND_TYPES = [
  'text',
  'image',
  'audio',
  'voice',
  'video',
  'document',
  'sticker',
  'location',
  'vcard',
  'reaction',
] as const;
export type TSandboxInboundType = (typeof SANDBOX_INBOUND_TYPES)[number];

/** the largest media a simulated customer may send, decoded */
export const SANDBOX_MEDIA_MAX_BYTES = 16 * 1024 * 1024;

export const zSandboxNumber = z
  .string({ error: V.required })
  .transform((s) => s.replace(/[\s()+-]/g, ''))
  .pipe(z.string().regex(/^\d{8,15}$/, V.invalid));

const zExternalId = z
  .string()
  .min(1, V.required)
  .max(128, V.tooLong)
  .regex(/^[\w.:-]+$/, V.invalid);

export const ZSandboxConnectionParams = z.object({ connectionId: zId });

export const ZSandboxScanBody = z
  .object({
    /** the QR string being scanned; when given it must be the one on screen */
    qrcode: z.string().max(500).optional(),
    /** the number the simulated phone is logged in as */
    phoneNumber: zSandboxNumber.optional(),
  })
  .default({});

export const ZSandboxMedia = z.object({
  /** base64 (a `data:` URL prefix is accepted) */
  data: z.string().min(1, V.required),
  /** the sender's label; the stored type comes from the content */
  mimetype: z.string().max(200).optional(),
  fileName: z.string().max(255).optional(),
});

export const ZSandboxInboundBody = z.object({
  from: zSandboxNumber,
  name: z.string().max(100).optional(),
  /** a picture URL for the customer (refreshes the contact's avatar) */
  avatarUrl: z.string().url().max(1000).optional(),
  type: z.enum(SANDBOX_INBOUND_TYPES).default('text'),
  body: z.string().max(65_536, V.tooLong).default(''),
  /** a repeated id is a replayed delivery of the same message */
  externalId: zExternalId.optional(),
  media: ZSandboxMedia.optional(),
  location: z
    .object({
      latitude: z.coerce.number().min(-90).max(90),
      longitude: z.coerce.number().min(-180).max(180),
      description: z.string().max(500).optional(),
    })
    .optional(),
  vcard: z.string().max(65_536).optional(),
  quotedExternalId: zExternalId.optional(),
  /** written by the business's own phone (stored as ours, never answered by the bot) */
  fromMe: z.boolean().default(false),
  /** a group conversation: the group's id and name; `from` is the member who wrote */
  group: z
    .object({
      id: z.string().regex(/^[\w-]{5,64}$/, V.invalid),
      name: z.string().max(100).optional(),
    })
    .optional(),
});
export type TSandboxInboundBody = z.infer<typeof ZSandboxInboundBody>;

/** a simulated group's id (the business answers the group, not one member) */
export const zSandboxGroupId = z.string().regex(/^[\w-]{5,64}$/, V.invalid);
/** a simulator group's id from its name: the same name, the same group */
export const sandboxGroupId = (name: string) =>
  `grupo-${
    name
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 50) || 'sem-nome'
  }`;

export const ZSandboxOutboxQuery = z.object({
  /** a customer's number, or a group's id */
  to: z.union([zSandboxNumber, zSandboxGroupId]).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const ZSandboxReadBody = z.object({
  to: z.union([zSandboxNumber, zSandboxGroupId]),
  /** only these; all the customer's unread messages when omitted */
  externalIds: z.array(zExternalId).max(500).optional(),
});

export const ZSandboxEditBody = z.object({
  from: zSandboxNumber,
  externalId: zExternalId,
  body: z.string().min(1).max(65_536),
});
export const ZSandboxDeleteBody = z.object({ from: zSandboxNumber, externalId: zExternalId });
export const ZSandboxCallBody = z.object({ from: zSandboxNumber, isVideo: z.boolean().default(false) });

/** one message a simulated customer received from the business */
export type TSandboxOutboxMessage = {
  externalId: string;
  to: string;
  type: 'text' | 'media' | 'location' | 'vcard';
  body: string;
  media?: { mimetype: string; fileName?: string; size: number; asVoiceNote?: boolean; dataUrl?: string };
  location?: { latitude: number; longitude: number; description?: string };
  vcard?: string;
  quotedExternalId?: string;
  /** 1 pending, 2 server, 3 delivered, 4 read */
  ack: number;
  edited: boolean;
  deleted: boolean;
  timestamp: string;
};

/** `company-{id}-sandbox` payloads */
export type TSandboxEvent =
  | { action: 'message'; connectionId: number; message: TSandboxOutboxMessage }
  | { action: 'update'; connectionId: number; message: TSandboxOutboxMessage }
  | { action: 'read'; connectionId: number; from: string; externalIds: string[] };
