import { ZListQuery } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';

/**
 * Queue integrations (spec 3 §7), as far as they are built: the list the connection and queue dialogs read,
 * empty until the automation issue adds integrations (and replaces this list with the company's own).
 */
export const queueIntegrationsRoutes = (app: FastifyInstance) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/queueIntegration',
    {
      config: route({ auth: 'user' }),
      schema: {
        tags: ['queue integrations'],
        querystring: ZListQuery,
        response: {
          200: z.object({
            queueIntegrations: z.array(z.object({ id: z.number(), name: z.string() })),
            count: z.number(),
            hasMore: z.boolean(),
          }),
        },
      },
    },
    () => ({ queueIntegrations: [], count: 0, hasMore: false }),
  );
};
