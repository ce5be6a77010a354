import { ZListQuery } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';

/**
 * Internal chat (spec 2 §7), as far as it is built: the list the side menu and the top bar's popover read on
 * every screen (`{records, hasMore}`, spec 1 §7), empty until the management issue adds chats and replaces it.
 */
export const chatsRoutes = (app: FastifyInstance) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/chats',
    {
      config: route({ auth: 'user', plan: 'useInternalChat' }),
      schema: {
        tags: ['chats'],
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
