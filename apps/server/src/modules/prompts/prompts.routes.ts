import { ZListQuery } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';

/**
 * Prompts (spec 3 §7), as far as they are built: the list the connection and queue dialogs read, empty until
 * the automation issue adds prompts (and replaces this list with the company's own).
 */
export const promptsRoutes = (app: FastifyInstance) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/prompt',
    {
      config: route({ auth: 'user' }),
      schema: {
        tags: ['prompts'],
        querystring: ZListQuery,
        response: {
          200: z.object({
            prompts: z.array(z.object({ id: z.number(), name: z.string() })),
            count: z.number(),
            hasMore: z.boolean(),
          }),
        },
      },
    },
    () => ({ prompts: [], count: 0, hasMore: false }),
  );
};
