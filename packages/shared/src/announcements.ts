import { z } from 'zod';
import { V, zBool, zName, zNumeric } from './common.js';

/**
 * Announcements (spec 2 §3, §5, §9): notices the super user writes for every company. Priority 1 high,
 * 2 medium, 3 low (default 3); status is active (default true). The image is attached by its own route
 * (`POST /announcements/:id/media-upload`), so the body never sets `mediaPath` / `mediaName` (the ancestor's
 * dialog sends its whole record back on PUT: those fields, `id` and the dates are dropped).
 */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export type TAnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
export const DEFAULT_ANNOUNCEMENT_PRIORITY: TAnnouncementPriority = 3;

/** the image types an announcement may carry (spec 2 §5: png, jpg or jpeg) */
export const ANNOUNCEMENT_IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;

const zPriority = zNumeric(z.number().int(V.invalid).min(1, V.invalid).max(3, V.invalid)).transform(
  (v) => v as TAnnouncementPriority,
);
const zTitle = zName(1, 200);
const zText = z.string({ error: V.required }).trim().min(1, V.required).max(5000, V.tooLong);

export const ZAnnouncementBody = z.object({
  title: zTitle,
  text: zText,
  priority: zPriority.default(DEFAULT_ANNOUNCEMENT_PRIORITY),
  status: zBool.default(true),
});
export type TAnnouncementBody = z.infer<typeof ZAnnouncementBody>;
/** the form's values before parsing (the select and switch hold numbers and booleans) */
export type TAnnouncementInput = z.input<typeof ZAnnouncementBody>;

export const ZAnnouncementUpdateBody = z.object({
  title: zTitle.optional(),
  text: zText.optional(),
  priority: zPriority.optional(),
  status: zBool.optional(),
});
export type TAnnouncementUpdateBody = z.infer<typeof ZAnnouncementUpdateBody>;

export const ZAnnouncement = z.object({
  id: z.number(),
  title: z.string(),
  text: z.string(),
  priority: z.number(),
  status: z.boolean(),
  /** the stored image's name under `/public/`, or null */
  mediaPath: z.string().nullable(),
  /** the image's name as it was sent, or null */
  mediaName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAnnouncement = z.infer<typeof ZAnnouncement>;

export const ZAnnouncementPage = z.object({
  records: z.array(ZAnnouncement),
  count: z.number(),
  hasMore: z.boolean(),
});
export type TAnnouncementPage = z.infer<typeof ZAnnouncementPage>;

/**
 * `company-announcement` (the ancestor's name, kept): `create` / `update` carry the record; `delete` carries the
 * id, also when an announcement is made inactive (company users see only active ones).
 */
export type TAnnouncementEvent =
  | { action: 'create' | 'update'; record: TAnnouncement }
  | { action: 'delete'; id: number };
