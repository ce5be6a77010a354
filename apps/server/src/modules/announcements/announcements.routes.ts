import { ZListQuery } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';

/**
 * Announcements (spec 2 §7), as far as they are built: the list the top bar's popover reads on every screen
 * (`{records, hasMore}`, spec 1 §7), empty until the management issue adds announcements and replaces it.
 */
export const announcementsRoutes = (app: FastifyInstance) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/announcements',
    {
      config: route({ auth: 'user' }),
      schema: {
        tags: ['announcements'],
        querystring: ZListQuery,
        response: {
          200: z.object({
            records: z.array(z.object({ id: z.number(), title: z.string() })),
            count: z.number(),
            hasMore: z.boolean(),
          }),
        },
      },
    },
    () => ({ records: [], count: 0, hasMore: false }),
  );
};
