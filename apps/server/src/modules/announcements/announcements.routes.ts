import type { FastifyInstance } from 'fastify';
import { emptyListRoute } from '../../http/empty-list';

/**
 * Announcements (spec 2 §7) as far as they are built: the list the top bar's popover reads on every screen
 * (`{records, hasMore}`, spec 1 §7), empty until the management issue adds announcements.
 */
export const announcementsRoutes = (app: FastifyInstance) =>
  emptyListRoute(app, { path: '/api/announcements', key: 'records', tag: 'announcements', decl: { auth: 'user' } });
