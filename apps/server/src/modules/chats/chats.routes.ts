import type { FastifyInstance } from 'fastify';
import { emptyListRoute } from '../../http/empty-list';

/**
 * Internal chat (spec 2 §7) as far as it is built: the list the side menu and the top bar's popover read on every
 * screen (`{records, hasMore}`, spec 1 §7), empty until the management issue adds chats.
 */
export const chatsRoutes = (app: FastifyInstance) =>
  emptyListRoute(app, {
    path: '/api/chats',
    key: 'records',
    tag: 'chats',
    decl: { auth: 'user', plan: 'useInternalChat' },
  });
