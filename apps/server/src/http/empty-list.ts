import { ZListQuery } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route, type TRouteDecl } from './declare';

/**
 * A list that screens (Zelo's and the ancestor's) already read before its feature is built: `GET path`
 * answers the spec's list shape, `{[key]: [], count: 0, hasMore: false}`, to the callers `decl` allows.
 * The issue that builds the feature replaces it with the company's own list.
 */
export const emptyListRoute = (
  app: FastifyInstance,
  opts: { path: string; key: string; tag: string; decl: TRouteDecl },
) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    opts.path,
    {
      config: route(opts.decl),
      schema: {
        tags: [opts.tag],
        querystring: ZListQuery,
        response: {
          200: z.object({
            [opts.key]: z.array(z.object({ id: z.number() })),
            count: z.number(),
            hasMore: z.boolean(),
          }),
        },
      },
    },
    () => ({ [opts.key]: [], count: 0, hasMore: false }),
  );
};
