import { z } from 'zod';
import { V, zName } from './common.js';

export const ZHelpBody = z.object({
  title: zName(2, 100),
  description: z.string().trim().max(2000, V.tooLong).default(''),
  /** the video code (e.g. a YouTube id) */
  video: z.string().trim().max(200, V.tooLong).default(''),
});
export type THelpBody = z.infer<typeof ZHelpBody>;

export const ZHelp = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  video: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type THelp = z.infer<typeof ZHelp>;
